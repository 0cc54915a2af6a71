//! A text to learn, for the next-character task: its characters as the vocabulary, the text as
//! their ids, the last tenth held out, and the floors a model is measured against, computed
//! from the training part, never typed in: the unigram entropy (what knowing only how often
//! each character comes gives) and the bigram entropy (what knowing the character before
//! gives: the best a stack that cannot move information between positions can do).

use crate::config::TEXT_VOCAB;
use crate::model::batch::Tokens;
use crate::model::rng::Rng;
use std::sync::OnceLock;

/// The shipped text, `www/data/shakespeare.txt`: its length in bytes and its `fnv1a` hash, the
/// checks a fetched copy must pass.
pub const SHAKESPEARE_BYTES: usize = 431_888;
pub const SHAKESPEARE_FNV1A: u64 = 0xde5b_539c_619c_728e;

/// The shipped text from its bytes, if they are the shipped ones: else an error in words.
pub fn shakespeare(bytes: &[u8]) -> Result<Corpus, String> {
    if bytes.len() != SHAKESPEARE_BYTES || fnv1a(bytes) != SHAKESPEARE_FNV1A {
        return Err(format!(
            "the text is not the one shipped ({} bytes, expected {SHAKESPEARE_BYTES}, or another hash)",
            bytes.len()
        ));
    }
    let corpus = Corpus::new(std::str::from_utf8(bytes).map_err(|_| "the text is not UTF-8")?)?;
    assert_eq!(corpus.vocab.len(), TEXT_VOCAB, "the shipped text's characters");
    Ok(corpus)
}

static TEXT: OnceLock<Corpus> = OnceLock::new();

/// Makes the shipped text, from its fetched bytes, the one the text task trains on; an error
/// in words (and nothing installed) if they are not the shipped ones. Every copy that passes
/// the checks is the same text, so installing again changes nothing.
pub fn install_text(bytes: &[u8]) -> Result<(), String> {
    if TEXT.get().is_none() {
        let corpus = shakespeare(bytes)?;
        let _ = TEXT.set(corpus);
    }
    Ok(())
}

/// The text task's text, if it is there: in the browser once `install_text` has had it;
/// natively it is read into the program (the wasm never holds it).
pub fn text() -> Option<&'static Corpus> {
    #[cfg(not(target_arch = "wasm32"))]
    if TEXT.get().is_none() {
        install_text(include_bytes!("../../www/data/shakespeare.txt")).expect("the shipped text");
    }
    TEXT.get()
}

/// The text task's text, which a caller has made sure is there (`text()` is `Some`).
pub fn the_text() -> &'static Corpus {
    text().expect("the text task needs the text: install_text first")
}

/// The share of the text held out, from its end.
pub const HELD_OUT: f64 = 0.1;

#[derive(Clone, Debug, PartialEq)]
pub struct Corpus {
    /// The distinct characters, sorted (so the ids do not depend on where the text starts).
    pub vocab: Vec<char>,
    /// The text as ids into `vocab`.
    pub ids: Vec<u32>,
    /// `ids[..held_out_from]` is trained on, the rest held out.
    pub held_out_from: usize,
    /// The training text's floors, counted once (every frame of a text run names them).
    floors: Floors,
}

/// The entropies a model's loss is read against, in nats per character.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Floors {
    /// `H(X) = −Σ p(c) ln p(c)` over the training text's characters.
    pub unigram: f64,
    /// `H(X_t | X_{t−1}) = −Σ p(a, b) ln p(b | a)` over its adjacent pairs.
    pub bigram: f64,
}

/// FNV-1a, 64 bits: the check that a fetched text is the one shipped.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// `−Σ (n/N) ln (n/N)` over the nonzero counts.
fn entropy(counts: impl Iterator<Item = u64> + Clone) -> f64 {
    let total: u64 = counts.clone().sum();
    let total = total as f64;
    -counts.filter(|&n| n > 0).map(|n| n as f64 / total).map(|p| p * libm::log(p)).sum::<f64>()
}

/// The unigram and bigram entropies of `train`, ids into a vocabulary of `v`.
fn count_floors(v: usize, train: &[u32]) -> Floors {
    let mut unigram = vec![0u64; v];
    train.iter().for_each(|&c| unigram[c as usize] += 1);
    let mut pairs = vec![0u64; v * v];
    train.windows(2).for_each(|w| pairs[w[0] as usize * v + w[1] as usize] += 1);
    let mut firsts = vec![0u64; v];
    train.windows(2).for_each(|w| firsts[w[0] as usize] += 1);
    // H(X_t | X_{t−1}) = H(X_{t−1}, X_t) − H(X_{t−1}), over the same pairs
    let bigram = entropy(pairs.iter().copied()) - entropy(firsts.iter().copied());
    Floors { unigram: entropy(unigram.iter().copied()), bigram }
}

impl Corpus {
    /// The corpus of `text`: an error in words if it is too short to train and hold out, or
    /// has fewer than two distinct characters.
    pub fn new(text: &str) -> Result<Corpus, String> {
        let mut vocab: Vec<char> = text.chars().collect();
        vocab.sort_unstable();
        vocab.dedup();
        if vocab.len() < 2 {
            return Err("the text needs at least two distinct characters".into());
        }
        let ids: Vec<u32> =
            text.chars().map(|c| vocab.binary_search(&c).expect("in the vocabulary") as u32).collect();
        if ids.len() < 20 {
            return Err(format!("the text has {} characters; at least 20 are needed", ids.len()));
        }
        let held_out_from = ids.len() - ((ids.len() as f64 * HELD_OUT).ceil() as usize).max(2);
        let floors = count_floors(vocab.len(), &ids[..held_out_from]);
        Ok(Corpus { vocab, ids, held_out_from, floors })
    }

    pub fn train(&self) -> &[u32] {
        &self.ids[..self.held_out_from]
    }

    pub fn held_out(&self) -> &[u32] {
        &self.ids[self.held_out_from..]
    }

    /// The floors of the training text.
    pub fn floors(&self) -> Floors {
        self.floors
    }

    /// `count` windows of `context + 1` consecutive ids from `part`, starting where `rng` says:
    /// each window gives `context` inputs and, one position on, their next characters.
    pub fn windows(part: &[u32], context: usize, count: usize, rng: &mut Rng) -> Vec<u32> {
        let starts = part.len().saturating_sub(context + 1).max(1);
        let mut out = Vec::with_capacity(count * (context + 1));
        for _ in 0..count {
            let start = (rng.next_u64() % starts as u64) as usize;
            out.extend_from_slice(&part[start..(start + context + 1).min(part.len())]);
        }
        out
    }

    /// `sequences` windows of `context` positions from `part`, as a batch: each window's
    /// inputs and, one position on, their next characters, every position scored.
    pub fn batch(part: &[u32], context: usize, sequences: usize, rng: &mut Rng) -> Tokens {
        let mut out = Tokens::default();
        Corpus::fill(part, context, sequences, rng, &mut out);
        out
    }

    /// `out` becomes `batch`'s batch, in the buffers it has (the same draws, window by window).
    pub fn fill(part: &[u32], context: usize, sequences: usize, rng: &mut Rng, out: &mut Tokens) {
        out.clear();
        let starts = part.len().saturating_sub(context + 1).max(1);
        for _ in 0..sequences {
            let start = (rng.next_u64() % starts as u64) as usize;
            let w = &part[start..(start + context + 1).min(part.len())];
            if w.len() == context + 1 {
                out.ids.extend_from_slice(&w[..context]);
                out.next.extend_from_slice(&w[1..]);
            }
        }
    }

    /// The text of some ids (for what the model writes).
    pub fn decode(&self, ids: &[u32]) -> String {
        ids.iter().map(|&i| self.vocab[i as usize]).collect()
    }

    /// The ids of `text`'s characters that are in the vocabulary (others are skipped).
    pub fn encode(&self, text: &str) -> Vec<u32> {
        text.chars().filter_map(|c| self.vocab.binary_search(&c).ok()).map(|i| i as u32).collect()
    }
}
