//! The lessons' own settings, one word each: a preset sets every parameter at once, so a
//! lesson's button, a URL (`?preset=explode`) or the CLI (`--preset explode`) shows exactly the
//! configuration its prose describes. Later parameters then adjust it (`preset=explode&depth=24`).

use super::settings::{
    Config, ConfigError, LayerView, NormPlacement, OptimizerKind, StackKind, SublayerKind, TaskKind,
};

pub struct Preset {
    pub name: &'static str,
    /// What the reader will see, for the menu and `--help`.
    pub help: &'static str,
    pub config: fn() -> Config,
    /// The runs it pins beside the live one, as a `pin` list reads them (`pins.rs`); empty for
    /// none. Choosing the preset on the page or in a link sets them (a link's own `pin` wins).
    pub pins: &'static str,
}

pub static PRESETS: &[Preset] = &[
    Preset {
        name: "default",
        help: "the reset state: 12 layers, both switches on (pre-norm), Adam",
        config: Config::default,
        pins: "",
    },
    Preset {
        // seed 1: std ≈ 131 at the top at initialisation, the loss 1.9e4, then 4.6e61, then
        // non-finite at step 2 (tests/presets.rs checks it diverges within a few steps)
        name: "explode",
        help: "the blow-up: a plain stack (both switches off) with init gain 2, trained by SGD at lr 0.1",
        config: || Config {
            residual: false,
            norm: NormPlacement::Off,
            init_gain: 2.0,
            optimizer: OptimizerKind::Sgd,
            learning_rate: 0.1,
            seeds: 5,
            ..Config::default()
        },
        pins: "",
    },
    Preset {
        // each sublayer is 0.5·relu(xW) in distribution: init gain 0.5 scales W by a half
        name: "gradient-experiment",
        help: "vanishing gradients: 0.5·relu(xW) with neither residual nor norm (init gain 0.5)",
        config: || Config { residual: false, norm: NormPlacement::Off, init_gain: 0.5, seeds: 5, ..Config::default() },
        pins: "",
    },
    Preset {
        name: "text",
        help: "next-character prediction on three Shakespeare plays: 12 attention + FFN sublayers",
        config: text_defaults,
        pins: "",
    },
    Preset {
        name: "copy",
        help: "copy a string of 8 digits after a separator: only attention can look back for it",
        config: copy_defaults,
        pins: "",
    },
    Preset {
        name: "induction",
        help: "repeat a string from any of its symbols: two attention layers learn it, one cannot",
        config: || Config { seeds: 5, ..induction_defaults() },
        pins: "",
    },
    Preset {
        // lessons 000 and 003: post-norm needs warmup, pre-norm does not. Three clicks: as it
        // is (seed 3: held-out 3.45 after 3000 steps, the characters' frequencies only); 300
        // warmup steps (2.20); pre-norm without warmup (2.05). Its comparisons run over seeds
        // 3-7 (studies/warmup-preset.toml): without warmup post-norm stays above the bigram
        // line (2.46) on 4 of them (not seed 4), with warmup and pre-norm every seed crosses it;
        // tests/recipe.rs checks the five
        name: "warmup",
        help: "post-norm needs warmup: text at depth 12, post-norm, Adam at 0.003 without warmup; \
               then 300 warmup steps, or pre-norm",
        config: || Config { norm: NormPlacement::Post, learning_rate: 0.003, seed: 3, seeds: 5, ..text_defaults() },
        pins: "",
    },
    Preset {
        // the lesson's three clicks, flipping only the switches (tests/recipe.rs checks them
        // over seeds 1–3; docs/findings.md, "The lesson's story"): both off, std at the top 59–539 at
        // initialisation (seeds 1–15), the loss ends near 1; LayerNorm on (pre), std 1.00, the
        // loss plateaus near 0.6–0.7; residual on too, it dives to about 0.06. Init gain 2 left
        // seed 2's top std at 14.
        name: "break-and-heal",
        help: "the lesson's story in three clicks: both switches off with init gain 2.25 and Adam; turn LayerNorm on, then Residual",
        config: || Config { residual: false, norm: NormPlacement::Off, init_gain: 2.25, seeds: 5, ..Config::default() },
        pins: "",
    },
    Preset {
        // the first story's contrast (docs/findings.md, "The first story at ReLU's critical
        // gain"; studies/first-story.toml): break-and-heal at He et al.'s gain √2, where a
        // relu(xW) layer keeps its input's second moment. Both off, the top's std is 0.22-2.05
        // at initialisation (seeds 1-10) instead of 59-539, and the loss still ends far above
        // both on's (0.67-0.83 after 500 steps against 0.05-0.08)
        name: "critical-gain",
        help: "break-and-heal at ReLU's critical init gain √2 (He et al. 2015): both switches off, the signal \
               neither blows up nor vanishes, and still the loss stays high; turn LayerNorm on, then Residual",
        config: || Config {
            residual: false,
            norm: NormPlacement::Off,
            init_gain: std::f64::consts::SQRT_2,
            seeds: 5,
            ..Config::default()
        },
        pins: "",
    },
    Preset {
        // lesson 000 after Xiong et al. 2020, as they measured it (their Figure 3): the FFN's
        // second matrix W² and attention's W_V, each one's gradient at initialisation averaged
        // over 100 batches (the matrices' view). On the text task's blocks, seeds 1-5
        // (tests/presets.rs; docs/findings.md, "Xiong's gradients, where Xiong measured
        // them"): post-norm's top W² gets more than twice pre-norm's at both depths, pre-norm's
        // top gets under 0.7x its bottom one's and less at depth 48 than at 12 (1/√L); within
        // post-norm's own stack the top does not reliably get more than the bottom
        name: "gradients",
        help: "Xiong's picture, measured as Xiong measured it: the FFN's second matrix and attention's W_V, their \
               gradient at initialisation over 100 batches, post-norm at depth 48 (live) against pre-norm and depth \
               12 (pinned): post-norm's top gets several times pre-norm's, whose gradient shrinks with depth",
        config: || Config {
            norm: NormPlacement::Post,
            depth: 48,
            steps: 0,
            layer_view: LayerView::Matrices,
            ..text_defaults()
        },
        pins: "preset:gradients,norm:pre@0;preset:gradients,depth:12@0;preset:gradients,depth:12,norm:pre@0",
    },
    Preset {
        // lesson 000's two stacks: 2 encoder layers (self-attention, FFN) and 2
        // decoder layers (masked self-attention, cross-attention, FFN) write 8 symbols back
        // reversed; docs/findings.md has the study over seeds. Its comparisons run over 3 seeds.
        name: "encoder-decoder",
        help: "lesson 000's encoder and decoder: 2 layers each (10 sublayers) write a string of 8 digits back \
               reversed, the decoder reading the source through cross-attention",
        config: || Config { stack: StackKind::EncoderDecoder, depth: 10, seeds: 3, ..reverse_defaults() },
        pins: "",
    },
];

/// The text task's defaults (docs/tasks.md): attention + FFN blocks see 4 windows of 32
/// characters a step. At depth 12 the held-out loss crosses the bigram line after about 1000
/// steps (seed 1), seconds in the browser; 4 windows of 64 learn about as much per step at
/// twice the cost, and 2 windows of 64 more slowly (measured when the defaults were chosen).
pub fn text_defaults() -> Config {
    Config {
        task: TaskKind::Text,
        sublayer: SublayerKind::Block,
        tokens: 128,
        context: 32,
        steps: 3000,
        ..Config::default()
    }
}

/// The reverse task's defaults: 8 strings of 8 symbols a step, each written back reversed,
/// by the decoder-only stack of the copy task (`stack=encoder-decoder` gives the lesson's
/// encoder and decoder; the `encoder-decoder` preset).
pub fn reverse_defaults() -> Config {
    Config { task: TaskKind::Reverse, ..copy_defaults() }
}

/// The copy task's defaults: 8 strings of 8 symbols a step.
pub fn copy_defaults() -> Config {
    Config {
        task: TaskKind::Copy,
        sublayer: SublayerKind::Block,
        tokens: 128,
        context: 16,
        steps: 1000,
        ..Config::default()
    }
}

/// The induction task's defaults (docs/findings.md, "What depth buys"): two attention sublayers, the
/// fewest that learn it (`studies/induction.toml`: 97–100% of the held-out symbols after
/// 1400–1700 steps over seeds 1–3, where one layer stays at 39–62%), 8 examples of 24
/// positions a step, Adam at 0.003 (at 0.01 even two layers stall).
pub fn induction_defaults() -> Config {
    Config {
        task: TaskKind::Induction,
        sublayer: SublayerKind::Attention,
        depth: 2,
        tokens: 192,
        context: 24,
        learning_rate: 0.003,
        steps: 3000,
        ..Config::default()
    }
}

impl Config {
    /// This configuration with the task `word` chosen as the page's Task control and
    /// `ablate --task` choose it: that task's defaults (`task_defaults`), keeping the switches,
    /// the depth, the norm's kind, the seed, the sampling temperature, the attention panel's
    /// layer and the comparisons' seeds and tuning. An unknown task is an error.
    pub fn with_task(&self, word: &str) -> Result<Config, ConfigError> {
        let mut chosen = self.clone();
        chosen.set("task", word)?;
        Ok(Config {
            depth: self.depth,
            residual: self.residual,
            norm: self.norm,
            final_norm: self.final_norm,
            norm_kind: self.norm_kind,
            // an encoder-decoder stays one where the new task has a source
            stack: if chosen.task.has_source() { self.stack } else { StackKind::Decoder },
            mask: self.mask,
            seed: self.seed,
            temperature: self.temperature,
            attention_layer: self.attention_layer,
            layer_view: self.layer_view,
            seeds: self.seeds,
            tune: self.tune,
            ..task_defaults(chosen.task)
        })
    }
}

/// The defaults of a task, which choosing it on the page applies.
pub fn task_defaults(task: TaskKind) -> Config {
    match task {
        TaskKind::Teacher => Config::default(),
        TaskKind::Text => text_defaults(),
        TaskKind::Copy => copy_defaults(),
        TaskKind::Induction => induction_defaults(),
        TaskKind::Reverse => reverse_defaults(),
    }
}

pub fn find_preset(name: &str) -> Option<&'static Preset> {
    let name = name.trim().to_ascii_lowercase();
    PRESETS.iter().find(|p| p.name == name)
}

/// `preset` is not a field of `Config` but a way to set all of them: this is its name.
pub const PRESET: &str = "preset";

impl Config {
    /// The preset this configuration is exactly, if any.
    pub fn preset(&self) -> Option<&'static str> {
        // the attention panel's layer and the per-layer panel's view change what is shown, not the run
        PRESETS
            .iter()
            .find(|p| {
                let views = Config {
                    attention_layer: self.attention_layer,
                    layer_view: self.layer_view,
                    ..(p.config)()
                };
                views == *self
            })
            .map(|p| p.name)
    }
}
