// Drawing a frame: the charts on their canvases (sized to the device's pixels, in the colours
// the widget's CSS resolves to) and every word beside them, all from the View's one frame.

import { pinListWriter, tableWriter } from './lists.js';
import { COMPARISONS } from './schema.js';

/** How often at most the attention maps are drawn while training (a reader follows a heatmap
 *  at a few pictures a second; drawing it at every frame would take the time from training). */
const ATTENTION_EVERY_MS = 250;
/** A frame draws panels for at most about this long (the first always); the rest are drawn at
 *  the next frame. */
const DRAW_BUDGET_MS = 10;

function sizeCanvas(canvas) {
  const scale = devicePixelRatio || 1;
  const w = Math.max(1, Math.round(canvas.clientWidth * scale));
  const h = Math.max(1, Math.round(canvas.clientHeight * scale));
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  return scale;
}

/** Fills a table inside `details`, which is hidden while the table is empty, and open at
 *  first only while the table is short (at most FOLD_ROWS rows); then the reader decides. */
const FOLD_ROWS = 12;
function foldedTable(details, write) {
  let filled = false;
  return (rows) => {
    write(rows);
    details.hidden = rows.length === 0;
    if (rows.length === 0) filled = false;
    else if (!filled) {
      filled = true;
      details.open = rows.length - 1 <= FOLD_ROWS;
    }
  };
}

/** A renderer for widget `w`; `onRemovePin(i)` is a reader's Remove on the pins' list. */
export function createRenderer(w, { onRemovePin }) {
  const { el, root } = w;
  const panelOf = (name) => root.querySelector(`[data-panel="${name}"]`);
  const canvasOf = (name) => panelOf(name)?.querySelector('canvas');
  const dark = matchMedia('(prefers-color-scheme: dark)');
  // The charts' colours, as the browser resolves the widget's CSS (and so the host's --ap-*
  // theme), each named by its swatch's data-colour (the core's Theme::SLOTS): read again after
  // a change (dark mode, resize) and at most once a second otherwise.
  const palette = { pairs: null, at: 0 };
  function colours(now) {
    if (palette.pairs === null || now - palette.at > 1000) {
      palette.pairs = [...el('palette').children].map((c) => [c.dataset.colour, getComputedStyle(c).color]);
      palette.at = now;
    }
    return palette.pairs;
  }
  // Each comparison's tables, from the core's words (no numbers formatted here): every field
  // of its panel's record that is rows of cells (the header first, as wide as the core makes
  // them) goes into the markup's table `PANEL-table` (the field `table`) or `PANEL-FIELD`,
  // folded away when long in its `…-details` where the markup has one (the reader opens it).
  const tables = new Map();
  function tableFor(panel, field) {
    const id = field === 'table' ? panel : `${panel}-${field}`;
    const table = el(field === 'table' ? `${id}-table` : id);
    const details = el(`${id}-details`);
    if (!table) return () => {};
    return details ? foldedTable(details, tableWriter(table)) : tableWriter(table);
  }
  function writeTables(panels) {
    for (const { panel } of COMPARISONS) {
      for (const [field, rows] of Object.entries(panels[panel])) {
        if (!Array.isArray(rows)) continue;
        const key = `${panel} ${field}`;
        if (!tables.has(key)) tables.set(key, tableFor(panel, field));
        tables.get(key)(rows);
      }
    }
  }
  const writePins = pinListWriter(el('pins'), onRemovePin, (id, args) => w.say(id, args));
  /** "The model writes": the core's parts as spans; a wrong symbol is marked by colour and
   *  by a ✗ (CSS), and named for a screen reader. */
  let written = null;
  function writeWriting({ heading, parts }) {
    if (el('writes-heading').textContent !== heading) el('writes-heading').textContent = heading;
    // (with the language: a wrong symbol's name is in its words)
    const key = [w.say('writes-wrong', { text: '' }), ...parts.flat()].join('\u0000');
    if (key === written) return;
    written = key;
    const out = el('writes-text');
    out.replaceChildren();
    for (const [kind, text] of parts) {
      if (kind === 'wrote') out.append(text);
      else {
        const span = document.createElement(kind === 'wrong' ? 'mark' : 'span');
        span.className = `ap-${kind}`;
        span.textContent = text;
        if (kind === 'wrong') span.setAttribute('aria-label', w.say('writes-wrong', { text }));
        out.append(span);
      }
    }
  }

  /** Texts beside the live one, from the core's pairs (a name and its text): each as a
   *  figure, captioned "… writes", in the element `name`. */
  const shownPairs = {};
  function writePairs(name, pairs) {
    const key = [w.say('writes-label', { label: '' }), ...pairs.flat()].join('\u0000');
    if (key === shownPairs[name]) return;
    shownPairs[name] = key;
    const out = el(name);
    out.replaceChildren();
    for (const [label, written] of pairs) {
      const figure = document.createElement('figure');
      const caption = document.createElement('figcaption');
      caption.textContent = w.say('writes-label', { label });
      const text = document.createElement('pre');
      text.className = 'ap-writes-text';
      text.textContent = written;
      figure.append(caption, text);
      out.append(figure);
    }
  }

  /** The attention panel's layer menu: the stack's attention sublayers, the shown one chosen. */
  let layersShown = '';
  function writeLayerMenu({ layers = [], layer = null, layer_names: names = [] }) {
    const select = panelOf('attention').querySelector('select');
    const key = `${layers.join(',')}|${names.join(',')}`;
    if (key !== layersShown) {
      layersShown = key;
      // an encoder-decoder's are named ("decoder layer 1, cross-attention"), a decoder's numbered
      select.replaceChildren(...layers.map((l, i) => new Option(names[i] && names[i] !== `layer ${l}` ? `${l}: ${names[i]}` : `${l}`, `${l}`)));
    }
    select.disabled = layers.length === 0;
    if (layer !== null && select.value !== `${layer}`) select.value = `${layer}`;
  }

  /** One sentence per head, as a list (the canvas's name is the panel's summary). */
  let headsShown = '';
  function writeHeads(heads = []) {
    const key = heads.join('\u0000');
    if (key === headsShown) return;
    headsShown = key;
    el('attention-heads').replaceChildren(...heads.map((h) => Object.assign(document.createElement('li'), { textContent: h })));
  }

  // The attention maps are drawn at most every ATTENTION_EVERY_MS: one drawing waits for the
  // rest of that time, so the last state always shows.
  const attention = { at: -Infinity, timer: 0 };
  /** Every panel's record of the frame drawn last (View.panels()): what `write` says. */
  let record = null;
  /** The panels a frame's budget left to the next. */
  const owed = new Set();
  function drawPanel(name, isDark, c) {
    const canvas = canvasOf(name);
    if (!canvas || canvas.closest('[hidden]')) return;
    w.parts.view.draw(name, canvas, sizeCanvas(canvas), isDark, c);
  }

  return {
    dark,
    /** Panel `name`'s canvas (the Download menu's PNG). */
    canvasOf,
    /** Colours are read again at the next draw. */
    forgetColours() {
      palette.pairs = null;
      attention.at = -Infinity;
    },
    /** Lets the canvases' pixels go (a widget long away from the view); the next `draw` of
     *  every panel sizes them again. Their CSS keeps their layout. */
    release() {
      for (const canvas of root.querySelectorAll('canvas')) {
        canvas.width = 0;
        canvas.height = 0;
      }
    },
    /** Draws the panels that `stale` names: the live run's after a frame or a pin's report,
     *  the comparisons' after theirs, and those a frame before left owed. Once a frame's
     *  drawing has taken DRAW_BUDGET_MS, the rest wait for the next frame (a panel's first
     *  drawing, or many large ones, would otherwise hold the page for a tenth of a second).
     *  Returns whether some are owed. */
    draw(now, stale) {
      const { view } = w.parts;
      const [isDark, c] = [w.parts.theme?.dark ?? dark.matches, colours(now)];
      // every panel's record, read once a frame: the drawing and the words that follow it
      record = JSON.parse(view.panels());
      const { panels } = record;
      const due = [...owed, ...Object.keys(panels).filter((name) => !owed.has(name))].filter((name) => {
        const { shows, ready } = panels[name] ?? {};
        return ready && (owed.has(name) || (shows === 'live' ? stale.live : stale.comparisons));
      });
      owed.clear();
      const start = performance.now();
      for (const [i, name] of due.entries()) {
        if (i > 0 && performance.now() - start > DRAW_BUDGET_MS) {
          due.slice(i).forEach((n) => owed.add(n));
          break;
        }
        if (name !== 'attention') drawPanel(name, isDark, c);
        else if (now - attention.at >= ATTENTION_EVERY_MS) {
          attention.at = now;
          drawPanel(name, isDark, c);
        } else if (!attention.timer) {
          attention.timer = setTimeout(() => {
            attention.timer = 0;
            if (w.state.stopped) return;
            attention.at = performance.now();
            drawPanel('attention', w.parts.theme?.dark ?? dark.matches, colours(attention.at));
          }, ATTENTION_EVERY_MS - (now - attention.at));
        }
      }
      return owed.size > 0;
    },
    /** Panels are owed a drawing (`draw` ran out of its budget). */
    get owes() {
      return owed.size > 0;
    },
    /** Every word on screen, from the same frame as the charts. */
    write() {
      record ??= JSON.parse(w.parts.view.panels());
      el('status').textContent = record.status;
      el('status').removeAttribute('data-i18n'); // (its words are the frame's from now on)
      el('caption').textContent = record.caption;
      for (const [name, { summary }] of Object.entries(record.panels)) {
        const out = el(`${name}-summary`);
        if (!out || out.textContent === summary) continue;
        out.textContent = summary;
        canvasOf(name)?.setAttribute('aria-label', summary);
      }
      const heads = record.panels.attention;
      writeTables(record.panels);
      writeLayerMenu(heads);
      writeHeads(heads.heads);
      writePins(record.pins);
      writeWriting(record.writes);
      // what each comparison's runs wrote, where its panel has room for it (`PANEL-writes`)
      for (const { panel, field } of COMPARISONS) if (el(`${panel}-writes`)) writePairs(`${panel}-writes`, record.writes[field]);
      writePairs('pin-writes', record.writes.pins);
    },
  };
}
