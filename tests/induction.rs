//! The induction task: its examples against their definition (seeded, every scored answer
//! determined by the prompt, the offsets back to it varying), and its claim over three seeds,
//! with margins from `studies/induction.toml`: one attention layer does not learn it (it
//! guesses 39–62% of the symbols), two do (97–100%).

use ablation_playground::model::rng::{Rng, Stream};
use ablation_playground::training::tasks::induction_task::InductionTask;
use ablation_playground::training::tasks::task::SymbolTask;
use serde_json::Value;
use std::collections::BTreeSet;
use std::process::Command;

const TASK: InductionTask = InductionTask { symbols: 16, context: 24 };

fn batch(seed: u64, count: usize) -> ablation_playground::model::batch::Tokens {
    SymbolTask::Induction(TASK).batch(count, &mut Rng::new(seed, Stream::Data))
}

#[test]
fn examples_are_seeded() {
    assert_eq!(batch(3, 20), batch(3, 20));
    assert_ne!(batch(3, 20).ids, batch(4, 20).ids);
}

#[test]
fn every_scored_answer_is_the_symbol_after_the_current_ones_earlier_occurrence() {
    let (c, tokens) = (TASK.context, batch(7, 400));
    let (separator, pad) = (TASK.symbols as u32, TASK.symbols as u32 + 1);
    let mut offsets = BTreeSet::new();
    let mut lengths = BTreeSet::new();
    for e in 0..400 {
        let ids = &tokens.ids[e * c..(e + 1) * c];
        let next = &tokens.next[e * c..(e + 1) * c];
        let scored = &tokens.scored[e * c..(e + 1) * c];
        // padding in front only, then a string of distinct symbols, the separator, the repeat
        let pads = ids.iter().take_while(|&&i| i == pad).count();
        let middle = ids.iter().position(|&i| i == separator).expect("a separator");
        let string = &ids[pads..middle];
        lengths.insert(string.len());
        assert!(TASK.lengths().contains(&string.len()), "length {}", string.len());
        assert!(string.iter().all(|&s| s < separator));
        // the repeat, to the last target: the string from one of its symbols on, at least two
        let whole: Vec<u32> = ids.iter().chain(&next[c - 1..]).copied().collect();
        let repeat = &whole[middle + 1..];
        assert!(repeat.len() >= 2 && string.ends_with(repeat), "example {e}: {string:?} then {repeat:?}");
        for t in 0..c {
            // the repeat's first symbol is given; after it, the positions whose symbol stands
            // once in the string are scored: there the answer is determined
            let once = string.iter().filter(|&&s| s == ids[t]).count() == 1;
            assert_eq!(scored[t], t > middle && once, "example {e}, position {t}");
            if !scored[t] {
                continue;
            }
            let earlier =
                string.iter().position(|&s| s == ids[t]).expect("the current symbol is in the string");
            assert_eq!(next[t], string[earlier + 1], "the answer follows the earlier occurrence");
            offsets.insert(t - (pads + earlier + 1)); // back to where the answer stands
        }
    }
    let longest = *TASK.lengths().end();
    assert_eq!(offsets, (2..=longest).collect(), "the answer stands from 2 to {longest} back");
    assert_eq!(lengths, TASK.lengths().collect(), "every length occurs");
}

fn held_out_copied(args: &[&str]) -> f64 {
    let out = Command::new(env!("CARGO_BIN_EXE_ablate")).args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    let accuracy = r["task"]["accuracy"].as_array().unwrap();
    accuracy.last().unwrap()[1].as_f64().unwrap()
}

/// The study (docs/findings.md, "What depth buys"): the preset (two attention sublayers, 3000 steps) and
/// the same stack with one, seeds 1–3. Two copy 97–100% of the held-out symbols by step 1700;
/// one stays at 39–62% after 5000 steps (chance is 1 in 16).
#[test]
fn one_attention_layer_does_not_learn_it_and_two_do() {
    for seed in ["1", "2", "3"] {
        let two = held_out_copied(&["--preset", "induction", "--seed", seed, "--steps", "3000"]);
        let one =
            held_out_copied(&["--preset", "induction", "--depth", "1", "--seed", seed, "--steps", "3000"]);
        assert!(two > 0.95, "seed {seed}: two attention layers copy only {two:.3}");
        assert!(one < 0.75, "seed {seed}: one attention layer copies {one:.3}");
    }
}
