//! The copy and reverse tasks' batches, and the shipped text's checks.

use super::*;

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
