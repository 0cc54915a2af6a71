//! The embeddings, the unembedding and the cross-entropy against finite differences and their definition, and the text's floors.

use super::*;

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
