//! The sequence tasks' own pieces, against their definitions: the embeddings, the unembedding
//! and the cross-entropy by central finite differences; the text's floors by counting; the
//! copy task's examples, seeded and with every answer determined by its prompt.

use ablation_playground::model::embedding::Embedding;
use ablation_playground::model::linear::Linear;
use ablation_playground::model::loss::{cross_entropy, cross_entropy_backward};
use ablation_playground::model::param::{Draw, Param, Params};
use ablation_playground::model::rng::{Rng, Stream};
use ablation_playground::training::copy_task::CopyTask;
use ablation_playground::training::corpus::{fnv1a, shakespeare, Corpus};
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
    assert_eq!(corpus.decode(&corpus.ids), text);
    let train: Vec<char> = text.chars().take(corpus.held_out_from).collect();
    assert!(corpus.held_out().len() >= 2 && corpus.held_out().len() <= text.len() / 10 + 2);
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
    assert!(w.chunks(5).all(|c| corpus.train().windows(5).any(|t| t == c)));
}

#[test]
fn the_copy_task_is_seeded_and_every_scored_answer_is_in_its_prompt() {
    for context in [16, 15, 2, 3] {
        let task = CopyTask { symbols: 10, context };
        let length = task.length();
        let examples = |seed| task.batch(50, &mut Rng::new(seed, Stream::Data));
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
