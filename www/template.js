// The widget's markup, the names of its controls and panels, and the error box that replaces
// a widget that could not start. The More panel's parameters are added from the schema
// (controls.js); the panels' and the comparisons' names come from the core (schema.js).

import { ATTRIBUTES, COMPARISONS, PARAMS } from './schema.js';

/** Every control and panel, by the names used in `controls=` and `panels=`. */
const wordsOf = (name) => ATTRIBUTES.find((a) => a.name === name).words;
export const CONTROLS = wordsOf('controls');
export const PANELS = wordsOf('panels');
/** Panels shown only on a sequence task (unless `panels=` names them). */
export const TASK_PANELS = Object.freeze(['writes', 'attention']);
/** The comparison panels: shown once started, or whenever `panels=` names them. */
export const COMPARISON_PANELS = Object.freeze(COMPARISONS.map((c) => c.panel));
/** The controller's method that starts each comparison panel's runs. */
export const STARTS = Object.freeze(Object.fromEntries(COMPARISONS.map((c) => [c.panel, c.method])));

/** Whether a presentation flag (`autoplay`, `embed`) says no: off, false, 0 or no, any case. */
export const isOff = (v) => v != null && ['off', 'false', '0', 'no'].includes(String(v).trim().toLowerCase());

/** The widget's options from the element's own attributes (schema.js's ATTRIBUTES), each read
 *  by `get(name)` (an attribute, a URL parameter): a flag as a boolean, its default when absent. */
export function optionsFrom(get) {
  const options = {};
  for (const a of ATTRIBUTES) {
    if (!a.option) continue;
    const text = get(a.name);
    options[a.option] = a.kind === 'flag' ? (text == null ? a.default : !isOff(text)) : text;
  }
  return options;
}

/** The depth slider's range, step and default, from the table. */
const DEPTH = PARAMS.find((p) => p.name === 'depth');

/** Text from the table, safe inside markup. */
const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A comparison's panel (schema.js's COMPARISONS): its chart, its sentence, its tables (each
 *  `PANEL-table` or `PANEL-FIELD`, folded in `…-details` when it has a summary: render.js
 *  fills them), what its runs write, and its button that runs it again. */
function comparisonPanel(c) {
  const tables = c.tables.map(({ field, summary }) => {
    const id = field === 'table' ? c.panel : `${c.panel}-${field}`;
    const table = `<table class="ap-table" data-el="${field === 'table' ? `${id}-table` : id}"></table>`;
    return summary == null ? table : `<details class="ap-numbers" data-el="${id}-details" hidden><summary>${escape(summary)}</summary>${table}</details>`;
  });
  const writes = c.writes == null ? [] : [`<div class="ap-compare-writes" data-el="${c.panel}-writes" role="group" aria-label="${escape(c.writes)}"></div>`];
  return `
    <figure class="ap-panel ap-wide" data-panel="${c.panel}" part="panel ${c.panel}" hidden>
      <canvas data-el="${c.panel}" role="img" aria-label="${escape(c.chart)}"></canvas>
      <figcaption data-el="${c.panel}-summary"></figcaption>
      ${[...tables, ...writes].join('\n      ')}
      <div class="ap-panel-buttons"><button type="button" data-el="again-${c.panel}">${escape(c.again)}</button></div>
    </figure>`;
}

export const TEMPLATE = `
  <div class="ap-notice" data-el="notice" role="note" aria-live="polite" part="notice"></div>
  <form class="ap-controls" data-el="controls" part="controls">
    <div class="ap-depth" data-control="depth">
      <label>Depth <input type="range" data-el="depth" name="depth" min="${DEPTH.min}" max="${DEPTH.max}" step="${DEPTH.step}" value="${DEPTH.default}"></label>
      <output data-el="depth-value" aria-hidden="true">${DEPTH.default}</output>
    </div>
    <label class="ap-switch" data-control="residual">
      <input type="checkbox" role="switch" data-el="residual" checked> Residual
    </label>
    <label class="ap-switch" data-control="norm">
      <input type="checkbox" role="switch" data-el="layernorm" checked> LayerNorm
    </label>
    <fieldset class="ap-placement" data-el="placement" data-control="placement">
      <legend>Placement</legend>
    </fieldset>
    <label class="ap-task" data-control="task">Task <select data-el="task" aria-label="Task"></select></label>
    <div class="ap-buttons" data-control="play">
      <button type="button" data-el="play">Pause</button>
      <button type="button" data-el="step">Step</button>
      <button type="button" data-el="reset">Reset</button>
    </div>
    <div class="ap-buttons" data-control="copy">
      <button type="button" data-el="copy">Copy link</button>
      <input type="text" readonly data-el="link" aria-label="Link to this state" hidden>
    </div>
    <div class="ap-compare" data-control="compare">
      <div class="ap-buttons">
        <button type="button" data-el="pin">Pin</button>
        ${COMPARISONS.map((c) => `<button type="button" data-el="run-${c.panel}">${escape(c.button)}</button>`).join('\n        ')}
      </div>
      <ul class="ap-pins" data-el="pins" aria-label="Pinned runs" hidden></ul>
    </div>
    <details class="ap-download" data-control="download" data-el="download">
      <summary>Download</summary>
      <div class="ap-download-menu" role="group" aria-label="Download the run">
        <button type="button" data-download="report">The run (JSON)</button>
        <button type="button" data-download="csv">Loss history (CSV)</button>
        <button type="button" data-download="weights">Weights (safetensors)</button>
        <label>Chart <select data-el="download-chart" aria-label="Chart to download"></select></label>
        <button type="button" data-download="svg">Chart (SVG)</button>
        <button type="button" data-download="png">Chart (PNG)</button>
        <button type="button" data-el="weights-choose">Load weights…</button>
        <input type="file" data-el="weights-file" accept=".safetensors,application/octet-stream" hidden>
      </div>
    </details>
    <details class="ap-more" data-control="more">
      <summary>More</summary>
      <div class="ap-more-grid">
        <label>Preset <select data-el="preset" aria-label="Preset"><option value="custom" disabled>custom</option></select></label>
      </div>
    </details>
  </form>
  <p class="ap-status" role="status" data-el="status" part="status">Loading…</p>
  <p class="ap-caption" data-el="caption" part="caption"></p>
  <div class="ap-error" role="alert" data-el="error" part="error" hidden></div>
  <div class="ap-palette" data-el="palette" aria-hidden="true">
    <i class="ap-c-bg" data-colour="background"></i><i class="ap-c-fg" data-colour="text"></i><i class="ap-c-grid" data-colour="grid"></i><i class="ap-c-accent" data-colour="now"></i><i class="ap-c-alert" data-colour="alert"></i>
  </div>
  <div class="ap-panels" data-el="panels" part="panels">
    <figure class="ap-panel" data-panel="histogram" part="panel histogram">
      <canvas data-el="histogram" role="img" aria-label="Histogram of the final activations"></canvas>
      <figcaption data-el="histogram-summary"></figcaption>
      <div class="ap-panel-buttons">
        <button type="button" data-el="rescale">Fit axis to data</button>
        <button type="button" data-el="reset-scale">Axis −4…4</button>
      </div>
    </figure>
    <figure class="ap-panel" data-panel="loss" part="panel loss">
      <canvas data-el="loss" role="img" aria-label="Training loss"></canvas>
      <figcaption data-el="loss-summary"></figcaption>
    </figure>
    <figure class="ap-panel" data-panel="depth" part="panel depth">
      <canvas data-el="depthplot" role="img" aria-label="Gradient norm and activation std per layer"></canvas>
      <figcaption data-el="depth-summary"></figcaption>
      <label class="ap-layer-view">Per layer <select data-param="layer_view" aria-label="Per layer"></select></label>
    </figure>
    <figure class="ap-panel" data-panel="readout" part="panel readout">
      <canvas data-el="readout" role="img" aria-label="What each layer would predict"></canvas>
      <figcaption data-el="readout-summary"></figcaption>
      <div class="ap-panel-buttons" data-el="lens-buttons"><button type="button" data-el="fit-lens">Fit a tuned lens</button></div>
    </figure>
    <figure class="ap-panel ap-wide ap-attention" data-panel="attention" part="panel attention">
      <canvas data-el="attention" role="img" aria-label="Where each attention head looks"></canvas>
      <figcaption data-el="attention-summary"></figcaption>
      <label class="ap-attention-layer">Attention of layer <select data-param="attention_layer" aria-label="Attention of layer"></select></label>
      <ul class="ap-heads" data-el="attention-heads" aria-label="Where each head looks"></ul>
    </figure>
    <section class="ap-panel ap-wide ap-writes" data-panel="writes" part="panel writes" aria-label="The model writes" hidden>
      <p class="ap-writes-title">The model writes</p>
      <p class="ap-writes-heading" data-el="writes-heading"></p>
      <pre class="ap-writes-text" data-el="writes-text"></pre>
      <form class="ap-prompt" data-el="prompt-form" data-text-only>
        <label>Prompt <textarea data-el="prompt" rows="2" autocomplete="off" spellcheck="false" placeholder="Type a beginning, then Enter (Shift+Enter: a new line)"></textarea></label>
        <label>Characters <input type="number" data-el="prompt-chars" min="1" step="1" value="200"></label>
        <button type="submit">Write</button>
        <button type="button" data-el="prompt-clear">Its own prompt</button>
      </form>
      <p class="ap-said" data-el="prompt-said" aria-live="polite"></p>
      <div class="ap-compare-writes" data-el="pin-writes" role="group" aria-label="What the pinned runs wrote"></div>
      <label class="ap-temperature">Temperature <input type="number" data-param="temperature" aria-label="Temperature" min="0" max="2" step="0.1"></label>
      <div class="ap-own-text" data-el="own-text" data-text-only role="group" aria-label="The text it learns">
        <p class="ap-writes-title">The text it learns</p>
        <p class="ap-text-words" data-el="text-words" aria-live="polite"></p>
        <div class="ap-panel-buttons">
          <button type="button" data-el="text-choose">Train on a text file…</button>
          <input type="file" data-el="text-file" accept=".txt,.md,.csv,.tsv,.py,.rs,.js,.json,.html,text/*" hidden>
          <button type="button" data-el="text-plays">Back to the plays</button>
        </div>
        <details class="ap-paste"><summary>Paste a text</summary>
          <textarea data-el="text-paste" rows="5" aria-label="A text to train on" spellcheck="false"></textarea>
          <button type="button" data-el="text-use">Train on the pasted text</button>
        </details>
        <p class="ap-hint">Or drop a text file anywhere on the playground.</p>
      </div>
    </section>
    ${COMPARISONS.map(comparisonPanel).join('')}
  </div>`;

/** Shows a readable message in place of a dead widget. */
export function showError(root, message) {
  let box = root.querySelector('[data-el="error"]');
  if (!box) {
    // not mounted yet (the wasm did not load): the box alone
    box = Object.assign(document.createElement('div'), { className: 'ap-error' });
    box.setAttribute('role', 'alert');
    box.setAttribute('part', 'error');
    box.dataset.el = 'error';
    root.prepend(box);
  }
  box.textContent = `The playground stopped: ${String(message).replace(/\.+$/, '')}. Reload the page to try again.`;
  box.hidden = false;
  const status = root.querySelector('[data-el="status"]');
  if (status && status.textContent === 'Loading…') status.textContent = 'The playground could not start.';
}

