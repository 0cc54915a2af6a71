//! A choice's one list: each option's word (what a URL, an attribute or a flag carries), its
//! variant and its label (what the page's menu shows), in the menu's order. Parsing, the text
//! of a value, the schema, the reference and the wire's index all come from it, so a choice is
//! written once (as TensorFlow Playground's `state.ts` maps word ↔ value once).

/// `(word, variant, label)` for each option, in order.
pub struct Options<T: 'static>(pub &'static [(&'static str, T, &'static str)]);

impl<T: Copy + PartialEq> Options<T> {
    /// The option's place in the list (the wire's index). Every variant is listed
    /// (`tests::every_variant_is_listed_once`).
    pub fn index(&self, variant: T) -> usize {
        self.0.iter().position(|o| o.1 == variant).expect("every variant is listed")
    }

    /// The variant at `index`, which the table has checked is in range.
    pub fn variant(&self, index: usize) -> T {
        self.0[index].1
    }

    pub fn word(&self, variant: T) -> &'static str {
        self.0[self.index(variant)].0
    }

    pub fn label(&self, variant: T) -> &'static str {
        self.0[self.index(variant)].2
    }

    pub fn variants(&self) -> impl Iterator<Item = T> + '_ {
        self.0.iter().map(|o| o.1)
    }
}

/// The words and labels of a choice without its variants' type, for the parameter table.
pub trait Words: Sync {
    fn count(&self) -> usize;
    fn word_at(&self, index: usize) -> &'static str;
    fn label_at(&self, index: usize) -> &'static str;
}

impl<T: Sync> Words for Options<T> {
    fn count(&self) -> usize {
        self.0.len()
    }
    fn word_at(&self, index: usize) -> &'static str {
        self.0[index].0
    }
    fn label_at(&self, index: usize) -> &'static str {
        self.0[index].2
    }
}

impl dyn Words {
    pub fn words(&self) -> impl Iterator<Item = &'static str> + '_ {
        (0..self.count()).map(|i| self.word_at(i))
    }

    pub fn labels(&self) -> impl Iterator<Item = &'static str> + '_ {
        (0..self.count()).map(|i| self.label_at(i))
    }

    /// The index of `word` (already lower-cased), if it is one of the words.
    pub fn position(&self, word: &str) -> Option<usize> {
        self.words().position(|w| w == word)
    }

    /// The menu shows other text than the words (the reference then lists both).
    pub fn has_own_labels(&self) -> bool {
        self.words().ne(self.labels())
    }

    /// A switch: exactly `on` and `off` (a Python bool in the notebook).
    pub fn is_on_off(&self) -> bool {
        self.words().eq(["on", "off"])
    }
}

impl std::fmt::Debug for dyn Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.words()).finish()
    }
}

/// A choice enum's list, as an associated constant, so `c.norm.word()` reads as it says.
pub trait Choice: Copy + PartialEq + Sync + 'static {
    const OPTIONS: Options<Self>;

    fn word(self) -> &'static str {
        Self::OPTIONS.word(self)
    }

    fn label(self) -> &'static str {
        Self::OPTIONS.label(self)
    }
}

/// A switch's options: the word, and the page's label.
pub const ON_OFF: Options<bool> = Options(&[("on", true, "on"), ("off", false, "off")]);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        LayerView, MaskKind, NormKind, NormPlacement, OptimizerKind, ParamKind, Schedule, StackKind,
        SublayerKind, TaskKind, TuneGrid, Until, PARAMS,
    };

    fn listed_once<T: Choice + std::fmt::Debug>(all: &[T]) {
        for &v in all {
            assert_eq!(T::OPTIONS.variants().filter(|&o| o == v).count(), 1, "{v:?}");
        }
        assert_eq!(T::OPTIONS.0.len(), all.len());
    }

    #[test]
    fn every_variant_is_listed_once() {
        listed_once(&[
            NormPlacement::Off,
            NormPlacement::Pre,
            NormPlacement::Post,
            NormPlacement::Sandwich,
            NormPlacement::DeepNorm,
        ]);
        listed_once(&[NormKind::LayerNorm, NormKind::RmsNorm]);
        listed_once(&[SublayerKind::Mlp, SublayerKind::Ffn, SublayerKind::Attention, SublayerKind::Block]);
        listed_once(&[
            TaskKind::Teacher,
            TaskKind::Text,
            TaskKind::Copy,
            TaskKind::Induction,
            TaskKind::Reverse,
        ]);
        listed_once(&[StackKind::Decoder, StackKind::EncoderDecoder]);
        listed_once(&[MaskKind::Causal, MaskKind::None]);
        listed_once(&[OptimizerKind::Sgd, OptimizerKind::Adam]);
        listed_once(&[Schedule::Constant, Schedule::InverseSqrt, Schedule::Cosine]);
        listed_once(&[LayerView::Activations, LayerView::Weights, LayerView::Matrices]);
        listed_once(&[TuneGrid::Lr, TuneGrid::Recipe]);
        listed_once(&[Until::Steps, Until::Plateau]);
        // every enum with a word list is above: one listed_once per `impl Choice for`
        let choices = include_str!("settings.rs").matches("\nimpl Choice for ").count();
        let listed = include_str!("choice.rs").matches(concat!("listed_", "once(&[")).count();
        assert_eq!(listed, choices, "an enum with a word list (impl Choice) is missing from this test");
    }

    #[test]
    fn words_are_distinct_lower_case_and_labelled() {
        for p in PARAMS {
            if let ParamKind::Choice(list) = p.kind {
                let words: Vec<_> = list.words().collect();
                for (i, w) in words.iter().enumerate() {
                    // the parser lower-cases what it reads
                    assert_eq!(*w, w.to_ascii_lowercase(), "{}", p.name);
                    assert!(!words[..i].contains(w), "{}: {w} twice", p.name);
                    assert!(!list.label_at(i).is_empty(), "{}", p.name);
                }
            }
        }
    }
}
