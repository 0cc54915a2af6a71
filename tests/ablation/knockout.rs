//! The knockout: a layer removed gives the numbers of the stack without it.

use super::*;

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
