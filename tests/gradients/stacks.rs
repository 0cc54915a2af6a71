//! Whole stacks against central differences, under every combination of the switches.

use super::*;

pub(super) fn all_configs() -> Vec<Config> {
    let mut out = Vec::new();
    for depth in [1, 2, 6] {
        for residual in [true, false] {
            for norm in NormPlacement::OPTIONS.variants() {
                for norm_kind in [NormKind::LayerNorm, NormKind::RmsNorm] {
                    if norm == NormPlacement::Off && norm_kind == NormKind::RmsNorm {
                        continue;
                    }
                    // only a pre-norm or sandwich stack has a final norm to switch off
                    let finals: &[bool] = if matches!(norm, NormPlacement::Pre | NormPlacement::Sandwich) {
                        &[true, false]
                    } else {
                        &[true]
                    };
                    for &final_norm in finals {
                        for sublayer in [
                            SublayerKind::Mlp,
                            SublayerKind::Ffn,
                            SublayerKind::Attention,
                            SublayerKind::Block,
                        ] {
                            out.push(Config {
                                depth,
                                residual,
                                norm,
                                final_norm,
                                norm_kind,
                                sublayer,
                                width: 8,
                                tokens: 5,
                                init_gain: 1.0,
                                seed: 5 + depth as u64,
                                ..Config::default()
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

#[test]
fn whole_stack_gradients_under_every_switch_combination() {
    let configs = all_configs();
    // per depth and residual: norm off, pre and sandwich (2 kinds × final norm on/off each),
    // post and deepnorm (2 kinds each)
    assert_eq!(configs.len(), 3 * 2 * (1 + 4 + 2 + 4 + 2) * 4);
    // DeepNorm's α and β differ from 1 at depth 2 and 6 (at depth 1, α = 1)
    assert!(configs.iter().any(|c| c.residual_scale() > 1.5 && c.branch_gain() < 0.5));
    assert!(configs.iter().any(|c| c.has_final_norm()) && configs.iter().any(|c| !c.has_final_norm()));
    for config in configs {
        let what = format!("{config:?}");
        let mut stack = Stack::<f64>::new(&config);
        let mut rng = Rng::new(config.seed, Stream::Probe);
        let mut x = random(config.tokens, config.width, &mut rng);
        let y = random(config.tokens, outputs(&config), &mut rng);
        // perturb γ, β and biases away from their initial values so that they matter
        stack.visit(&mut |p| {
            if p.value.nrows() == 1 {
                p.value.iter_mut().for_each(|v| *v += 0.3 * rng.normal())
            }
        });
        assert_eq!(stack.final_norm.is_some(), config.has_final_norm(), "{what}");
        stack.forward(&x, &y);
        stack.backward(&y);
        let dx = stack.input_grad().clone();
        assert!((stack.stream_grad_norm[0] - dx.norm()).abs() <= 1e-12 * dx.norm(), "{what}");
        let xc = x.clone();
        check_params(&mut stack, 3, &what, |s| s.forward(&xc, &y));
        check_input(&mut x, &dx, &what, |x| stack.forward(x, &y));
    }
}
