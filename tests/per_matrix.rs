//! Xiong's measure read matrix by matrix (`training::measures::per_matrix`): each norm against its
//! definition, `‖∂L/∂W‖` of the batch's loss by central finite differences, the mean over
//! batches against the batches' own norms, and the update sizes against `‖W_n − W_0‖/‖W_0‖`.

use ablation_playground::config::Config;
use ablation_playground::model::batch::Batch;
use ablation_playground::model::param::{Param, Params};
use ablation_playground::model::stack::Stack;
use ablation_playground::training::measures::per_matrix::{gradient_norms, update_sizes};
use ablation_playground::training::step::train::Trainer;
use ablation_playground::training::tasks::task::Batches;

/// A small post-norm text stack of two blocks (attention, FFN, attention, FFN).
fn small() -> Config {
    let mut c = Config::default().with_task("text").unwrap();
    for (k, v) in [("depth", "4"), ("width", "8"), ("heads", "2"), ("norm", "post"), ("seed", "3")] {
        c.set(k, v).unwrap();
    }
    c
}

/// Sublayer `l`'s matrix `m` (in `visit`'s order).
fn with_matrix<R>(stack: &mut Stack<f64>, l: usize, m: usize, f: impl FnOnce(&mut Param<f64>) -> R) -> R {
    let mut f = Some(f);
    let mut out = None;
    let mut i = 0;
    stack.layers[l].sublayer.visit(&mut |p| {
        if i == m {
            out = Some((f.take().unwrap())(p));
        }
        i += 1;
    });
    out.unwrap()
}

#[test]
fn a_matrix_gradient_norm_is_the_norm_of_the_losss_finite_difference_gradient() {
    let config = small();
    let got = gradient_norms::<f64>(&config, 1);
    // the first training batch, as the run draws it
    let mut data = Batches::<f64>::new(&config);
    let mut batch: Batch<f64> = Batches::empty(&config);
    data.next(&mut batch);
    let mut stack = Stack::<f64>::new(&config);
    let h = 1e-5;
    for (l, m) in [(0, 0), (0, 3), (1, 0), (1, 2), (3, 2)] {
        let (name, reported) = got.layers[l][m].clone();
        let entries = with_matrix(&mut stack, l, m, |p| p.value.len());
        let mut sq = 0.0;
        for e in 0..entries {
            let mut at = |delta: f64| {
                with_matrix(&mut stack, l, m, |p| p.value.as_mut_slice()[e] += delta);
                let loss = stack.forward_batch(&batch);
                with_matrix(&mut stack, l, m, |p| p.value.as_mut_slice()[e] -= delta);
                loss
            };
            let g = (at(h) - at(-h)) / (2.0 * h);
            sq += g * g;
        }
        let numeric = sq.sqrt();
        let rel = (reported - numeric).abs() / numeric;
        assert!(rel < 1e-5, "sublayer {l} {name}: reported ‖∂L/∂W‖ {reported:e}, finite differences {numeric:e} (rel {rel:e})");
    }
}

#[test]
fn the_mean_over_batches_is_the_mean_of_each_batchs_norm() {
    let config = small();
    let n = 5;
    let got = gradient_norms::<f64>(&config, n);
    let mut trainer = Trainer::<f64>::new(&config);
    let mut sums = vec![vec![0.0; 4]; config.depth];
    for _ in 0..n {
        trainer.gradients_on_next_batch();
        for (l, row) in sums.iter_mut().enumerate() {
            let mut i = 0;
            trainer.stack.layers[l].sublayer.visit(&mut |p| {
                row[i] += p.grad.iter().map(|g| g * g).sum::<f64>().sqrt();
                i += 1;
            });
        }
    }
    for (l, row) in sums.iter().enumerate() {
        for (m, sum) in row.iter().enumerate() {
            let (name, mean) = &got.layers[l][m];
            let want = sum / n as f64;
            assert!(
                (mean - want).abs() <= 1e-12 * want,
                "sublayer {l} {name}: mean {mean:e}, by hand {want:e}"
            );
        }
    }
    // the batches differ, so the mean is not the first batch's norm
    let one = gradient_norms::<f64>(&config, 1);
    assert_ne!(
        one.layers[3][2].1, got.layers[3][2].1,
        "the mean over {n} batches equals the first batch's norm"
    );
    let names: Vec<&str> = got.layers[2].iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["attention.q.weight", "attention.k.weight", "attention.v.weight", "attention.o.weight"]
    );
    let names: Vec<&str> = got.layers[3].iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["ffn.up.weight", "ffn.up.bias", "ffn.down.weight", "ffn.down.bias"]);
}

#[test]
fn an_update_size_is_the_distance_moved_over_the_initial_norm() {
    let config = small();
    let steps = 7;
    let got = update_sizes::<f64>(&config, steps);
    let mut before = Stack::<f64>::new(&config);
    let mut trainer = Trainer::<f64>::new(&config);
    for _ in 0..steps {
        trainer.replay_step();
    }
    for (l, m) in [(0, 1), (1, 2), (3, 0)] {
        let w0 = with_matrix(&mut before, l, m, |p| p.value.clone());
        let w = with_matrix(&mut trainer.stack, l, m, |p| p.value.clone());
        let want = (&w - &w0).norm() / w0.norm();
        let (name, size) = &got.layers[l][m];
        assert!(want > 0.0, "sublayer {l} {name} did not move in {steps} steps");
        assert!((size - want).abs() <= 1e-12 * want, "sublayer {l} {name}: {size:e}, by hand {want:e}");
    }
    // a bias starts at zero: no relative size
    assert!(got.layers[1][1].1.is_nan(), "ffn.up.bias: {}", got.layers[1][1].1);
}

/// The page's matrices' view (`LayerView::Matrices`): the live session measures a few batches
/// at a time, on a stack of its own, while the run goes on untouched; once complete its frame
/// carries each sublayer's Xiong matrix with exactly the CLI's numbers (`ablate --grad-batches`).
#[test]
fn the_pages_matrices_view_measures_what_the_cli_measures_without_touching_the_run() {
    use ablation_playground::config::{LayerView, MATRIX_BATCHES};
    use ablation_playground::training::live::frame::Frame;
    use ablation_playground::training::live::session::Session;
    use ablation_playground::training::measures::per_matrix::{xiong_matrix, MatrixGradients};
    let config = Config { steps: 3, ..small() };
    let viewing = Config { layer_view: LayerView::Matrices, ..config.clone() };
    // the run trains the same with or without the measure
    let mut plain = Session::new(&config);
    let mut measured = Session::new(&viewing);
    assert!(measured.measuring() && !plain.measuring());
    assert_eq!(measured.frame().matrices, None, "nothing measured yet");
    assert!(measured.measure_matrices(7), "7 of {MATRIX_BATCHES} batches: more are left");
    let part = measured.frame().matrices.expect("7 batches measured");
    assert_eq!((part.batches, part.of), (7, MATRIX_BATCHES));
    while measured.train_step() {}
    while plain.train_step() {}
    while measured.measure_matrices(10) {}
    assert!(!measured.measuring());
    let (a, b) = (plain.frame(), measured.frame());
    assert_eq!(a.history, b.history, "the measure changed the run's losses");
    assert_eq!(a.now.weight_grad_norm, b.now.weight_grad_norm, "the measure changed the run's weights");
    // the CLI's numbers, each sublayer's Xiong matrix
    let cli = gradient_norms::<f32>(&config, MATRIX_BATCHES);
    let m = b.matrices.clone().expect("measured");
    assert_eq!((m.batches, m.of), (MATRIX_BATCHES, MATRIX_BATCHES));
    for (l, row) in cli.layers.iter().enumerate() {
        let i = xiong_matrix(row).expect("a matrix");
        assert_eq!((m.names[l].as_str(), m.values[l]), (row[i].0.as_str(), row[i].1), "sublayer {l}");
    }
    let names: Vec<&str> = m.names.iter().map(String::as_str).collect();
    assert_eq!(names, ["attention.v.weight", "ffn.down.weight", "attention.v.weight", "ffn.down.weight"]);
    assert_eq!(Some(m.clone()), MatrixGradients::at_init(&viewing, MATRIX_BATCHES), "the static figure's");
    // the frame carries it across the wire, and a damaged one is an error
    let bytes = b.encode();
    assert_eq!(Frame::decode(&bytes).unwrap().matrices, Some(m));
    for cut in [bytes.len() - 1, bytes.len() - 9, bytes.len() - 17] {
        assert!(Frame::decode(&bytes[..cut]).is_err(), "a frame cut at {cut} bytes");
    }
    // a view change keeps the run and the measure; another run starts it again
    let back = Config { layer_view: LayerView::Weights, ..viewing.clone() };
    assert!(!measured.restart(&back, 1) && !measured.measuring() && measured.frame().matrices.is_none());
    assert!(!measured.restart(&viewing, 2) && !measured.measuring());
    assert!(measured.restart(&Config { seed: 4, ..viewing.clone() }, 3) && measured.measuring());
}
