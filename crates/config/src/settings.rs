//! What the reader configures. `Config::default()` is the page's reset state.
//!
//! Every field has a name, a range and a default in one declarative table (`PARAMS` in
//! `table.rs`), which the URL, the element attributes, the messages and the CLI share.

use super::choice::{Choice, Options};
use super::text::TextId;
use ablation_words::Said;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NormPlacement {
    /// No normalisation.
    Off,
    /// `x + F(LN(x))`, without residual `F(LN(x))`.
    Pre,
    /// `LN(x + F(x))`, without residual `LN(F(x))`.
    Post,
    /// A norm before and after the sublayer: `x + LN(F(LN(x)))`, without residual
    /// `LN(F(LN(x)))` (CogView's and NormFormer's "sandwich").
    Sandwich,
    /// DeepNet's post-norm: `LN(α·x + F(x))`, with α = L^¼ for L sublayers, and the weights
    /// that write the branch's output (all but attention's queries and keys) drawn β = (4L)^-¼
    /// times smaller (DeepNet's (2N)^¼ and (8N)^-¼ for N blocks of two sublayers). Without
    /// residual `LN(F(x))`, as post-norm, with the same smaller weights.
    DeepNorm,
}

impl Choice for NormPlacement {
    const OPTIONS: Options<Self> = Options(&[
        ("off", NormPlacement::Off, "off"),
        ("pre", NormPlacement::Pre, "pre"),
        ("post", NormPlacement::Post, "post"),
        ("sandwich", NormPlacement::Sandwich, "sandwich"),
        ("deepnorm", NormPlacement::DeepNorm, "deepnorm"),
    ]);
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NormKind {
    /// Per token: subtract the mean, divide by the std, then scale by γ and shift by β.
    LayerNorm,
    /// Per token: divide by the root mean square, then scale by γ.
    RmsNorm,
}

impl Choice for NormKind {
    const OPTIONS: Options<Self> = Options(&[
        ("layernorm", NormKind::LayerNorm, "LayerNorm"),
        ("rmsnorm", NormKind::RmsNorm, "RMSNorm"),
    ]);
}

/// What the per-layer panel draws (a view: changing it does not restart the run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayerView {
    /// The stream: `‖∂L/∂x_ℓ‖` and the std of `x_ℓ` at every depth.
    Activations,
    /// The weights: `‖∂L/∂W_ℓ‖` of every sublayer, attention and FFN told apart (Xiong et al.
    /// 2020 bound and draw this one), on the probe batch at initialisation and now.
    Weights,
    /// One matrix of each sublayer as Xiong et al. read it, the FFN's second `W²` and
    /// attention's `W_V`: its gradient at initialisation, the mean over the run's first
    /// `MATRIX_BATCHES` batches (`per_matrix::GradientAverage`; `ablate --grad-batches`).
    Matrices,
}

/// The batches the matrices' view averages each matrix's gradient over (Xiong et al. average
/// over many; 100 is the studies' count, docs/findings.md).
pub const MATRIX_BATCHES: usize = 100;

/// What a tuned comparison searches over (`config::table::tuning`): the learning rate alone, or
/// the recipe the lessons name (the rate, the warmup and Adam's β₂).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TuneGrid {
    Lr,
    Recipe,
}

impl Choice for TuneGrid {
    const OPTIONS: Options<Self> = Options(&[
        ("lr", TuneGrid::Lr, "the learning rate"),
        ("lr,warmup,beta2", TuneGrid::Recipe, "the rate, the warmup and Adam's β₂"),
    ]);
}

/// How long a comparison's runs train: a fixed number of steps, or until their held-out loss
/// has stopped improving (`spread::plateaued`), with the steps as a cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Until {
    Steps,
    Plateau,
}

impl Choice for Until {
    const OPTIONS: Options<Self> = Options(&[
        ("steps", Until::Steps, "the steps"),
        ("plateau", Until::Plateau, "a plateau (steps as the cap)"),
    ]);
}

impl Choice for LayerView {
    const OPTIONS: Options<Self> = Options(&[
        ("activations", LayerView::Activations, "the stream: ‖∂L/∂x‖ and std"),
        ("weights", LayerView::Weights, "the weights: ‖∂L/∂W‖ per sublayer"),
        ("matrices", LayerView::Matrices, "Xiong's W² and W_V, 100 batches"),
    ]);
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SublayerKind {
    /// `relu(x W)`, the lessons' toy.
    Mlp,
    /// `gelu(x W₁ + b₁) W₂ + b₂`, d → 4d → d.
    Ffn,
    /// Causal multi-head self-attention (`heads` heads, 4 by default).
    Attention,
    /// Attention and FFN alternating, as in a Transformer: 96 sublayers = 48 blocks.
    Block,
}

impl Choice for SublayerKind {
    const OPTIONS: Options<Self> = Options(&[
        ("mlp", SublayerKind::Mlp, "relu(xW)"),
        ("ffn", SublayerKind::Ffn, "FFN (GELU)"),
        ("attention", SublayerKind::Attention, "attention"),
        ("block", SublayerKind::Block, "attention + FFN blocks"),
    ]);
}

/// Which stacks the model is: one decoder (a language model's) or an encoder and a decoder
/// (the original Transformer's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StackKind {
    /// One stack over the whole sequence, every sublayer as `sublayer` says.
    Decoder,
    /// An encoder over the source (self-attention without a mask, then an FFN, per layer) and a
    /// decoder over the target (masked self-attention, cross-attention to the encoder's last
    /// output, then an FFN): N layers each, 5N sublayers in all (`Config::encoder_layers`).
    EncoderDecoder,
}

impl Choice for StackKind {
    const OPTIONS: Options<Self> = Options(&[
        ("decoder", StackKind::Decoder, "decoder only"),
        ("encoder-decoder", StackKind::EncoderDecoder, "encoder + decoder"),
    ]);
}

/// The decoder's self-attention: each position sees only the earlier ones, or all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaskKind {
    /// Token t sees the tokens s ≤ t of its sequence: what lets the stack write.
    Causal,
    /// Every token sees every token of its sequence, the ones it must predict included.
    None,
}

impl Choice for MaskKind {
    const OPTIONS: Options<Self> = Options(&[
        ("causal", MaskKind::Causal, "causal"),
        ("none", MaskKind::None, "none (sees the future)"),
    ]);
}

/// Which rows of a sequence a sublayer reads and writes, and what it computes there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The whole sequence (a decoder-only stack).
    Whole,
    /// An encoder–decoder's source positions.
    Encoder,
    /// An encoder–decoder's target positions.
    Decoder,
}

/// What one sublayer computes (`Config::role`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Mlp,
    Ffn,
    /// Self-attention, masked (causal) or not.
    SelfAttention {
        masked: bool,
    },
    /// The decoder's attention to the encoder's last output.
    CrossAttention,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskKind {
    /// Regress a fixed random linear map of random tokens, `y = x A`: position-wise.
    Teacher,
    /// Predict the next character of a real English text (three Shakespeare plays).
    Text,
    /// Copy a random string after a separator: only attention can look back for it.
    Copy,
    /// Repeat a random string of random length after a separator: the symbol to write follows
    /// the current one's earlier occurrence, at no fixed offset (two attention layers).
    Induction,
    /// Write a random string back reversed after a separator: the source and its target, for
    /// an encoder–decoder or (as one sequence) a decoder.
    Reverse,
}

impl Choice for TaskKind {
    const OPTIONS: Options<Self> = Options(&[
        ("teacher", TaskKind::Teacher, "Regression (y = xA)"),
        ("text", TaskKind::Text, "Text: next character"),
        ("copy", TaskKind::Copy, "Copy a string"),
        ("induction", TaskKind::Induction, "Repeat a string"),
        ("reverse", TaskKind::Reverse, "Reverse a string"),
    ]);
}

impl TaskKind {
    /// A task on sequences of tokens (it writes, it has attention maps), not the regression.
    pub fn is_sequence(self) -> bool {
        self != TaskKind::Teacher
    }

    /// A task scored by the symbols the stack copies right (copy, induction, reverse).
    pub fn copies(self) -> bool {
        matches!(self, TaskKind::Copy | TaskKind::Induction | TaskKind::Reverse)
    }

    /// A task whose sequences are a source and its target, each half: what an encoder–decoder reads.
    pub fn has_source(self) -> bool {
        matches!(self, TaskKind::Copy | TaskKind::Reverse)
    }
}

/// The learning rate after the warmup: constant, or decaying as the inverse square root of the
/// update's number, the schedule of the Transformer papers (Vaswani et al. 2017, whose
/// `d^-0.5 · min(t^-0.5, t · warmup^-1.5)` is this with its peak as the rate; Xiong et al. 2020
/// and Liu et al. 2020 train with it, as fairseq's `inverse_sqrt`; it needs no run length, so
/// a run continued, or one trained until it plateaus, follows it too), or a half cosine from the
/// peak down to a tenth of it at the run's last step (`steps`), as GPT-3 and Chinchilla decay
/// theirs, and a tenth after it (a run continued past `steps` goes on at that floor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    Constant,
    InverseSqrt,
    Cosine,
}

impl Choice for Schedule {
    const OPTIONS: Options<Self> = Options(&[
        ("constant", Schedule::Constant, "constant"),
        ("inverse-sqrt", Schedule::InverseSqrt, "inverse square root"),
        ("cosine", Schedule::Cosine, "cosine"),
    ]);
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptimizerKind {
    Sgd,
    Adam,
}

impl Choice for OptimizerKind {
    const OPTIONS: Options<Self> =
        Options(&[("sgd", OptimizerKind::Sgd, "SGD"), ("adam", OptimizerKind::Adam, "Adam")]);
}

#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Number of sublayers, 1..=96.
    pub depth: usize,
    /// What the stack learns.
    pub task: TaskKind,
    /// The text task's text: the shipped plays or a reader's own.
    pub text: TextId,
    /// Add each sublayer's input to its output.
    pub residual: bool,
    /// Where the norm sits: off, pre, post, sandwich or DeepNorm.
    pub norm: NormPlacement,
    /// A pre-norm stack ends with one more norm before the readout, as GPT-2 (`ln_f`) and
    /// LLaMA do: the residual stream itself is never normalised in a pre-norm stack. Post-norm
    /// stacks already end normalised, and with the norm off there is none.
    pub final_norm: bool,
    /// LayerNorm or RMSNorm.
    pub norm_kind: NormKind,
    /// What each sublayer computes (a decoder-only stack's; an encoder–decoder's are fixed).
    pub sublayer: SublayerKind,
    /// One decoder, or an encoder and a decoder.
    pub stack: StackKind,
    /// The decoder's self-attention: causal, or seeing the whole sequence.
    pub mask: MaskKind,
    /// Features per token d, a multiple of 4 (the attention heads) in 8..=128.
    pub width: usize,
    /// Attention heads, each of `width / heads` features (a divisor of the width).
    pub heads: usize,
    /// Tokens per batch T, 1..=256, a multiple of the context.
    pub tokens: usize,
    /// Positions per sequence C, 0..=256: attention is causal within each of the T / C
    /// sequences of a batch. 0 means one sequence of all the tokens (the teacher's default).
    pub context: usize,
    /// Weights ~ N(0, gain²/fan_in); 1 keeps a linear layer's output variance, 0.01..=10.
    pub init_gain: f64,
    pub optimizer: OptimizerKind,
    /// Peak learning rate, 1e-6..=10.
    pub learning_rate: f64,
    /// Steps of linear warmup from 0 to the peak learning rate, 0..=100000.
    pub warmup_steps: usize,
    /// The rate after the warmup (`Schedule`).
    pub schedule: Schedule,
    /// Adam's β₂ (the decay of its average of squared gradients), 0.5..=0.99999: 0.999 by
    /// default, 0.98 in the original Transformer's recipe.
    pub beta2: f64,
    /// Fixes initialisation, teacher, data and batch order.
    pub seed: u64,
    /// Training steps of a run on the page, 0..=1000000: it stops there, and Play continues it
    /// for as many again (at least one). (The CLI's `--steps` defaults to 500.)
    pub steps: usize,
    /// What the model writes is sampled at this temperature; 0 is greedy. It changes no
    /// training: a run goes on when only this changes.
    pub temperature: f64,
    /// Which sublayer's heads the Attention panel shows (the nearest that attends, at or below
    /// it). It changes no training: a run goes on when only this changes.
    pub attention_layer: usize,
    /// What the per-layer panel draws.
    pub layer_view: LayerView,
    /// Every comparison trains each of its arms at the seeds `seed, seed + 1, …` (1..=10 of
    /// them) and shows the median with the spread. It changes no training of the live run.
    pub seeds: usize,
    /// Every comparison chooses each arm's setting (`tune_grid`) on seeds of its own
    /// (`choose_seeds`), by a search that brackets the best rate (`ablation_comparisons::tuner`), and shows
    /// the arm at it on the `seeds`. It changes no training of the live run.
    pub tune: bool,
    /// What tuning searches over: the rate, or the rate, the warmup and β₂.
    pub tune_grid: TuneGrid,
    /// The seeds a tuned comparison chooses its settings on (1..=10), after the `seeds` it shows.
    pub choose_seeds: usize,
    /// Tuning by successive halving (candidates judged on a share of the run, the better third
    /// going on from their checkpoints); off, every candidate trains the full run.
    pub halving: bool,
    /// A comparison's runs train for `steps`, or until they plateau (`steps` the cap).
    pub until: Until,
    /// Each training step's batch is split into this many shards (1, 2, 4 or 8), each one's
    /// forward and backward apart, their gradients summed in one fixed order
    /// (`training::step::shards`): what several workers can share; 0, chosen from the step's size
    /// (`step_shards`). Fixed by the configuration, never by the machine, so that a run's bits
    /// do not depend on how many cores trained it.
    pub shards: usize,
}

/// From this many multiply-adds a step (`Config::step_multiply_adds`), and 128 tokens, a
/// configuration with `shards` 0 splits its step in two (`Config::step_shards`). Measured in
/// Chromium on two cores (BENCHMARKS.md, issue 54): at 4·10⁸ the helper makes the live run
/// 1.3–1.6× faster; at 10⁸ it ranged from 0.9× to 1.4× (a wash); below 128 tokens it lost
/// (0.85× at 10⁸ over 64 tokens). Hence the line between them.
pub const SPLIT_PAYS: f64 = 2e8;

/// The page's step limit: the depth-96 stack reaches it in under 20 s at 300 steps/s, every
/// configuration in the recipe table (docs/findings.md) has settled or failed well before it, and a tab
/// left open stops spending the reader's battery.
pub const DEFAULT_STEPS: usize = 5000;

/// The distinct characters of the shipped text (`training::tasks::corpus` checks a loaded text has
/// exactly these many; its hash fixes which).
pub const TEXT_VOCAB: usize = 70;
/// The copy task's symbols (shown as the digits 0–9); the separator is one more token.
pub const COPY_SYMBOLS: usize = 10;
/// The induction task's symbols (shown as `0`–`9`, `a`–`f`); the separator and the padding
/// are two more tokens.
pub const INDUCTION_SYMBOLS: usize = 16;

impl Default for Config {
    fn default() -> Self {
        Config {
            depth: 12,
            task: TaskKind::Teacher,
            text: TextId::Plays,
            residual: true,
            norm: NormPlacement::Pre,
            final_norm: true,
            norm_kind: NormKind::LayerNorm,
            sublayer: SublayerKind::Mlp,
            stack: StackKind::Decoder,
            mask: MaskKind::Causal,
            width: 32,
            heads: 4,
            tokens: 64,
            context: 0,
            init_gain: 1.0,
            optimizer: OptimizerKind::Adam,
            learning_rate: 0.01,
            warmup_steps: 0,
            schedule: Schedule::Constant,
            beta2: 0.999,
            seed: 1,
            steps: DEFAULT_STEPS,
            temperature: 0.8,
            attention_layer: 0,
            layer_view: LayerView::Activations,
            seeds: 1,
            tune: false,
            tune_grid: TuneGrid::Lr,
            choose_seeds: 3,
            halving: true,
            until: Until::Steps,
            shards: 0,
        }
    }
}

/// A rejected value: names the parameter and says what it accepts (a sentence said in the
/// reader's language when shown: `ablate` says it in English).
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigError {
    pub name: String,
    pub said: Said,
}

impl ConfigError {
    pub fn new(name: impl Into<String>, said: Said) -> ConfigError {
        ConfigError { name: name.into(), said }
    }

    /// What is wrong, in the thread's language.
    pub fn message(&self) -> String {
        self.said.to_string()
    }

    /// The whole error as a sentence: "depth: "200" is not an integer from 1 to 96".
    pub fn sentence(&self) -> Said {
        Said::new("config-error").arg("name", self.name.as_str()).arg("message", self.said.clone())
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.sentence().fmt(f)
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// DeepNorm's α, the residual's weight (1 for the other placements): L^¼ for L sublayers.
    /// (As two square roots, which IEEE rounds exactly everywhere: `powf` is a library call
    /// whose last bit may differ between the native and the wasm build.)
    pub fn residual_scale(&self) -> f64 {
        if self.norm == NormPlacement::DeepNorm {
            (self.depth as f64).sqrt().sqrt()
        } else {
            1.0
        }
    }

    /// DeepNorm's β, the scale of the weights that write a branch's output (1 for the other
    /// placements): (4L)^-¼ for L sublayers (square roots, as `residual_scale`).
    pub fn branch_gain(&self) -> f64 {
        if self.norm == NormPlacement::DeepNorm {
            1.0 / (4.0 * self.depth as f64).sqrt().sqrt()
        } else {
            1.0
        }
    }

    /// Sublayer `index` is attention (a `block` stack alternates attention and FFN, attention first).
    pub fn attends_at(&self, index: usize) -> bool {
        matches!(self.role(index), Role::SelfAttention { .. } | Role::CrossAttention)
    }

    /// An encoder–decoder's layers in each of its two stacks: N for 5N sublayers (2 per encoder
    /// layer, 3 per decoder layer); 0 for a decoder-only stack.
    pub fn encoder_layers(&self) -> usize {
        match self.stack {
            StackKind::Decoder => 0,
            StackKind::EncoderDecoder => self.depth / 5,
        }
    }

    /// The sublayers of the encoder, which come first: 2N (0 for a decoder-only stack).
    pub fn encoder_sublayers(&self) -> usize {
        2 * self.encoder_layers()
    }

    /// Which rows sublayer `index` works on.
    pub fn part(&self, index: usize) -> Part {
        match self.stack {
            StackKind::Decoder => Part::Whole,
            StackKind::EncoderDecoder if index < self.encoder_sublayers() => Part::Encoder,
            StackKind::EncoderDecoder => Part::Decoder,
        }
    }

    /// What sublayer `index` computes. A decoder-only stack: as `sublayer` says (a `block`
    /// alternates attention and FFN, attention first), its attention masked as `mask` says.
    /// An encoder–decoder: per encoder layer self-attention without a mask, then an FFN; per
    /// decoder layer self-attention masked as `mask` says, cross-attention, then an FFN.
    pub fn role(&self, index: usize) -> Role {
        let masked = self.mask == MaskKind::Causal;
        match self.part(index) {
            Part::Whole => match self.sublayer {
                SublayerKind::Mlp => Role::Mlp,
                SublayerKind::Ffn => Role::Ffn,
                SublayerKind::Attention => Role::SelfAttention { masked },
                SublayerKind::Block if index.is_multiple_of(2) => Role::SelfAttention { masked },
                SublayerKind::Block => Role::Ffn,
            },
            Part::Encoder if index.is_multiple_of(2) => Role::SelfAttention { masked: false },
            Part::Encoder => Role::Ffn,
            Part::Decoder => match (index - self.encoder_sublayers()) % 3 {
                0 => Role::SelfAttention { masked },
                1 => Role::CrossAttention,
                _ => Role::Ffn,
            },
        }
    }

    /// Sublayer `index` as the panels name it: "layer 3" in a decoder-only stack (its index);
    /// in an encoder–decoder its layer of its stack, counted from 1, and what it computes
    /// ("encoder layer 1, self-attention", "decoder layer 2, cross-attention").
    pub fn sublayer_name(&self, index: usize) -> String {
        let what = match self.role(index) {
            Role::SelfAttention { masked: true } => "masked self-attention",
            Role::SelfAttention { masked: false } => "self-attention",
            Role::CrossAttention => "cross-attention",
            Role::Ffn => "FFN",
            Role::Mlp => "MLP",
        };
        match self.layer_of(index) {
            (Part::Whole, _) => format!("layer {index}"),
            (Part::Encoder, layer) => format!("encoder layer {layer}, {what}"),
            (Part::Decoder, layer) => format!("decoder layer {layer}, {what}"),
        }
    }

    /// Sublayer `index`'s part of the stack and its layer there: a decoder-only stack's is its
    /// index; an encoder's or a decoder's is its layer of that stack, counted from 1.
    pub fn layer_of(&self, index: usize) -> (Part, usize) {
        match self.part(index) {
            Part::Whole => (Part::Whole, index),
            Part::Encoder => (Part::Encoder, index / 2 + 1),
            Part::Decoder => (Part::Decoder, (index - self.encoder_sublayers()) / 3 + 1),
        }
    }

    /// Positions of a sequence that are the source (the first half, with an odd context's extra
    /// leading separator): what an encoder reads.
    pub fn source_positions(&self) -> usize {
        self.sequence() - self.sequence() / 2
    }

    /// The positions `part` works on within each sequence.
    pub fn part_positions(&self, part: Part) -> std::ops::Range<usize> {
        match part {
            Part::Whole => 0..self.sequence(),
            Part::Encoder => 0..self.source_positions(),
            Part::Decoder => self.source_positions()..self.sequence(),
        }
    }

    /// The stack has a final norm between its last sublayer and the readout.
    pub fn has_final_norm(&self) -> bool {
        self.final_norm && matches!(self.norm, NormPlacement::Pre | NormPlacement::Sandwich)
    }

    /// Tokens a sequence task's model reads and predicts (none for the teacher).
    pub fn vocab(&self) -> usize {
        match self.task {
            TaskKind::Teacher => 0,
            TaskKind::Text => self.text.vocab(),
            TaskKind::Copy | TaskKind::Reverse => COPY_SYMBOLS + 1,
            TaskKind::Induction => INDUCTION_SYMBOLS + 2,
        }
    }

    /// Positions per sequence: `context`, or all the tokens when it is 0.
    pub fn sequence(&self) -> usize {
        if self.context == 0 {
            self.tokens
        } else {
            self.context
        }
    }

    /// The fewest positions a sequence of the task can have: a copy example a symbol and its
    /// copy (2), an induction example a string of two, the separator and its repeat (4).
    fn shortest_sequence(&self) -> usize {
        match self.task {
            TaskKind::Copy | TaskKind::Reverse => 2,
            TaskKind::Induction => 4,
            _ => 1,
        }
    }

    /// Sequences per batch.
    pub fn sequences(&self) -> usize {
        self.tokens / self.sequence()
    }

    /// The rules between parameters that the table's ranges cannot say: the tokens are whole
    /// sequences, and a copy sequence has room for a symbol and its copy.
    pub fn check_together(&self) -> Result<(), ConfigError> {
        if !self.width.is_multiple_of(self.heads) {
            return Err(ConfigError::new(
                "heads",
                Said::new("error-heads").arg("heads", self.heads).arg("width", self.width),
            ));
        }
        if self.context > self.tokens || !self.tokens.is_multiple_of(self.sequence()) {
            return Err(ConfigError::new(
                "tokens",
                Said::new("error-tokens").arg("tokens", self.tokens).arg("context", self.context),
            ));
        }
        if self.shards > 1 {
            self.check_shards(self.shards)?;
        }
        if self.sequence() < self.shortest_sequence() {
            return Err(ConfigError::new(
                "context",
                Said::new("error-context")
                    .arg("task", self.task.word())
                    .arg("positions", self.shortest_sequence()),
            ));
        }
        self.check_encoder_decoder()
    }

    /// A step split into shards: a power of two (the shards' mean gradient is then their sum
    /// scaled exactly), each shard whole sequences (a token alone on the regression without
    /// attention, whose rows are independent), and a decoder-only stack.
    fn check_shards(&self, shards: usize) -> Result<(), ConfigError> {
        let error = |said: Said| Err(ConfigError::new("shards", said));
        if !shards.is_power_of_two() {
            return error(Said::new("error-shards").arg("shards", shards));
        }
        if self.stack == StackKind::EncoderDecoder {
            return error(Said::new("error-shards-encoder-decoder"));
        }
        let attends = (0..self.depth).any(|i| self.attends_at(i));
        let units = if self.task == TaskKind::Teacher && !attends {
            self.tokens
        } else {
            self.tokens / self.sequence()
        };
        if !units.is_multiple_of(shards) {
            let what = if self.task == TaskKind::Teacher && !attends { "tokens" } else { "sequences" };
            return error(
                Said::new("error-shards-divide").arg("shards", shards).arg("units", units).arg("what", what),
            );
        }
        Ok(())
    }

    /// The shards a step is split into: `shards`, or with `shards` 0 the configuration's own
    /// choice from the step's size: 2 where a step is at least `SPLIT_PAYS` multiply-adds of
    /// weights by tokens (about a forward's work) over at least 128 tokens and the batch splits
    /// in two, else 1 (at depth 96 with the defaults, 6·10⁶, a helper's messages cost more than
    /// half the step saves). Never the machine's cores: a configuration's bits are the same
    /// everywhere.
    pub fn step_shards(&self) -> usize {
        if self.shards != 0 {
            return self.shards;
        }
        let pays = self.tokens >= 128 && self.step_multiply_adds() >= SPLIT_PAYS;
        if pays && self.check_shards(2).is_ok() {
            2
        } else {
            1
        }
    }

    /// About the multiply-adds of a step's forward through its sublayers' weights: tokens ×
    /// the weights of every sublayer (an MLP's one d × d matrix, attention's four, an FFN's
    /// two d × 4d; blocks alternate the two).
    pub fn step_multiply_adds(&self) -> f64 {
        let per = match self.sublayer {
            SublayerKind::Mlp => 1.0,
            SublayerKind::Attention => 4.0,
            SublayerKind::Ffn => 8.0,
            SublayerKind::Block => 6.0,
        };
        let d = self.width as f64;
        self.depth as f64 * per * d * d * self.tokens as f64
    }

    /// The configuration of one shard of a step: the same stack, a batch `1 / step_shards` as
    /// large.
    pub fn shard(&self) -> Config {
        Config { tokens: self.tokens / self.step_shards(), shards: 1, ..self.clone() }
    }

    /// An encoder–decoder's rules: a task with a source (copy, reverse), sublayers of `block`,
    /// a depth of whole layers (5 sublayers per encoder and decoder layer), and an even context
    /// (a source and a target of the same length).
    fn check_encoder_decoder(&self) -> Result<(), ConfigError> {
        if self.stack != StackKind::EncoderDecoder {
            return Ok(());
        }
        let error = |name: &str, said: Said| Err(ConfigError::new(name, said));
        if !self.task.has_source() {
            return error("stack", Said::new("error-stack-task").arg("task", self.task.word()));
        }
        if self.sublayer != SublayerKind::Block {
            return error(
                "sublayer",
                Said::new("error-stack-sublayer").arg("sublayer", self.sublayer.word()),
            );
        }
        if !self.depth.is_multiple_of(5) {
            return error("depth", Said::new("error-stack-depth").arg("depth", self.depth));
        }
        if !self.sequence().is_multiple_of(2) {
            return error("context", Said::new("error-stack-context").arg("context", self.sequence()));
        }
        Ok(())
    }

    /// An encoder-decoder's needs met where the caller did not choose the value (`chosen` says
    /// which parameters it named): block sublayers, the nearest depth of 5N sublayers, an even
    /// context. `ablate` does this for the defaults a flag did not set, so that `--stack
    /// encoder-decoder` alone trains (the page's `settle` moves any value, with a notice); a
    /// value chosen that does not fit is left for `check_together` to refuse.
    pub fn fit_stack_defaults(&mut self, chosen: impl Fn(&str) -> bool) {
        if self.stack != StackKind::EncoderDecoder || !self.task.has_source() {
            return;
        }
        if !chosen("sublayer") {
            self.sublayer = SublayerKind::Block;
        }
        if !chosen("depth") && !self.depth.is_multiple_of(5) {
            self.depth = encoder_decoder_depth(self.depth);
        }
        if !chosen("context") && self.context != 0 && !self.context.is_multiple_of(2) {
            self.context += 1;
        }
    }

    /// Makes `check_together` hold by changing the heads (to the most that divide the width),
    /// the tokens (to a multiple of the context, at least one sequence) or, for a copy sequence
    /// too short, the context; says what changed.
    pub fn settle(&mut self) -> Option<Said> {
        let error = self.check_together().err()?;
        let mut changed = Vec::new();
        if !self.width.is_multiple_of(self.heads) {
            self.heads = (1..=self.heads).rev().find(|h| self.width.is_multiple_of(*h)).unwrap_or(1);
            changed.push(Said::new("settled-heads").arg("heads", self.heads));
        }
        if self.stack == StackKind::EncoderDecoder && self.check_encoder_decoder().is_err() {
            if !self.task.has_source() {
                self.stack = StackKind::Decoder;
                changed.push(Said::new("settled-decoder"));
            } else {
                self.sublayer = SublayerKind::Block;
                self.depth = encoder_decoder_depth(self.depth);
                if !self.sequence().is_multiple_of(2) {
                    self.context = self.sequence() + 1;
                }
                changed.push(Said::new("settled-blocks").arg("depth", self.depth));
            }
        }
        let whole = |c: &Config| c.context <= c.tokens && c.tokens.is_multiple_of(c.sequence());
        if !whole(self) || self.sequence() < self.shortest_sequence() {
            if self.sequence() < self.shortest_sequence() {
                self.context = self.shortest_sequence();
            }
            let c = self.sequence();
            self.tokens = (self.tokens / c).max(1) * c;
            changed.push(Said::new("settled-tokens").arg("tokens", self.tokens).arg("context", self.context));
        }
        if self.shards > 1 && self.check_shards(self.shards).is_err() {
            // the most shards (a power of two, at most the asked) the batch splits into
            while self.shards > 1 && self.check_shards(self.shards).is_err() {
                self.shards /= 2;
            }
            changed.push(Said::new("settled-shards").arg("shards", self.shards));
        }
        Some(Said::new("notice-using").arg("error", error.sentence()).arg("using", Said::list(changed)))
    }
}

/// The depth of 5N sublayers an encoder-decoder takes for `depth`: the nearest in 5 … 95.
pub fn encoder_decoder_depth(depth: usize) -> usize {
    ((depth + 2) / 5 * 5).clamp(5, 95)
}
