//! The sequence tasks' own pieces, against their definitions: the embeddings, the unembedding
//! and the cross-entropy by central finite differences; the text's floors by counting; the
//! copy task's examples, seeded and with every answer determined by its prompt.

use ablation_playground::model::embedding::Embedding;
use ablation_playground::model::linear::Linear;
use ablation_playground::model::loss::{cross_entropy, cross_entropy_backward};
use ablation_playground::model::param::{Draw, Param, Params};
use ablation_playground::model::rng::{Rng, Stream};
use ablation_playground::training::tasks::copy_task::CopyTask;
use ablation_playground::training::tasks::corpus::{fnv1a, shakespeare, Corpus};
use ablation_playground::training::tasks::task::SymbolTask;
use nalgebra::DMatrix;

const EPS: f64 = 1e-6;

/// The loss of ids → embedding → unembedding → cross-entropy, and its gradients.
struct Tiny {
    embedding: Embedding<f64>,
    unembedding: Linear<f64>,
}

impl Params<f64> for Tiny {
    fn visit(&mut self, f: &mut dyn FnMut(&mut Param<f64>)) {
        self.embedding.visit(f);
        self.unembedding.visit(f);
    }

    fn names(&self, prefix: &str, out: &mut Vec<String>) {
        self.embedding.names(&format!("{prefix}embedding"), out);
        self.unembedding.names(&format!("{prefix}unembedding"), out);
    }
}

impl Tiny {
    /// The embedded batch `x` and its `logits`.
    fn forward(&self, ids: &[u32]) -> (DMatrix<f64>, DMatrix<f64>) {
        let d = self.embedding.tokens.value.ncols();
        let v = self.unembedding.weight.value.ncols();
        let mut x = DMatrix::zeros(ids.len(), d);
        self.embedding.forward(ids, &mut x);
        let mut logits = DMatrix::zeros(ids.len(), v);
        self.unembedding.forward(&x, &mut logits);
        (x, logits)
    }

    fn loss(&self, ids: &[u32], targets: &[u32], scored: &[bool]) -> f64 {
        cross_entropy(&self.forward(ids).1, targets, scored)
    }

    fn backward(&mut self, ids: &[u32], targets: &[u32], scored: &[bool]) {
        let (x, logits) = self.forward(ids);
        let mut dlogits = DMatrix::zeros(logits.nrows(), logits.ncols());
        cross_entropy_backward(&logits, targets, scored, &mut dlogits);
        let mut dx = DMatrix::zeros(x.nrows(), x.ncols());
        self.unembedding.backward(&x, &dlogits, &mut dx, false);
        self.embedding.backward(ids, &dx);
    }
}

#[test]
fn embeddings_unembedding_and_cross_entropy_match_finite_differences() {
    let (vocab, context, width) = (5, 3, 4);
    let mut draw = Draw::fresh(Rng::new(3, Stream::Readout));
    let mut model = Tiny {
        embedding: Embedding::new(vocab, context, width, &mut draw),
        unembedding: Linear::new(width, vocab, 1.0, true, &mut draw),
    };
    // two sequences of three positions; a token repeats, so its gradient sums over positions
    let ids = [0, 3, 3, 1, 4, 0];
    let targets = [3, 3, 1, 4, 0, 2];
    for scored in [vec![], vec![false, true, true, false, true, true]] {
        model.backward(&ids, &targets, &scored);
        let mut analytic = Vec::new();
        model.visit(&mut |p| analytic.push(p.grad.as_slice().to_vec()));
        for (i, grads) in analytic.iter().enumerate() {
            for (e, &g) in grads.iter().enumerate() {
                let at = |m: &mut Tiny, delta: f64| {
                    let mut k = 0;
                    m.visit(&mut |p| {
                        if k == i {
                            p.value.as_mut_slice()[e] += delta;
                        }
                        k += 1;
                    });
                };
                at(&mut model, EPS);
                let up = model.loss(&ids, &targets, &scored);
                at(&mut model, -2.0 * EPS);
                let down = model.loss(&ids, &targets, &scored);
                at(&mut model, EPS);
                let numeric = (up - down) / (2.0 * EPS);
                assert!(
                    (g - numeric).abs() <= 1e-6 * (g.abs() + numeric.abs()) + 1e-8,
                    "param {i}[{e}]: {g} vs {numeric}"
                );
            }
        }
    }
}

#[test]
fn cross_entropy_is_the_mean_negative_log_likelihood_of_the_scored_positions() {
    let logits = DMatrix::from_row_slice(3, 3, &[1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 1000.0, 0.0, -1000.0]);
    let targets = [2, 1, 1];
    let p = |row: [f64; 3], c: usize| row[c].exp() / row.iter().map(|x| x.exp()).sum::<f64>();
    let first = -p([1.0, 2.0, 3.0], 2).ln();
    let second = 3f64.ln();
    assert!((cross_entropy(&logits, &targets, &[true, true, false]) - (first + second) / 2.0).abs() < 1e-12);
    // a huge logit is no overflow: −log softmax = 1000 − 0
    assert!((cross_entropy(&logits, &targets, &[false, false, true]) - 1000.0).abs() < 1e-9);
    let mut d = DMatrix::from_element(3, 3, 7.0);
    cross_entropy_backward(&logits, &targets, &[true, false, true], &mut d);
    assert!(d.row(1).iter().all(|&g| g == 0.0), "an unscored position gets no gradient");
    assert!(d.row(0).iter().sum::<f64>().abs() < 1e-12, "softmax minus one-hot sums to zero");
}

#[test]
fn the_floors_are_the_entropies_of_the_training_text() {
    let text = "abab abba baab abab abba baab ab";
    let corpus = Corpus::new(text).unwrap();
    assert_eq!(corpus.vocab, vec![' ', 'a', 'b']);
    assert_eq!(corpus.decode(&corpus.ids_u32()), text);
    let train: Vec<char> = text.chars().take(corpus.held_out_from).collect();
    // a tenth, or half of a text too short to hold out a window of the longest context after a tenth
    assert_eq!(corpus.held_out().len(), text.len() / 2);
    // by counting, from the definitions
    let count = |c: char| train.iter().filter(|&&x| x == c).count() as f64;
    let n = train.len() as f64;
    let unigram: f64 =
        [' ', 'a', 'b'].iter().map(|&c| count(c) / n).filter(|&p| p > 0.0).map(|p| -p * p.ln()).sum();
    let pairs: Vec<(char, char)> = train.windows(2).map(|w| (w[0], w[1])).collect();
    let mut bigram = 0.0;
    for a in [' ', 'a', 'b'] {
        let after_a = pairs.iter().filter(|p| p.0 == a).count() as f64;
        for b in [' ', 'a', 'b'] {
            let both = pairs.iter().filter(|p| **p == (a, b)).count() as f64;
            if both > 0.0 {
                bigram -= both / pairs.len() as f64 * (both / after_a).ln();
            }
        }
    }
    let floors = corpus.floors();
    assert!((floors.unigram - unigram).abs() < 1e-12, "{} vs {unigram}", floors.unigram);
    assert!((floors.bigram - bigram).abs() < 1e-12, "{} vs {bigram}", floors.bigram);
    assert!(floors.bigram < floors.unigram, "knowing the character before helps");
    assert!(Corpus::new("aaaaaaaaaaaaaaaaaaaaaaaa").is_err() && Corpus::new("ab").is_err());
    // the check that a fetched text is the shipped one
    assert_eq!((fnv1a(b""), fnv1a(b"a")), (0xcbf2_9ce4_8422_2325, 0xaf63_dc4c_8601_ec8c));
    // windows come from the part asked for, seeded
    let w = Corpus::windows(corpus.train(), 4, 3, &mut Rng::new(1, Stream::Data));
    assert_eq!(w, Corpus::windows(corpus.train(), 4, 3, &mut Rng::new(1, Stream::Data)));
    assert_eq!(w.len(), 3 * 5);
    assert!(w
        .chunks(5)
        .all(|c| corpus.train().windows(5).any(|t| t.iter().map(|&i| u32::from(i)).eq(c.iter().copied()))));
}

#[test]
fn the_copy_task_is_seeded_and_every_scored_answer_is_in_its_prompt() {
    for context in [16, 15, 2, 3] {
        let task = CopyTask { symbols: 10, context, reversed: false };
        let length = task.length();
        let examples = |seed| SymbolTask::Copy(task).batch(50, &mut Rng::new(seed, Stream::Data));
        assert_eq!(examples(1), examples(1));
        assert_ne!(examples(1), examples(2));
        let all = examples(3);
        assert_eq!(
            (all.ids.len(), all.next.len(), all.scored.len()),
            (50 * context, 50 * context, 50 * context)
        );
        for e in 0..50 {
            let at = |v: &[u32], t: usize| v[e * context + t];
            let scored = |t: usize| all.scored[e * context + t];
            let sep = context % 2 + length; // where the separator between string and copy stands
            assert_eq!(at(&all.ids, sep), 10, "the separator, context {context}");
            assert_eq!((0..context).filter(|&t| scored(t)).count(), length, "the repeated half");
            for t in 0..context {
                if scored(t) {
                    assert_eq!(at(&all.next, t), at(&all.ids, t - length), "the answer is {length} back");
                }
                if t + 1 < context {
                    assert_eq!(at(&all.next, t), at(&all.ids, t + 1), "targets are the next tokens");
                }
            }
        }
        assert!((task.chance() - 10f64.ln()).abs() < 1e-15);
    }
}

/// The reverse task: seeded, its source the first half, every scored answer the
/// source's symbol mirrored about the separator, which `answer_position` names.
#[test]
fn the_reverse_task_is_seeded_and_every_answer_is_the_mirrored_source_symbol() {
    for context in [16, 15, 2, 3, 24] {
        let task = CopyTask { symbols: 10, context, reversed: true };
        let length = task.length();
        let examples = |seed| SymbolTask::Copy(task).batch(40, &mut Rng::new(seed, Stream::Data));
        assert_eq!(examples(1), examples(1));
        assert_ne!(examples(1), examples(2));
        let all = examples(3);
        let mut mirrored_differs = false;
        for e in 0..40 {
            let at = |v: &[u32], t: usize| v[e * context + t];
            let lead = context % 2;
            let sep = lead + length;
            assert_eq!(at(&all.ids, sep), 10, "the separator, context {context}");
            let scored: Vec<usize> = (0..context).filter(|&t| all.scored[e * context + t]).collect();
            assert_eq!(
                scored,
                (sep..context).collect::<Vec<_>>(),
                "the target half is scored, context {context}"
            );
            for &t in &scored {
                let i = t - sep;
                let source = lead + length - 1 - i;
                assert_eq!(task.answer_position(t), Some(source), "context {context}, position {t}");
                assert_eq!(
                    at(&all.next, t),
                    at(&all.ids, source),
                    "context {context}: answer {i} is the source's {source}"
                );
                mirrored_differs |= at(&all.ids, source) != at(&all.ids, lead + i);
            }
            for t in 0..sep {
                assert_eq!(task.answer_position(t), None, "the source has no answer to write");
            }
        }
        assert!(mirrored_differs || length < 2, "reversing changed some string, context {context}");
    }
}

#[test]
fn the_shipped_text_passes_its_checks_and_its_floors_are_those_of_the_study() {
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/www/data/shakespeare.txt")).unwrap();
    let corpus = shakespeare(&bytes).unwrap();
    assert_eq!(corpus.vocab.len(), 70);
    let floors = corpus.floors();
    // the PyTorch replica measured 3.30 and 2.46 nats on these three plays
    assert!((floors.unigram - 3.30).abs() < 0.02, "unigram {}", floors.unigram);
    assert!((floors.bigram - 2.46).abs() < 0.02, "bigram {}", floors.bigram);
    let mut damaged = bytes.clone();
    damaged[1000] ^= 1;
    assert!(shakespeare(&damaged).unwrap_err().contains("not the one shipped"));
    assert!(shakespeare(&bytes[..1000]).is_err());
}

#[test]
fn the_sampler_is_greedy_at_temperature_0_and_follows_the_softmax_otherwise() {
    use ablation_playground::training::live::writing::sample_token;
    let logits = DMatrix::from_row_slice(2, 4, &[0.5f32, 2.0, 2.0, -1.0, 0.0, 0.0, 0.0, 9.0]);
    // greedy: the first of the largest, whatever the stream
    assert_eq!(sample_token(&logits, 0, 0.0, &mut Rng::new(1, Stream::Sample)), 1);
    assert_eq!(sample_token(&logits, 1, 0.0, &mut Rng::new(2, Stream::Sample)), 3);
    // seeded: the same stream draws the same tokens
    let draws = |seed, temperature| {
        let mut rng = Rng::new(seed, Stream::Sample);
        (0..4000).map(|_| sample_token(&logits, 0, temperature, &mut rng)).collect::<Vec<_>>()
    };
    assert_eq!(draws(5, 1.0), draws(5, 1.0));
    assert_ne!(draws(5, 1.0), draws(6, 1.0));
    // the frequencies are the softmax's, at temperature 1 and 0.5
    for temperature in [1.0, 0.5] {
        let z: Vec<f64> = [0.5f64, 2.0, 2.0, -1.0].iter().map(|l| (l / temperature).exp()).collect();
        let total: f64 = z.iter().sum();
        let got = draws(7, temperature);
        for (token, p) in z.iter().map(|v| v / total).enumerate() {
            let share = got.iter().filter(|&&t| t as usize == token).count() as f64 / got.len() as f64;
            // four binomial standard deviations of 4000 draws
            assert!(
                (share - p).abs() < 4.0 * (p * (1.0 - p) / 4000.0).sqrt() + 1e-9,
                "T {temperature}, token {token}: {share} vs {p}"
            );
        }
    }
}

#[test]
fn what_the_model_writes_is_fixed_by_the_seed_and_its_weights() {
    use ablation_playground::config::{Config, TaskKind};
    use ablation_playground::training::live::writing::{write, PROMPT, SAMPLE_CHARS};
    use ablation_playground::training::step::train::Trainer;
    let config = Config { depth: 2, task: TaskKind::Text, tokens: 64, context: 32, ..Config::default() };
    let written = |config: &Config, steps: usize| {
        let mut trainer = Trainer::<f32>::new(config);
        (0..steps).for_each(|_| {
            trainer.one_step(true);
        });
        write(&mut trainer, &mut None, None).unwrap()
    };
    let w = written(&config, 3);
    assert_eq!(w, written(&config, 3), "the same seed and weights write the same");
    assert!(w.text.starts_with(PROMPT) && w.text.chars().count() == PROMPT.len() + SAMPLE_CHARS);
    assert_eq!((w.given, w.step), (PROMPT.len(), 3));
    assert_ne!(w.text, written(&config, 4).text, "other weights write otherwise");
    assert_ne!(w.text, written(&Config { temperature: 0.0, ..config.clone() }, 3).text);
    // the twin cached between calls writes what a fresh one does
    let mut trainer = Trainer::<f32>::new(&config);
    let mut twin = None;
    let first = write(&mut trainer, &mut twin, None).unwrap();
    trainer.one_step(true);
    assert_eq!(write(&mut trainer, &mut twin, None).unwrap(), write(&mut trainer, &mut None, None).unwrap());
    assert_ne!(first.text, write(&mut trainer, &mut twin, None).unwrap().text);
}

#[test]
fn a_batch_of_sequences_is_each_sequence_on_its_own() {
    use ablation_playground::config::{Config, SublayerKind, TaskKind};
    use ablation_playground::model::batch::{Batch, Tokens};
    use ablation_playground::model::stack::Stack;
    // two sequences of 5 in one batch give each position the logits it gets alone
    let both = Config {
        depth: 3,
        task: TaskKind::Copy,
        sublayer: SublayerKind::Block,
        tokens: 10,
        context: 5,
        width: 8,
        ..Config::default()
    };
    let one = Config { tokens: 5, ..both.clone() };
    let ids: Vec<u32> = vec![3, 1, 4, 1, 5, 9, 2, 6, 5, 3];
    let logits = |config: &Config, ids: &[u32]| {
        let mut stack = Stack::<f32>::new(config);
        stack.forward_batch(&Batch::Tokens(Tokens { ids: ids.to_vec(), next: ids.to_vec(), scored: vec![] }));
        stack.prediction().clone()
    };
    let together = logits(&both, &ids);
    for s in 0..2 {
        let alone = logits(&one, &ids[5 * s..5 * (s + 1)]);
        for t in 0..5 {
            for v in 0..both.vocab() {
                let (a, b) = (together[(5 * s + t, v)], alone[(t, v)]);
                assert!((a - b).abs() <= 1e-5 * (1.0 + b.abs()), "sequence {s}, position {t}: {a} vs {b}");
            }
        }
    }
}

#[test]
fn a_sample_written_a_few_characters_at_a_time_is_the_sample_written_at_once() {
    use ablation_playground::config::{Config, TaskKind};
    use ablation_playground::training::live::frame::Frame;
    use ablation_playground::training::live::session::Session;
    let config =
        Config { depth: 2, task: TaskKind::Text, tokens: 64, context: 32, steps: 10, ..Config::default() };
    let trained = || {
        let mut s = Session::new(&config);
        while s.train_step() {}
        s
    };
    let (mut at_once, mut by_parts) = (trained(), trained());
    at_once.write();
    let mut calls = 0;
    while by_parts.write_some(7) {
        calls += 1;
    }
    assert_eq!(calls, 200 / 7, "a call per 7 characters until the 200th");
    let writing = |s: &mut Session| Frame::decode(&s.frame().encode()).unwrap().writing.unwrap();
    assert_eq!(writing(&mut at_once), writing(&mut by_parts));
    assert!(
        !by_parts.write_some(7) && !by_parts.writing_is_stale(),
        "nothing more to write for these weights"
    );
}

#[test]
fn a_run_on_the_page_measures_its_held_out_loss_where_it_stops() {
    use ablation_playground::config::{copy_defaults, Config};
    use ablation_playground::training::live::session::Session;
    let mut s = Session::new(&Config { depth: 2, steps: 30, ..copy_defaults() });
    while s.train_step() {}
    let f = s.frame();
    let steps: Vec<usize> = f.evals.iter().map(|e| e.step).collect();
    assert_eq!(steps, [0, 30], "step 0, then the step the run stopped at");
    assert!(f.evals[1].accuracy.is_finite());
}

/// The held-out measurement's share of the work is bounded at any batch size: at
/// most 16 held-out batches' forward passes per 100 training steps, the text's default, so
/// that at 8 tokens a step the 256 batches are measured every 1600 steps, not every 100.
#[test]
fn the_held_out_measurement_takes_a_bounded_share_at_any_batch_size() {
    use ablation_playground::config::{copy_defaults, Config};
    use ablation_playground::training::step::train::{eval_every, Trainer};
    for tokens in [8, 16, 24, 32, 64, 96, 128, 256] {
        let config = Config { tokens, context: 8, ..copy_defaults() };
        let every = eval_every(&config);
        let batches = ablation_playground::training::tasks::task::EVAL_POSITIONS.div_ceil(tokens);
        assert!(every.is_multiple_of(100), "{tokens}: every {every}");
        // forward positions measured per position trained (a step is a forward and a backward)
        let share = (batches * tokens) as f64 / (every * tokens) as f64;
        assert!(
            share <= 16.0 * 128.0 / (100.0 * 128.0) + 1e-12,
            "{tokens} tokens: {share} held-out positions per step"
        );
        assert!(tokens < 128 || every == 100, "at 128 tokens or more, every 100 steps as before: {every}");
    }
    // and the trainer measures at those steps: copy with one sequence of 16 a step
    let config = Config { tokens: 16, context: 16, ..copy_defaults() };
    let mut trainer = Trainer::<f32>::new(&config);
    for _ in 0..=1600 {
        trainer.one_step(true);
    }
    let steps: Vec<usize> = trainer.evals.iter().map(|e| e.step).collect();
    assert_eq!(steps, [0, 800, 1600], "measured every {} steps", eval_every(&config));
}
