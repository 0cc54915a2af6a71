//! Each op alone against central differences: linear, norms, sublayers, cross-attention, the whole sequence models, the MSE.

use super::*;

#[test]
fn linear_gradients() {
    let mut rng = Draw::fresh(Rng::new(1, Stream::Layer(0)));
    check_op(Linear::<f64>::new(5, 3, 1.0, true, &mut rng), 4, 5, 3, "linear");
    check_op(Linear::<f64>::new(3, 6, 1.0, false, &mut rng), 4, 3, 6, "linear (no bias)");
}

#[test]
fn norm_gradients() {
    check_op(Norm::<f64>::new(NormKind::LayerNorm, 5, 8), 5, 8, 8, "layernorm");
    check_op(Norm::<f64>::new(NormKind::RmsNorm, 5, 8), 5, 8, 8, "rmsnorm");
}

#[test]
fn sublayer_gradients() {
    let mut rng = Draw::fresh(Rng::new(2, Stream::Layer(0)));
    check_op(Mlp::<f64>::new(6, 8, 1.0, &mut rng), 6, 8, 8, "mlp (relu)");
    check_op(Ffn::<f64>::new(6, 8, 1.0, &mut rng), 6, 8, 8, "ffn (gelu)");
    let one = InitGain { gain: 1.0, branch: 1.0 };
    check_op(Attention::<f64>::new(7, 7, 8, 4, one, &mut rng), 7, 8, 8, "attention");
    // other numbers of heads: one head of all 8 features, two of 4
    check_op(Attention::<f64>::new(7, 7, 8, 1, one, &mut rng), 7, 8, 8, "attention, 1 head");
    check_op(
        Attention::<f64>::new(8, 4, 8, 2, one, &mut rng),
        8,
        8,
        8,
        "attention, 2 heads, 2 sequences of 4",
    );
    // batches of several sequences: a token sees only its own sequence's earlier tokens
    check_op(Attention::<f64>::new(8, 4, 8, 4, one, &mut rng), 8, 8, 8, "attention, 2 sequences of 4");
    check_op(Attention::<f64>::new(9, 3, 8, 4, one, &mut rng), 9, 8, 8, "attention, 3 sequences of 3");
    // DeepNorm's smaller values and output
    let deep = InitGain { gain: 1.0, branch: 0.4 };
    check_op(Attention::<f64>::new(7, 7, 8, 4, deep, &mut rng), 7, 8, 8, "attention, DeepNorm's gains");
    // without the mask: every query sees every key of its sequence
    for (t, c, heads) in [(7, 7, 4), (8, 4, 2), (9, 3, 1)] {
        let mut a = Attention::<f64>::new(t, c, 8, heads, one, &mut rng);
        a.set_masked(false);
        check_op(a, t, 8, 8, &format!("attention without the mask, {heads} heads, sequences of {c}"));
    }
}

/// Cross-attention: queries from the input, keys and values from a fixed memory of another
/// length; the input's gradient and the memory's, against central differences.
#[test]
fn cross_attention_gradients() {
    let mut draw = Draw::fresh(Rng::new(5, Stream::Layer(0)));
    let one = InitGain { gain: 1.0, branch: 1.0 };
    for ((t, c), (tm, cm), heads) in [((4, 4), (6, 6), 2), ((6, 3), (8, 4), 4), ((8, 4), (8, 4), 1)] {
        let what =
            format!("cross-attention, {t} queries in sequences of {c}, {tm} keys in {cm}, {heads} heads");
        let mut a = Attention::<f64>::cross((t, c), (tm, cm), 8, heads, one, &mut draw);
        let mut rng = Rng::new(12, Stream::Data);
        a.visit(&mut |p| p.value.iter_mut().for_each(|v| *v += 0.3 * rng.normal()));
        let memory = random(tm, 8, &mut rng);
        a.memory.as_mut().unwrap().x.copy_from(&memory);
        let mut x = random(t, 8, &mut rng);
        let r = random(t, 8, &mut rng);
        let (mut y, mut dx) = (DMatrix::zeros(t, 8), DMatrix::zeros(t, 8));
        a.forward(&x, &mut y);
        a.backward(&x, &r, &mut dx, &mut Scratch::default());
        let d_memory = a.memory.as_ref().unwrap().grad.clone();
        let xc = x.clone();
        check_params(&mut a, 12, &what, |a| {
            let mut y = DMatrix::zeros(t, 8);
            a.forward(&xc, &mut y);
            weighted(&y, &r)
        });
        check_input(&mut x, &dx, &format!("{what}, queries"), |x| {
            let mut y = DMatrix::zeros(t, 8);
            a.forward(x, &mut y);
            weighted(&y, &r)
        });
        let mut m = memory.clone();
        check_input(&mut m, &d_memory, &format!("{what}, memory"), |m| {
            a.memory.as_mut().unwrap().x.copy_from(m);
            let mut y = DMatrix::zeros(t, 8);
            a.forward(&xc, &mut y);
            weighted(&y, &r)
        });
    }
}

/// The encoder–decoder and the decoder without the mask, the whole model (ids →
/// embeddings → encoder → memory → decoder with cross-attention → unembedding → cross-entropy
/// on the target), against finite differences of every parameter, under every placement with
/// the residual on and off.
#[test]
fn encoder_decoder_and_unmasked_gradients_under_every_placement() {
    for norm in NormPlacement::OPTIONS.variants() {
        for residual in [true, false] {
            for (task, stack, mask) in [
                (TaskKind::Reverse, StackKind::EncoderDecoder, MaskKind::Causal),
                (TaskKind::Reverse, StackKind::EncoderDecoder, MaskKind::None),
                (TaskKind::Text, StackKind::Decoder, MaskKind::None),
            ] {
                let depth = if stack == StackKind::EncoderDecoder { 5 } else { 2 };
                let config = Config {
                    task,
                    stack,
                    mask,
                    norm,
                    residual,
                    sublayer: SublayerKind::Block,
                    depth,
                    width: 8,
                    heads: 2,
                    tokens: 8,
                    context: 4,
                    ..Config::default()
                };
                config.validate().unwrap();
                let what = format!("{task:?} {stack:?} mask {mask:?} {norm:?} residual {residual}");
                let mut stack = Stack::<f64>::new(&config);
                let mut rng = Rng::new(6, Stream::Data);
                let ids: Vec<u32> = (0..8).map(|_| (rng.next_u64() % config.vocab() as u64) as u32).collect();
                let next: Vec<u32> =
                    (0..8).map(|_| (rng.next_u64() % config.vocab() as u64) as u32).collect();
                let scored =
                    if task == TaskKind::Reverse { (0..8).map(|t| t % 4 >= 2).collect() } else { vec![] };
                let batch = Batch::Tokens(Tokens { ids, next, scored });
                // give the norms' γ, β non-trivial values too
                stack.visit(&mut |p| p.value.iter_mut().for_each(|v| *v += 0.2 * rng.normal()));
                stack.forward_batch(&batch);
                stack.backward_batch(&batch);
                check_params(&mut stack, 3, &what, |s| s.forward_batch(&batch));
            }
        }
    }
}

/// The sequence tasks' whole model, ids → embeddings → stack → unembedding → cross-entropy
/// (over the scored positions only, for the copy task), against finite differences of every
/// parameter, the embeddings' included.
#[test]
fn whole_stack_gradients_on_the_sequence_tasks() {
    for (task, sublayer, residual, norm) in [
        (TaskKind::Copy, SublayerKind::Block, true, NormPlacement::Pre),
        (TaskKind::Copy, SublayerKind::Attention, false, NormPlacement::Post),
        (TaskKind::Text, SublayerKind::Block, true, NormPlacement::Pre),
        (TaskKind::Text, SublayerKind::Mlp, true, NormPlacement::Off),
        (TaskKind::Text, SublayerKind::Block, true, NormPlacement::Sandwich),
        (TaskKind::Copy, SublayerKind::Block, true, NormPlacement::DeepNorm),
    ] {
        let config = Config {
            task,
            sublayer,
            residual,
            norm,
            depth: 2,
            width: 8,
            tokens: 8,
            context: 4,
            ..Config::default()
        };
        let what = format!("{config:?}");
        let mut stack = Stack::<f64>::new(&config);
        let mut rng = Rng::new(4, Stream::Data);
        let ids: Vec<u32> = (0..8).map(|_| (rng.next_u64() % config.vocab() as u64) as u32).collect();
        let next: Vec<u32> = (0..8).map(|_| (rng.next_u64() % config.vocab() as u64) as u32).collect();
        let scored = if task == TaskKind::Copy { (0..8).map(|t| t % 4 >= 2).collect() } else { vec![] };
        let batch = Batch::Tokens(Tokens { ids, next, scored });
        stack.forward_batch(&batch);
        stack.backward_batch(&batch);
        assert!(stack.embedding.is_some(), "{what}");
        check_params(&mut stack, 3, &what, |s| s.forward_batch(&batch));
    }
}

#[test]
fn mse_gradient() {
    let mut rng = Rng::new(3, Stream::Data);
    let mut pred = random(4, 3, &mut rng);
    let target = random(4, 3, &mut rng);
    let mut dpred = DMatrix::zeros(4, 3);
    mse_backward(&pred, &target, &mut dpred);
    check_input(&mut pred, &dpred, "mse", |p| mse(p, &target));
}
