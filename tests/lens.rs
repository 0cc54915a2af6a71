//! The lens on the stack against its definitions: the readout at every depth (the model's own
//! readout applied to `x_ℓ`) by hand on a tiny stack, and equal to the loss at the top to the
//! bit; the update ratios from the stream; the attention maps as probabilities of a causal
//! head; and a copy-trained stack's copying head, at the offset where the symbol to write stands.

use ablation_playground::config::{Config, NormPlacement, SublayerKind, TaskKind};
use ablation_playground::model::batch::Batch;
use ablation_playground::model::lens::attention_layer_near;
use ablation_playground::model::norm::EPS;
use ablation_playground::training::live::attention_view::{all_attention_maps, attention_maps};
use ablation_playground::training::live::session::Session;
use ablation_playground::training::step::report::{run, trained, Snapshot};
use ablation_playground::training::step::train::Trainer;
use ablation_playground::training::tasks::task::copy_task;
use nalgebra::DMatrix;

fn tiny(task: TaskKind, norm: NormPlacement) -> Config {
    let (tokens, context) = if task == TaskKind::Teacher { (6, 0) } else { (16, 8) };
    Config {
        task,
        depth: 3,
        width: 8,
        tokens,
        context,
        norm,
        sublayer: SublayerKind::Block,
        ..Config::default()
    }
}

/// `LN_f(x) R` (or `x R` without a final norm) in f64, from the stack's own parameters.
fn read_by_hand(trainer: &Trainer<f32>, x: &DMatrix<f32>) -> DMatrix<f64> {
    let stack = &trainer.stack;
    let x = x.map(f64::from);
    let normed = match &stack.final_norm {
        None => x,
        Some(n) => {
            let (gamma, beta) =
                (n.gamma.value.map(f64::from), n.beta.as_ref().map(|b| b.value.map(f64::from)));
            let mut out = x.clone();
            for t in 0..x.nrows() {
                let row = x.row(t);
                let mean = row.mean();
                let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / row.len() as f64;
                for j in 0..x.ncols() {
                    let shift = beta.as_ref().map_or(0.0, |b| b[(0, j)]);
                    out[(t, j)] = gamma[(0, j)] * (x[(t, j)] - mean) / (var + EPS).sqrt() + shift;
                }
            }
            out
        }
    };
    normed * stack.readout.weight.value.map(f64::from)
}

/// The loss of `pred` on `batch` by its definition: the mean squared error, or the mean over
/// the scored positions of `−ln softmax(logits)[next]`.
fn loss_by_hand(pred: &DMatrix<f64>, batch: &Batch<f32>) -> f64 {
    match batch {
        Batch::Values { y, .. } => {
            pred.iter().zip(y.iter()).map(|(p, &y)| (p - f64::from(y)).powi(2)).sum::<f64>()
                / pred.len() as f64
        }
        Batch::Tokens(t) => {
            let rows: Vec<usize> = (0..pred.nrows()).filter(|&r| t.is_scored(r)).collect();
            let total: f64 = rows
                .iter()
                .map(|&r| {
                    let row = pred.row(r);
                    let max = row.max();
                    let log_sum = row.iter().map(|l| (l - max).exp()).sum::<f64>().ln() + max;
                    log_sum - row[t.next[r] as usize]
                })
                .sum();
            total / rows.len() as f64
        }
    }
}

#[test]
fn the_readout_at_every_depth_is_the_models_readout_of_that_stream_by_hand() {
    for task in [TaskKind::Teacher, TaskKind::Copy, TaskKind::Text] {
        for norm in [NormPlacement::Pre, NormPlacement::Post, NormPlacement::Off] {
            let config = tiny(task, norm);
            let (_, mut trainer) = trained(&config, 20);
            trainer.probe_forward_skipping(&[]);
            let lens = trainer.probe_readout_losses();
            for (l, &got) in lens.iter().enumerate() {
                let want =
                    loss_by_hand(&read_by_hand(&trainer, &trainer.stack.stream[l]), trainer.probe_batch());
                let close = (got - want).abs() <= 1e-4 * want.abs().max(1e-3);
                assert!(close, "{task:?} {norm:?} depth {l}: lens {got}, by hand {want}");
            }
        }
    }
}

#[test]
fn the_readout_at_the_top_is_the_loss_to_the_bit() {
    // the regression: the probe loss of the same snapshot
    for norm in [NormPlacement::Pre, NormPlacement::Post, NormPlacement::Off] {
        let r = run(&Config { depth: 6, norm, ..Config::default() }, 30);
        for s in [&r.init, &r.last] {
            assert_eq!(s.readout_loss.len(), 7);
            assert_eq!(s.readout_loss[6].to_bits(), s.probe_loss.to_bits(), "{norm:?}");
        }
    }
    // the sequence tasks: the held-out loss measured at the same moment, at init and at the end
    for task in [TaskKind::Copy, TaskKind::Text] {
        let config = tiny(task, NormPlacement::Pre);
        let r = run(&config, 120);
        let evals = &r.task.as_ref().unwrap().evals;
        assert_eq!(r.init.readout_loss[3].to_bits(), evals[0].loss.to_bits(), "{task:?} at step 0");
        let last = evals.last().unwrap();
        assert_eq!(last.step, 120);
        assert_eq!(r.last.readout_loss[3].to_bits(), last.loss.to_bits(), "{task:?} at the end");
    }
}

#[test]
fn measuring_the_lens_changes_no_bit_of_training() {
    // the held-out lens and the probe's readouts run between steps: the losses are those of a
    // run that never looked (the report's loss curve is computed by the same steps)
    let config = tiny(TaskKind::Text, NormPlacement::Pre);
    let looked = run(&config, 150);
    let mut plain = Trainer::<f32>::new(&config);
    let losses: Vec<f64> = (0..150).map(|_| plain.one_step(true)).collect();
    for (a, b) in looked.loss.iter().zip(&losses) {
        assert_eq!(a.to_bits(), b.to_bits());
    }
}

#[test]
fn update_ratios_are_the_change_of_the_stream_over_its_size() {
    for norm in [NormPlacement::Pre, NormPlacement::Post] {
        let config = Config { depth: 5, norm, ..Config::default() };
        let mut trainer = Trainer::<f32>::new(&config);
        let s = Snapshot::take(&mut trainer);
        let stream = &trainer.stack.stream;
        for l in 0..5 {
            let (x, y) = (stream[l].map(f64::from), stream[l + 1].map(f64::from));
            let want = (&y - &x).norm() / x.norm();
            assert!(
                (s.update_ratio[l] - want).abs() <= 1e-12 * want,
                "{norm:?} layer {l}: {} vs {want}",
                s.update_ratio[l]
            );
        }
    }
}

#[test]
fn attention_rows_are_probabilities_of_the_past_only() {
    for (task, tokens, context) in
        [(TaskKind::Copy, 32, 16), (TaskKind::Text, 32, 32), (TaskKind::Text, 64, 16)]
    {
        let config = Config {
            task,
            tokens,
            context,
            depth: 4,
            width: 16,
            sublayer: SublayerKind::Block,
            ..Config::default()
        };
        let (_, mut trainer) = trained(&config, 30);
        trainer.probe_forward_skipping(&[]);
        let maps = all_attention_maps(&trainer);
        assert_eq!(
            maps.iter().map(|m| m.layer).collect::<Vec<_>>(),
            [0, 2],
            "block stacks attend at even layers"
        );
        for m in &maps {
            let c = m.size();
            assert_eq!(c, context);
            assert_eq!(m.weights.len(), m.heads * c * c);
            for h in 0..m.heads {
                let p = m.head(h);
                for q in 0..c {
                    let row = &p[q * c..(q + 1) * c];
                    let sum: f64 = row.iter().map(|&x| f64::from(x)).sum();
                    assert!((sum - 1.0).abs() < 1e-5, "layer {} head {h} row {q} sums to {sum}", m.layer);
                    assert!(row[..=q].iter().all(|&x| (0.0..=1.0).contains(&x)));
                    assert!(row[q + 1..].iter().all(|&x| x == 0.0), "the future is exactly 0");
                }
            }
        }
    }
    // the panel's layer: the nearest that attends at or below, else the first
    assert_eq!(attention_layer_near(&[0, 2, 4], 3), Some(2));
    assert_eq!(attention_layer_near(&[1, 3], 0), Some(1));
    assert_eq!(attention_layer_near(&[], 5), None);
}

/// The study (`studies/attention-heads.toml`, docs/findings.md, "What the layers do"): over seeds 1–3, the copy
/// preset's trained stack has a head in its first attention layer (layer 0) that puts 0.99–1.00
/// of its weight `length` positions back in the repeated half, where the symbol to write stands.
#[test]
fn a_copy_trained_stack_has_a_head_that_looks_back_where_the_symbol_to_write_stands() {
    for seed in 1..=3 {
        let config = Config { seed, ..ablation_playground::config::copy_defaults() };
        let (_, mut trainer) = trained(&config, 1000);
        trainer.probe_forward_skipping(&[]);
        let length = copy_task(&config).length();
        let best = all_attention_maps(&trainer)
            .iter()
            .flat_map(|m| (0..m.heads).map(move |h| (m.layer, m.focus(h))))
            .filter(|(_, f)| f.offset == length as isize)
            .max_by(|a, b| a.1.share.total_cmp(&b.1.share))
            .expect("some head looks back by the string's length");
        assert!(
            best.0 == 0 && best.1.share >= 0.95,
            "seed {seed}: the best copying head (layer {}) puts {:.3} there",
            best.0,
            best.1.share
        );
    }
}

#[test]
fn the_session_shows_the_chosen_layer_and_changing_it_keeps_the_run() {
    let config = Config { depth: 6, ..tiny(TaskKind::Copy, NormPlacement::Pre) };
    let mut session = Session::new(&config);
    for _ in 0..10 {
        session.train_step();
    }
    assert_eq!(session.frame().attention.unwrap().layer, 0);
    let chosen = Config { attention_layer: 5, ..config.clone() };
    assert!(!session.restart(&chosen, 2), "the attention panel's layer changes no run");
    assert_eq!(session.step(), 10);
    let frame = session.frame();
    let maps = frame.attention.as_ref().unwrap();
    assert_eq!(
        (maps.layer, maps.layers.as_slice()),
        (4, &[0, 2, 4][..]),
        "the nearest attention layer at or below 5"
    );
    // the maps are the probe's, as the CLI reads them from the same weights
    let mut trainer = Trainer::<f32>::new(&config);
    for _ in 0..10 {
        trainer.one_step(true);
    }
    trainer.probe_forward_skipping(&[]);
    assert_eq!(attention_maps(&trainer, 4).as_ref(), Some(maps));
    // a frame crosses as bytes with its maps
    let decoded = ablation_playground::training::live::frame::Frame::decode(&frame.encode()).unwrap();
    assert_eq!(decoded, frame);
    // the teacher has none
    assert!(Session::new(&Config::default()).frame().attention.is_none());
}

#[test]
fn a_frame_carries_one_attention_layers_maps_whatever_the_depth() {
    // depth 96 of blocks: 48 attention sublayers, and a frame holds the chosen one's alone
    let config = Config { depth: 96, attention_layer: 95, ..tiny(TaskKind::Copy, NormPlacement::Pre) };
    let mut session = Session::new(&config);
    session.train_step();
    let frame = session.frame();
    let maps = frame.attention.as_ref().unwrap();
    assert_eq!(maps.layers.len(), 48);
    assert_eq!(maps.layer, 94, "the nearest attention sublayer at or below 95");
    assert_eq!(maps.weights.len(), 4 * 8 * 8, "one layer's four heads of 8 × 8");
    let without = ablation_playground::training::live::frame::Frame { attention: None, ..frame.clone() };
    let extra = frame.encode().len() - without.encode().len();
    assert!(
        extra < 4 * 8 * 8 * 4 + 64 + 48 * 8 + 64 + 44 + 8 * 4,
        "the maps add {extra} bytes: one layer's weights, the layer list, the sequence, the rows' and columns' \
         positions and each position's answer"
    );
}
