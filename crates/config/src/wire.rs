//! The small binary encoding that frames and the lab's results cross `postMessage` in:
//! little-endian numbers and length-prefixed lists, read back with every length checked
//! against the bytes left, so that truncated or corrupt input is an error, never a panic.
//!
//! The lists of numbers are `#[inline]`, so that their loops are compiled where they are called:
//! this crate is built for size in the page, and the frame's decoder (the page's thread, every
//! frame) and its encoder are the training crate's, at full speed (a frame of the largest stack
//! decoded 18× slower through this crate's loops; BENCHMARKS.md, "Issue 69, third sitting").

pub struct Writer(pub Vec<u8>);

impl Writer {
    pub fn u32(&mut self, x: u32) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    pub fn u64(&mut self, x: u64) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    pub fn f64(&mut self, x: f64) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    #[inline]
    pub fn f64s(&mut self, xs: &[f64]) {
        self.u64(xs.len() as u64);
        for &x in xs {
            self.f64(x);
        }
    }
}

pub struct Reader<'a> {
    pub bytes: &'a [u8],
    pub at: usize,
}

impl Reader<'_> {
    pub fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let end = self.at.checked_add(N).filter(|&e| e <= self.bytes.len()).ok_or("a frame ended early")?;
        let out = self.bytes[self.at..end].try_into().expect("N bytes");
        self.at = end;
        Ok(out)
    }
    pub fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take()?))
    }
    pub fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take()?))
    }
    pub fn usize(&mut self) -> Result<usize, String> {
        usize::try_from(self.u64()?).map_err(|_| "a count out of range".into())
    }
    pub fn f64(&mut self) -> Result<f64, String> {
        Ok(f64::from_le_bytes(self.take()?))
    }
    /// A list length, checked against the bytes left (each item at least `item` bytes).
    pub fn len(&mut self, item: usize) -> Result<usize, String> {
        let n = self.usize()?;
        if n.checked_mul(item).is_none_or(|b| b > self.bytes.len() - self.at) {
            return Err("a frame's list is longer than the frame".into());
        }
        Ok(n)
    }
    #[inline]
    pub fn f64s(&mut self) -> Result<Vec<f64>, String> {
        let n = self.len(8)?;
        (0..n).map(|_| self.f64()).collect()
    }
}

impl Writer {
    pub fn opt_usize(&mut self, x: Option<usize>) {
        self.u64(x.map_or(u64::MAX, |s| s as u64));
    }
    pub fn bytes(&mut self, b: &[u8]) {
        self.u64(b.len() as u64);
        self.0.extend_from_slice(b);
    }
    pub fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
}

impl Reader<'_> {
    pub fn opt_usize(&mut self) -> Result<Option<usize>, String> {
        match self.u64()? {
            u64::MAX => Ok(None),
            s => Ok(Some(usize::try_from(s).map_err(|_| "a step out of range")?)),
        }
    }
    pub fn bytes(&mut self) -> Result<&[u8], String> {
        let n = self.len(1)?;
        let out = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(out)
    }
    pub fn str(&mut self) -> Result<String, String> {
        String::from_utf8(self.bytes()?.to_vec()).map_err(|_| "a text that is not UTF-8".into())
    }
    pub fn done(&self) -> Result<(), String> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err("trailing bytes".into())
        }
    }
}

impl Writer {
    #[inline]
    pub fn f32s(&mut self, xs: &[f32]) {
        self.u64(xs.len() as u64);
        self.0.reserve(4 * xs.len());
        for &x in xs {
            self.0.extend_from_slice(&x.to_le_bytes());
        }
    }
}

impl Reader<'_> {
    #[inline]
    pub fn f32s(&mut self) -> Result<Vec<f32>, String> {
        let n = self.len(4)?;
        let out = self.bytes[self.at..self.at + 4 * n]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect();
        self.at += 4 * n;
        Ok(out)
    }
}
