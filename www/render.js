// Drawing a frame: the charts on their canvases (sized to the device's pixels, in the colours
// the widget's CSS resolves to) and every word beside them, all from the View's one frame.

import { pinListWriter, tableWriter } from './lists.js';

/** The panels, in the order of `View.texts()`'s summaries: each one's canvas, the View's draw
 *  call, what says it has something to draw, and what it shows: the live run (and the pins)
 *  or the other comparisons. */
const PANELS = [
  ['histogram', 'histogram', 'drawHistogram', null, 'live'],
  ['loss', 'loss', 'drawLoss', null, 'live'],
  ['depth', 'depthplot', 'drawDepth', null, 'live'],
  ['compare', 'compare', 'drawCompare', 'hasCompare', 'comparisons'],
  ['sweep', 'sweep', 'drawSweep', 'hasSweep', 'comparisons'],
  ['knockout', 'knockout', 'drawKnockout', 'hasKnockout', 'comparisons'],
];

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
  return (cells, columns) => {
    write(cells);
    details.hidden = cells.length === 0;
    if (cells.length === 0) filled = false;
    else if (!filled) {
      filled = true;
      details.open = cells.length / columns - 1 <= FOLD_ROWS;
    }
  };
}

/** A renderer for widget `w`; `onRemovePin(i)` is a reader's Remove on the pins' list. */
export function createRenderer(w, { onRemovePin }) {
  const { el } = w;
  const canvases = Object.fromEntries(PANELS.map(([name, canvas]) => [name, el(canvas)]));
  const dark = matchMedia('(prefers-color-scheme: dark)');
  // The charts' colours, as the browser resolves the widget's CSS (and so the host's --ap-*
  // theme): read again after a change (dark mode, resize) and at most once a second otherwise.
  const palette = { text: null, at: 0 };
  function colours(now) {
    if (palette.text === null || now - palette.at > 1000) {
      palette.text = [...el('palette').children].map((c) => getComputedStyle(c).color).join(';');
      palette.at = now;
    }
    return palette.text;
  }
  // All four's table and the pins' list, from the core's words (no numbers formatted here)
  const writeCompareTable = tableWriter(el('compare-table'), 5);
  // the sweep's and the knockout's numbers, folded away when long (the reader opens them)
  const writeSweepTable = foldedTable(el('sweep-details'), tableWriter(el('sweep-table'), 5));
  const writeKnockoutTable = foldedTable(el('knockout-details'), tableWriter(el('knockout-table'), 3));
  const writePins = pinListWriter(el('pins'), onRemovePin);

  /** "The model writes": the core's parts as spans; a wrong symbol is marked by colour and
   *  by a ✗ (CSS), and named for a screen reader. */
  let written = null;
  function writeWriting() {
    const { view } = w;
    const heading = view.writingHeading;
    if (el('writes-heading').textContent !== heading) el('writes-heading').textContent = heading;
    const parts = view.writingParts();
    const key = parts.join('\u0000');
    if (key === written) return;
    written = key;
    const out = el('writes-text');
    out.replaceChildren();
    for (let i = 0; i < parts.length; i += 2) {
      const [kind, text] = [parts[i], parts[i + 1]];
      if (kind === 'wrote') out.append(text);
      else {
        const span = document.createElement(kind === 'wrong' ? 'mark' : 'span');
        span.className = `ap-${kind}`;
        span.textContent = text;
        if (kind === 'wrong') span.setAttribute('aria-label', `${text} (wrong)`);
        out.append(span);
      }
    }
  }

  /** Texts beside the live one, from the View's pairs of strings (a name, then its text):
   *  each as a figure, captioned "… writes", in the element `name`. */
  const shownPairs = {};
  function writePairs(name, parts) {
    const key = parts.join('\u0000');
    if (key === shownPairs[name]) return;
    shownPairs[name] = key;
    const out = el(name);
    out.replaceChildren();
    for (let i = 0; i < parts.length; i += 2) {
      const figure = document.createElement('figure');
      const caption = document.createElement('figcaption');
      caption.textContent = `${parts[i]} writes`;
      const text = document.createElement('pre');
      text.className = 'ap-writes-text';
      text.textContent = parts[i + 1];
      figure.append(caption, text);
      out.append(figure);
    }
  }

  return {
    dark,
    /** Colours are read again at the next draw. */
    forgetColours() {
      palette.text = null;
    },
    /** Draws the panels that `stale` names: the live run's after a frame or a pin's report,
     *  the comparisons' after theirs. */
    draw(now, stale) {
      const { view } = w;
      const [isDark, c] = [w.theme?.dark ?? dark.matches, colours(now)];
      for (const [name, , draw, has, shows] of PANELS) {
        const canvas = canvases[name];
        const due = shows === 'live' ? stale.live : stale.comparisons;
        if (!due || (has && !view[has]) || canvas.closest('[hidden]')) continue;
        view[draw](canvas, sizeCanvas(canvas), isDark, c);
      }
    },
    /** Every word on screen, from the same frame as the charts. */
    write() {
      const { view } = w;
      const [status, caption, ...summaries] = view.texts();
      el('status').textContent = status;
      el('caption').textContent = caption;
      for (const [i, [name]] of PANELS.entries()) {
        const text = summaries[i];
        if (el(`${name}-summary`).textContent === text) continue;
        el(`${name}-summary`).textContent = text;
        canvases[name].setAttribute('aria-label', text);
      }
      writeCompareTable(view.compareTable());
      writeSweepTable(view.sweepTable(), 5);
      writeKnockoutTable(view.knockoutTable(), 3);
      writePins(view.pinLabels());
      writeWriting();
      writePairs('compare-writes', view.compareWritings());
      writePairs('pin-writes', view.pinWritings());
    },
  };
}
