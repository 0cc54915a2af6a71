//! The small binary encoding that frames and the lab's results cross `postMessage` in:
//! little-endian numbers and length-prefixed lists, read back with every length checked
//! against the bytes left, so that truncated or corrupt input is an error, never a panic.
//!
//! The lists of numbers are copied as their bytes (`bytemuck`; on a big-endian machine each
//! number's bytes then reversed): one copy, as quick built for size, as this crate and the
//! frame's encoder and decoder are in the page, as at full speed (a loop number by number was
//! 18× slower so; BENCHMARKS.md, "Issue 69, third sitting").

use bytemuck::Pod;

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
    pub fn f64s(&mut self, xs: &[f64]) {
        self.u64(xs.len() as u64);
        put_le(xs, &mut self.0);
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
    pub fn f64s(&mut self) -> Result<Vec<f64>, String> {
        self.list()
    }

    /// A list of numbers `put_le` wrote, its length checked against the bytes left.
    fn list<T: Pod>(&mut self) -> Result<Vec<T>, String> {
        let size = std::mem::size_of::<T>();
        let n = self.len(size)?;
        let mut out = vec![T::zeroed(); n];
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut out);
        bytes.copy_from_slice(&self.bytes[self.at..self.at + size * n]);
        if cfg!(target_endian = "big") {
            bytes.chunks_exact_mut(size).for_each(<[u8]>::reverse);
        }
        self.at += size * n;
        Ok(out)
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
    pub fn f32s(&mut self, xs: &[f32]) {
        self.u64(xs.len() as u64);
        put_le(xs, &mut self.0);
    }
}

impl Reader<'_> {
    pub fn f32s(&mut self) -> Result<Vec<f32>, String> {
        self.list()
    }
}

/// `xs`' numbers appended to `out`, each little-endian.
fn put_le<T: Pod>(xs: &[T], out: &mut Vec<u8>) {
    let start = out.len();
    out.extend_from_slice(bytemuck::cast_slice(xs));
    if cfg!(target_endian = "big") {
        out[start..].chunks_exact_mut(std::mem::size_of::<T>()).for_each(<[u8]>::reverse);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_little_endian_numbers_after_their_length() {
        let (xs, ys) = ([1.5f32, -0.0, f32::NAN, 3e-40], [2.25f64, -1e300]);
        let mut w = Writer(Vec::new());
        w.f32s(&xs);
        w.f64s(&ys);
        let mut expected = Vec::new();
        expected.extend_from_slice(&4u64.to_le_bytes());
        xs.iter().for_each(|x| expected.extend_from_slice(&x.to_le_bytes()));
        expected.extend_from_slice(&2u64.to_le_bytes());
        ys.iter().for_each(|y| expected.extend_from_slice(&y.to_le_bytes()));
        assert_eq!(w.0, expected);
        let mut r = Reader { bytes: &w.0, at: 0 };
        let back = r.f32s().unwrap();
        assert_eq!(back.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), xs.map(f32::to_bits));
        assert_eq!(r.f64s().unwrap(), ys);
        r.done().unwrap();
        // a list longer than what is left is an error, never a panic
        let mut r = Reader { bytes: &w.0[..w.0.len() - 1], at: 8 + 16 };
        assert!(r.f64s().is_err(), "read {:?}", r.at);
    }
}
