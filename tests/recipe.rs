//! The README's table of what each switch combination really does, at the default recipe
//! (mlp, gain 1, Adam lr 0.01, no warmup, width 32, tokens 64), reproduced over three seeds
//! with margins. If the model or the recipe changes, this test says whether the table still holds.

use ablation_playground::config::{Config, NormPlacement};
use ablation_playground::training::report::{run, Run};

const SEEDS: [u64; 3] = [1, 2, 3];
const STEPS: usize = 500;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Combo {
    BothOff,
    LayerNormAlone, // post: LN(F(x))
    ResidualAlone,
    BothOnPre,
    BothOnPost,
}

fn config(combo: Combo, depth: usize, seed: u64) -> Config {
    let (residual, norm) = match combo {
        Combo::BothOff => (false, NormPlacement::Off),
        Combo::LayerNormAlone => (false, NormPlacement::Post),
        Combo::ResidualAlone => (true, NormPlacement::Off),
        Combo::BothOnPre => (true, NormPlacement::Pre),
        Combo::BothOnPost => (true, NormPlacement::Post),
    };
    Config { depth, residual, norm, seed, ..Config::default() }
}

struct Outcome {
    combo: Combo,
    seed: u64,
    top_std: f64,
    final_loss: f64,
}

fn outcomes(depth: usize, combos: &[Combo]) -> Vec<Outcome> {
    let mut out = Vec::new();
    for &combo in combos {
        for seed in SEEDS {
            let r: Run = run(&config(combo, depth, seed), STEPS);
            assert_eq!(r.diverged_at, None, "{combo:?} depth {depth} seed {seed} diverged");
            out.push(Outcome { combo, seed, top_std: r.init.act_std[depth], final_loss: r.loss[STEPS] });
        }
    }
    out
}

fn of(outs: &[Outcome], combo: Combo) -> impl Iterator<Item = &Outcome> {
    outs.iter().filter(move |o| o.combo == combo)
}

#[test]
fn depth_2_every_combination_learns() {
    let outs = outcomes(2, &[Combo::BothOff, Combo::BothOnPre]);
    for o in &outs {
        assert!(o.final_loss < 0.2, "depth 2 {:?} seed {}: loss {}", o.combo, o.seed, o.final_loss);
    }
}

#[test]
fn depth_12_the_four_combinations_differ() {
    use Combo::*;
    let outs = outcomes(12, &[BothOff, LayerNormAlone, ResidualAlone, BothOnPre]);
    for o in of(&outs, BothOff) {
        assert!(o.top_std < 0.1, "both off: the signal vanishes (std {})", o.top_std);
        assert!(o.final_loss > 0.5, "both off: plateaus (loss {})", o.final_loss);
    }
    for o in of(&outs, LayerNormAlone) {
        assert!((o.top_std - 1.0).abs() < 0.01, "LN alone: std ≈ 1 (got {})", o.top_std);
        assert!(o.final_loss > 0.5, "LN alone: trains badly (loss {})", o.final_loss);
    }
    for o in of(&outs, ResidualAlone) {
        assert!(o.top_std > 10.0, "residual alone: the stream blows up (std {})", o.top_std);
        assert!(o.final_loss > 0.5, "residual alone: plateaus (loss {})", o.final_loss);
    }
    for o in of(&outs, BothOnPre) {
        assert!(o.final_loss < 0.15, "both on: the loss dives (got {})", o.final_loss);
        for other in outs.iter().filter(|x| x.seed == o.seed && x.combo != BothOnPre) {
            assert!(o.final_loss < 0.25 * other.final_loss, "both on vs {:?}, seed {}", other.combo, o.seed);
        }
    }
}

fn only_pre_norm_with_residual_trains(depth: usize, pre_max: f64) {
    use Combo::*;
    let outs = outcomes(depth, &[BothOff, LayerNormAlone, ResidualAlone, BothOnPre, BothOnPost]);
    for o in &outs {
        if o.combo == BothOnPre {
            assert!(o.final_loss < pre_max, "depth {depth} pre-norm + residual: loss {}", o.final_loss);
        } else {
            assert!(
                o.final_loss > 0.85,
                "depth {depth} {:?} seed {}: loss {}",
                o.combo,
                o.seed,
                o.final_loss
            );
        }
    }
    for o in of(&outs, ResidualAlone) {
        assert!(o.top_std > 1e6, "depth {depth} residual alone: std {}", o.top_std);
    }
}

#[test]
fn depth_48_only_pre_norm_with_residual_trains() {
    only_pre_norm_with_residual_trains(48, 0.5);
}

#[test]
fn depth_96_only_pre_norm_with_residual_trains() {
    only_pre_norm_with_residual_trains(96, 0.75);
}
