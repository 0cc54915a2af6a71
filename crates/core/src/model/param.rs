//! A learned tensor and its gradient, and how its first values are drawn: from which stream
//! (`Draw`) and how large (`InitGain`).

use crate::model::real::Real;
use crate::model::rng::Rng;
use crate::model::stats::sum8;
use nalgebra::DMatrix;

#[derive(Clone)]
pub struct Param<F: Real> {
    pub value: DMatrix<F>,
    pub grad: DMatrix<F>,
}

impl<F: Real> Param<F> {
    pub fn constant(rows: usize, cols: usize, v: F) -> Self {
        Param { value: DMatrix::from_element(rows, cols, v), grad: DMatrix::zeros(rows, cols) }
    }

    /// Entries ~ N(0, std²), drawn column by column (or copied from an earlier draw).
    pub fn normal(rows: usize, cols: usize, std: f64, draw: &mut Draw<F>) -> Self {
        Param { value: draw.normal(rows, cols, std), grad: DMatrix::zeros(rows, cols) }
    }

    pub fn grad_sq_sum(&self) -> f64 {
        sum8(self.grad.as_slice(), |g| g.f64() * g.f64())
    }
}

/// Where a new layer's random weights come from: drawn from the layer's stream (and, with
/// `keep`, also appended there, in drawing order), or copied from such a kept draw. A copy has
/// the same bits as the draw, and costs a memcpy instead of a normal sample per weight.
pub enum Draw<'a, F: Real> {
    Fresh {
        rng: Rng,
        keep: Option<&'a mut Vec<F>>,
    },
    Kept(&'a [F]),
    /// Zeros, for a stack whose weights are about to be copied in (the sampling twin): no
    /// normals drawn.
    Zeros,
}

impl<'a, F: Real> Draw<'a, F> {
    pub fn fresh(rng: Rng) -> Self {
        Draw::Fresh { rng, keep: None }
    }

    /// A (rows, cols) matrix of N(0, std²) entries, column by column.
    pub fn normal(&mut self, rows: usize, cols: usize, std: f64) -> DMatrix<F> {
        let mut m = DMatrix::zeros(rows, cols);
        self.fill(m.as_mut_slice(), std);
        m
    }

    /// Overwrites `out` with N(0, std²) entries, in order.
    pub fn fill(&mut self, out: &mut [F], std: f64) {
        match self {
            Draw::Fresh { rng, keep } => {
                rng.fill_normal(out, std);
                if let Some(keep) = keep {
                    keep.extend_from_slice(out);
                }
            }
            Draw::Kept(values) => {
                let (these, rest) = values.split_at(out.len());
                *values = rest;
                out.copy_from_slice(these);
            }
            Draw::Zeros => out.fill(F::zero()),
        }
    }
}

/// Anything that owns parameters lets a visitor walk them in a fixed order
/// (the optimiser relies on that order to pair each parameter with its state).
pub trait Params<F: Real> {
    fn visit(&mut self, f: &mut dyn FnMut(&mut Param<F>));

    /// Each parameter's name, in `visit`'s order, after `prefix` (dot-separated): the tensors'
    /// names in a weights file (docs/cli.md, "The weights file").
    fn names(&self, prefix: &str, out: &mut Vec<String>);

    /// ‖∂L/∂θ‖ over every parameter visited.
    fn grad_norm(&mut self) -> f64 {
        let mut s = 0.0;
        self.visit(&mut |p| s += p.grad_sq_sum());
        s.sqrt()
    }
}

/// The initialisation's scales: weights ~ N(0, gain²/fan_in), and `branch` times that for the
/// weights that write the branch's output (every weight but attention's queries and keys):
/// DeepNorm's β, 1 for the other placements (and then the same bits as one gain).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InitGain {
    pub gain: f64,
    pub branch: f64,
}

impl InitGain {
    pub fn of(config: &crate::config::Config) -> Self {
        InitGain { gain: config.init_gain, branch: config.branch_gain() }
    }

    /// The gain of the weights that write the branch's output.
    pub fn output(self) -> f64 {
        self.gain * self.branch
    }
}
