//! One sublayer with its residual and normalisation switches: the equation of the lesson.
//!
//! | residual | norm | y =           |
//! |----------|------|---------------|
//! | on       | off  | x + F(x)      |
//! | on       | pre  | x + F(LN(x))  |
//! | on       | post | LN(x + F(x))  |
//! | off      | off  | F(x)          |
//! | off      | pre  | F(LN(x))      |
//! | off      | post | LN(F(x))      |
//! | on       | sandwich | x + LN(F(LN(x))) |
//! | off      | sandwich | LN(F(LN(x)))     |
//! | on       | deepnorm | LN(α·x + F(x))   |
//! | off      | deepnorm | LN(F(x))         |
//!
//! DeepNorm's α = L^¼ for L sublayers (`Config::residual_scale`); its smaller initialisation of
//! the branch is the sublayer's (`param::InitGain`).

use crate::config::{Config, NormPlacement, Part};
use crate::model::attention::Memory;
use crate::model::norm::Norm;
use crate::model::param::{Draw, InitGain, Param, Params};
use crate::model::part::Rows;
use crate::model::real::Real;
use crate::model::rng::{Rng, Stream};
use crate::model::scratch::{sized, Scratch};
use crate::model::sublayer::{part_shape, Sublayer};
use nalgebra::DMatrix;

#[derive(Clone)]
pub struct Layer<F: Real> {
    residual: bool,
    placement: NormPlacement,
    pub norm: Option<Norm<F>>,
    /// The sandwich's second norm, after the sublayer.
    pub norm_after: Option<Norm<F>>,
    pub sublayer: Sublayer<F>,
    /// DeepNorm's α, the residual's weight (1 otherwise, and then unused).
    alpha: F,
    inner: DMatrix<F>, // (T, d) LN(x) for pre-norm and sandwich; x + F(x) or F(x) for post-norm
    outer: DMatrix<F>, // (T, d) F(LN(x)) for sandwich (empty otherwise)
    /// An encoder–decoder's layer: the rows it works on, and them gathered (`part.rs`).
    part: Option<Box<PartRows<F>>>,
}

/// A layer's own rows of the stream, and its input and output there.
#[derive(Clone)]
struct PartRows<F: Real> {
    rows: Rows,
    x: DMatrix<F>,
    y: DMatrix<F>,
}

impl<F: Real> Layer<F> {
    /// Layer `index` draws its weights from its own random stream, so the first layers of a
    /// deeper stack are the same as those of a shallower one with the same seed.
    pub fn new(config: &Config, index: usize) -> Self {
        Self::with_draw(config, index, &mut Draw::fresh(Layer::<F>::rng(config, index)))
    }

    /// The random stream layer `index` draws its weights from.
    pub fn rng(config: &Config, index: usize) -> Rng {
        Rng::new(config.seed, Stream::Layer(index))
    }

    /// `Layer::new(config, index)` with its weights from `draw`: that layer's stream, or a
    /// kept copy of what it drew (the buffers are new either way).
    pub fn with_draw(config: &Config, index: usize, draw: &mut Draw<F>) -> Self {
        let part = config.part(index);
        let ((t, _), d) = (part_shape(config, part), config.width);
        let sublayer = Sublayer::new(config, index, InitGain::of(config), draw);
        let sandwich = config.norm == NormPlacement::Sandwich;
        Layer {
            residual: config.residual,
            placement: config.norm,
            norm: (config.norm != NormPlacement::Off).then(|| Norm::new(config.norm_kind, t, d)),
            norm_after: sandwich.then(|| Norm::new(config.norm_kind, t, d)),
            sublayer,
            alpha: F::of(config.residual_scale()),
            inner: DMatrix::zeros(t, d),
            outer: if sandwich { DMatrix::zeros(t, d) } else { DMatrix::zeros(0, 0) },
            part: (part != Part::Whole).then(|| {
                let rows = Rows::of(config, part);
                Box::new(PartRows { rows, x: DMatrix::zeros(t, d), y: DMatrix::zeros(t, d) })
            }),
        }
    }

    /// Cross-attention's memory, which the stack fills before the pass and whose gradient it
    /// reads after (None for every other sublayer).
    pub fn memory_mut(&mut self) -> Option<&mut Memory<F>> {
        match &mut self.sublayer {
            Sublayer::Attention(a) => a.memory.as_mut(),
            _ => None,
        }
    }

    /// `x_{ℓ+1} = layer_ℓ(x_ℓ)`: on its own rows for an encoder–decoder's layer (the others
    /// pass through), else on all of them.
    pub fn forward(&mut self, x: &DMatrix<F>, y: &mut DMatrix<F>) {
        self.on_rows(x, y, Self::forward_rows);
    }

    /// `pass` on the rows this layer works on: all of them, or for an encoder–decoder's layer
    /// its part's, gathered, passed and scattered back (the other rows pass through).
    fn on_rows(
        &mut self,
        x: &DMatrix<F>,
        y: &mut DMatrix<F>,
        pass: impl FnOnce(&mut Self, &DMatrix<F>, &mut DMatrix<F>),
    ) {
        let Some(mut part) = self.part.take() else { return pass(self, x, y) };
        part.rows.gather(x, &mut part.x);
        pass(self, &part.x, &mut part.y);
        y.copy_from(x);
        part.rows.scatter(&part.y, y);
        self.part = Some(part);
    }

    /// Given `dy = ∂L/∂y`, sets every parameter gradient and writes `dx = ∂L/∂x` (for an
    /// encoder–decoder's layer, `dy` itself on the rows it passed through).
    pub fn backward(
        &mut self,
        x: &DMatrix<F>,
        dy: &DMatrix<F>,
        dx: &mut DMatrix<F>,
        scratch: &mut Scratch<F>,
    ) {
        let Some(part) = self.part.take() else { return self.backward_rows(x, dy, dx, scratch) };
        let (n, d) = part.x.shape();
        let mut part_dy = std::mem::take(sized(&mut scratch.part_dy, n, d));
        let mut part_dx = std::mem::take(sized(&mut scratch.part_dx, n, d));
        part.rows.gather(dy, &mut part_dy);
        self.backward_rows(&part.x, &part_dy, &mut part_dx, scratch);
        dx.copy_from(dy);
        part.rows.scatter(&part_dx, dx);
        (scratch.part_dy, scratch.part_dx) = (part_dy, part_dx);
        self.part = Some(part);
    }

    /// Back to `with_draw(config, index, draw)`'s state in place, for a `config` whose shapes
    /// (sublayer, width, tokens, norm, residual) are this layer's: no allocation. The scratch
    /// buffers keep old values, which every pass overwrites before reading.
    pub fn init(&mut self, config: &Config, draw: &mut Draw<F>) {
        self.sublayer.init(InitGain::of(config), draw);
        self.alpha = F::of(config.residual_scale());
        for n in [&mut self.norm, &mut self.norm_after].into_iter().flatten() {
            n.init();
        }
    }

    /// Its norm is the last thing its output goes through (post-norm and DeepNorm: `LN(x + F(x))`).
    pub fn norm_is_output(&self) -> bool {
        matches!(self.placement, NormPlacement::Post | NormPlacement::DeepNorm) && self.norm.is_some()
    }

    /// The layer with its branch `F` zeroed, as a knockout removes it: what stays is what the
    /// placement puts on the stream itself. Post-norm keeps its norm, `y = LN(x + 0)`, and
    /// DeepNorm `y = LN(α·x)`; pre-norm and the sandwich have their norms inside the branch, so
    /// `y = x`. Without the residual there is no stream past the branch: the layer is replaced
    /// by the identity, `y = x`, as before.
    pub fn forward_knocked_out(&mut self, x: &DMatrix<F>, y: &mut DMatrix<F>) {
        self.on_rows(x, y, Self::knocked_out_rows);
    }

    fn knocked_out_rows(&mut self, x: &DMatrix<F>, y: &mut DMatrix<F>) {
        use NormPlacement::*;
        match (self.residual, self.placement, &mut self.norm) {
            (true, Post, Some(ln)) => ln.forward(x, y),
            (true, DeepNorm, Some(ln)) => {
                self.inner.copy_from(x);
                self.inner.iter_mut().for_each(|v| *v *= self.alpha);
                ln.forward(&self.inner, y);
            }
            _ => y.copy_from(x),
        }
    }

    fn forward_rows(&mut self, x: &DMatrix<F>, y: &mut DMatrix<F>) {
        use NormPlacement::*;
        let (f, norm) = (&mut self.sublayer, &mut self.norm);
        match (self.residual, self.placement, norm) {
            // y = x + F(x)
            (true, Off, _) => {
                f.forward(x, y);
                add_assign(y, x);
            }
            // y = x + LN₂(F(LN₁(x))), without residual LN₂(F(LN₁(x)))
            (residual, Sandwich, Some(ln)) => {
                let after = self.norm_after.as_mut().expect("a sandwich has its second norm");
                ln.forward(x, &mut self.inner);
                f.forward(&self.inner, &mut self.outer);
                after.forward(&self.outer, y);
                if residual {
                    add_assign(y, x);
                }
            }
            // y = LN(α·x + F(x))
            (true, DeepNorm, Some(ln)) => {
                f.forward(x, &mut self.inner);
                add_scaled(&mut self.inner, self.alpha, x);
                ln.forward(&self.inner, y);
            }
            // y = x + F(LN(x))
            (true, Pre, Some(ln)) => {
                ln.forward(x, &mut self.inner);
                f.forward(&self.inner, y);
                add_assign(y, x);
            }
            // y = LN(x + F(x))
            (true, Post, Some(ln)) => {
                f.forward(x, &mut self.inner);
                add_assign(&mut self.inner, x);
                ln.forward(&self.inner, y);
            }
            // y = F(x)
            (false, Off, _) => f.forward(x, y),
            // y = F(LN(x))
            (false, Pre, Some(ln)) => {
                ln.forward(x, &mut self.inner);
                f.forward(&self.inner, y);
            }
            // y = LN(F(x))
            (false, Post | DeepNorm, Some(ln)) => {
                f.forward(x, &mut self.inner);
                ln.forward(&self.inner, y);
            }
            (_, Pre | Post | Sandwich | DeepNorm, None) => {
                unreachable!("a normalised layer always has its norm")
            }
        }
    }

    /// After a forward pass of `x` to `y`: how large what the branch adds is against the
    /// residual it is added to, `‖F‖ / ‖r‖` for each token at the addition `r + F`, averaged
    /// over the tokens: `r = x` and `F = y − x` (pre-norm, the sandwich, no norm), `F` taken
    /// before post-norm's norm (`x + F`, kept), `r = α·x` in DeepNorm. The same quantity at every
    /// placement, unlike the cosine between `x` and `y`, whose `y` post-norm normalises; how
    /// much a layer's output depends on its branch (Liu et al. 2020's view). NaN without a
    /// residual, and for an encoder–decoder's layer (it works on part of the rows).
    pub fn branch_ratio(&self, x: &DMatrix<F>, y: &DMatrix<F>) -> f64 {
        use NormPlacement::*;
        if !self.residual || self.part.is_some() {
            return f64::NAN;
        }
        let (sum, alpha) = match self.placement {
            Off | Pre | Sandwich => (y, 1.0),
            Post => (&self.inner, 1.0),
            DeepNorm => (&self.inner, self.alpha.f64()),
        };
        let (mut total, mut tokens) = (0.0, 0usize);
        for t in 0..x.nrows() {
            let (mut ff, mut rr) = (0.0, 0.0);
            for j in 0..x.ncols() {
                let r = alpha * x[(t, j)].f64();
                let f = sum[(t, j)].f64() - r;
                ff += f * f;
                rr += r * r;
            }
            if rr > 0.0 {
                total += (ff / rr).sqrt();
                tokens += 1;
            }
        }
        if tokens == 0 {
            f64::NAN
        } else {
            total / tokens as f64
        }
    }

    /// `backward` on the layer's own rows.
    fn backward_rows(
        &mut self,
        x: &DMatrix<F>,
        dy: &DMatrix<F>,
        dx: &mut DMatrix<F>,
        scratch: &mut Scratch<F>,
    ) {
        use NormPlacement::*;
        let (f, norm) = (&mut self.sublayer, &mut self.norm);
        // ∂L/∂ of the normed sublayer's input (taken out, so that the sublayer can use the rest)
        let mut d_inner = std::mem::take(sized(&mut scratch.d_inner, dy.nrows(), dy.ncols()));
        match (self.residual, self.placement, norm) {
            // dx = dy + F'(x)ᵀ dy
            (true, Off, _) => {
                f.backward(x, dy, dx, scratch);
                add_assign(dx, dy);
            }
            // do = LN₂'ᵀ dy;  dx = dy + LN₁'ᵀ F'ᵀ do (without residual, no dy)
            (residual, Sandwich, Some(ln)) => {
                let after = self.norm_after.as_mut().expect("a sandwich has its second norm");
                let mut d_outer = std::mem::take(sized(&mut scratch.d_outer, dy.nrows(), dy.ncols()));
                after.backward(dy, &mut d_outer);
                f.backward(&self.inner, &d_outer, &mut d_inner, scratch);
                ln.backward(&d_inner, dx);
                if residual {
                    add_assign(dx, dy);
                }
                scratch.d_outer = d_outer;
            }
            // ds = LN'ᵀ dy;  dx = α·ds + F'(x)ᵀ ds
            (true, DeepNorm, Some(ln)) => {
                ln.backward(dy, &mut d_inner);
                f.backward(x, &d_inner, dx, scratch);
                add_scaled(dx, self.alpha, &d_inner);
            }
            // dx = dy + LN'ᵀ F'ᵀ dy
            (true, Pre, Some(ln)) => {
                f.backward(&self.inner, dy, &mut d_inner, scratch);
                ln.backward(&d_inner, dx);
                add_assign(dx, dy);
            }
            // ds = LN'ᵀ dy;  dx = ds + F'(x)ᵀ ds
            (true, Post, Some(ln)) => {
                ln.backward(dy, &mut d_inner);
                f.backward(x, &d_inner, dx, scratch);
                add_assign(dx, &d_inner);
            }
            (false, Off, _) => f.backward(x, dy, dx, scratch),
            (false, Pre, Some(ln)) => {
                f.backward(&self.inner, dy, &mut d_inner, scratch);
                ln.backward(&d_inner, dx);
            }
            (false, Post | DeepNorm, Some(ln)) => {
                ln.backward(dy, &mut d_inner);
                f.backward(x, &d_inner, dx, scratch);
            }
            (_, Pre | Post | Sandwich | DeepNorm, None) => {
                unreachable!("a normalised layer always has its norm")
            }
        }
        scratch.d_inner = d_inner;
    }

    /// ‖∂L/∂W‖ over the sublayer's own weights (not its norm's γ, β).
    pub fn weight_grad_norm(&mut self) -> f64 {
        self.sublayer.grad_norm()
    }
}

impl<F: Real> Params<F> for Layer<F> {
    fn visit(&mut self, f: &mut dyn FnMut(&mut Param<F>)) {
        self.sublayer.visit(f);
        for n in [&mut self.norm, &mut self.norm_after].into_iter().flatten() {
            n.visit(f);
        }
    }

    fn names(&self, prefix: &str, out: &mut Vec<String>) {
        self.sublayer.names(prefix, out);
        for (name, n) in [("norm", &self.norm), ("norm_after", &self.norm_after)] {
            if let Some(n) = n {
                n.names(&format!("{prefix}.{name}"), out);
            }
        }
    }
}

/// `out += a·b`: DeepNorm's weighted residual, F(x) + α·x.
fn add_scaled<F: Real>(out: &mut DMatrix<F>, a: F, b: &DMatrix<F>) {
    for (o, &y) in out.as_mut_slice().iter_mut().zip(b.as_slice()) {
        *o += a * y;
    }
}

/// `out += b`. In the forward, `F(x) + x` equals `x + F(x)` to the bit (IEEE addition
/// commutes), so F writes straight into the output and no buffer holds F(x) alone.
fn add_assign<F: Real>(out: &mut DMatrix<F>, b: &DMatrix<F>) {
    for (o, &y) in out.as_mut_slice().iter_mut().zip(b.as_slice()) {
        *o += y;
    }
}
