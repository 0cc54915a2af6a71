//! The whole model: `depth` layers on the residual stream, then a learned linear readout.
//!
//! `x₀` is the input batch, `x_{ℓ+1} = layer_ℓ(x_ℓ)`, prediction `ŷ = LN_f(x_L) R` for a
//! pre-norm stack with its final norm (GPT-2's `ln_f`) and `ŷ = x_L R` otherwise. On the
//! teacher task `x₀` is the batch's features and the loss MSE; on a sequence task `x₀` is the
//! tokens' and positions' embeddings, the readout is the unembedding (one logit per token of
//! the vocabulary) and the loss the softmax cross-entropy of the next token.
//! The stack keeps every `x_ℓ` (the per-depth panel and the histogram read them) and, after
//! `backward` (the probe's, not a training step's), the norm of `∂L/∂x_ℓ` at every depth and of
//! `∂L/∂W` for every sublayer.
//!
//! An encoder–decoder is the same stream (`part.rs`): its first 2N layers work on each
//! sequence's source rows, the other 3N on its target rows. After the encoder's last layer the
//! stack takes the source rows of `x_{2N}` through the encoder's own final norm (a pre-norm
//! stack's) into the memory every cross-attention reads; the backward carries their gradients
//! back into `∂L/∂x_{2N}`.

use crate::config::{Config, TaskKind};
use crate::model::batch::{Batch, Tokens};
use crate::model::embedding::Embedding;
use crate::model::layer::Layer;
use crate::model::linear::Linear;
use crate::model::loss::{cross_entropy_backward_from_probs, mse, mse_backward, softmax_cross_entropy};
use crate::model::norm::Norm;
use crate::model::param::{Draw, Param, Params};
use crate::model::part::Rows;
use crate::model::real::Real;
use crate::model::rng::{Rng, Stream};
use crate::model::scratch::Scratch;
use crate::model::stats::{all_finite, frobenius, mean_std, moments, Moments};
use crate::model::sublayer::Sublayer;
use nalgebra::DMatrix;

pub struct Stack<F: Real> {
    /// A sequence task's token and position embeddings, which make `x₀`.
    pub embedding: Option<Embedding<F>>,
    pub layers: Vec<Layer<F>>,
    /// The final norm of a pre-norm stack, between `x_L` and the readout.
    pub final_norm: Option<Norm<F>>,
    /// (T, d) `LN_f(x_L)`, what the readout reads when there is a final norm.
    top: DMatrix<F>,
    pub readout: Linear<F>, // (d, d_out)
    /// `x_0 ..= x_L`, each (T, d).
    pub stream: Vec<DMatrix<F>>,
    pred: DMatrix<F>,  // (T, d_out)
    dpred: DMatrix<F>, // (T, d_out)
    /// (T) each: the cross-entropy's per-row maxima and sums, kept from step to step
    loss_rows: (Vec<F>, Vec<F>),
    grad: [DMatrix<F>; 2],
    /// The layers' backward buffers, shared.
    scratch: Scratch<F>,
    /// `‖∂L/∂x_ℓ‖` for ℓ = 0..=L, from the last `backward`.
    pub stream_grad_norm: Vec<f64>,
    /// `‖∂L/∂W_ℓ‖` for every sublayer, from the last `backward`.
    pub weight_grad_norm: Vec<f64>,
    /// Every layer adds its input to its output (before any post-norm).
    residual: bool,
    /// An encoder–decoder's encoder: where it ends, its final norm, the memory.
    pub encoder: Option<Encoder<F>>,
    /// Where each layer's parameters, the final norm's, the encoder's final norm's, the
    /// readout's and the embedding's begin in `visit`'s order (depth + 4 entries): how an
    /// optimiser pairs a part of the model with its state.
    first_param: Vec<usize>,
}

/// The encoder of an encoder–decoder: its layers are the stack's first `end`, and what it hands
/// the decoder's cross-attention.
pub struct Encoder<F: Real> {
    /// The sublayers of the encoder (2N); the decoder's begin there.
    pub end: usize,
    /// The source rows of every sequence.
    rows: Rows,
    /// (T_s, d) the source rows of `x_end`.
    top: DMatrix<F>,
    /// The encoder's final norm (with a pre-norm stack's final norm).
    pub norm: Option<Norm<F>>,
    /// (T_s, d) what cross-attention reads: `LN_enc(top)`, or `top`.
    memory: DMatrix<F>,
    /// (T_s, d) `∂L/∂memory`, then `∂L/∂top`.
    grad: [DMatrix<F>; 2],
}

impl<F: Real> Encoder<F> {
    fn new(config: &Config) -> Option<Self> {
        let end = config.encoder_sublayers();
        let part = crate::config::Part::Encoder;
        let (t, d) = (crate::model::sublayer::part_shape(config, part).0, config.width);
        (end > 0).then(|| Encoder {
            end,
            rows: Rows::of(config, part),
            top: DMatrix::zeros(t, d),
            norm: config.has_final_norm().then(|| Norm::new(config.norm_kind, t, d)),
            memory: DMatrix::zeros(t, d),
            grad: [DMatrix::zeros(t, d), DMatrix::zeros(t, d)],
        })
    }

    /// The memory from `x_end`.
    fn remember(&mut self, x: &DMatrix<F>) {
        self.rows.gather(x, &mut self.top);
        match &mut self.norm {
            Some(n) => n.forward(&self.top, &mut self.memory),
            None => self.memory.copy_from(&self.top),
        }
    }

    /// Adds `∂L/∂x_end` through the memory to `dx`: the cross-attentions' gradients of it,
    /// summed bottom to top, back through the encoder's norm.
    fn carry_back(&mut self, decoder: &mut [Layer<F>], dx: &mut DMatrix<F>) {
        let [grad, below] = &mut self.grad;
        grad.fill(F::zero());
        for m in decoder.iter_mut().filter_map(|l| l.memory_mut()) {
            for (g, &v) in grad.as_mut_slice().iter_mut().zip(m.grad.as_slice()) {
                *g += v;
            }
        }
        match &mut self.norm {
            Some(n) => {
                n.backward(grad, below);
                self.rows.scatter_add(below, dx);
            }
            None => self.rows.scatter_add(grad, dx),
        }
    }
}

/// What `Stack::backward_updating` calls with each part of the model whose gradients are
/// complete, and the position of its first parameter in `visit`'s order.
pub(crate) type UpdatePart<'a, F> = dyn FnMut(&mut dyn Params<F>, usize) + 'a;

/// Outputs of the readout: as many as features on the teacher task, else one per token.
pub fn outputs(config: &Config) -> usize {
    match config.task {
        TaskKind::Teacher => config.width,
        _ => config.vocab(),
    }
}

/// What a pass is measured against.
#[derive(Clone, Copy)]
pub enum Target<'a, F: Real> {
    Values(&'a DMatrix<F>),
    Next(&'a Tokens),
    /// No loss: the pass is for its outputs (what the model writes).
    None,
}

impl<'a, F: Real> Target<'a, F> {
    pub fn of(batch: &'a Batch<F>) -> Self {
        match batch {
            Batch::Values { y, .. } => Target::Values(y),
            Batch::Tokens(tokens) => Target::Next(tokens),
        }
    }
}

impl<F: Real> Stack<F> {
    pub fn new(config: &Config) -> Self {
        Self::with_layers(config, (0..config.depth).map(|i| Layer::new(config, i)).collect())
    }

    /// A stack of `config`'s shapes whose layers' weights are all zero, drawn from no stream:
    /// for one whose weights are copied in at once (`load_weights`).
    pub fn unweighted(config: &Config) -> Self {
        Self::with_layers(
            config,
            (0..config.depth).map(|i| Layer::with_draw(config, i, &mut Draw::Zeros)).collect(),
        )
    }

    /// A stack made of the given layers, which must be `Layer::new(config, i)` for i = 0, 1, …
    /// (for example clones kept from a stack of another depth with the same seed).
    pub fn with_layers(config: &Config, mut layers: Vec<Layer<F>>) -> Self {
        assert_eq!(layers.len(), config.depth);
        let (t, d, k) = (config.tokens, config.width, outputs(config));
        let mut draw = Draw::fresh(Rng::new(config.seed, Stream::Readout));
        let mut final_norm = config.has_final_norm().then(|| Norm::new(config.norm_kind, t, d));
        let mut first_param = Vec::with_capacity(config.depth + 4);
        let mut count = 0;
        for layer in &mut layers {
            first_param.push(count);
            layer.visit(&mut |_| count += 1);
        }
        first_param.push(count);
        if let Some(n) = &mut final_norm {
            n.visit(&mut |_| count += 1);
        }
        first_param.push(count);
        let mut encoder = Encoder::new(config);
        if let Some(n) = encoder.as_mut().and_then(|e| e.norm.as_mut()) {
            n.visit(&mut |_| count += 1);
        }
        first_param.push(count);
        let mut readout = Linear::new(d, k, 1.0, false, &mut draw);
        readout.visit(&mut |_| count += 1);
        first_param.push(count);
        let embedding = (config.task != TaskKind::Teacher).then(|| {
            let mut draw = Draw::fresh(Rng::new(config.seed, Stream::Embedding));
            Embedding::new(config.vocab(), config.sequence(), d, &mut draw)
        });
        Stack {
            embedding,
            layers,
            top: if final_norm.is_some() { DMatrix::zeros(t, d) } else { DMatrix::zeros(0, d) },
            final_norm,
            readout,
            stream: vec![DMatrix::zeros(t, d); config.depth + 1],
            pred: DMatrix::zeros(t, k),
            dpred: DMatrix::zeros(t, k),
            loss_rows: (Vec::with_capacity(t), Vec::with_capacity(t)),
            grad: [DMatrix::zeros(t, d), DMatrix::zeros(t, d)],
            scratch: Scratch::default(),
            stream_grad_norm: vec![0.0; config.depth + 1],
            weight_grad_norm: vec![0.0; config.depth],
            residual: config.residual,
            encoder,
            first_param,
        }
    }

    /// The final norm and the readout back to `new`'s state in place; the caller
    /// re-initialises the layers (`Layer::init`). For a `config` with this stack's shapes.
    pub fn init_readout(&mut self, config: &Config) {
        if let Some(n) = &mut self.final_norm {
            n.init();
        }
        if let Some(n) = self.encoder.as_mut().and_then(|e| e.norm.as_mut()) {
            n.init();
        }
        self.readout.init(1.0, &mut Draw::fresh(Rng::new(config.seed, Stream::Readout)));
        if let Some(e) = &mut self.embedding {
            e.init(&mut Draw::fresh(Rng::new(config.seed, Stream::Embedding)));
        }
    }

    /// `forward_skipping`'s body (`passes.rs`).
    pub(crate) fn forward_skipping_here(&mut self, batch: &Batch<F>, skip: &[usize]) -> f64 {
        match batch {
            Batch::Values { x, .. } => self.stream[0].copy_from(x),
            Batch::Tokens(tokens) => {
                let e = self.embedding.as_ref().expect("a sequence task's stack has an embedding");
                e.forward(&tokens.ids, &mut self.stream[0]); // x₀ = E[ids] + P[positions]
            }
        }
        self.forward_from_input(Target::of(batch), skip)
    }

    /// The pass from `x₀` (already in the stream) to the loss.
    pub(crate) fn forward_from_input(&mut self, target: Target<F>, skip: &[usize]) -> f64 {
        for (l, layer) in self.layers.iter_mut().enumerate() {
            let (below, above) = self.stream.split_at_mut(l + 1);
            if let Some(e) = self.encoder.as_mut().filter(|e| e.end == l) {
                e.remember(&below[l]);
            }
            if let (Some(m), Some(e)) = (layer.memory_mut(), &self.encoder) {
                m.x.copy_from(&e.memory);
            }
            if skip.contains(&l) {
                layer.forward_knocked_out(&below[l], &mut above[0]); // the branch zeroed
            } else {
                layer.forward(&below[l], &mut above[0]); // x_{ℓ+1} = layer_ℓ(x_ℓ)
            }
        }
        self.read_out_here(self.layers.len(), target)
    }

    /// `read_out`'s body (`passes.rs`).
    pub(crate) fn read_out_here(&mut self, layer: usize, target: Target<F>) -> f64 {
        let x = &self.stream[layer];
        match &mut self.final_norm {
            Some(ln) => {
                ln.forward(x, &mut self.top);
                self.readout.forward(&self.top, &mut self.pred); // ŷ = LN_f(x_ℓ) R
            }
            None => self.readout.forward(x, &mut self.pred), // ŷ = x_ℓ R
        }
        match target {
            Target::Values(y) => mse(&self.pred, y),
            // the softmax waits in dpred for the backward, which subtracts the targets
            Target::Next(tokens) => softmax_cross_entropy(
                &self.pred,
                &tokens.next,
                &tokens.scored,
                &mut self.dpred,
                &mut self.loss_rows,
            ),
            Target::None => f64::NAN,
        }
    }

    /// The readout's outputs of the last pass, (T, d_out): on a sequence task, the logits.
    pub fn prediction(&self) -> &DMatrix<F> {
        &self.pred
    }

    /// `forward_ids`'s body (`passes.rs`).
    pub(crate) fn forward_ids_here(&mut self, ids: &[u32]) {
        let e = self.embedding.as_ref().expect("a sequence task's stack has an embedding");
        e.forward(ids, &mut self.stream[0]);
        self.forward_from_input(Target::None, &[]);
    }

    /// The parameters, in `Params::visit` order.
    pub fn weights(&mut self) -> Vec<F> {
        let mut out = Vec::new();
        self.visit(&mut |p| out.extend_from_slice(p.value.as_slice()));
        out
    }

    /// Sets the parameters to `weights` (from `weights` of a stack of the same configuration,
    /// or of one that differs only in its tokens); an error, changing nothing, if they do not fit.
    pub fn load_weights(&mut self, weights: &[F]) -> Result<(), String> {
        let mut count = 0;
        self.visit(&mut |p| count += p.value.len());
        if count != weights.len() {
            return Err(format!("{} weights for a stack of {count}", weights.len()));
        }
        let mut rest = weights;
        self.visit(&mut |p| {
            let (these, others) = rest.split_at(p.value.len());
            p.value.as_mut_slice().copy_from_slice(these);
            rest = others;
        });
        Ok(())
    }

    pub(crate) fn back_propagate(
        &mut self,
        target: Target<F>,
        norms: bool,
        mut update: Option<&mut UpdatePart<F>>,
    ) {
        let depth = self.layers.len();
        match target {
            Target::Values(y) => mse_backward(&self.pred, y, &mut self.dpred),
            Target::Next(t) => cross_entropy_backward_from_probs(&mut self.dpred, &t.next, &t.scored),
            Target::None => unreachable!("a pass without a loss has nothing to back-propagate"),
        }
        let [g_top, g_next] = &mut self.grad;
        match &mut self.final_norm {
            Some(ln) => {
                // g_next is free until the first layer: it holds ∂L/∂LN_f(x_L) meanwhile
                self.readout.backward(&self.top, &self.dpred, g_next, false);
                ln.backward(g_next, g_top);
            }
            None => self.readout.backward(&self.stream[depth], &self.dpred, g_top, false),
        }
        if let Some(update) = update.as_deref_mut() {
            if let Some(ln) = &mut self.final_norm {
                update(ln, self.first_param[depth]);
            }
            update(&mut self.readout, self.first_param[depth + 2]);
        }
        if norms {
            self.stream_grad_norm[depth] = frobenius(g_top.as_slice());
        }
        let (mut dy, mut dx) = (g_top, g_next);
        for l in (0..depth).rev() {
            self.layers[l].backward(&self.stream[l], dy, dx, &mut self.scratch);
            if let Some(e) = self.encoder.as_mut().filter(|e| e.end == l) {
                e.carry_back(&mut self.layers[l..], dx);
                if let (Some(update), Some(n)) = (update.as_deref_mut(), e.norm.as_mut()) {
                    update(n, self.first_param[depth + 1]);
                }
            }
            if norms {
                self.stream_grad_norm[l] = frobenius(dx.as_slice());
                self.weight_grad_norm[l] = self.layers[l].weight_grad_norm();
            }
            if let Some(update) = update.as_deref_mut() {
                update(&mut self.layers[l], self.first_param[l]);
            }
            std::mem::swap(&mut dy, &mut dx);
        }
        // dy now holds ∂L/∂x₀
        if let (Some(e), Target::Next(tokens)) = (&mut self.embedding, target) {
            e.backward(&tokens.ids, dy);
            if let Some(update) = update {
                update(e, self.first_param[depth + 3]);
            }
        }
    }

    /// The decoder's self-attention causal (`true`) or not, the weights unchanged: how a model
    /// trained without the mask is measured with it (an encoder's stays without).
    pub fn set_causal(&mut self, causal: bool) {
        let from = self.encoder.as_ref().map_or(0, |e| e.end);
        for layer in &mut self.layers[from..] {
            if let Sublayer::Attention(a) = &mut layer.sublayer {
                a.set_masked(causal);
            }
        }
    }

    /// `∂L/∂x_0` from the last `backward` (layer ℓ writes `∂L/∂x_ℓ` into `grad[(L − ℓ) % 2]`).
    pub fn input_grad(&self) -> &DMatrix<F> {
        &self.grad[self.layers.len() % 2]
    }

    /// The residual stream after the last sublayer, `x_L`.
    pub fn output(&self) -> &DMatrix<F> {
        &self.stream[self.layers.len()]
    }

    /// What the readout reads: `LN_f(x_L)` with a final norm, else `x_L`. The histogram shows it.
    /// The std of what the readout reads before the learned γ and β of the norm it reads
    /// through (the final norm, or a post-norm or DeepNorm stack's last layer's), from the last
    /// pass: what LayerNorm promises to make 1. NaN if no norm ends the stream.
    pub fn readout_unscaled_std(&self) -> f64 {
        let last = self.layers.last().filter(|l| l.norm_is_output());
        let norm = self.final_norm.as_ref().or(last.and_then(|l| l.norm.as_ref()));
        norm.map_or(f64::NAN, |n| crate::model::stats::mean_std(n.normalised().as_slice()).1)
    }

    pub fn readout_input(&self) -> &DMatrix<F> {
        match self.final_norm {
            Some(_) => &self.top,
            None => self.output(),
        }
    }

    /// Mean, std, max |x| and non-finite count of `x_ℓ` at every depth ℓ = 0..=L.
    pub fn stream_moments(&self) -> Vec<Moments> {
        self.stream.iter().map(|x| moments(x.as_slice())).collect()
    }

    /// The standard deviation of `x_ℓ` at every depth ℓ = 0..=L (`stream_moments`' std).
    pub fn stream_stds(&self) -> Vec<f64> {
        self.stream.iter().map(|x| mean_std(x.as_slice()).1).collect()
    }

    /// True if no activation anywhere in the stack is ±∞ or NaN.
    ///
    /// With the residual on, looking at the last `x_L` is enough: a non-finite entry of `x_ℓ`
    /// stays non-finite in `x_ℓ + F(…)` (∞ + finite is ∞, ∞ − ∞ and anything with NaN are
    /// NaN), and a post-norm turns it into NaN (its token's mean and variance are ∞ or NaN, and
    /// so is `x − mean` or the scale 1/√(ms + ε) = 0 meets ∞). So the answer is the same as
    /// scanning every depth, at 1/L of the cost. Without the residual, ReLU maps NaN to 0, so
    /// every depth is scanned.
    pub(crate) fn all_finite_here(&self) -> bool {
        let scanned = if self.residual { &self.stream[self.layers.len()..] } else { &self.stream[..] };
        scanned.iter().all(|x| all_finite(x.as_slice())) && all_finite(self.pred.as_slice())
    }
}

impl<F: Real> Params<F> for Stack<F> {
    fn visit(&mut self, f: &mut dyn FnMut(&mut Param<F>)) {
        for layer in &mut self.layers {
            layer.visit(f);
        }
        if let Some(n) = &mut self.final_norm {
            n.visit(f);
        }
        if let Some(n) = self.encoder.as_mut().and_then(|e| e.norm.as_mut()) {
            n.visit(f);
        }
        self.readout.visit(f);
        if let Some(e) = &mut self.embedding {
            e.visit(f);
        }
    }

    fn names(&self, prefix: &str, out: &mut Vec<String>) {
        let at = |name: &str| if prefix.is_empty() { name.to_string() } else { format!("{prefix}.{name}") };
        for (i, layer) in self.layers.iter().enumerate() {
            layer.names(&at(&format!("layers.{i}")), out);
        }
        if let Some(n) = &self.final_norm {
            n.names(&at("final_norm"), out);
        }
        if let Some(n) = self.encoder.as_ref().and_then(|e| e.norm.as_ref()) {
            n.names(&at("encoder_norm"), out);
        }
        self.readout.names(&at("readout"), out);
        if let Some(e) = &self.embedding {
            e.names(&at("embedding"), out);
        }
    }
}
