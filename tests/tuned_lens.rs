//! The tuned lens (`training/measures/tuned_lens.rs`, its loss `model/loss.rs`'s `kl_and_gradient`): its gradients against finite differences, its top
//! layer the model's own held-out loss, a fit that lowers every layer's KL, a run it leaves
//! as it was, and the rule that says when the fit has converged.

use ablation_playground::config::*;
use ablation_playground::model::loss::kl_and_gradient;
use ablation_playground::model::param::Params;
use ablation_playground::model::rng::{Rng, Stream};
use ablation_playground::model::stack::Stack;
use ablation_playground::training::measures::tuned_lens::{
    fit_tuned_lens, lens_converged, tuned_readout_losses, LensBudget, TunedLens, FIT_STEPS,
};
use ablation_playground::training::step::report::trained;
use ablation_playground::training::tasks::task::Batches;
use nalgebra::DMatrix;

/// A small text stack: 2 blocks (4 sublayers) of width 8 in 2 heads, one sequence of 16.
fn tiny(norm: NormPlacement) -> Config {
    Config { depth: 4, width: 8, heads: 2, tokens: 16, context: 16, norm, ..task_defaults(TaskKind::Text) }
}

#[test]
fn kl_and_its_gradient_against_their_definitions() {
    let (t, v) = (5, 4);
    let mut rng = Rng::new(3, Stream::Data);
    let logits = DMatrix::<f64>::from_fn(t, v, |_, _| 2.0 * rng.normal());
    let raw = DMatrix::<f64>::from_fn(t, v, |_, _| rng.uniform() + 0.05);
    let p = DMatrix::from_fn(t, v, |r, c| raw[(r, c)] / raw.row(r).sum());
    let scored = [true, false, true, true, false];
    let kl_of = |z: &DMatrix<f64>| {
        // KL(p ‖ softmax(z)) = Σ_c p_c (ln p_c − ln q_c), averaged over the scored rows
        let rows: Vec<usize> = (0..t).filter(|&r| scored[r]).collect();
        let per_row = |r: usize| {
            let log_sum = z.row(r).iter().map(|x| x.exp()).sum::<f64>().ln();
            (0..v).map(|c| p[(r, c)] * (p[(r, c)].ln() - (z[(r, c)] - log_sum))).sum::<f64>()
        };
        rows.iter().map(|&r| per_row(r)).sum::<f64>() / rows.len() as f64
    };
    let mut grad = DMatrix::zeros(t, v);
    let kl = kl_and_gradient(&logits, &p, &scored, &mut grad, &mut (Vec::new(), Vec::new()));
    assert!((kl - kl_of(&logits)).abs() < 1e-12, "{kl} against {}", kl_of(&logits));
    let h = 1e-6;
    for r in 0..t {
        for c in 0..v {
            let (mut up, mut down) = (logits.clone(), logits.clone());
            up[(r, c)] += h;
            down[(r, c)] -= h;
            let numeric = (kl_of(&up) - kl_of(&down)) / (2.0 * h);
            assert!((grad[(r, c)] - numeric).abs() < 1e-8, "({r}, {c}): {} against {numeric}", grad[(r, c)]);
        }
    }
    // the KL of a distribution against itself is zero, and so is its gradient
    let same = p.map(f64::ln);
    let kl = kl_and_gradient(&same, &p, &[], &mut grad, &mut (Vec::new(), Vec::new()));
    assert!(kl.abs() < 1e-12 && grad.amax() < 1e-12, "{kl}, {}", grad.amax());
}

#[test]
fn the_translators_gradients_against_finite_differences() {
    // pre-norm reads the lens through the final norm; post-norm has none
    for norm in [NormPlacement::Pre, NormPlacement::Post] {
        let config = tiny(norm);
        let mut stack = Stack::<f64>::new(&config);
        let mut lens = TunedLens::new(&config, &stack).unwrap();
        // translators away from the identity, so that A and b both matter
        let mut rng = Rng::new(5, Stream::Data);
        lens.translators.visit(&mut |p| p.value.iter_mut().for_each(|x| *x += 0.2 * rng.normal()));
        let mut batches = Batches::<f64>::from_stream(&config, Stream::Lens);
        let mut batch = Batches::<f64>::empty(&config);
        batches.next(&mut batch);
        let kl = lens.gradients(&mut stack, &batch);
        assert_eq!(kl.len(), config.depth);
        let mut grads = Vec::new();
        lens.translators.visit(&mut |p| grads.push(p.grad.clone()));
        let h = 1e-5;
        let mut index = 0;
        for l in 0..config.depth {
            // the weight A_ℓ and the bias b_ℓ, a few entries of each
            for part in 0..2 {
                let g = &grads[index];
                for (i, j) in [(0, 0), (g.nrows() - 1, g.ncols() - 1), (g.nrows() / 2, 1)] {
                    let mut nudge = |by: f64| {
                        let mut n = 0;
                        lens.translators.visit(&mut |p| {
                            if n == index {
                                p.value[(i, j)] += by;
                            }
                            n += 1;
                        });
                        lens.gradients(&mut stack, &batch)[l]
                    };
                    let up = nudge(h);
                    let down = nudge(-2.0 * h);
                    nudge(h);
                    let numeric = (up - down) / (2.0 * h);
                    let got = g[(i, j)];
                    assert!(
                        (got - numeric).abs() <= 1e-6 * (1.0 + numeric.abs()),
                        "{norm:?} layer {l} part {part} ({i}, {j}): {got} against {numeric}"
                    );
                }
                index += 1;
            }
        }
    }
}

#[test]
fn the_top_layer_is_the_models_loss_and_the_fit_lowers_every_layers_kl() {
    for norm in [NormPlacement::Pre, NormPlacement::Post] {
        let config = Config { depth: 4, width: 16, steps: 200, norm, ..task_defaults(TaskKind::Text) };
        let (_, mut trainer) = trained(&config, 200);
        let model_loss = trainer.evals.last().expect("a held-out measurement").loss;
        let logit_lens = trainer.readout_loss.clone();
        // one fixed batch, measured before and after the fit
        let mut batches = Batches::<f32>::from_stream(&config, Stream::Lens);
        let mut batch = Batches::<f32>::empty(&config);
        batches.next(&mut batch);
        let mut lens = TunedLens::new(&config, &trainer.stack).unwrap();
        let before = lens.gradients(&mut trainer.stack, &batch);
        while !lens.is_fitted() {
            lens.fit_step(&mut trainer.stack);
        }
        assert_eq!(lens.step, FIT_STEPS);
        let after = lens.gradients(&mut trainer.stack, &batch);
        for l in 0..config.depth {
            assert!(
                after[l] < before[l],
                "{norm:?}: layer {l}'s KL {} after the fit, {} before",
                after[l],
                before[l]
            );
        }
        let tuned = lens.held_out_losses(&mut trainer);
        assert_eq!(tuned.len(), config.depth + 1);
        assert_eq!(
            tuned[config.depth].to_bits(),
            model_loss.to_bits(),
            "{norm:?}: {tuned:?} against {model_loss}"
        );
        assert_eq!(tuned[config.depth].to_bits(), logit_lens[config.depth].to_bits());
        assert!(tuned.iter().all(|x| x.is_finite()), "{tuned:?}");
        // the one-call form fits the same lens
        let again = tuned_readout_losses(&mut trainer).unwrap();
        assert_eq!(
            again.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            tuned.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
    }
}

#[test]
fn fitting_a_lens_leaves_the_run_as_it_was() {
    let config = Config { depth: 2, width: 16, ..task_defaults(TaskKind::Copy) };
    let (_, mut lensed) = trained(&config, 20);
    let (_, mut untouched) = trained(&config, 20);
    tuned_readout_losses(&mut lensed).unwrap();
    for _ in 0..5 {
        assert_eq!(lensed.one_step(true).to_bits(), untouched.one_step(true).to_bits());
    }
}

#[test]
fn the_regression_has_no_tuned_lens() {
    let (_, mut trainer) = trained(&Config { depth: 2, ..Config::default() }, 2);
    let e = tuned_readout_losses(&mut trainer).unwrap_err();
    assert!(e.contains("regression"), "{e}");
}

#[test]
fn the_pools_job_in_slices_fits_the_same_lens_as_the_cli() {
    use ablation_playground::comparisons::Comparisons;
    use ablation_playground::training::runs::job::{Job, JobRunner, Report};
    let config = Config { depth: 3, width: 16, ..task_defaults(TaskKind::Copy) };
    let (_, mut trainer) = trained(&config, 40);
    let weights = trainer.weights();
    let expected = tuned_readout_losses(&mut trainer).unwrap();
    // the live worker's stack, as the knockout gets it, started as a lens by the comparisons
    let mut comparisons = Comparisons::default();
    comparisons.start_tuned_lens(Job::Knockout { config: config.clone(), step: 40, weights });
    let id = comparisons.wanted()[0];
    let (_, job) = Job::decode(&comparisons.job(id).unwrap()).unwrap();
    assert!(matches!(job, Job::TunedLens { step: 40, .. }), "{:?}", job.config());
    let mut runner = JobRunner::new(job).unwrap();
    let mut slices = 0;
    while !runner.advance(7) {
        slices += 1;
        let (_, done, report) = Report::decode(&runner.encoded_report(id)).unwrap();
        let Report::TunedLens(fit) = report else { panic!("a lens's report") };
        assert!(!done && fit.losses.is_empty() && fit.fit_steps <= FIT_STEPS);
    }
    assert!(slices >= FIT_STEPS / 7, "{slices} slices of 7 updates");
    assert!(comparisons.report(&runner.encoded_report(id)).unwrap());
    let lens = comparisons.state().tuned_lens.unwrap();
    assert!(lens.done && lens.failed.is_none() && lens.fit_steps == FIT_STEPS && lens.step == 40);
    let bits = |xs: &[f64]| xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&lens.losses), bits(&expected));
    // a restarted live run forgets it
    comparisons.clear_knockout();
    assert!(comparisons.state().tuned_lens.is_none() && comparisons.wanted().is_empty());
    // the regression's stack is refused by the job, in words
    let (_, mut teacher) = trained(&Config { depth: 2, ..Config::default() }, 2);
    let job = Job::TunedLens {
        config: Config { depth: 2, ..Config::default() },
        step: 2,
        weights: teacher.weights(),
    };
    assert!(JobRunner::new(job).err().unwrap().contains("regression"));
}

#[test]
fn the_convergence_rule_asks_a_stretch_to_lower_the_kl_by_one_percent_or_a_thousandth_of_a_nat() {
    let at = |kls: &[f64]| kls.iter().enumerate().map(|(i, &k)| (i * FIT_STEPS, k)).collect::<Vec<_>>();
    let cases: [(&[f64], bool); 7] = [
        (&[1.0], false),                 // one measurement: no stretch yet
        (&[1.0, 0.5], false),            // halved
        (&[1.0, 0.5, 0.496], true),      // 0.8% of 0.5
        (&[1.0, 0.5, 0.494], false),     // 1.2%
        (&[0.2, 0.0030, 0.0025], true),  // 17%, but 0.0005 nats
        (&[0.2, 0.0050, 0.0035], false), // 0.0015 nats
        (&[0.2, 0.01, 0.011], true),     // it rose
    ];
    for (kls, want) in cases {
        assert_eq!(lens_converged(&at(kls)), want, "held-out KL {kls:?}");
    }
}

#[test]
fn a_fit_to_convergence_stops_at_the_first_stretch_the_rule_accepts() {
    let config = tiny(NormPlacement::Post);
    let (_, mut trainer) = trained(&config, 150);
    let fit = fit_tuned_lens(&mut trainer, LensBudget::Converged { max_steps: 16 * FIT_STEPS }).unwrap();
    let kl = &fit.kl;
    assert_eq!(fit.converged, Some(true), "not converged in {} updates: {kl:?}", fit.steps);
    assert_eq!(kl.last().unwrap().0, fit.steps, "{kl:?}");
    assert!(
        kl.iter().enumerate().all(|(i, &(step, _))| step == i * FIT_STEPS),
        "measured every {FIT_STEPS}: {kl:?}"
    );
    assert!(lens_converged(kl), "{kl:?}");
    assert!(!lens_converged(&kl[..kl.len() - 1]), "it went on past a stretch the rule accepted: {kl:?}");
    assert!(kl.last().unwrap().1 < 0.5 * kl[0].1, "the fit lowered the held-out KL little: {kl:?}");
    // the held-out KL at 0 is the logit lens's: every translator the identity
    let mut lens = TunedLens::new(&config, &trainer.stack).unwrap();
    assert_eq!(lens.held_out_kl(&mut trainer).to_bits(), kl[0].1.to_bits());
}

#[test]
fn a_fixed_budget_of_the_pages_updates_fits_the_pages_lens() {
    let config = tiny(NormPlacement::Pre);
    let (_, mut trainer) = trained(&config, 60);
    let page = tuned_readout_losses(&mut trainer).unwrap();
    let fit = fit_tuned_lens(&mut trainer, LensBudget::Steps(FIT_STEPS)).unwrap();
    assert_eq!((fit.steps, fit.converged, fit.kl.len()), (FIT_STEPS, None, 2));
    let bits = |xs: &[f64]| xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&fit.losses), bits(&page), "{:?} against {page:?}", fit.losses);
}
