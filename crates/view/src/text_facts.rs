//! What the page says of a reader's text, as plain data: measured where the text is held
//! (the live run's worker, `TextFacts::of`), carried to the page's thread as JSON
//! (`json` and `parse`), and said there in the reader's language (`words::text_words`).

use crate::json_parse::Parsed;
use crate::json_value::Json;
use ablation_core::config::TextId;

/// What the sentence about a reader's text says (`text_words`): measured where the text is
/// held (the live run's worker), said where the reader reads it, in the reader's language.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextFacts {
    pub id: TextId,
    pub chars: usize,
    pub held_out: usize,
    /// Its distinct characters, each a token (`replaced: None`), or the most frequent, one
    /// more token standing for the rest at `replaced` places.
    pub tokens: usize,
    pub replaced: Option<usize>,
    pub unigram: f64,
    pub bigram: f64,
}

impl TextFacts {
    pub fn of(text: &ablation_training::tasks::corpus::Corpus) -> TextFacts {
        let floors = text.floors();
        let (tokens, replaced) = match text.unknown {
            None => (text.vocab.len(), None),
            Some(_) => (text.vocab.len() - 1, Some(text.replaced)),
        };
        TextFacts {
            id: text.id,
            chars: text.chars,
            held_out: text.held_out().len(),
            tokens,
            replaced,
            unigram: floors.unigram,
            bigram: floors.bigram,
        }
    }

    /// As JSON, for the page's thread (`parse` reads it back).
    pub fn json(&self) -> Json {
        Json::Obj(vec![
            ("id", Json::Str(self.id.text())),
            ("chars", Json::Int(self.chars as i128)),
            ("held_out", Json::Int(self.held_out as i128)),
            ("tokens", Json::Int(self.tokens as i128)),
            ("replaced", self.replaced.map_or(Json::Null, |r| Json::Int(r as i128))),
            ("unigram", Json::Num(self.unigram)),
            ("bigram", Json::Num(self.bigram)),
        ])
    }

    pub fn parse(text: &str) -> Option<TextFacts> {
        let p = Parsed::parse(text).ok()?;
        let count = |key: &str| p.get(key)?.as_u64().map(|n| n as usize);
        let number = |key: &str| match p.get(key)? {
            Parsed::Num(n) => n.parse::<f64>().ok(),
            _ => None,
        };
        Some(TextFacts {
            id: TextId::parse(p.get("id")?.as_str()?)?,
            chars: count("chars")?,
            held_out: count("held_out")?,
            tokens: count("tokens")?,
            replaced: count("replaced"),
            unigram: number("unigram")?,
            bigram: number("bigram")?,
        })
    }
}
