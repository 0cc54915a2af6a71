//! The comparisons ("All four", the depth sweep, the layer knockout) against their
//! definitions: each entry is the single run of its configuration, bit for bit, however the
//! work is sliced; a knocked-out layer is the stack built without it.

use ablation_playground::comparisons::{compare_here, sweep_here};
use ablation_playground::config::*;
use ablation_playground::model::batch::Batch;
use ablation_playground::model::param::Params;
use ablation_playground::model::rng::{Rng, Stream};
use ablation_playground::model::stack::{outputs, Stack};
use ablation_playground::training::measures::knockout::{
    draw_layers, knockout, random_counts, Knockout, KnockoutInProgress, Removal, DRAWS,
};
use ablation_playground::training::runs::compare::four_combinations;
use ablation_playground::training::runs::outcome::Outcome;
use ablation_playground::training::runs::sweep::{parse_depths, SweepSeries, MAX_SWEEP_DEPTHS};
use ablation_playground::training::step::report::{run, trained, Run, RunInProgress, Snapshot};
use ablation_playground::training::tasks::data::DataStream;
use ablation_playground::Trainer;
use nalgebra::DMatrix;

/// Small enough to train many times in a test, deep enough to have a middle.
fn small(depth: usize) -> Config {
    Config { depth, width: 16, tokens: 8, ..Config::default() }
}

/// Plain SGD with a huge step on a large init: the runs without a norm explode.
fn diverging(depth: usize) -> Config {
    Config {
        norm: NormPlacement::Off,
        init_gain: 3.0,
        optimizer: OptimizerKind::Sgd,
        learning_rate: 5.0,
        ..small(depth)
    }
}

fn bits(xs: &[f64]) -> Vec<u64> {
    xs.iter().map(|x| x.to_bits()).collect()
}

// `==` on structs of f64 fails on NaN (a diverged run has many) and passes 0.0 == −0.0; these
// compare bits.

fn assert_same_snapshot(a: &Snapshot, b: &Snapshot) {
    assert_eq!(bits(&a.act_std), bits(&b.act_std));
    assert_eq!(bits(&a.grad_norm), bits(&b.grad_norm));
    assert_eq!(bits(&a.weight_grad_norm), bits(&b.weight_grad_norm));
    assert_eq!(a.probe_loss.to_bits(), b.probe_loss.to_bits());
}

fn assert_same_outcomes(a: &[Outcome], b: &[Outcome]) {
    assert_eq!(a.len(), b.len());
    for (a, b) in a.iter().zip(b) {
        assert_eq!(a.config, b.config);
        let numbers = |o: &Outcome| bits(&[o.init_top_std, o.grad_ratio, o.final_loss]);
        assert_eq!(numbers(a), numbers(b), "{:?}", a.config);
        assert_eq!(a.diverged_at, b.diverged_at);
        assert_eq!(bits(&a.loss), bits(&b.loss));
    }
}

fn assert_same_series(a: &[SweepSeries], b: &[SweepSeries]) {
    assert_eq!(a.len(), b.len());
    for (a, b) in a.iter().zip(b) {
        assert_eq!((a.residual, a.norm), (b.residual, b.norm));
        assert_eq!(bits(&a.final_loss), bits(&b.final_loss));
        assert_eq!(bits(&a.grad_ratio), bits(&b.grad_ratio));
        assert_eq!(a.diverged_at, b.diverged_at);
    }
}

/// An outcome is what the single run of its configuration measured.
fn assert_outcome_is_the_run(outcome: &Outcome, run: &Run, keeps_loss: bool) {
    let top = run.config.depth;
    let what = format!("{:?}", run.config);
    assert_eq!(outcome.config, run.config, "{what}");
    assert_eq!(outcome.init_top_std.to_bits(), run.init.act_std[top].to_bits(), "{what}");
    let ratio = run.init.grad_norm[0] / run.init.grad_norm[top];
    assert_eq!(outcome.grad_ratio.to_bits(), ratio.to_bits(), "{what}");
    assert_eq!(outcome.final_loss.to_bits(), run.loss.last().unwrap().to_bits(), "{what}");
    assert_eq!(outcome.diverged_at, run.diverged_at, "{what}");
    if keeps_loss {
        assert_eq!(bits(&outcome.loss), bits(&run.loss), "{what}");
        if run.diverged_at.is_none() {
            // All four's rows keep the lens of the trained stack: the run's own, to the bit
            assert_eq!(bits(&outcome.readout_loss), bits(&run.last.readout_loss), "{what}");
        }
    }
}

#[test]
fn a_run_in_slices_is_the_run_at_once() {
    for config in [small(5), diverging(6)] {
        let whole = run(&config, 30);
        let mut sliced = RunInProgress::new(&config, 30);
        let mut slices = 0;
        while !sliced.advance(7) {
            slices += 1;
        }
        assert!(slices >= 4 || whole.diverged_at.is_some(), "the budget limits each slice");
        let (sliced, _) = sliced.finish();
        assert_eq!(bits(&sliced.loss), bits(&whole.loss));
        assert_eq!(sliced.loss.len(), 31);
        assert_eq!(sliced.diverged_at, whole.diverged_at);
        assert_same_snapshot(&sliced.init, &whole.init);
        assert_same_snapshot(&sliced.last, &whole.last);
        assert_eq!(sliced.histogram, whole.histogram);
    }
    assert!(run(&diverging(6), 30).diverged_at.is_some(), "the diverging config diverges");
}

#[test]
fn the_four_combinations_change_only_the_switches() {
    for (placement, expected) in [
        (NormPlacement::Off, NormPlacement::Pre),
        (NormPlacement::Pre, NormPlacement::Pre),
        (NormPlacement::Post, NormPlacement::Post),
    ] {
        let config = Config { norm: placement, residual: false, seed: 7, ..small(9) };
        let four = four_combinations(&config);
        let switches: Vec<_> = four.iter().map(|c| (c.residual, c.norm)).collect();
        assert_eq!(
            switches,
            [(false, NormPlacement::Off), (false, expected), (true, NormPlacement::Off), (true, expected)]
        );
        for c in &four {
            assert_eq!(Config { residual: config.residual, norm: config.norm, ..c.clone() }, config);
        }
    }
}

fn compare(config: &Config, steps: usize) -> Vec<Outcome> {
    compare_here(config, steps, 1).unwrap().rows.into_iter().map(|r| r.run).collect()
}

fn sweep(config: &Config, depths: &[usize], steps: usize, threads: usize) -> [SweepSeries; 4] {
    sweep_here(config, depths, steps, threads).unwrap().series.try_into().unwrap()
}

#[test]
fn every_compare_entry_is_the_single_run_bit_for_bit() {
    let steps = 25;
    for config in
        [Config { norm: NormPlacement::Post, sublayer: SublayerKind::Block, ..small(6) }, diverging(8)]
    {
        let entries = compare(&config, steps);
        assert_eq!(entries.len(), 4);
        for (entry, variant) in entries.iter().zip(four_combinations(&config)) {
            assert_outcome_is_the_run(entry, &run(&variant, steps), true);
        }
        // the CLI's --threads: the same bits on any number of threads
        for threads in [2, 3, 8] {
            let threaded: Vec<Outcome> =
                compare_here(&config, steps, threads).unwrap().rows.into_iter().map(|r| r.run).collect();
            assert_same_outcomes(&threaded, &entries);
        }
    }
    let diverged = compare(&diverging(8), steps);
    assert!(diverged.iter().any(|e| e.diverged_at.is_some() && e.final_loss.is_nan()));
}

/// Over several seeds and a tuned rate, every run shown of every row is the single run at its
/// seed and chosen setting, bit for bit, and the row shows the first seed.
#[test]
fn every_seed_and_rate_of_all_four_is_its_single_run_bit_for_bit() {
    let steps = 20;
    let config = Config { seeds: 3, tune: true, seed: 5, ..small(4) };
    let state = compare_here(&config, steps, 2).unwrap();
    for (row, variant) in state.rows.iter().zip(four_combinations(&config)) {
        assert_eq!(row.arm.runs.len(), 3, "3 seeds shown");
        let chosen = row.arm.tuning.as_ref().and_then(|t| t.chosen).expect("chosen").0;
        for (got, seed) in row.arm.runs.iter().zip([5, 6, 7]) {
            let got = got.as_ref().expect("every run done");
            let single = Config { seed, learning_rate: chosen, ..variant.clone() };
            assert_eq!((got.config.seed, got.config.learning_rate), (single.seed, single.learning_rate));
            assert_outcome_is_the_run(got, &run(&single, steps), true);
        }
        assert_eq!(row.arm.seeds, [5, 6, 7]);
        let first = row.arm.shown()[0].as_ref().unwrap();
        // the row's own numbers are the first seed's at the chosen rate
        assert_eq!((&row.run.config, bits(&row.run.loss)), (&first.config, bits(&first.loss)));
        assert_eq!(row.run.config.learning_rate, row.arm.rate());
    }
    assert_eq!(state.runs_finished, state.runs_total);
    assert!(state.runs_total > 12, "the trials are counted: {}", state.runs_total);
}

#[test]
fn every_sweep_entry_is_the_single_run_bit_for_bit() {
    let steps = 12;
    let depths = [1, 3, 7];
    for config in [Config { norm: NormPlacement::Post, ..small(4) }, diverging(4)] {
        let series = sweep(&config, &depths, steps, 1);
        for (combination, s) in series.iter().enumerate() {
            for (j, &depth) in depths.iter().enumerate() {
                let variant = &four_combinations(&Config { depth, ..config.clone() })[combination];
                assert_eq!((s.residual, s.norm), (variant.residual, variant.norm));
                let single = run(variant, steps);
                let outcome = Outcome {
                    config: variant.clone(),
                    init_top_std: single.init.act_std[depth],
                    grad_ratio: s.grad_ratio[j],
                    final_loss: s.final_loss[j],
                    diverged_at: s.diverged_at[j],
                    loss: Vec::new(),
                    held_out: Default::default(),
                    readout_loss: Vec::new(),
                    tail: f64::NAN,
                    learned: None,
                    converged: None,
                    steps,
                };
                assert_outcome_is_the_run(&outcome, &single, false);
            }
        }
        for threads in [2, 5] {
            assert_same_series(&sweep(&config, &depths, steps, threads), &series);
        }
    }
    // over seeds: each seed's run at each depth is its single run
    let config = Config { seeds: 2, seed: 9, ..small(4) };
    let series = sweep(&config, &depths, steps, 2);
    for (combination, s) in series.iter().enumerate() {
        for (j, &depth) in depths.iter().enumerate() {
            let variant = &four_combinations(&Config { depth, ..config.clone() })[combination];
            for (k, seed) in [9, 10].into_iter().enumerate() {
                let got = s.arms[j].shown()[k].as_ref().unwrap();
                let single = run(&Config { seed, ..variant.clone() }, steps);
                assert_eq!(got.final_loss.to_bits(), single.loss.last().unwrap().to_bits(), "seed {seed}");
            }
        }
    }
}

#[test]
fn sweep_depths_are_checked_like_the_parameter_table() {
    assert_eq!(parse_depths("1,2,4,8,12,24,48,96").unwrap(), [1, 2, 4, 8, 12, 24, 48, 96]);
    assert_eq!(parse_depths(" 8 , 3 ").unwrap(), [8, 3]);
    let too_many: Vec<String> = (1..=MAX_SWEEP_DEPTHS + 1).map(|d| d.to_string()).collect();
    let cases = [
        ("", "no depths"),
        ("0", "\"0\" is not an integer from 1 to 96"),
        ("1,97", "\"97\" is not an integer from 1 to 96"),
        ("1,,2", "\"\" is not an integer from 1 to 96"),
        ("2.5", "\"2.5\" is not an integer from 1 to 96"),
        ("twelve", "\"twelve\" is not an integer from 1 to 96"),
        ("4,2,4", "depth 4 is listed twice"),
        (&too_many.join(","), "17 depths; at most 16"),
    ];
    for (text, message) in cases {
        let e = parse_depths(text).unwrap_err();
        assert_eq!(e.name, "sweep");
        assert!(e.message().contains(message), "{text:?}: {e}");
    }
    assert!(sweep_here(&small(3), &[], 5, 2).is_err());
    assert!(sweep_here(&small(3), &[3, 3], 5, 2).is_err());
}

/// `‖changed − intact‖ / ‖intact‖` in Frobenius norms, by nalgebra in f64 (the knockout's
/// `output_change` by its definition, not by the library's own helper).
fn relative_distance(changed: &DMatrix<f32>, intact: &DMatrix<f32>) -> f64 {
    let (changed, intact) = (changed.map(f64::from), intact.map(f64::from));
    (changed - &intact).norm() / intact.norm()
}

/// `config`'s trainer after `steps` updates.
fn trained_trainer(config: &Config, steps: usize) -> Trainer<f32> {
    trained(config, steps).1
}

#[test]
fn a_knocked_out_layer_gives_the_numbers_of_the_stack_without_it() {
    for sublayer in [SublayerKind::Mlp, SublayerKind::Ffn, SublayerKind::Attention] {
        for norm in [NormPlacement::Off, NormPlacement::Pre, NormPlacement::Post] {
            for residual in [true, false] {
                if norm == NormPlacement::Post && residual {
                    // post-norm keeps the removed layer's norm: tests/knockout.rs
                    continue;
                }
                let config = Config { sublayer, norm, residual, ..small(5) };
                let what = format!("{sublayer:?} {norm:?} residual {residual}");
                let mut trainer = trained_trainer(&config, 15);
                let intact_loss = trainer.probe();
                let intact_top = trainer.stack.output().clone();
                let result = knockout(&mut trainer);
                assert_eq!(result.intact_loss.to_bits(), intact_loss.to_bits(), "{what}");
                assert_eq!((result.loss.len(), result.output_change.len()), (5, 5), "{what}");
                assert_eq!(trainer.stack.output(), &intact_top, "{what}: the intact activations are back");

                let (x, y) =
                    DataStream::<f32>::new(config.seed, config.width, outputs(&config)).probe(config.tokens);
                let shorter = Config { depth: config.depth - 1, ..config.clone() };
                for removed in 0..config.depth {
                    let mut layers = trainer.stack.layers.clone();
                    layers.remove(removed);
                    let mut without = Stack::with_layers(&shorter, layers);
                    without.readout = trainer.stack.readout.clone();
                    // the trained final norm of a pre-norm stack too
                    without.final_norm = trainer.stack.final_norm.clone();
                    let loss = without.forward(&x, &y);
                    assert_eq!(result.loss[removed].to_bits(), loss.to_bits(), "{what}: layer {removed}");
                    // the library sums ‖intact‖² in 8 interleaved partial sums, nalgebra in
                    // one: the same f64 terms in another order, a few ulps apart at most
                    let change = relative_distance(without.output(), &intact_top);
                    let got = result.output_change[removed];
                    assert!((got - change).abs() <= 1e-12 * change, "{what}: {removed}: {got} vs {change}");
                    assert!(change > 0.0 && loss != intact_loss, "{what}: layer {removed} did something");
                }
            }
        }
    }
}

#[test]
fn a_knockout_in_slices_is_the_knockout_at_once() {
    let config = Config { sublayer: SublayerKind::Block, ..small(7) };
    let mut trainer = trained_trainer(&config, 10);
    let whole = knockout(&mut trainer);
    let mut sliced = KnockoutInProgress::new(&mut trainer);
    let mut lengths = Vec::new();
    while !sliced.advance(&mut trainer, 3) {
        let k = sliced.result();
        let random: usize = k.random_k.iter().map(|(_, draws)| draws.len()).sum();
        lengths.push(k.each.len() + k.top_k.len() + random + k.below_top_k.len() + k.gromov.len());
    }
    // 7 layers one at a time, the top 1..=7, then 5 draws of each of 1, 2, 3, 4 and 6 layers,
    // the 1..=6 below the top and Gromov's 6 blocks
    assert_eq!(random_counts(7), [1, 2, 3, 4, 6]);
    assert_eq!(lengths, (1..17).map(|i| 3 * i).collect::<Vec<_>>(), "51 removals, 3 at a time");
    let removals =
        |rs: &[Removal]| rs.iter().flat_map(|r| [r.loss, r.val_loss, r.accuracy]).collect::<Vec<_>>();
    let numbers = |k: &Knockout| {
        let random: Vec<f64> =
            k.random_k.iter().flat_map(|(n, d)| [vec![*n as f64], removals(d)].concat()).collect();
        let gromov: Vec<f64> =
            k.gromov.iter().flat_map(|(s, d, r)| [vec![*s as f64, *d], removals(&[*r])].concat()).collect();
        let below = removals(&k.below_top_k);
        bits(
            &[
                &[k.intact_loss],
                &k.loss[..],
                &k.output_change[..],
                &removals(&k.top_k),
                &random,
                &below,
                &gromov,
            ]
            .concat(),
        )
    };
    assert_eq!(numbers(sliced.result()), numbers(&whole));
    assert!(sliced.is_done());
}

#[test]
fn a_knockout_leaves_training_as_it_was() {
    let config = small(4);
    let mut measured = trained_trainer(&config, 10);
    let mut untouched = trained_trainer(&config, 10);
    knockout(&mut measured);
    let next = |t: &mut Trainer<f32>| (0..5).map(|_| t.one_step(true).to_bits()).collect::<Vec<_>>();
    assert_eq!(next(&mut measured), next(&mut untouched));
}

/// The held-out loss and share of scored symbols predicted right (the argmax of a row, by its
/// definition) of `stack` on `trainer`'s held-out set.
fn held_out_of(stack: &mut Stack<f32>, trainer: &Trainer<f32>) -> (f64, f64) {
    let (mut loss, mut right) = (0.0, 0.0);
    for batch in trainer.held_out() {
        loss += stack.forward_batch(batch);
        let Batch::Tokens(t) = batch else { panic!("a sequence task's batch") };
        let p = stack.prediction();
        let rows: Vec<usize> = (0..p.nrows()).filter(|&r| t.scored.is_empty() || t.scored[r]).collect();
        let best = |r: usize| (0..p.ncols()).fold(0, |b, c| if p[(r, c)] > p[(r, b)] { c } else { b });
        right += rows.iter().filter(|&&r| best(r) == t.next[r] as usize).count() as f64 / rows.len() as f64;
    }
    let n = trainer.held_out().len() as f64;
    (loss / n, right / n)
}

#[test]
fn several_layers_knocked_out_give_the_numbers_of_the_stack_without_them() {
    for norm in [NormPlacement::Pre, NormPlacement::Post] {
        let config = Config {
            depth: 6,
            width: 16,
            sublayer: SublayerKind::Block,
            norm,
            ..task_defaults(TaskKind::Copy)
        };
        let mut trainer = trained_trainer(&config, 30);
        let result = knockout(&mut trainer);
        let depth = config.depth;
        // each list measured in full
        assert_eq!((result.each.len(), result.top_k.len()), (depth, depth));
        assert_eq!(result.random_k.iter().map(|(k, _)| *k).collect::<Vec<_>>(), random_counts(depth));
        assert!(result.random_k.iter().all(|(_, draws)| draws.len() == DRAWS));
        let without = |trainer: &Trainer<f32>, removed: &[usize]| {
            // post-norm's removed layers keep their norms: their branches output zeros
            let post = norm == NormPlacement::Post;
            let kept: Vec<_> = (0..depth)
                .filter(|l| post || !removed.contains(l))
                .map(|l| {
                    let mut layer = trainer.stack.layers[l].clone();
                    if removed.contains(&l) {
                        layer.sublayer.visit(&mut |p| p.value.fill(0.0));
                    }
                    layer
                })
                .collect();
            let shorter = Config { depth: kept.len(), ..config.clone() };
            let mut stack = Stack::with_layers(&shorter, kept);
            stack.embedding = trainer.stack.embedding.clone();
            stack.readout = trainer.stack.readout.clone();
            stack.final_norm = trainer.stack.final_norm.clone();
            stack
        };
        let what = format!("{norm:?}");
        let intact = held_out_of(&mut without(&trainer, &[]), &trainer);
        assert_eq!(
            bits(&[result.intact.val_loss, result.intact.accuracy]),
            bits(&[intact.0, intact.1]),
            "{what}"
        );
        // the top k: a stack of the lower depth − k layers (k = depth: embedding to readout)
        for k in 1..depth {
            let upper: Vec<usize> = (depth - k..depth).collect();
            let (loss, acc) = held_out_of(&mut without(&trainer, &upper), &trainer);
            let got = result.top_k[k - 1];
            assert_eq!(bits(&[got.val_loss, got.accuracy]), bits(&[loss, acc]), "{what}: top {k}");
        }
        // k at random: distinct layers, the seed's own draws, each the stack without them
        let mut rng = Rng::new(config.seed, Stream::Knockout);
        for (k, draws) in &result.random_k {
            for got in draws {
                let layers = draw_layers(&mut rng, depth, *k);
                assert_eq!(layers.len(), *k);
                assert!(layers.windows(2).all(|w| w[0] < w[1]) && layers[k - 1] < depth, "{layers:?}");
                let (loss, acc) = held_out_of(&mut without(&trainer, &layers), &trainer);
                assert_eq!(bits(&[got.val_loss, got.accuracy]), bits(&[loss, acc]), "{what}: {layers:?}");
            }
        }
        // the draws are not all the same layers (5 draws of 1 of 6 layers)
        let mut rng = Rng::new(config.seed, Stream::Knockout);
        let ones: Vec<_> = (0..DRAWS).map(|_| draw_layers(&mut rng, depth, 1)).collect();
        assert!(ones.iter().any(|l| l != &ones[0]), "{ones:?}");
        // knocking the trained layers out costs something on a task the stack learned
        assert!(result.top_k[depth - 1].val_loss > result.intact.val_loss, "{what}: {result:?}");
    }
}
