//! The initial weights and the data against their distributions, and sandwich's and DeepNorm's layers against their equations.

use super::*;

/// Sample mean and population std of `xs`, two passes in f64.
fn mean_and_std(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (mean, (xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n).sqrt())
}

/// `xs` look like n independent draws of N(0, σ²): the sample mean within 4 standard errors
/// (σ/√n) of 0, the sample std within 4 of its own (σ/√(2n)) of σ, and the share within ±σ
/// within 4 of its own of the normal's 68.27%.
fn assert_normal(xs: &[f64], sigma: f64, what: &str) {
    let n = xs.len() as f64;
    let (mean, std) = mean_and_std(xs);
    assert!(mean.abs() < 4.0 * sigma / n.sqrt(), "{what}: mean {mean}, σ {sigma}, n {n}");
    assert!((std - sigma).abs() < 4.0 * sigma / (2.0 * n).sqrt(), "{what}: std {std}, σ {sigma}, n {n}");
    let (p, inside) = (0.682_689_5, xs.iter().filter(|x| x.abs() < sigma).count() as f64 / n);
    assert!((inside - p).abs() < 4.0 * (p * (1.0 - p) / n).sqrt(), "{what}: {inside} within ±σ");
}

#[test]
fn initial_weights_are_normal_with_variance_gain_squared_over_fan_in() {
    let values = |m: &DMatrix<f32>| m.iter().map(|&w| w as f64).collect::<Vec<f64>>();
    for gain in [0.5, 2.0] {
        for sublayer in [SublayerKind::Mlp, SublayerKind::Block] {
            // a block stack alternates attention (four d → d maps) and FFN (d → 4d, then 4d → d)
            let config = Config { depth: 4, width: 64, sublayer, init_gain: gain, ..Config::default() };
            let stack = Stack::<f32>::new(&config);
            let d = config.width;
            let (mut fan_in_d, mut fan_in_4d) = (Vec::new(), Vec::new());
            for layer in &stack.layers {
                match &layer.sublayer {
                    Sublayer::Mlp(m) => fan_in_d.extend(values(&m.linear.weight.value)),
                    Sublayer::Attention(a) => {
                        for w in [&a.wq, &a.wk, &a.wv, &a.wo] {
                            fan_in_d.extend(values(&w.weight.value));
                        }
                    }
                    Sublayer::Ffn(f) => {
                        assert_eq!(f.down.weight.value.nrows(), 4 * d);
                        fan_in_d.extend(values(&f.up.weight.value));
                        fan_in_4d.extend(values(&f.down.weight.value));
                        for b in [&f.up.bias, &f.down.bias] {
                            assert!(b.as_ref().unwrap().value.iter().all(|&v| v == 0.0), "biases start at 0");
                        }
                    }
                }
            }
            let what = format!("{sublayer:?} gain {gain}");
            assert_normal(&fan_in_d, gain / (d as f64).sqrt(), &format!("{what}, fan-in d"));
            if sublayer == SublayerKind::Block {
                assert_normal(&fan_in_4d, gain / (4.0 * d as f64).sqrt(), &format!("{what}, fan-in 4d"));
            }
            // the readout keeps gain 1 whatever the stack's
            assert_normal(
                &values(&stack.readout.weight.value),
                1.0 / (d as f64).sqrt(),
                &format!("{what}, readout"),
            );
        }
    }
}

#[test]
fn tokens_are_standard_normal_and_the_teachers_targets_have_unit_variance() {
    let (d, tokens, batches) = (128, 256, 16);
    let mut data = DataStream::<f32>::new(5, d, d);
    let a: Vec<f64> = data.teacher.a.iter().map(|&v| v as f64).collect();
    assert_normal(&a, 1.0 / (d as f64).sqrt(), "teacher A ~ N(0, 1/d)");

    let (mut x, mut y) = (DMatrix::<f32>::zeros(tokens, d), DMatrix::<f32>::zeros(tokens, d));
    let (mut xs, mut ys, mut per_token) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..batches {
        data.next_batch(&mut x, &mut y);
        xs.extend(x.iter().map(|&v| v as f64));
        ys.extend(y.iter().map(|&v| v as f64));
        per_token
            .extend(y.row_iter().map(|row| row.iter().map(|&v| (v as f64).powi(2)).sum::<f64>() / d as f64));
    }
    assert_normal(&xs, 1.0, "tokens x ~ N(0, I)");

    // Given A, a target y_j = Σᵢ xᵢ Aᵢⱼ has variance Σᵢ Aᵢⱼ², so the targets' mean square is
    // ‖A‖²/d_out up to sampling noise; tokens are independent, so the noise's standard error is
    // that of the per-token mean squares. Over A, ‖A‖²/d_out is 1 ± √(2/(d·d_out)).
    let given_a = a.iter().map(|v| v * v).sum::<f64>() / d as f64;
    let (mean_square, token_spread) = mean_and_std(&per_token);
    let se = token_spread / (per_token.len() as f64).sqrt();
    assert!((mean_square - given_a).abs() < 4.0 * se, "mean square {mean_square} vs {given_a} ± {se}");
    assert!((given_a - 1.0).abs() < 4.0 * (2.0 / (d * d) as f64).sqrt(), "‖A‖²/d_out = {given_a}");
    let (mean, std) = mean_and_std(&ys);
    assert!(mean.abs() < 4.0 / (ys.len() as f64).sqrt(), "target mean {mean}");
    let spread = 4.0 * (se * se + 2.0 / (d * d) as f64).sqrt();
    assert!(
        (std * std - 1.0).abs() < spread,
        "the targets' variance {}: a zero prediction scores about 1",
        std * std
    );
}

/// The two placements lesson 000 names, layer by layer against their equations, built from
/// the layer's own norms and sublayer run one after another: the sandwich `x + LN₂(F(LN₁(x)))`
/// (without residual `LN₂(F(LN₁(x)))`) and DeepNorm `LN(α·x + F(x))` with α = L^¼ (without
/// residual `LN(F(x))`).
#[test]
fn sandwich_and_deepnorm_layers_follow_their_equations() {
    for norm in [NormPlacement::Sandwich, NormPlacement::DeepNorm] {
        for residual in [true, false] {
            for sublayer in [SublayerKind::Ffn, SublayerKind::Attention] {
                let config = Config { depth: 16, residual, norm, sublayer, ..Config::default() };
                let what = format!("{norm:?} residual {residual} {sublayer:?}");
                let mut stack = Stack::<f32>::new(&config);
                let layer = &mut stack.layers[3];
                let mut rng = Rng::new(2, Stream::Probe);
                let x = random(config.tokens, config.width, 3.0, 0.5, &mut rng);
                let mut y = DMatrix::zeros(config.tokens, config.width);
                let (mut f, mut ln) = (layer.sublayer.clone(), layer.norm.clone().expect("a norm"));
                let mut after = layer.norm_after.clone();
                assert_eq!(
                    after.is_some(),
                    norm == NormPlacement::Sandwich,
                    "{what}: a second norm only in a sandwich"
                );
                layer.forward(&x, &mut y);
                let m = || DMatrix::<f32>::zeros(config.tokens, config.width);
                let mut want = m();
                if norm == NormPlacement::Sandwich {
                    let (mut a, mut b) = (m(), m());
                    ln.forward(&x, &mut a);
                    f.forward(&a, &mut b);
                    after.as_mut().unwrap().forward(&b, &mut want);
                    if residual {
                        want += &x;
                    }
                } else {
                    let alpha = 16f32.powf(0.25);
                    assert_eq!(config.residual_scale(), 2.0, "α = 16^¼");
                    let mut s = m();
                    f.forward(&x, &mut s);
                    if residual {
                        s.iter_mut().zip(x.iter()).for_each(|(s, &x)| *s += alpha * x);
                    }
                    ln.forward(&s, &mut want);
                }
                assert_eq!(y, want, "{what}");
                // and the stream leaves the layer normalised exactly when the placement says so
                let top = token(&y, 0);
                let (_, std) = mean_and_std(&top);
                if norm == NormPlacement::DeepNorm || !residual {
                    assert!((std - 1.0).abs() < 1e-3, "{what}: std {std} after the layer's last norm");
                } else {
                    assert!(
                        (std - 1.0).abs() > 0.5,
                        "{what}: std {std}: the sandwich's stream is not normalised"
                    );
                }
            }
        }
    }
}

/// DeepNorm draws the weights that write a branch's output β = (4L)^-¼ times smaller (DeepNet's
/// (8N)^-¼ for N two-sublayer blocks): an FFN's both maps, attention's values and output, but
/// not its queries and keys. Every other placement draws the same bits as before.
#[test]
fn deepnorm_draws_the_branch_smaller_and_leaves_queries_and_keys() {
    let values = |m: &DMatrix<f32>| m.iter().map(|&w| w as f64).collect::<Vec<f64>>();
    let (depth, d) = (64, 64);
    let config = Config {
        depth,
        width: d,
        sublayer: SublayerKind::Block,
        norm: NormPlacement::DeepNorm,
        ..Config::default()
    };
    let beta = config.branch_gain();
    assert!((beta - 256f64.powf(-0.25)).abs() < 1e-15 && (beta - 0.25).abs() < 1e-15, "β = (4·64)^-¼ = 1/4");
    let stack = Stack::<f32>::new(&config);
    let (mut qk, mut vo, mut up, mut down) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for layer in &stack.layers {
        match &layer.sublayer {
            Sublayer::Attention(a) => {
                qk.extend(values(&a.wq.weight.value).into_iter().chain(values(&a.wk.weight.value)));
                vo.extend(values(&a.wv.weight.value).into_iter().chain(values(&a.wo.weight.value)));
            }
            Sublayer::Ffn(f) => {
                up.extend(values(&f.up.weight.value));
                down.extend(values(&f.down.weight.value));
            }
            Sublayer::Mlp(_) => unreachable!("a block stack"),
        }
    }
    let s = 1.0 / (d as f64).sqrt();
    assert_normal(&qk, s, "queries and keys: gain 1");
    assert_normal(&vo, beta * s, "values and output: β");
    assert_normal(&up, beta * s, "FFN up: β");
    assert_normal(&down, beta / (4.0 * d as f64).sqrt(), "FFN down: β");
    // pre-norm and sandwich stacks draw exactly the weights they drew before (β = 1)
    let pre = Stack::<f32>::new(&Config { norm: NormPlacement::Pre, ..config.clone() });
    let sandwich = Stack::<f32>::new(&Config { norm: NormPlacement::Sandwich, ..config.clone() });
    let weights = |s: &Stack<f32>| {
        let mut out = Vec::new();
        for l in &s.layers {
            let mut l = l.clone();
            l.sublayer.visit(&mut |p| out.extend(p.value.iter().map(|v| v.to_bits())));
        }
        out
    };
    assert_eq!(weights(&pre), weights(&sandwich));
}
