//! What the model writes, from its current weights. On the text: about 200 characters sampled
//! one at a time from a prompt (the reader's, or a fixed one: a speaker's name for the plays,
//! the start of the held-out tail for a reader's text), each from the softmax of the logits at the temperature
//! (the likeliest character at 0), seeded. On the copy task: the first held-out examples of
//! the probe batch, the string and the stack's copy of it, its wrong symbols marked.
//!
//! Sampling runs a twin of the stack built for one sequence (`tokens` = the context), with the
//! trained weights copied in: a character costs one pass over C positions, not over the batch.

use crate::step::train::Trainer;
use crate::tasks::corpus::{text_of, Corpus};
use crate::tasks::task::symbol_task;
use ablation_core::config::{Config, MaskKind, TaskKind};
use ablation_core::model::batch::Batch;
use ablation_core::model::loss::argmax_row;
use ablation_core::model::rng::{Rng, Stream};
use ablation_core::model::stack::Stack;
use nalgebra::DMatrix;

/// The text the plays' sample starts from: a speaker's name, as the plays print them.
pub const PROMPT: &str = "OTHELLO.\n";
pub use ablation_core::config::{MAX_PROMPT_CHARS, MAX_WRITE_CHARS, SAMPLE_CHARS};

/// What to write from: a beginning and how many characters to continue it by.
#[derive(Clone, Debug, PartialEq)]
pub struct Prompt {
    pub text: String,
    pub chars: usize,
}

impl Prompt {
    /// The fixed prompt of `corpus`: the plays' speaker, or the first characters of a reader's
    /// text's held-out tail up to a line's end (at most 24), `SAMPLE_CHARS` on.
    pub fn default_for(corpus: &Corpus) -> Prompt {
        let text = match corpus.id {
            ablation_core::config::TextId::Plays => PROMPT.to_string(),
            _ => {
                let tail: Vec<u32> = corpus.held_out().iter().take(24).map(|&i| u32::from(i)).collect();
                let start = corpus.decode(&tail);
                let line = start.find('\n').map_or(start.as_str(), |n| &start[..=n]);
                line.chars().filter(|&c| c != crate::tasks::corpus::UNKNOWN).collect()
            }
        };
        Prompt { text, chars: SAMPLE_CHARS }
    }

    /// A reader's prompt, checked: its length and the characters asked for, in words if wrong.
    pub fn reader(text: &str, chars: usize) -> Result<Prompt, String> {
        let n = text.chars().count();
        if n > MAX_PROMPT_CHARS {
            return Err(format!("the prompt has {n} characters; at most {MAX_PROMPT_CHARS} are taken"));
        }
        if !(1..=MAX_WRITE_CHARS).contains(&chars) {
            return Err(format!("{chars} characters to write: from 1 to {MAX_WRITE_CHARS}"));
        }
        Ok(Prompt { text: text.to_string(), chars })
    }
}
/// Held-out copy examples shown.
pub const COPY_EXAMPLES: usize = 3;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Writing {
    /// The step of the weights that wrote it.
    pub step: usize,
    pub text: String,
    /// The first characters of `text` that the model was given, not wrote.
    pub given: usize,
    /// Positions (in characters) of `text` that are wrong: the copy task's mistakes.
    pub wrong: Vec<u32>,
    /// The prompt's characters that are not in the text's vocabulary, each once (they became
    /// the unknown symbol, or were left out if the text has none).
    pub outside: Vec<char>,
}

/// One token from a row of logits: the likeliest at temperature 0, else drawn from
/// `softmax(logits / temperature)` with one uniform number of `rng` (in f64, max subtracted).
pub fn sample_token(logits: &DMatrix<f32>, row: usize, temperature: f64, rng: &mut Rng) -> u32 {
    if temperature <= 0.0 {
        return argmax_row(logits, row);
    }
    let v = logits.ncols();
    let max = (0..v).map(|c| f64::from(logits[(row, c)])).fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> =
        (0..v).map(|c| libm::exp((f64::from(logits[(row, c)]) - max) / temperature)).collect();
    let total: f64 = weights.iter().sum();
    let mut u = rng.uniform() * total;
    for (c, w) in weights.iter().enumerate() {
        if u < *w {
            return c as u32;
        }
        u -= w;
    }
    (v - 1) as u32
}

/// The one-sequence twin of a stack of `config`, for sampling.
/// It writes with the mask on whatever the stack trained with: when it writes, the future is
/// not there to see (a stack trained without the mask shows here what it learned to do without it).
pub fn twin_config(config: &Config) -> Config {
    Config { tokens: config.sequence(), context: config.sequence(), mask: MaskKind::Causal, ..config.clone() }
}

/// The sampling stack, cached between samples (rebuilt when the configuration changes).
pub type Twin = Option<(Config, Stack<f32>)>;

/// What `trainer`'s stack writes now, at once. `twin` caches the sampling stack. The copy
/// task's examples come from the probe batch, in one forward pass; the teacher writes nothing.
pub fn write(trainer: &mut Trainer<f32>, twin: &mut Twin, prompt: Option<&Prompt>) -> Option<Writing> {
    match trainer.config.task {
        TaskKind::Teacher => None,
        TaskKind::Text => {
            let mut sampling = Sampling::begin(trainer, twin, prompt);
            Some(loop {
                if let Some(w) = sampling.advance(twin, SAMPLE_CHARS) {
                    break w;
                }
            })
        }
        TaskKind::Copy | TaskKind::Induction | TaskKind::Reverse => {
            // with the mask on, as the text's sample: a stack trained without it may not read its answer
            let unmasked = trainer.config.mask == MaskKind::None;
            trainer.stack.set_causal(true);
            trainer.probe_forward_skipping(&[]);
            let written = copy_examples(trainer);
            trainer.stack.set_causal(!unmasked);
            // the last pass stays the probe's, as the panels read it
            if unmasked {
                trainer.probe_forward_skipping(&[]);
            }
            Some(written)
        }
    }
}

/// A text sample being written, a few characters at a time (at depth 96 and width 128 a
/// whole sample takes seconds: the worker writes it between its training slices). The twin
/// holds the weights of the step it began at until it is done.
pub struct Sampling {
    corpus: std::sync::Arc<Corpus>,
    ids: Vec<u32>,
    given: usize,
    /// Characters to write after the prompt.
    chars: usize,
    outside: Vec<char>,
    rng: Rng,
    step: usize,
    window: Vec<u32>,
    temperature: f64,
}

impl Sampling {
    /// Starts a sample of `trainer`'s stack as it is now, from `prompt` (or the text's own):
    /// its weights go into the twin.
    pub fn begin(trainer: &mut Trainer<f32>, twin: &mut Twin, prompt: Option<&Prompt>) -> Sampling {
        let config = twin_config(&trainer.config);
        if twin.as_ref().is_none_or(|(c, _)| *c != config) {
            // its weights are copied in just below: none drawn for it
            *twin = Some((config.clone(), Stack::unweighted(&config)));
        }
        let (_, stack) = twin.as_mut().expect("just made");
        stack.load_weights(&trainer.weights()).expect("the twin has the stack's parameters");
        let corpus = text_of(&trainer.config);
        let prompt = prompt.cloned().unwrap_or_else(|| Prompt::default_for(&corpus));
        let (ids, outside) = corpus.encode(&prompt.text);
        Sampling {
            corpus,
            given: ids.len(),
            ids,
            chars: prompt.chars,
            outside,
            rng: Rng::new(config.seed, Stream::Sample),
            step: trainer.step,
            window: vec![0u32; config.sequence()],
            temperature: config.temperature,
        }
    }

    /// What is written so far (the prompt and the characters sampled after it).
    pub fn so_far(&self) -> Writing {
        Writing {
            step: self.step,
            text: self.corpus.decode(&self.ids),
            given: self.given,
            wrong: Vec::new(),
            outside: self.outside.clone(),
        }
    }

    /// Samples up to `chars` more characters with the twin `begin` filled; the sample once it
    /// has as many as the prompt asked for. An empty prompt starts from the text's first
    /// character's place with nothing seen: the first character is drawn from the stack's
    /// prediction after the first character of the sequence, the id 0.
    pub fn advance(&mut self, twin: &mut Twin, chars: usize) -> Option<Writing> {
        let (_, stack) = twin.as_mut().expect("a sampling's twin");
        let c = self.window.len();
        for _ in 0..chars.max(1) {
            if self.ids.len() - self.given >= self.chars {
                break;
            }
            if self.ids.is_empty() {
                // nothing given: begin from the id 0 as if it were given, and write after it
                self.ids.push(0);
                self.given = 1;
            }
            // the last C ids, from position 0; later positions are padding the causal mask ignores
            let seen = &self.ids[self.ids.len().saturating_sub(c)..];
            self.window[..seen.len()].copy_from_slice(seen);
            stack.forward_ids(&self.window);
            let next = sample_token(stack.prediction(), seen.len() - 1, self.temperature, &mut self.rng);
            self.ids.push(next);
        }
        (self.ids.len() - self.given >= self.chars).then(|| self.so_far())
    }
}

/// A task of symbols' held-out examples (copy, induction), read from the last pass, which must
/// be the probe batch's (as `Snapshot::take` leaves it); `write` makes that pass first. An
/// induction example's padding is left out.
pub fn copy_examples(trainer: &Trainer<f32>) -> Writing {
    let task = symbol_task(&trainer.config).expect("a task of symbols");
    let Batch::Tokens(probe) = trainer.probe_batch() else {
        unreachable!("a task of symbols' probe is tokens")
    };
    let logits = trainer.stack.prediction();
    let (c, mut text, mut wrong) = (trainer.config.sequence(), String::new(), Vec::new());
    for e in 0..COPY_EXAMPLES.min(trainer.config.sequences()) {
        if e > 0 {
            text.push('\n');
        }
        // the string and the separator as given, then what the stack predicts for each copied symbol
        let rows = e * c..(e + 1) * c;
        let first = rows.clone().find(|&t| probe.is_scored(t)).unwrap_or(rows.end);
        for t in rows.start..=first.min(rows.end - 1) {
            let given = task.char_of(probe.ids[t]);
            if given != '·' {
                text.push(given);
            }
        }
        for t in first..rows.end {
            let guess = argmax_row(logits, t);
            if guess != probe.next[t] {
                wrong.push(text.chars().count() as u32);
            }
            text.push(task.char_of(guess));
        }
    }
    Writing { step: trainer.step, text, given: 0, wrong, outside: Vec::new() }
}
