// Lesson steps without script: a button in the prose drives a playground on the page, and the
// element's own module handles it, so that the lesson needs no script of its own (and runs
// under a Content-Security-Policy without 'unsafe-inline'):
//
//   <button type="button" data-ablation-playground="p1" data-set="norm=pre residual=on"
//           data-call="play">LayerNorm on</button>
//
// `data-ablation-playground` names the playground by its id; `data-set` holds attributes as
// name=value pairs, set in order (a preset first, as on the element, then the others adjust
// it); `data-call` a method of the element (play, pause, step, reset, pin, compare, sweep,
// depthWidth, knockout), called after. Any element with the attribute works, but a <button>
// is the one a keyboard reaches and operates. The playground's status line (role="status")
// announces the new state. A step that names no playground, or a method it does not have,
// does nothing and says so in one console warning.

/** The attribute that makes an element a lesson step: the id of the playground it drives. */
export const STEP = 'data-ablation-playground';
const CALLS = new Set(['play', 'pause', 'step', 'reset', 'pin', 'compare', 'sweep', 'depthWidth', 'knockout']);
const listening = new WeakSet();

/** Handles the lesson steps of `doc` from now on (once per document). */
export function listenForSteps(doc = globalThis.document) {
  if (!doc || listening.has(doc)) return;
  listening.add(doc);
  doc.addEventListener('click', (e) => {
    const step = e.target instanceof Element ? e.target.closest(`[${STEP}]`) : null;
    if (step) run(doc, step);
  });
}

function run(doc, step) {
  const id = step.getAttribute(STEP);
  const target = doc.getElementById(id);
  if (target?.localName !== 'ablation-playground') {
    console.warn(`ablation-playground: ignored a lesson step: no <ablation-playground id="${id}"> on the page`);
    return;
  }
  step.setAttribute('aria-controls', id);
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
