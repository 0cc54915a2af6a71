//! A small, strict JSON reader for what comes from outside: a weights file's header and the
//! configuration in its metadata. Numbers stay as their text (a seed of 20 digits or a learning
//! rate is read by the parameter table, exactly); nesting and sizes are bounded, so a hostile
//! header is an error in words, never a panic or a stack overflow.

#[derive(Clone, Debug, PartialEq)]
pub enum Parsed {
    Null,
    Bool(bool),
    /// A number, as written.
    Num(String),
    Str(String),
    Arr(Vec<Parsed>),
    Obj(Vec<(String, Parsed)>),
}

/// The deepest nesting read (a weights file's header nests three deep).
const MAX_DEPTH: usize = 16;

impl Parsed {
    /// `text` as one JSON value, or what is wrong with it and where.
    pub fn parse(text: &str) -> Result<Parsed, String> {
        let mut p = Parser { s: text.as_bytes(), at: 0 };
        let value = p.value(0)?;
        p.space();
        if p.at != p.s.len() {
            return Err(p.error("text after the JSON value"));
        }
        Ok(value)
    }

    /// An object's field.
    pub fn get(&self, key: &str) -> Option<&Parsed> {
        match self {
            Parsed::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Parsed::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A whole number that fits in a u64.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Parsed::Num(n) => n.parse().ok(),
            _ => None,
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> String {
        format!("{what} at byte {}", self.at)
    }

    fn space(&mut self) {
        while self.s.get(self.at).is_some_and(|b| b" \t\r\n".contains(b)) {
            self.at += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        self.space();
        let hit = self.s.get(self.at) == Some(&b);
        self.at += usize::from(hit);
        hit
    }

    fn word(&mut self, w: &str, v: Parsed) -> Result<Parsed, String> {
        if self.s[self.at..].starts_with(w.as_bytes()) {
            self.at += w.len();
            Ok(v)
        } else {
            Err(self.error("not JSON"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Parsed, String> {
        if depth > MAX_DEPTH {
            return Err(self.error("JSON nested too deeply"));
        }
        self.space();
        match self.s.get(self.at) {
            None => Err(self.error("the JSON ends early")),
            Some(b'n') => self.word("null", Parsed::Null),
            Some(b't') => self.word("true", Parsed::Bool(true)),
            Some(b'f') => self.word("false", Parsed::Bool(false)),
            Some(b'"') => self.string().map(Parsed::Str),
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                if !self.eat(b']') {
                    loop {
                        items.push(self.value(depth + 1)?);
                        if self.eat(b']') {
                            break;
                        }
                        if !self.eat(b',') {
                            return Err(self.error("expected , or ] in a list"));
                        }
                    }
                }
                Ok(Parsed::Arr(items))
            }
            Some(b'{') => {
                self.at += 1;
                let mut fields: Vec<(String, Parsed)> = Vec::new();
                if !self.eat(b'}') {
                    loop {
                        self.space();
                        if self.s.get(self.at) != Some(&b'"') {
                            return Err(self.error("expected a field's name"));
                        }
                        let key = self.string()?;
                        if !self.eat(b':') {
                            return Err(self.error("expected : after a field's name"));
                        }
                        if fields.iter().any(|(k, _)| *k == key) {
                            return Err(self.error(&format!("the field {key:?} twice")));
                        }
                        let value = self.value(depth + 1)?;
                        fields.push((key, value));
                        if self.eat(b'}') {
                            break;
                        }
                        if !self.eat(b',') {
                            return Err(self.error("expected , or } in an object"));
                        }
                    }
                }
                Ok(Parsed::Obj(fields))
            }
            Some(b'-' | b'0'..=b'9') => {
                let start = self.at;
                while self.s.get(self.at).is_some_and(|b| b"+-.eE0123456789".contains(b)) {
                    self.at += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.at]).expect("ASCII");
                if text.parse::<f64>().is_err() {
                    return Err(self.error("not a number"));
                }
                Ok(Parsed::Num(text.to_string()))
            }
            Some(_) => Err(self.error("not JSON")),
        }
    }

    /// A string, at its opening quote.
    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut out = Vec::new();
        loop {
            let Some(&b) = self.s.get(self.at) else { return Err(self.error("a string ends early")) };
            self.at += 1;
            match b {
                b'"' => break,
                b'\\' => {
                    let Some(&e) = self.s.get(self.at) else { return Err(self.error("a string ends early")) };
                    self.at += 1;
                    let c = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode()?,
                        _ => return Err(self.error("an unknown escape")),
                    };
                    out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                }
                b if b < 0x20 => return Err(self.error("a control character in a string")),
                b => out.push(b),
            }
        }
        String::from_utf8(out).map_err(|_| self.error("a string that is not UTF-8"))
    }

    /// The four hexadecimal digits after `\u` (and a low surrogate's after a high one).
    fn unicode(&mut self) -> Result<char, String> {
        let hex4 = |p: &mut Self| -> Result<u32, String> {
            let digits = p.s.get(p.at..p.at + 4).and_then(|d| std::str::from_utf8(d).ok());
            let n = digits
                .and_then(|d| u32::from_str_radix(d, 16).ok())
                .ok_or_else(|| p.error("a bad \\u escape"))?;
            p.at += 4;
            Ok(n)
        };
        let hi = hex4(self)?;
        let code = if (0xd800..0xdc00).contains(&hi) {
            if !self.s[self.at..].starts_with(b"\\u") {
                return Err(self.error("a lone surrogate"));
            }
            self.at += 2;
            let lo = hex4(self)?;
            if !(0xdc00..0xe000).contains(&lo) {
                return Err(self.error("a lone surrogate"));
            }
            0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
        } else {
            hi
        };
        char::from_u32(code).ok_or_else(|| self.error("a lone surrogate"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_the_writer_writes_and_refuses_the_rest() {
        let text = r#" {"a": [1, -2.5e3, true, null], "b": "x\"\\\u00e9\ud83d\ude00\n", "c": {}} "#;
        let v = Parsed::parse(text).unwrap();
        assert_eq!(
            v.get("a"),
            Some(&Parsed::Arr(vec![
                Parsed::Num("1".into()),
                Parsed::Num("-2.5e3".into()),
                Parsed::Bool(true),
                Parsed::Null
            ]))
        );
        assert_eq!(v.get("b").and_then(Parsed::as_str), Some("x\"\\é😀\n"));
        assert_eq!(v.get("c"), Some(&Parsed::Obj(vec![])));
        let written = crate::json::Json::Str("q\"\\\u{1}é".into()).to_string();
        assert_eq!(Parsed::parse(&written).unwrap(), Parsed::Str("q\"\\\u{1}é".into()));
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\" 1}",
            "{\"a\":1,\"a\":2}",
            "\"\\ud800\"",
            "\"\\x\"",
            "1 2",
            "nul",
            "-",
            "\"\u{1}\"",
            &"[".repeat(100),
        ] {
            assert!(Parsed::parse(bad).is_err(), "{bad:?} was read");
        }
    }
}
