//! The linear probe (`training::live::probe`) against what a stack built to carry a feature, or to
//! carry nothing, must give in closed form.

use ablation_playground::config::{Config, NormPlacement, TaskKind};
use ablation_playground::model::batch::Batch;
use ablation_playground::model::param::Params;
use ablation_playground::model::rng::Stream;
use ablation_playground::training::live::probe::{first_attention, probe_accuracies, PROBE_BATCHES};
use ablation_playground::training::step::train::Trainer;
use ablation_playground::training::tasks::task::Batches;

fn text(residual: bool, norm: NormPlacement) -> Config {
    let c = Config::default().with_task("text").unwrap();
    Config { depth: 4, residual, norm, ..c }
}

/// A text trainer whose sublayers all output zeros (every weight and bias 0).
fn zeroed(config: &Config) -> Trainer<f32> {
    let mut trainer = Trainer::<f32>::new(config);
    for layer in &mut trainer.stack.layers {
        layer.sublayer.visit(&mut |p| p.value.fill(0.0));
    }
    trainer
}

#[test]
fn a_stream_that_carries_the_embedding_up_is_read_as_well_at_every_depth() {
    // residual on, pre-norm, every branch zero: x_ℓ = x₀ at every depth, to the bit
    let mut trainer = zeroed(&text(true, NormPlacement::Pre));
    let probe = probe_accuracies(&mut trainer, &[]).unwrap();
    let got = &probe.current;
    assert_eq!(got.len(), 5);
    assert!(got.iter().all(|a| a.to_bits() == got[0].to_bits()), "the same stream at every depth: {got:?}");
    // the token is there to read: far above the most frequent token's share
    assert!(got[0] > 0.5, "x₀ = E[token] + P[position] read at {}", got[0]);
    // the token before is not written anywhere: what x₀ says of it (through the current
    // token's bigram statistics) is all any depth says, and far less than the current token
    let prev = &probe.previous;
    assert!(
        prev.iter().all(|a| a.to_bits() == prev[0].to_bits()),
        "the same stream at every depth: {prev:?}"
    );
    assert!(
        prev[0] < 0.6 * got[0],
        "the token before read at {} from x₀, the current at {}",
        prev[0],
        got[0]
    );
}

#[test]
fn knocking_out_the_writer_is_zeroing_its_branch() {
    // residual on, pre-norm: a knocked-out layer's branch is zero, so the probe and the
    // held-out loss with the first attention layer skipped are those of a stack whose first
    // attention layer outputs zeros, bit for bit
    let config = text(true, NormPlacement::Pre);
    let writer = first_attention(&config).expect("a block stack has attention");
    let mut skipped = Trainer::<f32>::new(&config);
    let mut zeroed = Trainer::<f32>::new(&config);
    zeroed.stack.layers[writer].sublayer.visit(&mut |p| p.value.fill(0.0));
    let a = probe_accuracies(&mut skipped, &[writer]).unwrap();
    let b = probe_accuracies(&mut zeroed, &[]).unwrap();
    assert_eq!(
        a.held_out_loss.to_bits(),
        b.held_out_loss.to_bits(),
        "{} against {}",
        a.held_out_loss,
        b.held_out_loss
    );
    assert_eq!(a.previous, b.previous);
    assert_eq!(a.current, b.current);
    // and without the knockout the stack is another one
    let intact = probe_accuracies(&mut skipped, &[]).unwrap();
    assert_ne!(intact.held_out_loss.to_bits(), a.held_out_loss.to_bits());
}

#[test]
fn a_stream_that_carries_nothing_scores_the_most_frequent_tokens_share() {
    // residual off, no norm, every branch zero: x_ℓ = 0 above the embedding, so the probe has
    // only its bias: it always names the token most frequent in its fitting batches
    let config = text(false, NormPlacement::Off);
    assert_eq!(config.task, TaskKind::Text);
    let mut trainer = zeroed(&config);
    let got = probe_accuracies(&mut trainer, &[]).unwrap().current;
    let mut counts = std::collections::HashMap::new();
    let mut data = Batches::<f32>::from_stream(&config, Stream::LinearProbe);
    let mut batch = Batches::empty(&config);
    for _ in 0..PROBE_BATCHES {
        data.next(&mut batch);
        let Batch::Tokens(t) = &batch else { panic!("a text batch") };
        for &id in &t.ids {
            *counts.entry(id).or_insert(0usize) += 1;
        }
    }
    let commonest =
        counts.iter().max_by_key(|(id, n)| (**n, std::cmp::Reverse(**id))).map(|(id, _)| *id).unwrap();
    let (mut hits, mut n) = (0, 0);
    for b in trainer.held_out() {
        let Batch::Tokens(t) = b else { panic!("a text batch") };
        hits += t.ids.iter().filter(|&&id| id == commonest).count();
        n += t.ids.len();
    }
    let want = hits as f64 / n as f64;
    for (l, &a) in got.iter().enumerate().skip(1) {
        assert!((a - want).abs() < 1e-12, "depth {l}: {a}, the most frequent token's share {want}");
    }
    assert!(got[0] > 2.0 * want, "x₀ carries the token: {} against {want}", got[0]);
}

#[test]
fn the_regression_has_no_tokens_to_probe() {
    let mut trainer = Trainer::<f32>::new(&Config::default());
    assert!(probe_accuracies(&mut trainer, &[]).is_err());
}
