# Generated from the parameter table (crates/config/src/table.rs) by scripts/schema.sh: do not edit.
# tests/schema.rs fails when this file is stale.

# (name, kind, default, choices, help) for each parameter, in the table's order.
PARAMS = [
    ("depth", "int", 12, (), "number of sublayers"),
    ("residual", "switch", True, (), "add each sublayer's input to its output"),
    ("norm", "choice", "pre", ("off", "pre", "post", "sandwich", "deepnorm",), "normalisation: off, pre (x + F(LN(x))), post (LN(x + F(x))), sandwich (x + LN(F(LN(x)))) or deepnorm (LN(α·x + F(x)) with α = depth^¼ and the branch's weights × (4·depth)^-¼)"),
    ("final_norm", "switch", True, (), "a pre-norm or sandwich stack ends with a final norm before the readout (as GPT-2's ln_f)"),
    ("norm_kind", "choice", "layernorm", ("layernorm", "rmsnorm",), "LayerNorm (centre and scale, learned γ and β) or RMSNorm (scale, learned γ)"),
    ("task", "choice", "teacher", ("teacher", "text", "copy", "induction", "reverse",), "what the stack learns: a random linear map, the next character of Shakespeare, a string copied after a separator, a string repeated from any of its symbols (two attention layers), or a string written back reversed (an encoder-decoder's task)"),
    ("text_id", "text", "plays", (), "the text task's text: plays (the three shipped), or a reader's own by its SHA-256, characters and vocabulary (the page asks for the text, or fetches text-src, and refuses one with another hash)"),
    ("sublayer", "choice", "mlp", ("mlp", "ffn", "attention", "block",), "what each sublayer computes (a decoder-only stack's: an encoder-decoder's are always blocks)"),
    ("stack", "choice", "decoder", ("decoder", "encoder-decoder",), "one decoder, or an encoder (self-attention without a mask, FFN) and a decoder (masked self-attention, cross-attention to the encoder, FFN) of N layers each: 5N sublayers, on a task with a source (copy, reverse)"),
    ("mask", "choice", "causal", ("causal", "none",), "the decoder's self-attention: causal (each position sees the earlier ones) or none (it sees the whole sequence, the tokens it must predict included)"),
    ("width", "int", 32, (), "features per token d"),
    ("heads", "int", 4, (), "attention heads, each of width / heads features (a divisor of the width)"),
    ("tokens", "int", 64, (), "tokens per batch T, a multiple of the context"),
    ("context", "int", 0, (), "positions per sequence; attention is causal within each (0: one sequence of all the tokens)"),
    ("shards", "int", 0, (), "each training step's batch split into this many shards (1, 2, 4 or 8) whose gradients are summed in a fixed order, so that several workers can share a step; the run's numbers depend on the shards, never on the workers; 0: chosen from the step's size, 2 from 2·10⁸ multiply-adds and 128 tokens a step (where a second worker pays), else 1"),
    ("gain", "float", 1, (), "weights ~ N(0, gain²/fan_in)"),
    ("optimizer", "choice", "adam", ("sgd", "adam",), "plain SGD or Adam"),
    ("lr", "float", 0.01, (), "peak learning rate"),
    ("warmup", "int", 0, (), "steps of linear learning-rate warmup"),
    ("schedule", "choice", "constant", ("constant", "inverse-sqrt", "cosine",), "the rate after the warmup: constant, the Transformer papers' decay, × √(warmup ÷ update), or a cosine down to a tenth at the run's last step"),
    ("beta2", "float", 0.999, (), "Adam's decay of its squared-gradient average: 0.999, or the original Transformer's 0.98 (a shorter memory, so early large gradients are forgotten sooner)"),
    ("seed", "seed", 1, (), "fixes initialisation, data and batch order"),
    ("steps", "int", 5000, (), "training steps of a run; Play continues a finished run for as many again"),
    ("temperature", "float", 0.8, (), "what the model writes is sampled at this temperature (0: always the likeliest character)"),
    ("attention_layer", "int", 0, (), "which sublayer's heads the Attention panel shows (the nearest attention sublayer at or below it)"),
    ("layer_view", "choice", "activations", ("activations", "weights", "matrices",), "what the per-layer panel draws: the stream's gradient and std at every depth, each sublayer's weight gradient ‖∂L/∂W‖ on the probe batch, attention and FFN apart, or as Xiong et al. (2020) read it, the FFN's second matrix and attention's W_V at initialisation, averaged over 100 batches"),
    ("seeds", "int", 1, (), "every comparison trains each arm at this many seeds (seed, seed+1, …) and shows the median with the lowest and highest run"),
    ("tune", "switch", False, (), "every comparison chooses each arm's setting on seeds of its own (choose_seeds) by the lowest training loss, widening the rates' grid until the best is inside it, and shows it on the seeds"),
    ("tune_grid", "choice", "lr", ("lr", "lr,warmup,beta2",), "what tuning searches: the learning rate, or the rate with the warmup and Adam's β₂ (each arm's recipe)"),
    ("choose_seeds", "int", 3, (), "tuning chooses each arm's setting on this many seeds of its own, after the ones it shows"),
    ("halving", "switch", True, (), "tuning judges candidates on a share of the run and continues the best third from their checkpoints (a warmup is judged only once it has ended); off, every candidate trains the full run (slower, for small rates, whose loss falls late)"),
    ("until", "choice", "steps", ("steps", "plateau",), "a comparison's runs train for their steps, or until their held-out loss plateaus (no more than 1% or 0.001 nats lower over the last third of the run), the steps a cap"),
]

# (min, max, multiple of, what the table allows) of each number, for the traits' checks.
RANGES = {
    "depth": (1, 96, 1, "an integer from 1 to 96"),
    "width": (8, 128, 4, "a multiple of 4 from 8 to 128"),
    "heads": (1, 16, 1, "an integer from 1 to 16"),
    "tokens": (1, 256, 1, "an integer from 1 to 256"),
    "context": (0, 256, 1, "an integer from 0 to 256"),
    "shards": (0, 8, 1, "an integer from 0 to 8"),
    "gain": (0.01, 10, None, "a number from 0.01 to 10"),
    "lr": (0.000001, 10, None, "a number from 0.000001 to 10"),
    "warmup": (0, 100000, 1, "an integer from 0 to 100000"),
    "beta2": (0.5, 0.99999, None, "a number from 0.5 to 0.99999"),
    "seed": (0, 18446744073709551615, 1, "an integer from 0 to 18446744073709551615"),
    "steps": (0, 1000000, 1, "an integer from 0 to 1000000"),
    "temperature": (0, 2, None, "a number from 0 to 2"),
    "attention_layer": (0, 95, 1, "an integer from 0 to 95"),
    "seeds": (1, 10, 1, "an integer from 1 to 10"),
    "choose_seeds": (1, 10, 1, "an integer from 1 to 10"),
}

PRESETS = ("default", "explode", "gradient-experiment", "text", "copy", "induction", "warmup", "break-and-heal", "critical-gain", "gradients", "encoder-decoder",)

# The element's own attributes that are the notebook's traits: (trait, attribute, kind, default, help).
ATTRIBUTES = [
    ("controls", "controls", "list", None, "the controls shown, comma-separated"),
    ("panels", "panels", "list", None, "the panels shown, comma-separated"),
    ("autoplay", "autoplay", "flag", True, "\"off\": wait for Play (or a lesson step) instead of training once near the view"),
    ("text_src", "text-src", "text", "", "the URL of a text to train the text task on"),
    ("lang", "lang", "text", "", "the language the widget speaks: a BCP 47 tag (en, es, zh; en-XA the pseudo-language); absent, its nearest ancestor's lang (the host page's), else English"),
]

# Every panel the core draws (ablate --svg's file names), in the page's order.
CHARTS = ("histogram", "loss", "depth", "readout", "attention", "compare", "sweep", "depth-width", "knockout",)

# The comparisons' methods, each a message to the front end.
COMPARISONS = ("compare", "sweep", "depth_width", "knockout",)

# Each parameter's ablate flag (the static figure runs ablate with the widget's state).
FLAGS = {
    "depth": "depth",
    "residual": "residual",
    "norm": "norm",
    "final_norm": "final-norm",
    "norm_kind": "norm-kind",
    "task": "task",
    "text_id": "text-id",
    "sublayer": "sublayer",
    "stack": "stack",
    "mask": "mask",
    "width": "width",
    "heads": "heads",
    "tokens": "tokens",
    "context": "context",
    "shards": "shards",
    "gain": "init-gain",
    "optimizer": "optimizer",
    "lr": "lr",
    "warmup": "warmup",
    "schedule": "schedule",
    "beta2": "beta2",
    "seed": "seed",
    "steps": "steps",
    "temperature": "temperature",
    "attention_layer": "attention-layer",
    "layer_view": "layer-view",
    "seeds": "seeds",
    "tune": "tune",
    "tune_grid": "tune-grid",
    "choose_seeds": "choose-seeds",
    "halving": "halving",
    "until": "until",
}
