//! Mean squared error of the readout against the teacher's targets.

use crate::model::real::Real;
use nalgebra::DMatrix;

/// `L = mean((ŷ − y)²)` over every token and output; summed in f64 so the reported
/// loss is accurate even for f32 activations.
pub fn mse<F: Real>(pred: &DMatrix<F>, target: &DMatrix<F>) -> f64 {
    let n = pred.len() as f64;
    pred.as_slice()
        .iter()
        .zip(target.as_slice())
        .map(|(&p, &y)| {
            let e = p.f64() - y.f64();
            e * e
        })
        .sum::<f64>()
        / n
}

/// `∂L/∂ŷ = 2 (ŷ − y) / n`
pub fn mse_backward<F: Real>(pred: &DMatrix<F>, target: &DMatrix<F>, dpred: &mut DMatrix<F>) {
    let scale = F::of(2.0 / pred.len() as f64);
    for ((g, &p), &y) in dpred.as_mut_slice().iter_mut().zip(pred.as_slice()).zip(target.as_slice()) {
        *g = scale * (p - y);
    }
}
