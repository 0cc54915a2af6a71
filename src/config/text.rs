//! Which text the text task trains on: the three plays shipped with the page, or a text of the
//! reader's own, known by its SHA-256, its length in characters and the size of the vocabulary
//! built from it. A link carries this, not the text: the page it opens asks for the text and
//! refuses one with another hash. The vocabulary's size is here so that a configuration says
//! how large its stack is without the text at hand (the page's thread never holds a reader's text).

/// The most characters a text's vocabulary keeps (its most frequent ones), and one more
/// token, the unknown symbol, for all the others.
pub const MAX_KEPT_CHARS: usize = 255;
/// The fewest characters a text may have: its held-out tail must hold a window of the longest
/// context (256 positions and the next character), and its training part at least as many.
pub const MIN_TEXT_CHARS: usize = 600;
/// The most bytes a text may have (a 5 MB text trains; 8 MiB bounds each worker's copy).
pub const MAX_TEXT_BYTES: usize = 8 << 20;

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
                format!("{}.{chars}.{vocab}", crate::training::sha256::hex(sha256))
            }
        }
    }

    /// `text`'s form read back; None for anything else (or an impossible size).
    pub fn parse(t: &str) -> Option<TextId> {
        if t.eq_ignore_ascii_case(Self::PLAYS) {
            return Some(TextId::Plays);
        }
        let mut parts = t.split('.');
        let sha256 = crate::training::sha256::from_hex::<32>(parts.next()?)?;
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

    /// How a pin, a comparison or a sentence names the text: "the plays", or "the text
    /// 5565d98c55de (7656 characters)".
    pub fn label(&self) -> String {
        match self {
            TextId::Plays => "the plays".into(),
            TextId::Own { chars, .. } => {
                format!("the text {} ({chars} characters)", self.short().expect("a reader's text"))
            }
        }
    }

    /// The first 12 hexadecimal digits of the hash, for a label (none for the plays).
    pub fn short(&self) -> Option<String> {
        match self {
            TextId::Plays => None,
            TextId::Own { sha256, .. } => Some(crate::training::sha256::hex(&sha256[..6])),
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
}
