//! The knockout by Gromov et al.'s protocol (`training::measures::knockout`): a removed layer loses its
//! branch and keeps what its placement puts on the stream (post-norm its norm), the angular
//! distance against its closed form, and Gromov's block chosen by it, never the final layer.

use ablation_playground::config::{Config, NormPlacement, SublayerKind};
use ablation_playground::model::param::Params;
use ablation_playground::training::measures::knockout::{gromov_blocks, heal, knockout, Removal};
use ablation_playground::training::measures::similarity::{
    adjacent_cosines, angular_distance, branch_ratios, mean_cosine, similarity,
};
use ablation_playground::training::step::report::trained;
use nalgebra::DMatrix;

fn text(norm: &str, depth: usize) -> Config {
    let mut c = Config::default().with_task("text").unwrap();
    for (k, v) in
        [("depth", depth.to_string()), ("width", "16".into()), ("heads", "2".into()), ("norm", norm.into())]
    {
        c.set(k, &v).unwrap();
    }
    c
}

#[test]
fn a_knocked_out_layer_is_its_branch_zeroed_with_post_norms_norm_kept() {
    for (norm, sublayer) in
        [("post", SublayerKind::Block), ("pre", SublayerKind::Block), ("deepnorm", SublayerKind::Block)]
    {
        let config = Config { sublayer, ..text(norm, 4) };
        let (_, mut trainer) = trained(&config, 20);
        for removed in 0..config.depth {
            let knocked = trainer.probe_forward_skipping(&[removed]);
            let knocked_top = trainer.stack.output().clone();
            // the same trained stack with layer `removed`'s branch outputting zeros: every
            // weight and bias of its sublayer zero (its norm's γ and β kept)
            let (_, mut zeroed) = trained(&config, 20);
            zeroed.stack.layers[removed].sublayer.visit(&mut |p| p.value.fill(0.0));
            let want = zeroed.probe_forward_skipping(&[]);
            assert_eq!(
                knocked.to_bits(),
                want.to_bits(),
                "{norm}: layer {removed} knocked out gives {knocked}, the stack with its branch zeroed {want}"
            );
            assert_eq!(&knocked_top, zeroed.stack.output(), "{norm}: layer {removed}: the top of the stream");
            // the identity (the old knockout) differs where the norm is on the stream
            let x = trainer.stack.stream[removed].clone();
            let y = trainer.stack.stream[removed + 1].clone();
            if norm == "pre" {
                assert_eq!(x, y, "pre-norm: a knocked-out layer passes its input on");
            } else {
                assert_ne!(x, y, "{norm}: a knocked-out layer still normalises its stream");
            }
        }
    }
}

#[test]
fn post_norms_knocked_out_layer_normalises_its_input() {
    let config = Config { sublayer: SublayerKind::Block, ..text("post", 3) };
    let (_, mut trainer) = trained(&config, 10);
    trainer.probe_forward_skipping(&[1]);
    let y = &trainer.stack.stream[2];
    // LayerNorm at its initial γ = 1, β = 0 is not what training left: read γ and β
    let (mut gamma, mut beta) = (Vec::new(), Vec::new());
    let mut i = 0;
    trainer.stack.layers[1].norm.as_mut().unwrap().visit(&mut |p| {
        if i == 0 {
            gamma = p.value.as_slice().to_vec();
        } else {
            beta = p.value.as_slice().to_vec();
        }
        i += 1;
    });
    let x = trainer.stack.stream[1].map(f64::from);
    let d = x.ncols();
    for t in 0..x.nrows() {
        let row: Vec<f64> = (0..d).map(|j| x[(t, j)]).collect();
        let mean = row.iter().sum::<f64>() / d as f64;
        let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / d as f64;
        for j in 0..d {
            let want = (row[j] - mean) / (var + 1e-5).sqrt() * gamma[j] as f64 + beta[j] as f64;
            let got = y[(t, j)] as f64;
            assert!(
                (got - want).abs() < 1e-4 * (1.0 + want.abs()),
                "token {t}, feature {j}: {got} against LN(x) = {want}"
            );
        }
    }
}

#[test]
fn the_angular_distance_is_the_angle_over_pi_averaged_over_tokens() {
    // token 0 at 90°, token 1 at 60°, token 2 the same direction, token 3 opposite
    let a = DMatrix::<f64>::from_row_slice(4, 2, &[1.0, 0.0, 2.0, 0.0, 0.0, 3.0, 1.0, 1.0]);
    let half = 3f64.sqrt() / 2.0;
    let b = DMatrix::<f64>::from_row_slice(4, 2, &[0.0, 5.0, 0.5, half, 0.0, 0.1, -2.0, -2.0]);
    let want = (0.5 + 1.0 / 3.0 + 0.0 + 1.0) / 4.0;
    let got = angular_distance(&a, &b);
    assert!((got - want).abs() < 1e-12, "angular distance {got}, by hand {want}");
}

#[test]
fn gromovs_block_is_the_nearest_in_angle_and_never_the_final_layer() {
    // streams x_0 … x_6 of a stack of 6 layers, turning by these angles (degrees) layer by
    // layer; layer 5 (the final one) does not turn at all, layers 2 and 3 barely
    let turns = [40.0, 30.0, 2.0, 3.0, 50.0, 0.0];
    let mut angle = 0.0f64;
    let mut streams = vec![DMatrix::<f64>::from_row_slice(1, 2, &[1.0, 0.0])];
    for t in turns {
        angle += t;
        let r = angle.to_radians();
        streams.push(DMatrix::from_row_slice(1, 2, &[r.cos(), r.sin()]));
    }
    let blocks = gromov_blocks(&streams);
    assert_eq!(blocks.len(), 5, "k = 1 … L − 1: {blocks:?}");
    // k = 1: layer 2 (2°), not layer 5 (0°, the final layer, kept)
    assert_eq!(blocks[0].0, 2, "k = 1: {blocks:?}");
    assert!((blocks[0].1 - 2.0 / 180.0).abs() < 1e-12, "k = 1: {blocks:?}");
    // k = 2: layers 2-3 (5°)
    assert_eq!(blocks[1].0, 2, "k = 2: {blocks:?}");
    // k = 3: layers 1-3 (35°) against 2-4 (55°) and 0-2 (72°)
    assert_eq!(blocks[2].0, 1, "k = 3: {blocks:?}");
    // k = 5: only layers 0-4 keep the final one
    assert_eq!(blocks[4].0, 0, "k = 5: {blocks:?}");
    assert!((blocks[4].1 - 125.0 / 180.0).abs() < 1e-12, "k = 5: {blocks:?}");
}

#[test]
fn the_knockout_removes_gromovs_blocks_and_the_layers_below_the_top() {
    let config = Config { sublayer: SublayerKind::Block, norm: NormPlacement::Pre, ..text("pre", 6) };
    let (_, mut trainer) = trained(&config, 20);
    trainer.probe_forward_skipping(&[]);
    let streams: Vec<DMatrix<f32>> = trainer.stack.stream[..=config.depth].to_vec();
    let blocks = gromov_blocks(&streams);
    let result = knockout(&mut trainer);
    assert_eq!(result.gromov.len(), config.depth - 1);
    assert_eq!(result.below_top_k.len(), config.depth - 1);
    for (k, &(start, distance, removal)) in result.gromov.iter().enumerate().map(|(i, g)| (i + 1, g)) {
        assert_eq!((start, distance.to_bits()), (blocks[k - 1].0, blocks[k - 1].1.to_bits()), "k = {k}");
        assert!(start + k < config.depth, "k = {k}: the block {start}..{} takes the final layer", start + k);
        let layers: Vec<usize> = (start..start + k).collect();
        let loss = trainer.probe_forward_skipping(&layers);
        assert_eq!(removal.loss.to_bits(), loss.to_bits(), "k = {k}, layers {layers:?}");
    }
    for (i, removal) in result.below_top_k.iter().enumerate() {
        let k = i + 1;
        let layers: Vec<usize> = (config.depth - 1 - k..config.depth - 1).collect();
        let loss = trainer.probe_forward_skipping(&layers);
        assert_eq!(removal.loss.to_bits(), loss.to_bits(), "the {k} below the top: {layers:?}");
    }
}

#[test]
fn adjacent_cosines_are_each_layers_input_against_its_output_over_the_held_out_tokens() {
    let a = DMatrix::<f64>::from_row_slice(3, 2, &[1.0, 0.0, 0.0, 2.0, 0.0, 0.0]);
    let b = DMatrix::<f64>::from_row_slice(3, 2, &[1.0, 1.0, 0.0, -1.0, 5.0, 5.0]);
    // the zero row has no direction and is left out
    let want = (0.5f64.sqrt() - 1.0) / 2.0;
    assert!((mean_cosine(&a, &b) - want).abs() < 1e-12, "{} against {want}", mean_cosine(&a, &b));

    let config = Config { sublayer: SublayerKind::Block, ..text("post", 4) };
    let (_, mut trainer) = trained(&config, 20);
    let got = adjacent_cosines(&mut trainer);
    let mut sums = vec![0.0; config.depth];
    let batches = trainer.held_out().len();
    for b in 0..batches {
        let (stack, batch) = trainer.stack_and_held_out(b);
        stack.forward_batch(batch);
        let s = stack.stream.iter().map(|m| m.map(f64::from)).collect::<Vec<_>>();
        for (l, sum) in sums.iter_mut().enumerate() {
            let (x, y) = (&s[l], &s[l + 1]);
            let per_token: Vec<f64> = (0..x.nrows())
                .map(|t| x.row(t).dot(&y.row(t)) / (x.row(t).norm() * y.row(t).norm()))
                .collect();
            *sum += per_token.iter().sum::<f64>() / per_token.len() as f64;
        }
    }
    for (l, (g, s)) in got.iter().zip(&sums).enumerate() {
        let want = s / batches as f64;
        assert!((g - want).abs() < 1e-9, "layer {l}: {g} against {want} by hand");
    }
}

/// The branch against its residual, like for like at every placement: `‖F‖ / ‖r‖` token by
/// token at the addition, recomputed here by running each layer's own sublayer (after its norm
/// for pre-norm) on a copy of the layer, from the stream's input to that layer.
#[test]
fn branch_ratios_are_each_branch_against_the_residual_it_is_added_to() {
    for norm in ["pre", "post"] {
        let config = Config { sublayer: SublayerKind::Block, ..text(norm, 4) };
        let (_, mut trainer) = trained(&config, 20);
        let got = branch_ratios(&mut trainer);
        let mut sums = vec![0.0; config.depth];
        let batches = trainer.held_out().len();
        for b in 0..batches {
            let (stack, batch) = trainer.stack_and_held_out(b);
            stack.forward_batch(batch);
            for (l, sum) in sums.iter_mut().enumerate() {
                let x = &stack.stream[l];
                let mut layer = stack.layers[l].clone();
                let mut input = x.clone();
                if norm == "pre" {
                    layer.norm.as_mut().unwrap().forward(x, &mut input);
                }
                let mut f = x.clone();
                layer.sublayer.forward(&input, &mut f);
                let per_token: Vec<f64> = (0..x.nrows())
                    .map(|t| f.row(t).map(f64::from).norm() / x.row(t).map(f64::from).norm())
                    .collect();
                *sum += per_token.iter().sum::<f64>() / per_token.len() as f64;
            }
        }
        for (l, (g, s)) in got.iter().zip(&sums).enumerate() {
            let want = s / batches as f64;
            assert!((g / want - 1.0).abs() < 1e-4, "{norm}, layer {l}: {g} against {want} by hand");
        }
    }
    // both from one pass (ablate --similarity): the same bits as each alone
    let config = Config { sublayer: SublayerKind::Block, ..text("post", 4) };
    let (_, mut trainer) = trained(&config, 20);
    let (cosines, ratios) = similarity(&mut trainer);
    let bits = |xs: &[f64]| xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&cosines), bits(&adjacent_cosines(&mut trainer)));
    assert_eq!(bits(&ratios), bits(&branch_ratios(&mut trainer)));
    // no residual, no ratio
    let (_, mut trainer) = trained(&Config { residual: false, ..text("pre", 2) }, 2);
    assert!(branch_ratios(&mut trainer).iter().all(|r| r.is_nan()));
}

/// A removal's numbers as bits (NaN, where nothing was measured, equal to itself).
fn bits(r: &Removal) -> [u64; 3] {
    [r.loss.to_bits(), r.val_loss.to_bits(), r.accuracy.to_bits()]
}

#[test]
fn healing_continues_the_run_from_its_own_state_with_the_block_held_at_zero() {
    for norm in ["pre", "post"] {
        let config = Config { sublayer: SublayerKind::Block, ..text(norm, 4) };
        let (_, mut trainer) = trained(&config, 30);
        let before = knockout(&mut trainer);
        // no healing steps: the knockout's own measurements, bit for bit
        let unhealed = heal(&mut trainer, 0).unwrap();
        assert_eq!(
            bits(&unhealed.intact),
            bits(&before.intact),
            "{norm}: 0 steps of healing is the intact stack"
        );
        let blocks: Vec<_> = before.gromov.iter().map(|(start, _, r)| (*start, bits(r))).collect();
        let got: Vec<_> = unhealed.gromov.iter().map(|(start, r)| (*start, bits(r))).collect();
        assert_eq!(got, blocks, "{norm}: 0 steps of healing is Gromov's removal");
        // the intact stack healed 20 steps is the trained run itself given 20 more updates: the
        // twin went on from the run's weights, Adam's moments, the data's place and the
        // schedule's step
        let healed = heal(&mut trainer, 20).unwrap();
        let (_, mut longer) = trained(&config, 30);
        for _ in 0..20 {
            longer.replay_step();
        }
        let want = knockout(&mut longer).intact;
        assert_eq!(
            bits(&healed.intact),
            bits(&want),
            "{norm}: healed 20 steps {:?}, by hand {want:?}",
            healed.intact
        );
        // the control from scratch is a run of 20 updates at the full rate from the first (no
        // warmup: the healing's updates come after the run's), the same seed and data
        let (_, mut early) = trained(&Config { warmup_steps: 0, ..config.clone() }, 20);
        let want = knockout(&mut early).intact;
        assert_eq!(
            bits(&healed.scratch),
            bits(&want),
            "{norm}: from scratch {:?}, the run at 20 {want:?}",
            healed.scratch
        );
        // healing does not touch the run itself
        let again = knockout(&mut trainer);
        assert_eq!(bits(&again.intact), bits(&before.intact), "{norm}: the trained stack changed");
        // each block's healed stack trained without the block: its numbers differ from the
        // intact stack's and from the unhealed removal's, and are finite
        for ((start, h), (_, r)) in healed.gromov.iter().zip(&unhealed.gromov) {
            assert!(
                h.val_loss.is_finite() && h.val_loss != r.val_loss,
                "{norm}: block at {start}: {h:?} {r:?}"
            );
        }
    }
}

#[test]
fn a_healed_block_stays_removed() {
    // healing the block of one layer, then knocking the same layer out again changes nothing:
    // its branch was held at zero all along (probed by the removal's own loss on a twin run)
    let config = Config { sublayer: SublayerKind::Block, ..text("post", 3) };
    let (_, mut trainer) = trained(&config, 30);
    let healed = heal(&mut trainer, 10).unwrap();
    let (start, removal) = healed.gromov[0];
    // the same continuation by hand: the trained run, the layer's branch zeroed after each
    // of 10 more updates (a run of 40 whose last 10 steps kept the branch at zero)
    let (_, mut by_hand) = trained(&config, 30);
    let zero = |t: &mut ablation_playground::training::step::train::Trainer<f32>| {
        t.stack.layers[start].sublayer.visit(&mut |p| p.value.fill(0.0))
    };
    zero(&mut by_hand);
    for _ in 0..10 {
        by_hand.replay_step();
        zero(&mut by_hand);
    }
    let loss = by_hand.probe_forward_skipping(&[]);
    assert_eq!(loss.to_bits(), removal.loss.to_bits(), "healed {removal:?}, by hand {loss}");
}
