// Lesson steps without script: a button in the prose drives a playground on the page, and the
// element's own module handles it, so that the lesson needs no script of its own (and runs
// under a Content-Security-Policy without 'unsafe-inline'):
//
//   <button type="button" data-ablation-playground="p1" data-set="norm=pre residual=on"
//           data-call="play">LayerNorm on</button>
//
// `data-ablation-playground` names the playground by its id; `data-set` holds attributes as
// name=value pairs, set in order (a preset first, as on the element, then the others adjust
// it); `data-call` a method of the element (play, pause, step, reset, pin, tunedLens, compare, sweep,
// depthWidth, knockout), called after. Any element with the attribute works, but a <button>
// is the one a keyboard reaches and operates. The playground's status line (role="status")
// announces the new state. A step that names no playground, or a method it does not have,
// does nothing and says so in one console warning.
//
// Optionally, a step applies as the reader scrolls: with data-when="visible" (on a paragraph,
// say) it applies each time it comes into the upper part of the viewport, so scrolling back
// up brings an earlier step's state back; a click does not apply it. A lesson without the
// attribute keeps steps that wait for their button.

import { COMPARISONS } from './schema.js';

/** The attribute that makes an element a lesson step: the id of the playground it drives. */
export const STEP = 'data-ablation-playground';
/** data-when's value for a step that applies when scrolled into view. */
const VISIBLE = 'visible';
const CALLS = new Set(['play', 'pause', 'step', 'reset', 'pin', 'tunedLens', ...COMPARISONS.map((c) => c.method)]);
const listening = new WeakSet();

/** Handles the lesson steps of `doc` from now on (once per document). */
export function listenForSteps(doc = globalThis.document) {
  if (!doc || listening.has(doc)) return;
  listening.add(doc);
  doc.addEventListener('click', (e) => {
    // (a step inside a host's shadow root: the click's path, not its retargeted target)
    const step = e.composedPath().find((n) => n instanceof Element && n.hasAttribute(STEP)) ?? null;
    if (step && step.getAttribute('data-when') !== VISIBLE) run(doc, step);
  });
  watchVisibleSteps(doc);
}

/** Applies each data-when="visible" step of `doc`, now and added later (MkDocs' instant
 *  navigation swaps pages in), whenever it enters the upper 60% of the viewport. */
function watchVisibleSteps(doc) {
  const view = doc.defaultView;
  if (!view?.IntersectionObserver || !view.MutationObserver) return;
  const watched = new WeakSet();
  const seen = new view.IntersectionObserver(
    (entries) => {
      for (const e of entries) if (e.isIntersecting) run(doc, e.target);
    },
    { rootMargin: '0px 0px -40% 0px' },
  );
  const selector = `[${STEP}][data-when="${VISIBLE}"]`;
  /** Watches the steps in `root` (and `root` itself, if it is one). */
  const scan = (root) => {
    const steps = [...root.querySelectorAll(selector)];
    if (root.matches?.(selector)) steps.push(root);
    for (const step of steps) {
      if (watched.has(step)) continue;
      watched.add(step);
      seen.observe(step);
    }
  };
  scan(doc);
  // only what was added is looked through, not the whole page at every change of a busy host
  new view.MutationObserver((records) => {
    for (const r of records) for (const node of r.addedNodes) if (node.nodeType === 1) scan(node);
  }).observe(doc.documentElement, { childList: true, subtree: true });
}

/** Every <ablation-playground> connected to a document, the ones in shadow roots too (the
 *  element adds and removes itself): a host that renders widgets in a shadow root of its own
 *  (marimo, MyST's theme) hides them from getElementById. */
export const PLAYGROUNDS = new Set();

/** The playground `id` names in `doc`: in the document, else in a shadow root. */
function find(doc, id) {
  const found = doc.getElementById(id);
  if (found?.localName === 'ablation-playground') return found;
  for (const p of PLAYGROUNDS) if (p.id === id && p.ownerDocument === doc && p.isConnected) return p;
  return found;
}

function run(doc, step) {
  const id = step.getAttribute(STEP);
  const target = find(doc, id);
  if (target?.localName !== 'ablation-playground') {
    console.warn(`ablation-playground: ignored a lesson step: no <ablation-playground id="${id}"> on the page`);
    return;
  }
  // (a playground in a shadow root is not in the step's tree: no reference to it)
  if (target.getRootNode() === step.getRootNode()) step.setAttribute('aria-controls', id);
  for (const pair of (step.getAttribute('data-set') ?? '').split(/\s+/).filter(Boolean)) {
    const at = pair.indexOf('=');
    if (at < 1) {
      console.warn(`ablation-playground: ignored "${pair}" in a lesson step's data-set: pairs read name=value`);
      continue;
    }
    target.setAttribute(pair.slice(0, at), pair.slice(at + 1));
  }
  const call = step.getAttribute('data-call');
  if (call && CALLS.has(call)) target[call]();
  else if (call) console.warn(`ablation-playground: ignored a lesson step's data-call="${call}": not one of ${[...CALLS].join(', ')}`);
}
