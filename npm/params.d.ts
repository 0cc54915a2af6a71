// Generated from the parameter table (crates/config/src/table.rs) by scripts/schema.sh: do not edit.
// tests/schema.rs fails when this file is stale.

/** A preset's name: the `preset` attribute (it sets every parameter; the others adjust it). */
export type PresetName = 'default' | 'explode' | 'gradient-experiment' | 'text' | 'copy' | 'induction' | 'warmup' | 'break-and-heal' | 'critical-gain' | 'gradients' | 'encoder-decoder';

/** Every parameter as `.value` holds it (and the `playground-update` event's detail, its part). */
export interface AblationPlaygroundParams {
  /** number of sublayers (1 to 96; default 12) */
  depth: number;
  /** add each sublayer's input to its output (default on) */
  residual: 'on' | 'off';
  /** normalisation: off, pre (x + F(LN(x))), post (LN(x + F(x))), sandwich (x + LN(F(LN(x)))) or deepnorm (LN(α·x + F(x)) with α = depth^¼ and the branch's weights × (4·depth)^-¼) (default pre) */
  norm: 'off' | 'pre' | 'post' | 'sandwich' | 'deepnorm';
  /** a pre-norm or sandwich stack ends with a final norm before the readout (as GPT-2's ln_f) (default on) */
  final_norm: 'on' | 'off';
  /** LayerNorm (centre and scale, learned γ and β) or RMSNorm (scale, learned γ) (default layernorm) */
  norm_kind: 'layernorm' | 'rmsnorm';
  /** what the stack learns: a random linear map, the next character of Shakespeare, a string copied after a separator, a string repeated from any of its symbols (two attention layers), or a string written back reversed (an encoder-decoder's task) (default teacher) */
  task: 'teacher' | 'text' | 'copy' | 'induction' | 'reverse';
  /** the text task's text: plays (the three shipped), or a reader's own by its SHA-256, characters and vocabulary (the page asks for the text, or fetches text-src, and refuses one with another hash) (default plays) */
  text_id: string;
  /** what each sublayer computes (a decoder-only stack's: an encoder-decoder's are always blocks) (default mlp) */
  sublayer: 'mlp' | 'ffn' | 'attention' | 'block';
  /** one decoder, or an encoder (self-attention without a mask, FFN) and a decoder (masked self-attention, cross-attention to the encoder, FFN) of N layers each: 5N sublayers, on a task with a source (copy, reverse) (default decoder) */
  stack: 'decoder' | 'encoder-decoder';
  /** the decoder's self-attention: causal (each position sees the earlier ones) or none (it sees the whole sequence, the tokens it must predict included) (default causal) */
  mask: 'causal' | 'none';
  /** features per token d (8 to 128; default 32) */
  width: number;
  /** attention heads, each of width / heads features (a divisor of the width) (1 to 16; default 4) */
  heads: number;
  /** tokens per batch T, a multiple of the context (1 to 256; default 64) */
  tokens: number;
  /** positions per sequence; attention is causal within each (0: one sequence of all the tokens) (0 to 256; default 0) */
  context: number;
  /** each training step's batch split into this many shards (1, 2, 4 or 8) whose gradients are summed in a fixed order, so that several workers can share a step; the run's numbers depend on the shards, never on the workers; 0: chosen from the step's size, 2 from 2·10⁸ multiply-adds and 128 tokens a step (where a second worker pays), else 1 (0 to 8; default 0) */
  shards: number;
  /** weights ~ N(0, gain²/fan_in) (0.01 to 10; default 1) */
  gain: number;
  /** plain SGD or Adam (default adam) */
  optimizer: 'sgd' | 'adam';
  /** peak learning rate (0.000001 to 10; default 0.01) */
  lr: number;
  /** steps of linear learning-rate warmup (0 to 100000; default 0) */
  warmup: number;
  /** the rate after the warmup: constant, the Transformer papers' decay, × √(warmup ÷ update), or a cosine down to a tenth at the run's last step (default constant) */
  schedule: 'constant' | 'inverse-sqrt' | 'cosine';
  /** Adam's decay of its squared-gradient average: 0.999, or the original Transformer's 0.98 (a shorter memory, so early large gradients are forgotten sooner) (0.5 to 0.99999; default 0.999) */
  beta2: number;
  /** fixes initialisation, data and batch order (default 1) */
  seed: string;
  /** training steps of a run; Play continues a finished run for as many again (0 to 1000000; default 5000) */
  steps: number;
  /** what the model writes is sampled at this temperature (0: always the likeliest character) (0 to 2; default 0.8) */
  temperature: number;
  /** which sublayer's heads the Attention panel shows (the nearest attention sublayer at or below it) (0 to 95; default 0) */
  attention_layer: number;
  /** what the per-layer panel draws: the stream's gradient and std at every depth, each sublayer's weight gradient ‖∂L/∂W‖ on the probe batch, attention and FFN apart, or as Xiong et al. (2020) read it, the FFN's second matrix and attention's W_V at initialisation, averaged over 100 batches (default activations) */
  layer_view: 'activations' | 'weights' | 'matrices';
  /** every comparison trains each arm at this many seeds (seed, seed+1, …) and shows the median with the lowest and highest run (1 to 10; default 1) */
  seeds: number;
  /** every comparison chooses each arm's setting on seeds of its own (choose_seeds) by the lowest training loss, widening the rates' grid until the best is inside it, and shows it on the seeds (default off) */
  tune: 'on' | 'off';
  /** what tuning searches: the learning rate, or the rate with the warmup and Adam's β₂ (each arm's recipe) (default lr) */
  tune_grid: 'lr' | 'lr,warmup,beta2';
  /** tuning chooses each arm's setting on this many seeds of its own, after the ones it shows (1 to 10; default 3) */
  choose_seeds: number;
  /** tuning judges candidates on a share of the run and continues the best third from their checkpoints (a warmup is judged only once it has ended); off, every candidate trains the full run (slower, for small rates, whose loss falls late) (default on) */
  halving: 'on' | 'off';
  /** a comparison's runs train for their steps, or until their held-out loss plateaus (no more than 1% or 0.001 nats lower over the last third of the run), the steps a cap (default steps) */
  until: 'steps' | 'plateau';
}

/** Every parameter as an attribute of `<ablation-playground>` (and a prop of the React
 *  component): the URL parameters' names and values. */
export interface AblationPlaygroundParamAttributes {
  /** number of sublayers (1 to 96; default 12) */
  depth?: number | `${number}`;
  /** add each sublayer's input to its output (default on) */
  residual?: 'on' | 'off';
  /** normalisation: off, pre (x + F(LN(x))), post (LN(x + F(x))), sandwich (x + LN(F(LN(x)))) or deepnorm (LN(α·x + F(x)) with α = depth^¼ and the branch's weights × (4·depth)^-¼) (default pre) */
  norm?: 'off' | 'pre' | 'post' | 'sandwich' | 'deepnorm';
  /** a pre-norm or sandwich stack ends with a final norm before the readout (as GPT-2's ln_f) (default on) */
  final_norm?: 'on' | 'off';
  /** LayerNorm (centre and scale, learned γ and β) or RMSNorm (scale, learned γ) (default layernorm) */
  norm_kind?: 'layernorm' | 'rmsnorm';
  /** what the stack learns: a random linear map, the next character of Shakespeare, a string copied after a separator, a string repeated from any of its symbols (two attention layers), or a string written back reversed (an encoder-decoder's task) (default teacher) */
  task?: 'teacher' | 'text' | 'copy' | 'induction' | 'reverse';
  /** the text task's text: plays (the three shipped), or a reader's own by its SHA-256, characters and vocabulary (the page asks for the text, or fetches text-src, and refuses one with another hash) (default plays) */
  text_id?: string;
  /** what each sublayer computes (a decoder-only stack's: an encoder-decoder's are always blocks) (default mlp) */
  sublayer?: 'mlp' | 'ffn' | 'attention' | 'block';
  /** one decoder, or an encoder (self-attention without a mask, FFN) and a decoder (masked self-attention, cross-attention to the encoder, FFN) of N layers each: 5N sublayers, on a task with a source (copy, reverse) (default decoder) */
  stack?: 'decoder' | 'encoder-decoder';
  /** the decoder's self-attention: causal (each position sees the earlier ones) or none (it sees the whole sequence, the tokens it must predict included) (default causal) */
  mask?: 'causal' | 'none';
  /** features per token d (8 to 128; default 32) */
  width?: number | `${number}`;
  /** attention heads, each of width / heads features (a divisor of the width) (1 to 16; default 4) */
  heads?: number | `${number}`;
  /** tokens per batch T, a multiple of the context (1 to 256; default 64) */
  tokens?: number | `${number}`;
  /** positions per sequence; attention is causal within each (0: one sequence of all the tokens) (0 to 256; default 0) */
  context?: number | `${number}`;
  /** each training step's batch split into this many shards (1, 2, 4 or 8) whose gradients are summed in a fixed order, so that several workers can share a step; the run's numbers depend on the shards, never on the workers; 0: chosen from the step's size, 2 from 2·10⁸ multiply-adds and 128 tokens a step (where a second worker pays), else 1 (0 to 8; default 0) */
  shards?: number | `${number}`;
  /** weights ~ N(0, gain²/fan_in) (0.01 to 10; default 1) */
  gain?: number | `${number}`;
  /** plain SGD or Adam (default adam) */
  optimizer?: 'sgd' | 'adam';
  /** peak learning rate (0.000001 to 10; default 0.01) */
  lr?: number | `${number}`;
  /** steps of linear learning-rate warmup (0 to 100000; default 0) */
  warmup?: number | `${number}`;
  /** the rate after the warmup: constant, the Transformer papers' decay, × √(warmup ÷ update), or a cosine down to a tenth at the run's last step (default constant) */
  schedule?: 'constant' | 'inverse-sqrt' | 'cosine';
  /** Adam's decay of its squared-gradient average: 0.999, or the original Transformer's 0.98 (a shorter memory, so early large gradients are forgotten sooner) (0.5 to 0.99999; default 0.999) */
  beta2?: number | `${number}`;
  /** fixes initialisation, data and batch order (default 1) */
  seed?: number | bigint | `${number}`;
  /** training steps of a run; Play continues a finished run for as many again (0 to 1000000; default 5000) */
  steps?: number | `${number}`;
  /** what the model writes is sampled at this temperature (0: always the likeliest character) (0 to 2; default 0.8) */
  temperature?: number | `${number}`;
  /** which sublayer's heads the Attention panel shows (the nearest attention sublayer at or below it) (0 to 95; default 0) */
  attention_layer?: number | `${number}`;
  /** what the per-layer panel draws: the stream's gradient and std at every depth, each sublayer's weight gradient ‖∂L/∂W‖ on the probe batch, attention and FFN apart, or as Xiong et al. (2020) read it, the FFN's second matrix and attention's W_V at initialisation, averaged over 100 batches (default activations) */
  layer_view?: 'activations' | 'weights' | 'matrices';
  /** every comparison trains each arm at this many seeds (seed, seed+1, …) and shows the median with the lowest and highest run (1 to 10; default 1) */
  seeds?: number | `${number}`;
  /** every comparison chooses each arm's setting on seeds of its own (choose_seeds) by the lowest training loss, widening the rates' grid until the best is inside it, and shows it on the seeds (default off) */
  tune?: 'on' | 'off';
  /** what tuning searches: the learning rate, or the rate with the warmup and Adam's β₂ (each arm's recipe) (default lr) */
  tune_grid?: 'lr' | 'lr,warmup,beta2';
  /** tuning chooses each arm's setting on this many seeds of its own, after the ones it shows (1 to 10; default 3) */
  choose_seeds?: number | `${number}`;
  /** tuning judges candidates on a share of the run and continues the best third from their checkpoints (a warmup is judged only once it has ended); off, every candidate trains the full run (slower, for small rates, whose loss falls late) (default on) */
  halving?: 'on' | 'off';
  /** a comparison's runs train for their steps, or until their held-out loss plateaus (no more than 1% or 0.001 nats lower over the last third of the run), the steps a cap (default steps) */
  until?: 'steps' | 'plateau';
  /** a preset's name: it sets every parameter, and the other attributes adjust it */
  preset?: PresetName;
  /** pinned runs, each a state to train beside the live one: `residual:off@500;@1200` */
  pin?: string;
}

/** The element's own attributes beside the parameters. */
export interface AblationPlaygroundOptions {
  /** the controls shown, comma-separated: depth, residual, norm, placement, task, play, more, copy, compare, download */
  controls?: string;
  /** the panels shown, comma-separated: histogram, loss, depth, readout, attention, writes, compare, sweep, depth-width, knockout */
  panels?: string;
  /** "off": wait for Play (or a lesson step) instead of training once near the view */
  autoplay?: 'on' | 'off' | 'true' | 'false' | 'yes' | 'no' | '1' | '0' | '';
  /** the URL of a text to train the text task on */
  'text-src'?: string;
  /** the URL of a weights file (safetensors) the playground wrote: the run starts from it */
  'weights-src'?: string;
  /** the language the widget speaks: a BCP 47 tag (en, es, zh; en-XA the pseudo-language); absent, its nearest ancestor's lang (the host page's), else English */
  lang?: string;
}

/** The element's own attributes as the React component's props (a flag may be a boolean). */
export interface AblationPlaygroundOptionProps {
  /** the `controls` attribute: the controls shown, comma-separated */
  controls?: AblationPlaygroundOptions['controls'];
  /** the `panels` attribute: the panels shown, comma-separated */
  panels?: AblationPlaygroundOptions['panels'];
  /** the `autoplay` attribute: "off": wait for Play (or a lesson step) instead of training once near the view */
  autoplay?: boolean | AblationPlaygroundOptions['autoplay'];
  /** the `text-src` attribute: the URL of a text to train the text task on */
  textSrc?: AblationPlaygroundOptions['text-src'];
  /** the `weights-src` attribute: the URL of a weights file (safetensors) the playground wrote: the run starts from it */
  weightsSrc?: AblationPlaygroundOptions['weights-src'];
  /** the `lang` attribute: the language the widget speaks: a BCP 47 tag (en, es, zh; en-XA the pseudo-language); absent, its nearest ancestor's lang (the host page's), else English */
  lang?: AblationPlaygroundOptions['lang'];
}

/** The comparisons' fields of `.value`. */
export type ComparisonField = 'compare' | 'sweep' | 'depth_width' | 'knockout';

/** The element's methods that start a comparison: each resolves once its runs are drawn. */
export interface AblationPlaygroundComparisons {
  /** starts the `compare` comparison (`.value.compare`, the compare panel) */
  compare(): Promise<void>;
  /** starts the `sweep` comparison (`.value.sweep`, the sweep panel) */
  sweep(): Promise<void>;
  /** starts the `depthWidth` comparison (`.value.depth_width`, the depth-width panel) */
  depthWidth(): Promise<void>;
  /** starts the `knockout` comparison (`.value.knockout`, the knockout panel) */
  knockout(): Promise<void>;
}
