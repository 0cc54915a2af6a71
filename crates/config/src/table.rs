//! The one declarative table of every configurable parameter: its name (URL query,
//! element attribute, message field), its CLI flag, type, allowed values and default.
//! Every entry point parses through it, so they accept and reject exactly the same things.
//! A value is a `Value` until it reaches an edge (a URL, an attribute, a flag, a JSON report),
//! where `ParamSpec::text` writes it and `ParamSpec::parse` reads it back: the one pair.

use super::choice::{Choice, Options, Words, ON_OFF};
use super::presets::{find_preset, PRESET, PRESETS};
use super::settings::{
    Config, ConfigError, LayerView, MaskKind, NormKind, NormPlacement, OptimizerKind, Schedule, StackKind,
    SublayerKind, TaskKind, TuneGrid, Until,
};
use super::text::TextId;
use ablation_words::Said;

/// Where the page shows a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// A control of its own (the top bar's, or a panel's menu).
    Own,
    /// A field of the More panel, made from the table.
    More,
}

impl Control {
    pub fn word(self) -> &'static str {
        match self {
            Control::Own => "own",
            Control::More => "more",
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub enum ParamKind {
    /// An integer in `min..=max` that is a multiple of `multiple_of`.
    Int { min: i64, max: i64, multiple_of: i64 },
    /// A finite number in `min..=max`.
    Float { min: f64, max: f64 },
    /// One of the listed words (each with its variant and its label on the page).
    Choice(&'static dyn Words),
    /// Any unsigned 64-bit integer.
    Seed,
    /// Which text: `plays`, or a reader's text by its hash, length and vocabulary (`TextId`).
    Text,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
    /// The option's index in its list.
    Choice(usize),
    Seed(u64),
    Text(TextId),
}

pub struct ParamSpec {
    /// URL parameter, element attribute and message field.
    pub name: &'static str,
    /// Command-line flag, without the leading `--`.
    pub flag: &'static str,
    /// The control's label on the page ("Learning rate").
    pub label: &'static str,
    pub kind: ParamKind,
    pub help: &'static str,
    /// A change starts the run again from the seed; otherwise the run goes on (what it shows,
    /// the comparisons' settings, the step limit).
    pub restarts: bool,
    /// Where the page shows it.
    pub control: Control,
    get: fn(&Config) -> Value,
    set: fn(&mut Config, Value),
}

/// The final norm's switch: its "on" says which placements have one.
const FINAL_NORM: Options<bool> = Options(&[("on", true, "on (pre-norm, sandwich)"), ("off", false, "off")]);

fn choice(v: Value) -> usize {
    match v {
        Value::Choice(i) => i,
        _ => unreachable!("the table pairs choices with choice setters"),
    }
}
fn int(v: Value) -> i64 {
    match v {
        Value::Int(i) => i,
        _ => unreachable!("the table pairs ints with int setters"),
    }
}
fn float(v: Value) -> f64 {
    match v {
        Value::Float(x) => x,
        _ => unreachable!("the table pairs floats with float setters"),
    }
}

/// Shortest text that parses back to the same number.
pub fn format_float(x: f64) -> String {
    format!("{x}")
}

pub static PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "depth",
        flag: "depth",
        label: "Depth",
        kind: ParamKind::Int { min: 1, max: 96, multiple_of: 1 },
        help: "number of sublayers",
        restarts: true,
        control: Control::Own,
        get: |c| Value::Int(c.depth as i64),
        set: |c, v| c.depth = int(v) as usize,
    },
    ParamSpec {
        name: "residual",
        flag: "residual",
        label: "Residual",
        kind: ParamKind::Choice(&ON_OFF),
        help: "add each sublayer's input to its output",
        restarts: true,
        control: Control::Own,
        get: |c| Value::Choice(ON_OFF.index(c.residual)),
        set: |c, v| c.residual = ON_OFF.variant(choice(v)),
    },
    ParamSpec {
        name: "norm",
        flag: "norm",
        label: "LayerNorm",
        kind: ParamKind::Choice(&NormPlacement::OPTIONS),
        help: "normalisation: off, pre (x + F(LN(x))), post (LN(x + F(x))), sandwich (x + LN(F(LN(x)))) \
               or deepnorm (LN(α·x + F(x)) with α = depth^¼ and the branch's weights × (4·depth)^-¼)",
        restarts: true,
        control: Control::Own,
        get: |c| Value::Choice(NormPlacement::OPTIONS.index(c.norm)),
        set: |c, v| c.norm = NormPlacement::OPTIONS.variant(choice(v)),
    },
    ParamSpec {
        name: "final_norm",
        flag: "final-norm",
        label: "Final norm",
        kind: ParamKind::Choice(&FINAL_NORM),
        help: "a pre-norm or sandwich stack ends with a final norm before the readout (as GPT-2's ln_f)",
        restarts: true,
        control: Control::More,
        get: |c| Value::Choice(FINAL_NORM.index(c.final_norm)),
        set: |c, v| c.final_norm = FINAL_NORM.variant(choice(v)),
    },
    ParamSpec {
        name: "norm_kind",
        flag: "norm-kind",
        label: "Norm kind",
        kind: ParamKind::Choice(&NormKind::OPTIONS),
        help: "LayerNorm (centre and scale, learned γ and β) or RMSNorm (scale, learned γ)",
        restarts: true,
        control: Control::More,
        get: |c| Value::Choice(NormKind::OPTIONS.index(c.norm_kind)),
        set: |c, v| c.norm_kind = NormKind::OPTIONS.variant(choice(v)),
    },
    ParamSpec {
        name: "task",
        flag: "task",
        label: "Task",
        kind: ParamKind::Choice(&TaskKind::OPTIONS),
        help: "what the stack learns: a random linear map, the next character of Shakespeare, \
               a string copied after a separator, a string repeated from any of its symbols (two attention layers), \
               or a string written back reversed (an encoder-decoder's task)",
        restarts: true,
        control: Control::Own,
        get: |c| Value::Choice(TaskKind::OPTIONS.index(c.task)),
        set: |c, v| c.task = TaskKind::OPTIONS.variant(choice(v)),
    },
    ParamSpec {
        name: "text_id",
        flag: "text-id",
        label: "Text",
        kind: ParamKind::Text,
        help: "the text task's text: plays (the three shipped), or a reader's own by its SHA-256, characters and \
               vocabulary (the page asks for the text, or fetches text-src, and refuses one with another hash)",
        restarts: true,
        control: Control::More,
        get: |c| Value::Text(c.text),
        set: |c, v| {
            if let Value::Text(t) = v {
                c.text = t;
            }
        },
    },
    ParamSpec {
        name: "sublayer",
        flag: "sublayer",
        label: "Sublayer",
        kind: ParamKind::Choice(&SublayerKind::OPTIONS),
        help: "what each sublayer computes (a decoder-only stack's: an encoder-decoder's are always blocks)",
        restarts: true,
        control: Control::More,
        get: |c| Value::Choice(SublayerKind::OPTIONS.index(c.sublayer)),
        set: |c, v| c.sublayer = SublayerKind::OPTIONS.variant(choice(v)),
    },
    ParamSpec {
        name: "stack",
        flag: "stack",
        label: "Stack",
        kind: ParamKind::Choice(&StackKind::OPTIONS),
        help: "one decoder, or an encoder (self-attention without a mask, FFN) and a decoder (masked \
               self-attention, cross-attention to the encoder, FFN) of N layers each: 5N sublayers, on a task \
               with a source (copy, reverse)",
        restarts: true,
        control: Control::More,
        get: |c| Value::Choice(StackKind::OPTIONS.index(c.stack)),
        set: |c, v| c.stack = StackKind::OPTIONS.variant(choice(v)),
    },
    ParamSpec {
        name: "mask",
        flag: "mask",
        label: "Mask",
        kind: ParamKind::Choice(&MaskKind::OPTIONS),
        help: "the decoder's self-attention: causal (each position sees the earlier ones) or none (it \
               sees the whole sequence, the tokens it must predict included)",
        restarts: true,
        control: Control::More,
        get: |c| Value::Choice(MaskKind::OPTIONS.index(c.mask)),
        set: |c, v| c.mask = MaskKind::OPTIONS.variant(choice(v)),
    },
    ParamSpec {
        name: "width",
        flag: "width",
        label: "Width",
        kind: ParamKind::Int { min: 8, max: 128, multiple_of: 4 },
        help: "features per token d",
        restarts: true,
        control: Control::More,
        get: |c| Value::Int(c.width as i64),
        set: |c, v| c.width = int(v) as usize,
    },
    ParamSpec {
        name: "heads",
        flag: "heads",
        label: "Heads",
        kind: ParamKind::Int { min: 1, max: 16, multiple_of: 1 },
        help: "attention heads, each of width / heads features (a divisor of the width)",
        restarts: true,
        control: Control::More,
        get: |c| Value::Int(c.heads as i64),
        set: |c, v| c.heads = int(v) as usize,
    },
    ParamSpec {
        name: "tokens",
        flag: "tokens",
        label: "Tokens",
        kind: ParamKind::Int { min: 1, max: 256, multiple_of: 1 },
        help: "tokens per batch T, a multiple of the context",
        restarts: true,
        control: Control::More,
        get: |c| Value::Int(c.tokens as i64),
        set: |c, v| c.tokens = int(v) as usize,
    },
    ParamSpec {
        name: "context",
        flag: "context",
        label: "Context",
        kind: ParamKind::Int { min: 0, max: 256, multiple_of: 1 },
        help: "positions per sequence; attention is causal within each (0: one sequence of all the tokens)",
        restarts: true,
        control: Control::More,
        get: |c| Value::Int(c.context as i64),
        set: |c, v| c.context = int(v) as usize,
    },
    ParamSpec {
        name: "shards",
        flag: "shards",
        label: "Shards per step",
        kind: ParamKind::Int { min: 0, max: 8, multiple_of: 1 },
        help: "each training step's batch split into this many shards (1, 2, 4 or 8) whose gradients are \
               summed in a fixed order, so that several workers can share a step; the run's numbers depend \
               on the shards, never on the workers; 0: chosen from the step's size, 2 from 2·10⁸ multiply-adds \
               and 128 tokens a step (where a second worker pays), else 1",
        restarts: true,
        control: Control::More,
        get: |c| Value::Int(c.shards as i64),
        set: |c, v| c.shards = int(v) as usize,
    },
    ParamSpec {
        name: "gain",
        flag: "init-gain",
        label: "Init gain",
        kind: ParamKind::Float { min: 0.01, max: 10.0 },
        help: "weights ~ N(0, gain²/fan_in)",
        restarts: true,
        control: Control::More,
        get: |c| Value::Float(c.init_gain),
        set: |c, v| c.init_gain = float(v),
    },
    ParamSpec {
        name: "optimizer",
        flag: "optimizer",
        label: "Optimiser",
        kind: ParamKind::Choice(&OptimizerKind::OPTIONS),
        help: "plain SGD or Adam",
        restarts: true,
        control: Control::More,
        get: |c| Value::Choice(OptimizerKind::OPTIONS.index(c.optimizer)),
        set: |c, v| c.optimizer = OptimizerKind::OPTIONS.variant(choice(v)),
    },
    ParamSpec {
        name: "lr",
        flag: "lr",
        label: "Learning rate",
        kind: ParamKind::Float { min: 1e-6, max: 10.0 },
        help: "peak learning rate",
        restarts: true,
        control: Control::More,
        get: |c| Value::Float(c.learning_rate),
        set: |c, v| c.learning_rate = float(v),
    },
    ParamSpec {
        name: "warmup",
        flag: "warmup",
        label: "Warmup steps",
        kind: ParamKind::Int { min: 0, max: 100_000, multiple_of: 1 },
        help: "steps of linear learning-rate warmup",
        restarts: true,
        control: Control::More,
        get: |c| Value::Int(c.warmup_steps as i64),
        set: |c, v| c.warmup_steps = int(v) as usize,
    },
    ParamSpec {
        name: "schedule",
        flag: "schedule",
        label: "Rate schedule",
        kind: ParamKind::Choice(&Schedule::OPTIONS),
        help: "the rate after the warmup: constant, the Transformer papers' decay, × √(warmup ÷ update), or a cosine down to a tenth at the run's last step",
        restarts: true,
        control: Control::More,
        get: |c| Value::Choice(Schedule::OPTIONS.index(c.schedule)),
        set: |c, v| c.schedule = Schedule::OPTIONS.variant(choice(v)),
    },
    ParamSpec {
        name: "beta2",
        flag: "beta2",
        label: "Adam β₂",
        kind: ParamKind::Float { min: 0.5, max: 0.99999 },
        help: "Adam's decay of its squared-gradient average: 0.999, or the original Transformer's 0.98 \
               (a shorter memory, so early large gradients are forgotten sooner)",
        restarts: true,
        control: Control::More,
        get: |c| Value::Float(c.beta2),
        set: |c, v| c.beta2 = float(v),
    },
    ParamSpec {
        name: "seed",
        flag: "seed",
        label: "Seed",
        kind: ParamKind::Seed,
        help: "fixes initialisation, data and batch order",
        restarts: true,
        control: Control::More,
        get: |c| Value::Seed(c.seed),
        set: |c, v| {
            if let Value::Seed(s) = v {
                c.seed = s
            }
        },
    },
    ParamSpec {
        name: "steps",
        flag: "steps",
        label: "Steps",
        kind: ParamKind::Int { min: 0, max: 1_000_000, multiple_of: 1 },
        help: "training steps of a run; Play continues a finished run for as many again",
        restarts: false,
        control: Control::More,
        get: |c| Value::Int(c.steps as i64),
        set: |c, v| c.steps = int(v) as usize,
    },
    ParamSpec {
        name: "temperature",
        flag: "temperature",
        label: "Temperature",
        kind: ParamKind::Float { min: 0.0, max: 2.0 },
        help: "what the model writes is sampled at this temperature (0: always the likeliest character)",
        restarts: false,
        control: Control::Own,
        get: |c| Value::Float(c.temperature),
        set: |c, v| c.temperature = float(v),
    },
    ParamSpec {
        name: "attention_layer",
        flag: "attention-layer",
        label: "Layer",
        kind: ParamKind::Int { min: 0, max: 95, multiple_of: 1 },
        help:
            "which sublayer's heads the Attention panel shows (the nearest attention sublayer at or below it)",
        restarts: false,
        control: Control::Own,
        get: |c| Value::Int(c.attention_layer as i64),
        set: |c, v| c.attention_layer = int(v) as usize,
    },
    ParamSpec {
        name: "layer_view",
        flag: "layer-view",
        label: "Per layer",
        kind: ParamKind::Choice(&LayerView::OPTIONS),
        help: "what the per-layer panel draws: the stream's gradient and std at every depth, each \
               sublayer's weight gradient ‖∂L/∂W‖ on the probe batch, attention and FFN apart, or as Xiong \
               et al. (2020) read it, the FFN's second matrix and attention's W_V at initialisation, averaged \
               over 100 batches",
        restarts: false,
        control: Control::Own,
        get: |c| Value::Choice(LayerView::OPTIONS.index(c.layer_view)),
        set: |c, v| c.layer_view = LayerView::OPTIONS.variant(choice(v)),
    },
    ParamSpec {
        name: "seeds",
        flag: "seeds",
        label: "Seeds",
        kind: ParamKind::Int { min: 1, max: 10, multiple_of: 1 },
        help: "every comparison trains each arm at this many seeds (seed, seed+1, …) and shows the median \
               with the lowest and highest run",
        restarts: false,
        control: Control::More,
        get: |c| Value::Int(c.seeds as i64),
        set: |c, v| c.seeds = int(v) as usize,
    },
    ParamSpec {
        name: "tune",
        flag: "tune",
        label: "Tune rate",
        kind: ParamKind::Choice(&ON_OFF),
        help: "every comparison chooses each arm's setting on seeds of its own (choose_seeds) by the lowest \
               training loss, widening the rates' grid until the best is inside it, and shows it on the seeds",
        restarts: false,
        control: Control::More,
        get: |c| Value::Choice(ON_OFF.index(c.tune)),
        set: |c, v| c.tune = ON_OFF.variant(choice(v)),
    },
    ParamSpec {
        name: "tune_grid",
        flag: "tune-grid",
        label: "Tune what",
        kind: ParamKind::Choice(&TuneGrid::OPTIONS),
        help: "what tuning searches: the learning rate, or the rate with the warmup and Adam's β₂ (each arm's \
               recipe)",
        restarts: false,
        control: Control::More,
        get: |c| Value::Choice(TuneGrid::OPTIONS.index(c.tune_grid)),
        set: |c, v| c.tune_grid = TuneGrid::OPTIONS.variant(choice(v)),
    },
    ParamSpec {
        name: "choose_seeds",
        flag: "choose-seeds",
        label: "Choosing seeds",
        kind: ParamKind::Int { min: 1, max: 10, multiple_of: 1 },
        help: "tuning chooses each arm's setting on this many seeds of its own, after the ones it shows",
        restarts: false,
        control: Control::More,
        get: |c| Value::Int(c.choose_seeds as i64),
        set: |c, v| c.choose_seeds = int(v) as usize,
    },
    ParamSpec {
        name: "halving",
        flag: "halving",
        label: "Successive halving",
        kind: ParamKind::Choice(&ON_OFF),
        help: "tuning judges candidates on a share of the run and continues the best third from their \
               checkpoints (a warmup is judged only once it has ended); off, every candidate trains the full run \
               (slower, for small rates, whose loss falls late)",
        restarts: false,
        control: Control::More,
        get: |c| Value::Choice(ON_OFF.index(c.halving)),
        set: |c, v| c.halving = ON_OFF.variant(choice(v)),
    },
    ParamSpec {
        name: "until",
        flag: "until",
        label: "Runs train until",
        kind: ParamKind::Choice(&Until::OPTIONS),
        help: "a comparison's runs train for their steps, or until their held-out loss plateaus (no more \
               than 1% or 0.001 nats lower over the last third of the run), the steps a cap",
        restarts: false,
        control: Control::More,
        get: |c| Value::Choice(Until::OPTIONS.index(c.until)),
        set: |c, v| c.until = Until::OPTIONS.variant(choice(v)),
    },
];

impl ParamSpec {
    /// This parameter's value in `config`.
    pub fn value(&self, config: &Config) -> Value {
        (self.get)(config)
    }

    /// The default value.
    pub fn default_value(&self) -> Value {
        self.value(&Config::default())
    }

    /// A value in canonical text form (what a URL carries; `parse` reads it back).
    pub fn text(&self, value: Value) -> String {
        match (self.kind, value) {
            (ParamKind::Choice(list), Value::Choice(i)) => list.word_at(i).into(),
            (_, Value::Int(i)) => i.to_string(),
            (_, Value::Float(x)) => format_float(x),
            (_, Value::Seed(s)) => s.to_string(),
            (_, Value::Text(t)) => t.text(),
            (_, Value::Choice(i)) => unreachable!("a choice {i} of a parameter without choices"),
        }
    }

    /// This parameter's value in `config`, as text.
    pub fn text_of(&self, config: &Config) -> String {
        self.text(self.value(config))
    }

    /// The default, in text form.
    pub fn default_text(&self) -> String {
        self.text_of(&Config::default())
    }

    /// What this parameter accepts, for error messages and help (in English: `allowed_said`
    /// in the reader's language).
    pub fn allowed(&self) -> String {
        self.allowed_said().to_string()
    }

    /// What this parameter accepts, as a sentence.
    pub fn allowed_said(&self) -> Said {
        match self.kind {
            // (an integer as written, its digits not grouped: the same in every language's words)
            ParamKind::Int { min, max, multiple_of: 1 } => {
                Said::new("allowed-integer").arg("min", min.to_string()).arg("max", max.to_string())
            }
            ParamKind::Int { min, max, multiple_of } => Said::new("allowed-multiple")
                .arg("multiple", multiple_of.to_string())
                .arg("min", min.to_string())
                .arg("max", max.to_string()),
            ParamKind::Float { min, max } => {
                Said::new("allowed-number").number("min", min).number("max", max)
            }
            ParamKind::Choice(list) => {
                Said::new("allowed-one-of").arg("words", list.words().collect::<Vec<_>>().join(", "))
            }
            // (as text: more digits than a number says exactly)
            ParamKind::Seed => Said::new("allowed-integer").arg("min", "0").arg("max", u64::MAX.to_string()),
            ParamKind::Text => Said::new("allowed-text"),
        }
    }

    fn error(&self, text: &str) -> ConfigError {
        ConfigError::new(self.name, not_allowed(text, 40, self.allowed_said()))
    }

    /// Parses and range-checks a value given as text.
    pub fn parse(&self, text: &str) -> Result<Value, ConfigError> {
        let t = text.trim();
        let value = match self.kind {
            ParamKind::Int { .. } => t.parse::<i64>().ok().map(Value::Int),
            ParamKind::Float { .. } => t.parse::<f64>().ok().map(Value::Float),
            ParamKind::Choice(list) => list.position(&t.to_ascii_lowercase()).map(Value::Choice),
            ParamKind::Seed => t.parse::<u64>().ok().map(Value::Seed),
            ParamKind::Text => TextId::parse(t).map(Value::Text),
        };
        value.filter(|&v| self.allows(v)).ok_or_else(|| self.error(text))
    }

    /// The value is of this parameter's kind and in its range.
    pub fn allows(&self, value: Value) -> bool {
        match (self.kind, value) {
            (ParamKind::Int { min, max, multiple_of }, Value::Int(i)) => {
                (min..=max).contains(&i) && i % multiple_of == 0
            }
            (ParamKind::Float { min, max }, Value::Float(x)) => x.is_finite() && (min..=max).contains(&x),
            (ParamKind::Choice(list), Value::Choice(i)) => i < list.count(),
            (ParamKind::Seed, Value::Seed(_)) => true,
            (ParamKind::Text, Value::Text(t)) => t.allowed(),
            _ => false,
        }
    }

    /// `Ok` if the table allows `value`; else the error `parse` gives its text.
    pub fn check_value(&self, value: Value) -> Result<(), ConfigError> {
        if self.allows(value) {
            Ok(())
        } else if let Value::Choice(i) = value {
            Err(self.error(&format!("choice {i}")))
        } else {
            Err(self.error(&self.text(value)))
        }
    }

    /// The closest valid value to `text`: numbers are clamped into range (and rounded to the
    /// allowed multiple); anything unparsable gives the default. For forgiving entry points
    /// (URL, attributes), which then tell the reader what they did.
    pub fn nearest(&self, text: &str) -> Value {
        let t = text.trim();
        match (self.kind, t.parse::<f64>()) {
            (ParamKind::Int { min, max, multiple_of }, Ok(x)) if !x.is_nan() => {
                let i = (x.clamp(min as f64, max as f64) / multiple_of as f64).round() as i64 * multiple_of;
                Value::Int(i.clamp(min, max))
            }
            (ParamKind::Float { min, max }, Ok(x)) if !x.is_nan() => Value::Float(x.clamp(min, max)),
            _ => self.default_value(),
        }
    }

    /// Sets `value` on `config` if the table allows it (as `parse` would have); else an error
    /// and `config` is unchanged.
    pub fn assign(&self, config: &mut Config, value: Value) -> Result<(), ConfigError> {
        self.check_value(value)?;
        (self.set)(config, value);
        Ok(())
    }

    pub fn check(&self, text: &str) -> Result<(), ConfigError> {
        self.parse(text).map(|_| ())
    }
}

/// What `preset` accepts, for error messages and help.
pub fn preset_choices() -> String {
    preset_choices_said().to_string()
}

fn preset_choices_said() -> Said {
    Said::new("allowed-one-of").arg("words", PRESETS.iter().map(|p| p.name).collect::<Vec<_>>().join(", "))
}

/// "`"text"` is not `allowed`", the text cut at `chars` characters (with an ellipsis).
pub fn not_allowed(text: &str, chars: usize, allowed: Said) -> Said {
    let shown: String = text.chars().take(chars).collect();
    let ellipsis = if text.chars().count() > chars { "…" } else { "" };
    Said::new("error-not").arg("shown", format!("{shown}{ellipsis}")).arg("allowed", allowed)
}

pub fn find(name: &str) -> Option<&'static ParamSpec> {
    PARAMS.iter().find(|p| p.name == name)
}

pub fn find_flag(flag: &str) -> Option<&'static ParamSpec> {
    PARAMS.iter().find(|p| p.flag == flag)
}

impl Config {
    /// The same run with the parameters that do not restart it (`ParamSpec::restarts`: what it
    /// shows, the comparisons' seeds and tuning, the step limit) set to `other`'s: equal to
    /// `other` if only those differ.
    pub fn with_views_of(&self, other: &Config) -> Config {
        let mut out = self.clone();
        for p in PARAMS.iter().filter(|p| !p.restarts) {
            (p.set)(&mut out, (p.get)(other));
        }
        out
    }

    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        for spec in PARAMS {
            spec.check_value(spec.value(self))?;
        }
        self.check_together()
    }

    /// Sets one parameter by its table name from text; on error the config is unchanged.
    /// `preset` sets every parameter at once.
    pub fn set(&mut self, name: &str, text: &str) -> Result<(), ConfigError> {
        if name == PRESET {
            let preset = find_preset(text).ok_or_else(|| {
                let shown: String = text.chars().take(40).collect();
                ConfigError::new(
                    PRESET,
                    Said::new("error-not").arg("shown", shown).arg("allowed", preset_choices_said()),
                )
            })?;
            *self = (preset.config)();
            return Ok(());
        }
        let spec = find(name).ok_or_else(|| {
            let known = PARAMS.iter().map(|p| p.name).chain([PRESET]).collect::<Vec<_>>().join(", ");
            ConfigError::new(
                name.chars().take(40).collect::<String>(),
                Said::new("error-unknown").arg("known", known),
            )
        })?;
        let value = spec.parse(text)?;
        spec.assign(self, value)
    }

    /// Applies `name=value` pairs leniently: an invalid value is replaced by the nearest valid
    /// one (or the default) and an unknown name is skipped; each gets a notice for the reader.
    /// A `preset` is applied first, wherever it stands, so the other pairs adjust it.
    pub fn apply_leniently<'a>(&mut self, pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<Said> {
        let mut notices = Vec::new();
        let (presets, pairs): (Vec<_>, Vec<_>) = pairs.into_iter().partition(|(name, _)| *name == PRESET);
        for (_, text) in presets {
            if let Err(e) = self.set(PRESET, text) {
                notices.push(Said::new("notice-ignored").arg("error", e.sentence()));
            }
        }
        for (name, text) in pairs {
            let Some(spec) = find(name) else {
                let shown: String = name.chars().take(40).collect();
                notices.push(Said::new("notice-unknown").arg("name", shown));
                continue;
            };
            if let Err(e) = self.set(name, text) {
                let fallback = spec.nearest(text);
                spec.assign(self, fallback).expect("nearest values are valid");
                notices.push(
                    Said::new("notice-using").arg("error", e.sentence()).arg("using", spec.text(fallback)),
                );
            }
        }
        notices.extend(self.settle());
        notices
    }

    /// A parameter's current value as text, or `None` for an unknown name. `preset` gives the
    /// preset this configuration is exactly, or `custom`.
    pub fn get(&self, name: &str) -> Option<String> {
        if name == PRESET {
            return Some(self.preset().unwrap_or("custom").into());
        }
        find(name).map(|spec| spec.text_of(self))
    }

    /// `name=value` pairs of every parameter, in table order (a URL query without the `?`).
    pub fn to_query(&self) -> String {
        PARAMS.iter().map(|p| format!("{}={}", p.name, p.text_of(self))).collect::<Vec<_>>().join("&")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value of `p` other than the default's that the table takes alone.
    fn another_value(p: &ParamSpec) -> Option<Value> {
        let defaults = Config::default();
        let now = p.value(&defaults);
        let candidates: Vec<Value> = match p.kind {
            ParamKind::Int { min, max, multiple_of } => {
                vec![Value::Int(min), Value::Int(max / multiple_of * multiple_of)]
            }
            ParamKind::Float { min, max } => vec![Value::Float(min), Value::Float(max)],
            ParamKind::Choice(options) => (0..options.words().count()).map(Value::Choice).collect(),
            ParamKind::Seed => vec![Value::Seed(7)],
            ParamKind::Text => vec![],
        };
        candidates.into_iter().find(|v| {
            let mut c = defaults.clone();
            (p.set)(&mut c, *v);
            *v != now && c.validate().is_ok()
        })
    }

    #[test]
    fn a_parameter_that_does_not_restart_the_run_is_taken_from_the_other_config_and_one_that_does_is_kept() {
        let defaults = Config::default();
        let mut checked = 0;
        for p in PARAMS {
            let Some(value) = another_value(p) else { continue };
            let mut other = defaults.clone();
            (p.set)(&mut other, value);
            let merged = defaults.with_views_of(&other);
            if p.restarts {
                assert_eq!(merged, defaults, "{} restarts the run: with_views_of keeps this run's", p.name);
            } else {
                assert_eq!(
                    merged, other,
                    "{} does not restart the run: with_views_of takes the other's",
                    p.name
                );
            }
            checked += 1;
        }
        assert!(checked >= 20, "only {checked} parameters had another valid value");
    }

    #[test]
    fn defaults_are_valid_and_round_trip() {
        let c = Config::default();
        c.validate().unwrap();
        let mut d = Config { depth: 3, residual: false, seed: 99, ..Config::default() };
        for p in PARAMS {
            d.set(p.name, &p.default_text()).unwrap();
        }
        assert_eq!(c, d);
    }

    #[test]
    fn every_value_round_trips_through_text() {
        let mut c = Config::default();
        for (name, text) in [
            ("depth", "96"),
            ("residual", "off"),
            ("norm", "post"),
            ("final_norm", "off"),
            ("norm_kind", "rmsnorm"),
            ("sublayer", "block"),
            ("width", "128"),
            ("tokens", "1"),
            ("gain", "0.5"),
            ("optimizer", "sgd"),
            ("lr", "0.0001"),
            ("warmup", "100"),
            ("seed", "18446744073709551615"),
            ("steps", "150000"),
        ] {
            c.set(name, text).unwrap();
            assert_eq!(c.get(name).unwrap(), text, "{name}");
        }
        c.validate().unwrap();
    }

    #[test]
    fn rejects_bad_values_with_named_errors() {
        let cases = [
            ("depth", "0"),
            ("depth", "97"),
            ("depth", "12.5"),
            ("depth", ""),
            ("residual", "maybe"),
            ("norm", "middle"),
            ("final_norm", "yes"),
            ("norm_kind", "batchnorm"),
            ("sublayer", "conv"),
            ("width", "30"),
            ("width", "4"),
            ("width", "132"),
            ("tokens", "0"),
            ("tokens", "257"),
            ("gain", "0"),
            ("gain", "NaN"),
            ("gain", "inf"),
            ("gain", "11"),
            ("optimizer", "lbfgs"),
            ("lr", "-1"),
            ("lr", "1e9"),
            ("warmup", "-1"),
            ("seed", "-1"),
            ("seed", "18446744073709551616"),
            ("seed", "abc"),
            ("steps", "1000001"),
        ];
        for (name, text) in cases {
            let mut c = Config::default();
            let e = c.set(name, text).unwrap_err();
            assert_eq!(e.name, name);
            assert!(e.to_string().contains(&find(name).unwrap().allowed()), "{e}");
            assert_eq!(c, Config::default(), "a rejected value must leave the config unchanged");
        }
        let e = Config::default().set("colour", "red").unwrap_err();
        assert!(e.message().contains("unknown"));
        let huge = "9".repeat(10_000);
        let e = Config::default().set("depth", &huge).unwrap_err();
        assert!(e.to_string().len() < 200, "errors do not echo huge inputs");
    }

    #[test]
    fn lenient_application_falls_back_to_the_nearest_value_and_says_so() {
        let mut c = Config::default();
        let notices = c.apply_leniently([
            ("depth", "500"),
            ("width", "31"),
            ("gain", "-3"),
            ("norm", "sideways"),
            ("lr", "abc"),
            ("seed", "7"),
            ("bogus", "1"),
        ]);
        assert_eq!((c.depth, c.width, c.init_gain, c.seed), (96, 32, 0.01, 7));
        assert_eq!(c.norm, Config::default().norm);
        assert_eq!(c.learning_rate, Config::default().learning_rate);
        assert_eq!(notices.len(), 6, "{notices:?}");
        assert!(
            notices[0].to_string().starts_with("depth: \"500\" is not an integer from 1 to 96; using 96"),
            "{}",
            notices[0]
        );
        assert!(notices[5].to_string().contains("unknown parameter"));
        c.validate().unwrap();
    }

    #[test]
    fn a_preset_sets_everything_first_and_later_parameters_adjust_it() {
        let explode = (find_preset("explode").unwrap().config)();
        assert_ne!(explode, Config::default());
        let mut c = Config { width: 64, seed: 9, ..Config::default() };
        c.set(PRESET, "explode").unwrap();
        assert_eq!(c, explode, "every field, not only the preset's own");
        assert_eq!(c.get(PRESET).as_deref(), Some("explode"));
        // wherever it stands among the pairs, the preset comes first
        for pairs in [[("depth", "24"), (PRESET, "explode")], [(PRESET, "explode"), ("depth", "24")]] {
            let mut c = Config::default();
            assert!(c.apply_leniently(pairs).is_empty());
            assert_eq!(c, Config { depth: 24, ..explode.clone() });
            assert_eq!(c.get(PRESET).as_deref(), Some("custom"));
        }
        let mut c = Config { depth: 5, ..Config::default() };
        let e = c.set(PRESET, "boom").unwrap_err();
        assert_eq!(e.name, PRESET);
        assert!(e.message().contains("default, explode, gradient-experiment"), "{e}");
        assert_eq!(c.depth, 5, "a rejected preset changes nothing");
        let notices = c.apply_leniently([(PRESET, "boom"), ("depth", "7")]);
        assert_eq!((c.depth, notices.len()), (7, 1), "{notices:?}");
        for p in PRESETS {
            (p.config)().validate().unwrap();
            assert_eq!((p.config)().preset(), Some(p.name), "presets are distinct");
        }
    }

    #[test]
    fn validate_catches_out_of_range_fields() {
        for bad in [
            Config { depth: 0, ..Config::default() },
            Config { depth: 97, ..Config::default() },
            Config { width: 33, ..Config::default() },
            Config { init_gain: f64::NAN, ..Config::default() },
            Config { learning_rate: 0.0, ..Config::default() },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
    }
}
