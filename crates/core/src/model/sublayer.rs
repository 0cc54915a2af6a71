//! `F` in `x + F(LN(x))`: which function a sublayer computes.

use crate::config::{Config, Part, Role};
use crate::model::attention::Attention;
use crate::model::ffn::Ffn;
use crate::model::mlp::Mlp;
use crate::model::param::{Draw, InitGain, Param, Params};
use crate::model::real::Real;
use crate::model::scratch::Scratch;
use nalgebra::DMatrix;

// The variants differ in size by a few matrix headers; there is one per layer, so boxing buys nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum Sublayer<F: Real> {
    Mlp(Mlp<F>),
    Ffn(Ffn<F>),
    Attention(Attention<F>),
}

impl<F: Real> Sublayer<F> {
    /// Sublayer `index` of `config`'s stack (`Config::role` says what it computes), for the
    /// rows of its part of each batch (`part_shape`), attention with `config.heads` heads: a
    /// `block` stack alternates attention (even indices) and FFN (odd), as in a Transformer block.
    pub fn new(config: &Config, index: usize, gain: InitGain, draw: &mut Draw<F>) -> Self {
        let width = config.width;
        let (tokens, context) = part_shape(config, config.part(index));
        match config.role(index) {
            Role::Mlp => Sublayer::Mlp(Mlp::new(tokens, width, gain.output(), draw)),
            Role::Ffn => Sublayer::Ffn(Ffn::new(tokens, width, gain.output(), draw)),
            Role::SelfAttention { masked } => {
                let mut a = Attention::new(tokens, context, width, config.heads, gain, draw);
                a.set_masked(masked);
                Sublayer::Attention(a)
            }
            Role::CrossAttention => Sublayer::Attention(Attention::cross(
                (tokens, context),
                part_shape(config, Part::Encoder),
                width,
                config.heads,
                gain,
                draw,
            )),
        }
    }

    /// Back to a freshly drawn state in place: the weights `new` would draw, the same buffers.
    pub fn init(&mut self, gain: InitGain, draw: &mut Draw<F>) {
        match self {
            Sublayer::Mlp(s) => s.init(gain.output(), draw),
            Sublayer::Ffn(s) => s.init(gain.output(), draw),
            Sublayer::Attention(s) => s.init(gain, draw),
        }
    }

    pub fn forward(&mut self, x: &DMatrix<F>, y: &mut DMatrix<F>) {
        match self {
            Sublayer::Mlp(s) => s.forward(x, y),
            Sublayer::Ffn(s) => s.forward(x, y),
            Sublayer::Attention(s) => s.forward(x, y),
        }
    }

    /// Sets the weights' gradients and writes `dx` for the input `x` the forward saw.
    pub fn backward(
        &mut self,
        x: &DMatrix<F>,
        dy: &DMatrix<F>,
        dx: &mut DMatrix<F>,
        scratch: &mut Scratch<F>,
    ) {
        match self {
            Sublayer::Mlp(s) => s.backward(x, dy, dx, scratch),
            Sublayer::Ffn(s) => s.backward(x, dy, dx, scratch),
            Sublayer::Attention(s) => s.backward(x, dy, dx, scratch),
        }
    }
}

impl<F: Real> Params<F> for Sublayer<F> {
    fn visit(&mut self, f: &mut dyn FnMut(&mut Param<F>)) {
        match self {
            Sublayer::Mlp(s) => s.visit(f),
            Sublayer::Ffn(s) => s.visit(f),
            Sublayer::Attention(s) => s.visit(f),
        }
    }

    fn names(&self, prefix: &str, out: &mut Vec<String>) {
        match self {
            Sublayer::Mlp(s) => s.names(prefix, out),
            Sublayer::Ffn(s) => s.names(&format!("{prefix}.ffn"), out),
            Sublayer::Attention(s) if s.memory.is_some() => {
                s.names(&format!("{prefix}.cross_attention"), out)
            }
            Sublayer::Attention(s) => s.names(&format!("{prefix}.attention"), out),
        }
    }
}

/// The rows a sublayer of `part` works on in each batch, and its positions per sequence: all
/// of them for a decoder-only stack, else the sequences' source or target positions.
pub fn part_shape(config: &Config, part: Part) -> (usize, usize) {
    let positions = config.part_positions(part).len();
    (config.sequences() * positions, positions)
}
