//! A text to learn, for the next-character task: its characters as the vocabulary, the text as
//! their ids, the last tenth held out, and the floors a model is measured against, computed
//! from the training part, never typed in: the unigram entropy (what knowing only how often
//! each character comes gives) and the bigram entropy (what knowing the character before
//! gives: the best a stack that cannot move information between positions can do).
//!
//! The text is the shipped plays or a reader's own (`TextId`). A reader's text is checked here,
//! in whichever worker holds it: UTF-8, not a web page, not a binary file, long enough to hold
//! out a window of the longest context and no longer than `MAX_TEXT_BYTES`. Its vocabulary is
//! its `MAX_KEPT_CHARS` most frequent characters and, if it has more, one unknown symbol for
//! the rest.
use ablation_core::config::sha256;
use ablation_core::config::{TextId, MAX_KEPT_CHARS, MAX_TEXT_BYTES, MIN_TEXT_CHARS, TEXT_VOCAB};
use ablation_core::model::batch::Tokens;
use ablation_core::model::rng::Rng;
use ablation_core::order::sort_by_key;
use ablation_words::Said;
use std::sync::{Arc, Mutex, OnceLock};

/// The token for the characters a text's vocabulary does not keep (shown as U+FFFD).
pub const UNKNOWN: char = '\u{FFFD}';

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
    let mut corpus = Corpus::new(std::str::from_utf8(bytes).map_err(|_| "the text is not UTF-8")?)
        .map_err(|e| e.to_string())?;
    assert_eq!(corpus.vocab.len(), TEXT_VOCAB, "the shipped text's characters");
    corpus.id = TextId::Plays;
    Ok(corpus)
}

static PLAYS: OnceLock<Arc<Corpus>> = OnceLock::new();
/// The readers' texts this program holds, the latest last (at most `KEPT_TEXTS`).
static OWN: Mutex<Vec<Arc<Corpus>>> = Mutex::new(Vec::new());
/// Readers' texts held at once: the one in use and the one before (a pinned run's, say).
const KEPT_TEXTS: usize = 2;

/// Makes the shipped text, from its fetched bytes, the one the text task trains on; an error
/// in words (and nothing installed) if they are not the shipped ones. Every copy that passes
/// the checks is the same text, so installing again changes nothing.
pub fn install_text(bytes: &[u8]) -> Result<(), String> {
    if PLAYS.get().is_none() {
        let corpus = shakespeare(bytes)?;
        let _ = PLAYS.set(Arc::new(corpus));
    }
    Ok(())
}

/// Checks a reader's text and holds it (replacing the oldest held beyond `KEPT_TEXTS`): its
/// corpus, or an error in words and nothing held.
pub fn install_own(bytes: &[u8]) -> Result<Arc<Corpus>, Said> {
    let corpus = Arc::new(Corpus::from_bytes(bytes)?);
    let mut own = OWN.lock().unwrap_or_else(|e| e.into_inner());
    own.retain(|c| c.id != corpus.id);
    own.push(corpus.clone());
    let excess = own.len().saturating_sub(KEPT_TEXTS);
    own.drain(..excess);
    Ok(corpus)
}

/// The shipped text, if it is there: in the browser once `install_text` has had it; natively
/// it is read into the program (the wasm never holds it).
pub fn text() -> Option<Arc<Corpus>> {
    #[cfg(not(target_arch = "wasm32"))]
    if PLAYS.get().is_none() {
        install_text(include_bytes!("../../../../www/data/shakespeare.txt")).expect("the shipped text");
    }
    PLAYS.get().cloned()
}

/// The text `id` names, if this program holds it.
pub fn corpus(id: TextId) -> Option<Arc<Corpus>> {
    match id {
        TextId::Plays => text(),
        own => OWN.lock().unwrap_or_else(|e| e.into_inner()).iter().find(|c| c.id == own).cloned(),
    }
}

/// The text of a configuration on the text task, which a caller has made sure is here.
pub fn text_of(config: &ablation_core::config::Config) -> Arc<Corpus> {
    corpus(config.text).expect("the text task needs its text: install it first")
}

/// The share of the text held out, from its end.
pub const HELD_OUT: f64 = 0.1;
/// The longest window a batch takes: the longest context and the next character.
const LONGEST_WINDOW: usize = 257;

#[derive(Clone, Debug, PartialEq)]
pub struct Corpus {
    /// Which text this is.
    pub id: TextId,
    /// The SHA-256 of its bytes.
    pub sha256: [u8; 32],
    /// Its characters.
    pub chars: usize,
    /// The kept characters, sorted (so the ids do not depend on where the text starts), and
    /// after them the unknown symbol if some were not kept.
    pub vocab: Vec<char>,
    /// The unknown symbol's id, if the text has more than `MAX_KEPT_CHARS` distinct characters.
    pub unknown: Option<u8>,
    /// The characters of the text that became the unknown symbol.
    pub replaced: usize,
    /// The text as ids into `vocab` (at most 256 of them: a byte each).
    pub ids: Vec<u8>,
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
fn count_floors(v: usize, train: &[u8]) -> Floors {
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

/// The `n` most frequent characters of `counts` (ties to the lower code point), in code-point
/// order. Each order is one number per character (no two alike): the `n` smallest keys chosen
/// one at a time (`n` is the vocabulary, a few dozen, however many characters a text has), then
/// those `n` sorted by code point with the one sort of short lists.
fn most_frequent(counts: &[(char, u64)], n: usize) -> Vec<char> {
    let rarity = |count: u64| u64::from(u32::MAX - count.min(u64::from(u32::MAX)) as u32);
    let mut keys: Vec<u64> = counts.iter().map(|&(c, count)| rarity(count) << 32 | u64::from(c)).collect();
    let n = n.min(keys.len());
    for i in 0..n {
        let smallest = (i..keys.len()).min_by_key(|&j| keys[j]).expect("a key left");
        keys.swap(i, smallest);
    }
    keys.truncate(n);
    let mut chars: Vec<u32> = keys.iter().map(|&key| key as u32).collect();
    sort_by_key(&mut chars, |&c| c);
    chars.into_iter().map(|c| char::from_u32(c).expect("a char's code")).collect()
}

/// How often each character comes: an array for the first 256 code points, a sorted list for
/// the rest (a 5 MB text is counted in one pass without hashing).
fn char_counts(text: &str) -> Vec<(char, u64)> {
    let mut low = [0u64; 256];
    let mut high: Vec<(char, u64)> = Vec::new();
    for c in text.chars() {
        if (c as u32) < 256 {
            low[c as usize] += 1;
        } else {
            match high.binary_search_by_key(&c, |&(h, _)| h) {
                Ok(i) => high[i].1 += 1,
                Err(i) => high.insert(i, (c, 1)),
            }
        }
    }
    let low = (0..256u32)
        .filter(|&c| low[c as usize] > 0)
        .map(|c| (char::from_u32(c).expect("below 256"), low[c as usize]));
    low.chain(high).collect()
}

/// "the text has 12 characters; at least 600 are needed".
fn short_text(chars: usize, needed: usize) -> Said {
    Said::new("text-error-short").arg("chars", chars.to_string()).arg("needed", needed.to_string())
}

/// What is wrong with `bytes` as a text to train on, in words (said in the reader's
/// language where it is shown), or the text.
fn checked_text(bytes: &[u8]) -> Result<&str, Said> {
    if bytes.is_empty() {
        return Err(Said::new("text-error-empty"));
    }
    if bytes.len() > MAX_TEXT_BYTES {
        return Err(Said::new("text-error-large")
            .arg("bytes", bytes.len().to_string())
            .arg("max", (MAX_TEXT_BYTES >> 20).to_string()));
    }
    if bytes.starts_with(b"%PDF") {
        return Err(Said::new("text-error-pdf"));
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|e| Said::new("text-error-utf8").arg("byte", e.valid_up_to().to_string()))?;
    if text.contains('\0') {
        return Err(Said::new("text-error-nul"));
    }
    let start = text.trim_start().get(..15).unwrap_or("").to_ascii_lowercase();
    if start.starts_with("<!doctype html") || start.starts_with("<html") {
        return Err(Said::new("text-error-html"));
    }
    Ok(text)
}

impl Corpus {
    /// A reader's text from its bytes, checked (`checked_text`, and at least `MIN_TEXT_CHARS`
    /// characters).
    pub fn from_bytes(bytes: &[u8]) -> Result<Corpus, Said> {
        let text = checked_text(bytes)?;
        let chars = text.chars().count();
        if chars < MIN_TEXT_CHARS {
            return Err(short_text(chars, MIN_TEXT_CHARS));
        }
        Corpus::new(text)
    }

    /// The corpus of `text`: an error in words if it is too short to train and hold out, or
    /// has fewer than two distinct characters.
    pub fn new(text: &str) -> Result<Corpus, Said> {
        let counts = char_counts(text);
        if counts.len() < 2 {
            return Err(Said::new("text-error-distinct"));
        }
        let unknown = (counts.len() > MAX_KEPT_CHARS).then_some(MAX_KEPT_CHARS as u8);
        let mut vocab: Vec<char> = match unknown {
            Some(_) => most_frequent(&counts, MAX_KEPT_CHARS),
            None => counts.iter().map(|&(c, _)| c).collect(),
        };
        let mut low = [u8::MAX; 256];
        for (i, &c) in vocab.iter().enumerate() {
            if (c as u32) < 256 {
                low[c as usize] = i as u8;
            }
        }
        let id_of = |c: char| -> Option<u8> {
            if (c as u32) < 256 {
                Some(low[c as usize]).filter(|&i| i != u8::MAX)
            } else {
                vocab.binary_search(&c).ok().map(|i| i as u8)
            }
        };
        let mut replaced = 0;
        let ids: Vec<u8> = text
            .chars()
            .map(|c| {
                id_of(c).unwrap_or_else(|| {
                    replaced += 1;
                    unknown.expect("every character is kept when there is no unknown symbol")
                })
            })
            .collect();
        if unknown.is_some() {
            vocab.push(UNKNOWN);
        }
        if ids.len() < 20 {
            return Err(short_text(ids.len(), 20));
        }
        let held_out =
            ((ids.len() as f64 * HELD_OUT).ceil() as usize).max(LONGEST_WINDOW.min(ids.len() / 2)).max(2);
        let held_out_from = ids.len() - held_out;
        let floors = count_floors(vocab.len(), &ids[..held_out_from]);
        let sha256 = sha256(text.as_bytes());
        let id = TextId::Own { sha256, chars: ids.len() as u64, vocab: vocab.len() as u16 };
        Ok(Corpus { id, sha256, chars: ids.len(), vocab, unknown, replaced, ids, held_out_from, floors })
    }

    pub fn train(&self) -> &[u8] {
        &self.ids[..self.held_out_from]
    }

    pub fn held_out(&self) -> &[u8] {
        &self.ids[self.held_out_from..]
    }

    /// The floors of the training text.
    pub fn floors(&self) -> Floors {
        self.floors
    }

    /// `count` windows of `context + 1` consecutive ids from `part`, starting where `rng` says:
    /// each window gives `context` inputs and, one position on, their next characters.
    pub fn windows(part: &[u8], context: usize, count: usize, rng: &mut Rng) -> Vec<u32> {
        let starts = part.len().saturating_sub(context + 1).max(1);
        let mut out = Vec::with_capacity(count * (context + 1));
        for _ in 0..count {
            let start = (rng.next_u64() % starts as u64) as usize;
            out.extend(part[start..(start + context + 1).min(part.len())].iter().map(|&i| u32::from(i)));
        }
        out
    }

    /// `sequences` windows of `context` positions from `part`, as a batch: each window's
    /// inputs and, one position on, their next characters, every position scored.
    pub fn batch(part: &[u8], context: usize, sequences: usize, rng: &mut Rng) -> Tokens {
        let mut out = Tokens::default();
        Corpus::fill(part, context, sequences, rng, &mut out);
        out
    }

    /// `out` becomes `batch`'s batch, in the buffers it has (the same draws, window by window).
    pub fn fill(part: &[u8], context: usize, sequences: usize, rng: &mut Rng, out: &mut Tokens) {
        out.clear();
        let starts = part.len().saturating_sub(context + 1).max(1);
        for _ in 0..sequences {
            let start = (rng.next_u64() % starts as u64) as usize;
            let w = &part[start..(start + context + 1).min(part.len())];
            if w.len() == context + 1 {
                out.ids.extend(w[..context].iter().map(|&i| u32::from(i)));
                out.next.extend(w[1..].iter().map(|&i| u32::from(i)));
            }
        }
    }

    /// The text of some ids (for what the model writes).
    pub fn decode(&self, ids: &[u32]) -> String {
        ids.iter().map(|&i| self.vocab[i as usize]).collect()
    }

    /// The ids of `text`'s characters, and the characters not in the vocabulary, each once in
    /// the order they come: they become the unknown symbol if the text has one, else are left out.
    pub fn encode(&self, text: &str) -> (Vec<u32>, Vec<char>) {
        let kept = &self.vocab[..self.vocab.len() - usize::from(self.unknown.is_some())];
        let (mut ids, mut outside) = (Vec::new(), Vec::new());
        for c in text.chars() {
            match kept.binary_search(&c) {
                Ok(i) => ids.push(i as u32),
                Err(_) => {
                    if !outside.contains(&c) {
                        outside.push(c);
                    }
                    ids.extend(self.unknown.map(u32::from));
                }
            }
        }
        (ids, outside)
    }

    /// The ids of the text as numbers (the tests' and the floors' checks read them so).
    pub fn ids_u32(&self) -> Vec<u32> {
        self.ids.iter().map(|&i| u32::from(i)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `n` most frequent by their definition: by count, most first, ties to the lower code
    /// point, then in code-point order; on counts with many ties and more characters than `n`.
    #[test]
    fn the_most_frequent_characters_by_their_definition() {
        let mut state = 7u64;
        let counts: Vec<(char, u64)> = (0..600u32)
            .filter_map(|i| char::from_u32(0x20 + i * 37 % 5000))
            .map(|c| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (c, state >> 60)
            })
            .collect();
        for n in [0, 1, 5, 64, 599, 600, 700] {
            let mut by_count = counts.clone();
            by_count.sort_by_key(|&(c, count)| (std::cmp::Reverse(count), c));
            let mut expected: Vec<char> = by_count.iter().take(n).map(|&(c, _)| c).collect();
            expected.sort();
            assert_eq!(most_frequent(&counts, n), expected, "n {n}");
        }
    }
}
