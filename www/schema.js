// Generated from the parameter table (src/config/table.rs) by scripts/schema.sh: do not edit.
// tests/schema.rs fails when this file is stale.

/** Every parameter, in table order: URL parameter, attribute and message field. */
export const PARAMS = Object.freeze([
  Object.freeze({ name: 'depth', flag: 'depth', label: 'Depth', kind: 'int', min: 1, max: 96, step: 1, default: '12', restarts: true, control: 'own', help: 'number of sublayers' }),
  Object.freeze({ name: 'residual', flag: 'residual', label: 'Residual', kind: 'choice', switch: true, choices: ['on', 'off'], labels: ['on', 'off'], default: 'on', restarts: true, control: 'own', help: 'add each sublayer\'s input to its output' }),
  Object.freeze({ name: 'norm', flag: 'norm', label: 'LayerNorm', kind: 'choice', switch: false, choices: ['off', 'pre', 'post', 'sandwich', 'deepnorm'], labels: ['off', 'pre', 'post', 'sandwich', 'deepnorm'], default: 'pre', restarts: true, control: 'own', help: 'normalisation: off, pre (x + F(LN(x))), post (LN(x + F(x))), sandwich (x + LN(F(LN(x)))) or deepnorm (LN(α·x + F(x)) with α = depth^¼ and the branch\'s weights × (4·depth)^-¼)' }),
  Object.freeze({ name: 'final_norm', flag: 'final-norm', label: 'Final norm', kind: 'choice', switch: true, choices: ['on', 'off'], labels: ['on (pre-norm, sandwich)', 'off'], default: 'on', restarts: true, control: 'more', help: 'a pre-norm or sandwich stack ends with a final norm before the readout (as GPT-2\'s ln_f)' }),
  Object.freeze({ name: 'norm_kind', flag: 'norm-kind', label: 'Norm kind', kind: 'choice', switch: false, choices: ['layernorm', 'rmsnorm'], labels: ['LayerNorm', 'RMSNorm'], default: 'layernorm', restarts: true, control: 'more', help: 'LayerNorm (centre and scale, learned γ and β) or RMSNorm (scale, learned γ)' }),
  Object.freeze({ name: 'task', flag: 'task', label: 'Task', kind: 'choice', switch: false, choices: ['teacher', 'text', 'copy', 'induction', 'reverse'], labels: ['Regression (y = xA)', 'Text: next character', 'Copy a string', 'Repeat a string', 'Reverse a string'], default: 'teacher', restarts: true, control: 'own', help: 'what the stack learns: a random linear map, the next character of Shakespeare, a string copied after a separator, a string repeated from any of its symbols (two attention layers), or a string written back reversed (an encoder-decoder\'s task)' }),
  Object.freeze({ name: 'text_id', flag: 'text-id', label: 'Text', kind: 'text', default: 'plays', restarts: true, control: 'more', help: 'the text task\'s text: plays (the three shipped), or a reader\'s own by its SHA-256, characters and vocabulary (the page asks for the text, or fetches text-src, and refuses one with another hash)' }),
  Object.freeze({ name: 'sublayer', flag: 'sublayer', label: 'Sublayer', kind: 'choice', switch: false, choices: ['mlp', 'ffn', 'attention', 'block'], labels: ['relu(xW)', 'FFN (GELU)', 'attention', 'attention + FFN blocks'], default: 'mlp', restarts: true, control: 'more', help: 'what each sublayer computes (a decoder-only stack\'s: an encoder-decoder\'s are always blocks)' }),
  Object.freeze({ name: 'stack', flag: 'stack', label: 'Stack', kind: 'choice', switch: false, choices: ['decoder', 'encoder-decoder'], labels: ['decoder only', 'encoder + decoder'], default: 'decoder', restarts: true, control: 'more', help: 'one decoder, or an encoder (self-attention without a mask, FFN) and a decoder (masked self-attention, cross-attention to the encoder, FFN) of N layers each: 5N sublayers, on a task with a source (copy, reverse)' }),
  Object.freeze({ name: 'mask', flag: 'mask', label: 'Mask', kind: 'choice', switch: false, choices: ['causal', 'none'], labels: ['causal', 'none (sees the future)'], default: 'causal', restarts: true, control: 'more', help: 'the decoder\'s self-attention: causal (each position sees the earlier ones) or none (it sees the whole sequence, the tokens it must predict included)' }),
  Object.freeze({ name: 'width', flag: 'width', label: 'Width', kind: 'int', min: 8, max: 128, step: 4, default: '32', restarts: true, control: 'more', help: 'features per token d' }),
  Object.freeze({ name: 'heads', flag: 'heads', label: 'Heads', kind: 'int', min: 1, max: 16, step: 1, default: '4', restarts: true, control: 'more', help: 'attention heads, each of width / heads features (a divisor of the width)' }),
  Object.freeze({ name: 'tokens', flag: 'tokens', label: 'Tokens', kind: 'int', min: 1, max: 256, step: 1, default: '64', restarts: true, control: 'more', help: 'tokens per batch T, a multiple of the context' }),
  Object.freeze({ name: 'context', flag: 'context', label: 'Context', kind: 'int', min: 0, max: 256, step: 1, default: '0', restarts: true, control: 'more', help: 'positions per sequence; attention is causal within each (0: one sequence of all the tokens)' }),
  Object.freeze({ name: 'shards', flag: 'shards', label: 'Shards per step', kind: 'int', min: 0, max: 8, step: 1, default: '0', restarts: true, control: 'more', help: 'each training step\'s batch split into this many shards (1, 2, 4 or 8) whose gradients are summed in a fixed order, so that several workers can share a step; the run\'s numbers depend on the shards, never on the workers; 0: chosen from the step\'s size, 2 from 2·10⁸ multiply-adds and 128 tokens a step (where a second worker pays), else 1' }),
  Object.freeze({ name: 'gain', flag: 'init-gain', label: 'Init gain', kind: 'float', min: 0.01, max: 10, default: '1', restarts: true, control: 'more', help: 'weights ~ N(0, gain²/fan_in)' }),
  Object.freeze({ name: 'optimizer', flag: 'optimizer', label: 'Optimiser', kind: 'choice', switch: false, choices: ['sgd', 'adam'], labels: ['SGD', 'Adam'], default: 'adam', restarts: true, control: 'more', help: 'plain SGD or Adam' }),
  Object.freeze({ name: 'lr', flag: 'lr', label: 'Learning rate', kind: 'float', min: 0.000001, max: 10, default: '0.01', restarts: true, control: 'more', help: 'peak learning rate' }),
  Object.freeze({ name: 'warmup', flag: 'warmup', label: 'Warmup steps', kind: 'int', min: 0, max: 100000, step: 1, default: '0', restarts: true, control: 'more', help: 'steps of linear learning-rate warmup' }),
  Object.freeze({ name: 'beta2', flag: 'beta2', label: 'Adam β₂', kind: 'float', min: 0.5, max: 0.99999, default: '0.999', restarts: true, control: 'more', help: 'Adam\'s decay of its squared-gradient average: 0.999, or the original Transformer\'s 0.98 (a shorter memory, so early large gradients are forgotten sooner)' }),
  Object.freeze({ name: 'seed', flag: 'seed', label: 'Seed', kind: 'seed', min: 0, max: '18446744073709551615', default: '1', restarts: true, control: 'more', help: 'fixes initialisation, data and batch order' }),
  Object.freeze({ name: 'steps', flag: 'steps', label: 'Steps', kind: 'int', min: 0, max: 1000000, step: 1, default: '5000', restarts: false, control: 'more', help: 'training steps of a run; Play continues a finished run for as many again' }),
  Object.freeze({ name: 'temperature', flag: 'temperature', label: 'Temperature', kind: 'float', min: 0, max: 2, default: '0.8', restarts: false, control: 'own', help: 'what the model writes is sampled at this temperature (0: always the likeliest character)' }),
  Object.freeze({ name: 'attention_layer', flag: 'attention-layer', label: 'Layer', kind: 'int', min: 0, max: 95, step: 1, default: '0', restarts: false, control: 'own', help: 'which sublayer\'s heads the Attention panel shows (the nearest attention sublayer at or below it)' }),
  Object.freeze({ name: 'layer_view', flag: 'layer-view', label: 'Per layer', kind: 'choice', switch: false, choices: ['activations', 'weights', 'matrices'], labels: ['the stream: ‖∂L/∂x‖ and std', 'the weights: ‖∂L/∂W‖ per sublayer', 'Xiong\'s W² and W_V, 100 batches'], default: 'activations', restarts: false, control: 'own', help: 'what the per-layer panel draws: the stream\'s gradient and std at every depth, each sublayer\'s weight gradient ‖∂L/∂W‖ on the probe batch, attention and FFN apart, or as Xiong et al. (2020) read it, the FFN\'s second matrix and attention\'s W_V at initialisation, averaged over 100 batches' }),
  Object.freeze({ name: 'seeds', flag: 'seeds', label: 'Seeds', kind: 'int', min: 1, max: 10, step: 1, default: '1', restarts: false, control: 'more', help: 'every comparison trains each arm at this many seeds (seed, seed+1, …) and shows the median with the lowest and highest run' }),
  Object.freeze({ name: 'tune', flag: 'tune', label: 'Tune rate', kind: 'choice', switch: true, choices: ['on', 'off'], labels: ['on', 'off'], default: 'off', restarts: false, control: 'more', help: 'every comparison chooses each arm\'s setting on seeds of its own (choose_seeds) by the lowest training loss, widening the rates\' grid until the best is inside it, and shows it on the seeds' }),
  Object.freeze({ name: 'tune_grid', flag: 'tune-grid', label: 'Tune what', kind: 'choice', switch: false, choices: ['lr', 'lr,warmup,beta2'], labels: ['the learning rate', 'the rate, the warmup and Adam\'s β₂'], default: 'lr', restarts: false, control: 'more', help: 'what tuning searches: the learning rate, or the rate with the warmup and Adam\'s β₂ (each arm\'s recipe)' }),
  Object.freeze({ name: 'choose_seeds', flag: 'choose-seeds', label: 'Choosing seeds', kind: 'int', min: 1, max: 10, step: 1, default: '3', restarts: false, control: 'more', help: 'tuning chooses each arm\'s setting on this many seeds of its own, after the ones it shows' }),
  Object.freeze({ name: 'halving', flag: 'halving', label: 'Successive halving', kind: 'choice', switch: true, choices: ['on', 'off'], labels: ['on', 'off'], default: 'on', restarts: false, control: 'more', help: 'tuning judges candidates on a share of the run and continues the best third from their checkpoints; off, every candidate trains the full run (slower, for small rates and long warmups)' }),
  Object.freeze({ name: 'until', flag: 'until', label: 'Runs train until', kind: 'choice', switch: false, choices: ['steps', 'plateau'], labels: ['the steps', 'a plateau (steps as the cap)'], default: 'steps', restarts: false, control: 'more', help: 'a comparison\'s runs train for their steps, or until their held-out loss plateaus (no more than 1% or 0.001 nats lower over the last third of the run), the steps a cap' }),
]);

/** The presets, for the menu: each sets every parameter. */
export const PRESETS = Object.freeze([
  Object.freeze({ name: 'default', help: 'the reset state: 12 layers, both switches on (pre-norm), Adam' }),
  Object.freeze({ name: 'explode', help: 'the blow-up: a plain stack (both switches off) with init gain 2, trained by SGD at lr 0.1' }),
  Object.freeze({ name: 'gradient-experiment', help: 'vanishing gradients: 0.5·relu(xW) with neither residual nor norm (init gain 0.5)' }),
  Object.freeze({ name: 'text', help: 'next-character prediction on three Shakespeare plays: 12 attention + FFN sublayers' }),
  Object.freeze({ name: 'copy', help: 'copy a string of 8 digits after a separator: only attention can look back for it' }),
  Object.freeze({ name: 'induction', help: 'repeat a string from any of its symbols: two attention layers learn it, one cannot' }),
  Object.freeze({ name: 'warmup', help: 'post-norm needs warmup: text at depth 12, post-norm, Adam at 0.003 without warmup; then 300 warmup steps, or pre-norm' }),
  Object.freeze({ name: 'break-and-heal', help: 'the lesson\'s story in three clicks: both switches off with init gain 2.25 and Adam; turn LayerNorm on, then Residual' }),
  Object.freeze({ name: 'critical-gain', help: 'break-and-heal at ReLU\'s critical init gain √2 (He et al. 2015): both switches off, the signal neither blows up nor vanishes, and still the loss stays high; turn LayerNorm on, then Residual' }),
  Object.freeze({ name: 'gradients', help: 'Xiong\'s picture, measured as Xiong measured it: the FFN\'s second matrix and attention\'s W_V, their gradient at initialisation over 100 batches, post-norm at depth 48 (live) against pre-norm and depth 12 (pinned): post-norm\'s top gets several times pre-norm\'s, whose gradient shrinks with depth' }),
  Object.freeze({ name: 'encoder-decoder', help: 'lesson 000\'s encoder and decoder: 2 layers each (10 sublayers) write a string of 8 digits back reversed, the decoder reading the source through cross-attention' }),
]);

export const PRESET = 'preset';
export const PIN = 'pin';
export const MAX_PINS = 3;
export const MAX_PIN_STEPS = 100000;

/** A reader's text and prompt: the sizes the core takes (the core checks them again). */
export const TEXT_LIMITS = Object.freeze({ minChars: 600, maxBytes: 8388608, keptChars: 255, maxPromptChars: 2000, maxWriteChars: 2000, sampleChars: 200 });

/** The comparisons: each one's panel, the element's method that starts it, the notebook's,
 *  its name in menus, whether the live worker starts it from its stack (else the wasm
 *  View's startComparison), its field in .value; its panel's markup: its button, the
 *  panel's button that runs it again, its chart's first accessible name, its tables by
 *  field (each folded under its summary, or whole: null) and its writes' group name. */
export const COMPARISONS = Object.freeze([
  Object.freeze({ panel: 'compare', method: 'compare', python: 'compare', label: 'All four', fromLiveStack: false, field: 'compare', button: 'All four', again: 'Train all four', chart: 'All four combinations', tables: [{ field: 'table', summary: null }, { field: 'readout', summary: 'What each depth would predict' }], writes: 'What each combination writes' }),
  Object.freeze({ panel: 'sweep', method: 'sweep', python: 'sweep', label: 'Depth sweep', fromLiveStack: false, field: 'sweep', button: 'Depth sweep', again: 'Sweep depths', chart: 'Depth sweep', tables: [{ field: 'table', summary: 'The numbers (each cell: the loss after the steps, then the gradient ratio at initialisation)' }], writes: null }),
  Object.freeze({ panel: 'depth-width', method: 'depthWidth', python: 'depth_width', label: 'Depth or width', fromLiveStack: false, field: 'depth_width', button: 'Depth or width', again: 'Train depth or width', chart: 'Depth or width', tables: [{ field: 'table', summary: 'Each shape\'s numbers' }], writes: null }),
  Object.freeze({ panel: 'knockout', method: 'knockout', python: 'knockout', label: 'Layer knockout', fromLiveStack: true, field: 'knockout', button: 'Knock out layers', again: 'Knock out each layer', chart: 'Layer knockout', tables: [{ field: 'table', summary: 'Each layer\'s numbers' }, { field: 'removals', summary: 'Several layers at once: the upper k, and k at random' }], writes: null }),
]);

/** Every panel the core draws, in the page's order: its name (data-panel), its name in
 *  menus, and what it shows (the live run and its pins, or a comparison). */
export const CHARTS = Object.freeze([
  Object.freeze({ name: 'histogram', label: 'Histogram', shows: 'live' }),
  Object.freeze({ name: 'loss', label: 'Training loss', shows: 'live' }),
  Object.freeze({ name: 'depth', label: 'Per layer', shows: 'live' }),
  Object.freeze({ name: 'readout', label: 'Read out at every depth', shows: 'live' }),
  Object.freeze({ name: 'attention', label: 'Attention', shows: 'live' }),
  Object.freeze({ name: 'compare', label: 'All four', shows: 'comparisons' }),
  Object.freeze({ name: 'sweep', label: 'Depth sweep', shows: 'comparisons' }),
  Object.freeze({ name: 'depth-width', label: 'Depth or width', shows: 'comparisons' }),
  Object.freeze({ name: 'knockout', label: 'Layer knockout', shows: 'comparisons' }),
]);

/** The element's own attributes, beside the state: each one's option key (also the React
 *  prop; none: the playground page's URL alone), the notebook's trait, what its text is,
 *  whether the element observes it, and what it does. */
export const ATTRIBUTES = Object.freeze([
  Object.freeze({ name: 'controls', option: 'controls', python: 'controls', kind: 'list', words: ['depth', 'residual', 'norm', 'placement', 'task', 'play', 'more', 'copy', 'compare', 'download'], element: true, help: 'the controls shown, comma-separated' }),
  Object.freeze({ name: 'panels', option: 'panels', python: 'panels', kind: 'list', words: ['histogram', 'loss', 'depth', 'readout', 'attention', 'writes', 'compare', 'sweep', 'depth-width', 'knockout'], element: true, help: 'the panels shown, comma-separated' }),
  Object.freeze({ name: 'autoplay', option: 'autoplay', python: 'autoplay', kind: 'flag', default: true, element: true, help: '"off": wait for Play (or a lesson step) instead of training once near the view' }),
  Object.freeze({ name: 'text-src', option: 'textSrc', python: 'text_src', kind: 'url', element: true, help: 'the URL of a text to train the text task on' }),
  Object.freeze({ name: 'weights-src', option: 'weightsSrc', python: '', kind: 'url', element: true, help: 'the URL of a weights file (safetensors) the playground wrote: the run starts from it' }),
  Object.freeze({ name: 'lang', option: 'lang', python: 'lang', kind: 'text', element: true, help: 'the language the widget speaks: a BCP 47 tag (en, es, zh; en-XA the pseudo-language); absent, its nearest ancestor\'s lang (the host page\'s), else English' }),
  Object.freeze({ name: 'embed', option: '', python: '', kind: 'flag', default: false, element: false, help: 'the playground page inside an iframe: without its heading, and closer to the frame\'s edges' }),
  Object.freeze({ name: 'allow', option: '', python: '', kind: 'text', element: false, help: 'the origins (comma-separated) whose postMessage commands the playground page obeys' }),
]);

/** Every name the state takes, as attributes and messages do: the preset first (it sets
 *  every parameter, and the others then adjust it), the parameters, then the pins. */
export const STATE_NAMES = Object.freeze([PRESET, ...PARAMS.map((p) => p.name), PIN]);
