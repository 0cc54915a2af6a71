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
  // (the table's words, each under a message that translates it: language.js, tableWords)
  const words = (part, english) => `data-i18n-table="${c.messages[part]}" data-en="${escape(english)}">${escape(english)}`;
  const label = (part, english) => `data-i18n-table-label="${c.messages[part]}" data-en-label="${escape(english)}" aria-label="${escape(english)}"`;
  const tables = c.tables.map(({ field, summary }, i) => {
    const id = field === 'table' ? c.panel : `${c.panel}-${field}`;
    // (a table wider than a phone scrolls sideways in its box, its words whole)
    const table = `<div class="ap-table-box" tabindex="0"><table class="ap-table" data-el="${field === 'table' ? `${id}-table` : id}"></table></div>`;
    return summary == null ? table : `<details class="ap-numbers" data-el="${id}-details" hidden><summary ${words(`summary-${i}`, summary)}</summary>${table}</details>`;
  });
  const writes = c.writes == null ? [] : [`<div class="ap-compare-writes" data-el="${c.panel}-writes" role="group" ${label('writes', c.writes)}></div>`];
  return `
    <figure class="ap-panel ap-wide" data-panel="${c.panel}" part="panel ${c.panel}" hidden>
      <canvas data-el="${c.panel}" role="img" ${label('chart', c.chart)}></canvas>
      <figcaption data-el="${c.panel}-summary"></figcaption>
      ${[...tables, ...writes].join('\n      ')}
      <div class="ap-panel-buttons"><button type="button" data-el="again-${c.panel}" ${words('again', c.again)}</button></div>
    </figure>`;
}

export const TEMPLATE = `
  <div class="ap-notice" data-el="notice" role="note" aria-live="polite" part="notice"></div>
  <form class="ap-controls" data-el="controls" part="controls">
    <div class="ap-depth" data-control="depth">
      <label><span data-i18n="control-depth"></span> <input type="range" data-el="depth" name="depth" min="${DEPTH.min}" max="${DEPTH.max}" step="${DEPTH.step}" value="${DEPTH.default}"></label>
      <output data-el="depth-value" aria-hidden="true">${DEPTH.default}</output>
    </div>
    <label class="ap-switch" data-control="residual">
      <input type="checkbox" role="switch" data-el="residual" checked> <span data-i18n="control-residual"></span>
    </label>
    <label class="ap-switch" data-control="norm">
      <input type="checkbox" role="switch" data-el="layernorm" checked> <span data-i18n="control-layernorm"></span>
    </label>
    <fieldset class="ap-placement" data-el="placement" data-control="placement">
      <legend data-i18n="control-placement"></legend>
    </fieldset>
    <label class="ap-task" data-control="task"><span data-i18n="control-task"></span> <select data-el="task" data-i18n-label="control-task"></select></label>
    <div class="ap-buttons" data-control="play">
      <button type="button" data-el="play" data-i18n="control-pause"></button>
      <button type="button" data-el="step" data-i18n="control-step"></button>
      <button type="button" data-el="reset" data-i18n="control-reset"></button>
    </div>
    <div class="ap-buttons" data-control="copy">
      <button type="button" data-el="copy" data-i18n="control-copy"></button>
      <input type="text" readonly data-el="link" data-i18n-label="control-link" hidden>
    </div>
    <div class="ap-compare" data-control="compare">
      <div class="ap-buttons">
        <button type="button" data-el="pin" data-i18n="control-pin"></button>
        ${COMPARISONS.map((c) => `<button type="button" data-el="run-${c.panel}" data-i18n-table="${c.messages.button}" data-en="${escape(c.button)}">${escape(c.button)}</button>`).join('\n        ')}
      </div>
      <ul class="ap-pins" data-el="pins" data-i18n-label="control-pins" hidden></ul>
    </div>
    <details class="ap-download" data-control="download" data-el="download">
      <summary data-i18n="control-download"></summary>
      <div class="ap-download-menu" role="group" data-i18n-label="download-group">
        <button type="button" data-download="report" data-i18n="download-report"></button>
        <button type="button" data-download="csv" data-i18n="download-csv"></button>
        <button type="button" data-download="weights" data-i18n="download-weights"></button>
        <label><span data-i18n="download-chart"></span> <select data-el="download-chart" data-i18n-label="download-chart-label"></select></label>
        <button type="button" data-download="svg" data-i18n="download-svg"></button>
        <button type="button" data-download="png" data-i18n="download-png"></button>
        <button type="button" data-el="weights-choose" data-i18n="download-load"></button>
        <input type="file" data-el="weights-file" accept=".safetensors,application/octet-stream" hidden>
      </div>
    </details>
    <details class="ap-more" data-control="more">
      <summary data-i18n="control-more"></summary>
      <div class="ap-more-grid">
        <label><span data-i18n="control-preset"></span> <select data-el="preset" data-i18n-label="control-preset"><option value="custom" disabled>custom</option></select></label>
      </div>
    </details>
  </form>
  <p class="ap-status" role="status" data-el="status" part="status" data-i18n="status-loading"></p>
  <p class="ap-caption" data-el="caption" part="caption"></p>
  <div class="ap-error" role="alert" data-el="error" part="error" hidden></div>
  <div class="ap-palette" data-el="palette" aria-hidden="true">
    <i class="ap-c-bg" data-colour="background"></i><i class="ap-c-fg" data-colour="text"></i><i class="ap-c-grid" data-colour="grid"></i><i class="ap-c-accent" data-colour="now"></i><i class="ap-c-alert" data-colour="alert"></i>
  </div>
  <div class="ap-panels" data-el="panels" part="panels">
    <figure class="ap-panel" data-panel="histogram" part="panel histogram">
      <canvas data-el="histogram" role="img" data-i18n-label="histogram-label"></canvas>
      <figcaption data-el="histogram-summary"></figcaption>
      <div class="ap-panel-buttons">
        <button type="button" data-el="rescale" data-i18n="histogram-fit"></button>
        <button type="button" data-el="reset-scale" data-i18n="histogram-reset"></button>
      </div>
    </figure>
    <figure class="ap-panel" data-panel="loss" part="panel loss">
      <canvas data-el="loss" role="img" data-i18n-label="loss-label"></canvas>
      <figcaption data-el="loss-summary"></figcaption>
    </figure>
    <figure class="ap-panel" data-panel="depth" part="panel depth">
      <canvas data-el="depthplot" role="img" data-i18n-label="depth-label"></canvas>
      <figcaption data-el="depth-summary"></figcaption>
      <label class="ap-layer-view"><span data-i18n="depth-per-layer"></span> <select data-param="layer_view" data-i18n-label="depth-per-layer"></select></label>
    </figure>
    <figure class="ap-panel" data-panel="readout" part="panel readout">
      <canvas data-el="readout" role="img" data-i18n-label="readout-label"></canvas>
      <figcaption data-el="readout-summary"></figcaption>
      <div class="ap-panel-buttons" data-el="lens-buttons"><button type="button" data-el="fit-lens" data-i18n="readout-fit-lens"></button></div>
    </figure>
    <figure class="ap-panel ap-wide ap-attention" data-panel="attention" part="panel attention">
      <canvas data-el="attention" role="img" data-i18n-label="attention-label"></canvas>
      <figcaption data-el="attention-summary"></figcaption>
      <label class="ap-attention-layer"><span data-i18n="attention-layer"></span> <select data-param="attention_layer" data-i18n-label="attention-layer"></select></label>
      <ul class="ap-heads" data-el="attention-heads" data-i18n-label="attention-heads"></ul>
    </figure>
    <section class="ap-panel ap-wide ap-writes" data-panel="writes" part="panel writes" data-i18n-label="writes-title" hidden>
      <p class="ap-writes-title" data-i18n="writes-title"></p>
      <p class="ap-writes-heading" data-el="writes-heading"></p>
      <pre class="ap-writes-text" data-el="writes-text"></pre>
      <form class="ap-prompt" data-el="prompt-form" data-text-only>
        <label><span data-i18n="writes-prompt"></span> <textarea data-el="prompt" rows="2" autocomplete="off" spellcheck="false" data-i18n-placeholder="writes-prompt-hint"></textarea></label>
        <label><span data-i18n="writes-characters"></span> <input type="number" data-el="prompt-chars" min="1" step="1" value="200"></label>
        <button type="submit" data-i18n="writes-write"></button>
        <button type="button" data-el="prompt-clear" data-i18n="writes-own-prompt"></button>
      </form>
      <p class="ap-said" data-el="prompt-said" aria-live="polite"></p>
      <div class="ap-compare-writes" data-el="pin-writes" role="group" data-i18n-label="writes-pins"></div>
      <label class="ap-temperature"><span data-i18n="writes-temperature"></span> <input type="number" data-param="temperature" data-i18n-label="writes-temperature" min="0" max="2" step="0.1"></label>
      <div class="ap-own-text" data-el="own-text" data-text-only role="group" data-i18n-label="text-title">
        <p class="ap-writes-title" data-i18n="text-title"></p>
        <p class="ap-text-words" data-el="text-words" aria-live="polite"></p>
        <div class="ap-panel-buttons">
          <button type="button" data-el="text-choose" data-i18n="text-choose"></button>
          <input type="file" data-el="text-file" accept=".txt,.md,.csv,.tsv,.py,.rs,.js,.json,.html,text/*" hidden>
          <button type="button" data-el="text-plays" data-i18n="text-plays"></button>
        </div>
        <details class="ap-paste"><summary data-i18n="text-paste"></summary>
          <textarea data-el="text-paste" rows="5" data-i18n-label="text-paste-label" spellcheck="false"></textarea>
          <button type="button" data-el="text-use" data-i18n="text-use"></button>
        </details>
        <p class="ap-hint" data-i18n="text-drop"></p>
      </div>
    </section>
    ${COMPARISONS.map(comparisonPanel).join('')}
  </div>`;

/** Shows a readable message in place of a dead widget. */
export function showError(root, message, say = null) {
  let box = root.querySelector('[data-el="error"]');
  if (!box) {
    // not mounted yet (the wasm did not load): the box alone
    box = Object.assign(document.createElement('div'), { className: 'ap-error' });
    box.setAttribute('role', 'alert');
    box.setAttribute('part', 'error');
    box.dataset.el = 'error';
    root.prepend(box);
  }
  const why = String(message).replace(/\.+$/, '');
  // in the widget's words once it has them; before its wasm loaded, or if the wasm is what
  // failed, English
  let said = null;
  try {
    said = say ? say('error-stopped', { why }) : null;
  } catch {
    said = null;
  }
  box.textContent = said ?? `The playground stopped: ${why}. Reload the page to try again.`;
  box.hidden = false;
  const status = root.querySelector('[data-el="status"]');
  if (status && (status.dataset.i18n === 'status-loading' || status.textContent === 'Loading…')) {
    status.removeAttribute('data-i18n');
    status.textContent = 'The playground could not start.';
  }
}

