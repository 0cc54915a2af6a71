//! Which text the text task trains on: the three plays shipped with the page, or a text of the
//! reader's own, known by its SHA-256, its length in characters and the size of the vocabulary
//! built from it. A link carries this, not the text: the page it opens asks for the text and
//! refuses one with another hash. The vocabulary's size is here so that a configuration says
//! how large its stack is without the text at hand (the page's thread never holds a reader's text).
//! The digest is RustCrypto's `sha2`; its hexadecimal forms, and the limits of a reader's
//! prompt, are here too.

/// The most characters a text's vocabulary keeps (its most frequent ones), and one more
/// token, the unknown symbol, for all the others.
pub const MAX_KEPT_CHARS: usize = 255;
/// The fewest characters a text may have: its held-out tail must hold a window of the longest
/// context (256 positions and the next character), and its training part at least as many.
pub const MIN_TEXT_CHARS: usize = 600;
/// The most bytes a text may have (a 5 MB text trains; 8 MiB bounds each worker's copy).
pub const MAX_TEXT_BYTES: usize = 8 << 20;

/// Characters sampled after the prompt (the plays' sample, and a reader's prompt by default).
pub const SAMPLE_CHARS: usize = 200;
/// The most characters a reader may ask to be written after their prompt.
pub const MAX_WRITE_CHARS: usize = 2000;
/// The most characters of a reader's prompt (the stack reads the last `context` of them).
pub const MAX_PROMPT_CHARS: usize = 2000;

/// The SHA-256 digest of `bytes`.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).into()
}

/// Lower-case hexadecimal, as `sha256sum` prints it.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes of lower- or upper-case hexadecimal of exactly `N` bytes.
pub fn from_hex<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() != 2 * N || !text.is_ascii() {
        return None;
    }
    let mut out = [0u8; N];
    for (o, pair) in out.iter_mut().zip(text.as_bytes().chunks_exact(2)) {
        *o = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
    }
    Some(out)
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TextId {
    /// The shipped text, `www/data/shakespeare.txt`.
    #[default]
    Plays,
    /// A reader's text.
    Own { sha256: [u8; 32], chars: u64, vocab: u16 },
}

impl TextId {
    /// The word for the shipped text.
    pub const PLAYS: &'static str = "plays";

    /// `plays`, or the hash in hexadecimal, the characters and the vocabulary, dot-separated.
    pub fn text(&self) -> String {
        match self {
            TextId::Plays => Self::PLAYS.into(),
            TextId::Own { sha256, chars, vocab } => {
                format!("{}.{chars}.{vocab}", hex(sha256))
            }
        }
    }

    /// `text`'s form read back; None for anything else (or an impossible size).
    pub fn parse(t: &str) -> Option<TextId> {
        if t.eq_ignore_ascii_case(Self::PLAYS) {
            return Some(TextId::Plays);
        }
        let mut parts = t.split('.');
        let sha256 = from_hex::<32>(parts.next()?)?;
        let chars = parts.next()?.parse::<u64>().ok()?;
        let vocab = parts.next()?.parse::<u16>().ok()?;
        let id = TextId::Own { sha256, chars, vocab };
        (parts.next().is_none() && id.allowed()).then_some(id)
    }

    /// Sizes a text can have.
    pub fn allowed(&self) -> bool {
        match *self {
            TextId::Plays => true,
            TextId::Own { chars, vocab, .. } => {
                (MIN_TEXT_CHARS as u64..=MAX_TEXT_BYTES as u64).contains(&chars)
                    && (2..=MAX_KEPT_CHARS as u16 + 1).contains(&vocab)
            }
        }
    }

    /// Tokens of the stack's vocabulary.
    pub fn vocab(&self) -> usize {
        match self {
            TextId::Plays => super::TEXT_VOCAB,
            TextId::Own { vocab, .. } => usize::from(*vocab),
        }
    }

    /// The first 12 hexadecimal digits of the hash, for a label (none for the plays).
    pub fn short(&self) -> Option<String> {
        match self {
            TextId::Plays => None,
            TextId::Own { sha256, .. } => Some(hex(&sha256[..6])),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_id_reads_back_what_it_writes_and_refuses_the_rest() {
        let own = TextId::Own { sha256: [7; 32], chars: 1234, vocab: 40 };
        for id in [TextId::Plays, own] {
            assert_eq!(TextId::parse(&id.text()), Some(id), "{}", id.text());
        }
        let hex = "07".repeat(32);
        for bad in [
            "",
            "play",
            &format!("{hex}.1234"),
            &format!("{hex}.1234.40.1"),
            &format!("{hex}.10.40"),  // too short a text
            &format!("{hex}.1234.1"), // one character
            &format!("{hex}.1234.300"),
            &format!("{}.1234.40", "07".repeat(31)),
        ] {
            assert_eq!(TextId::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_standards_examples_and_a_million_as() {
        // FIPS 180-4's examples (csrc.nist.gov, SHA256.pdf and SHA2_Additional.pdf)
        let cases: [(&[u8], &str); 3] = [
            (b"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            (b"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(hex(&sha256(input)), expected, "sha256 of {:?}", String::from_utf8_lossy(input));
        }
        assert_eq!(
            hex(&sha256(&vec![b'a'; 1_000_000])),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        );
        // every length across the block boundaries pads into one block or two, as the standard says
        for n in 50..70 {
            let digest = sha256(&vec![b'x'; n]);
            assert_ne!(digest, sha256(&vec![b'x'; n + 1]), "lengths {n} and {}", n + 1);
        }
    }

    #[test]
    fn hex_round_trips_and_refuses_what_is_not_hex() {
        let d = sha256(b"abc");
        assert_eq!(from_hex::<32>(&hex(&d)), Some(d));
        assert_eq!(from_hex::<32>(&hex(&d).to_uppercase()), Some(d));
        assert_eq!(from_hex::<2>("zz00"), None);
        assert_eq!(from_hex::<2>("000"), None);
        assert_eq!(from_hex::<2>("é0"), None);
    }
}
