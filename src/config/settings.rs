//! What the reader configures. `Config::default()` is the page's reset state.
//!
//! Every field has a name, a range and a default in one declarative table (`PARAMS` in
//! `table.rs`), which the URL, the element attributes, the messages and the CLI share.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NormPlacement {
    /// No normalisation.
    Off,
    /// `x + F(LN(x))`, without residual `F(LN(x))`.
    Pre,
    /// `LN(x + F(x))`, without residual `LN(F(x))`.
    Post,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NormKind {
    /// Per token: subtract the mean, divide by the std, then scale by γ and shift by β.
    LayerNorm,
    /// Per token: divide by the root mean square, then scale by γ.
    RmsNorm,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SublayerKind {
    /// `relu(x W)`, the lessons' toy.
    Mlp,
    /// `gelu(x W₁ + b₁) W₂ + b₂`, d → 4d → d.
    Ffn,
    /// Causal multi-head self-attention (4 heads).
    Attention,
    /// Attention and FFN alternating, as in a Transformer: 96 sublayers = 48 blocks.
    Block,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptimizerKind {
    Sgd,
    Adam,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Number of sublayers, 1..=96.
    pub depth: usize,
    /// Add each sublayer's input to its output.
    pub residual: bool,
    /// Where the norm sits: off, pre or post.
    pub norm: NormPlacement,
    /// A pre-norm stack ends with one more norm before the readout, as GPT-2 (`ln_f`) and
    /// LLaMA do: the residual stream itself is never normalised in a pre-norm stack. Post-norm
    /// stacks already end normalised, and with the norm off there is none.
    pub final_norm: bool,
    /// LayerNorm or RMSNorm.
    pub norm_kind: NormKind,
    /// What each sublayer computes.
    pub sublayer: SublayerKind,
    /// Features per token d, a multiple of 4 (the attention heads) in 8..=128.
    pub width: usize,
    /// Tokens per sequence T, 1..=256.
    pub tokens: usize,
    /// Weights ~ N(0, gain²/fan_in); 1 keeps a linear layer's output variance, 0.01..=10.
    pub init_gain: f64,
    pub optimizer: OptimizerKind,
    /// Peak learning rate, 1e-6..=10.
    pub learning_rate: f64,
    /// Steps of linear warmup from 0 to the peak learning rate, 0..=100000.
    pub warmup_steps: usize,
    /// Fixes initialisation, teacher, data and batch order.
    pub seed: u64,
    /// Training steps of a run on the page, 0..=1000000: it stops there, and Play continues it
    /// for as many again (at least one). (The CLI's `--steps` defaults to 500.)
    pub steps: usize,
}

/// The page's step limit: the depth-96 stack reaches it in under 20 s at 300 steps/s, every
/// configuration in the README's recipe table has settled or failed well before it, and a tab
/// left open stops spending the reader's battery.
pub const DEFAULT_STEPS: usize = 5000;

impl Default for Config {
    fn default() -> Self {
        Config {
            depth: 12,
            residual: true,
            norm: NormPlacement::Pre,
            final_norm: true,
            norm_kind: NormKind::LayerNorm,
            sublayer: SublayerKind::Mlp,
            width: 32,
            tokens: 64,
            init_gain: 1.0,
            optimizer: OptimizerKind::Adam,
            learning_rate: 0.01,
            warmup_steps: 0,
            seed: 1,
            steps: DEFAULT_STEPS,
        }
    }
}

/// A rejected value: names the parameter and what it accepts.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigError {
    pub name: String,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.message)
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// The stack has a final norm between its last sublayer and the readout.
    pub fn has_final_norm(&self) -> bool {
        self.final_norm && self.norm == NormPlacement::Pre
    }
}
