// The controls, bound to the parameter table's schema: the More panel is built from it, every
// control shows the settings, and every reader's change goes to `set` by its parameter's name.

import { tableWords } from './language.js';
import { PARAMS, PRESETS } from './schema.js';
import { COMPARISON_PANELS, STARTS } from './template.js';

/** The parameters with a control of their own (the top bar's, a panel's menu): the rest are More's. */
const OWN_CONTROLS = PARAMS.filter((p) => p.control === 'own').map((p) => p.name);
let radioGroups = 0;

/** Choice `word` of parameter `p` as a menu's option, its label the table's (translated). */
const option = (p, word, i) => tableWords(new Option(p.labels[i], word), p.messages[i], p.labels[i]);

/** `element`'s tooltip: parameter `p`'s help (translated). */
const help = (element, p) => tableWords(element, p.helpMessage, p.help, { title: true });

/** One parameter's control under More: a menu for a choice, a number field otherwise. */
function paramControl(p) {
  const label = document.createElement('label');
  help(label, p);
  let input;
  if (p.kind === 'choice') {
    input = document.createElement('select');
    p.choices.forEach((word, i) => input.append(option(p, word, i)));
  } else if (p.kind === 'text') {
    // a text's id (plays, or a reader's text by its hash): words, not a number
    input = document.createElement('input');
    input.type = 'text';
    input.spellcheck = false;
  } else {
    input = document.createElement('input');
    input.type = 'number';
    input.min = String(p.min);
    if (p.kind !== 'seed') input.max = String(p.max);
    input.step = p.kind === 'float' ? 'any' : String(p.step ?? 1);
  }
  input.dataset.param = p.name;
  // the label wraps the control, whose value would otherwise join its accessible name
  tableWords(input, p.message, p.label, { label: true });
  label.append(tableWords(document.createElement('span'), p.message, p.label), ' ', input);
  return label;
}

/** Fills the More panel and the preset menu from the schema; returns the parameter inputs. */
export function buildMore(root) {
  const preset = root.querySelector('[data-el="preset"]');
  for (const p of PRESETS) {
    const option = new Option(p.name, p.name);
    tableWords(option, p.message, p.help, { title: true });
    preset.append(option);
  }
  const task = PARAMS.find((p) => p.name === 'task');
  task.choices.forEach((word, i) => root.querySelector('[data-el="task"]').append(option(task, word, i)));
  help(root.querySelector('[data-el="task"]'), task);
  const grid = root.querySelector('.ap-more-grid');
  for (const p of PARAMS) if (!OWN_CONTROLS.includes(p.name)) grid.append(paramControl(p));
  // a choice with a menu of its own in a panel (the per-layer view): its options from the table
  for (const select of root.querySelectorAll('select[data-param]')) {
    const p = PARAMS.find((q) => q.name === select.dataset.param);
    if (p?.kind !== 'choice' || select.options.length) continue;
    p.choices.forEach((word, i) => select.append(option(p, word, i)));
    help(select, p);
  }
  // the placements the table allows, one radio each (the norm's choices but "off")
  const norm = PARAMS.find((p) => p.name === 'norm');
  const group = `ap-placement-${++radioGroups}`;
  const fieldset = root.querySelector('[data-el="placement"]');
  help(fieldset, norm);
  const radios = norm.choices
    .map((word, i) => [word, norm.labels[i]])
    .filter(([word]) => word !== 'off')
    .map(([word, english]) => {
      const label = document.createElement('label');
      const radio = Object.assign(document.createElement('input'), { type: 'radio', name: group, value: word, checked: word === 'pre' });
      label.append(radio, ' ', tableWords(document.createElement('span'), norm.messages[norm.choices.indexOf(word)], english));
      fieldset.append(label);
      return radio;
    });
  return { params: [...root.querySelectorAll('[data-param]')], radios };
}

/**
 * A `controls` or `panels` list as its attribute reads: a Set of the names it gives (in any
 * case), or null (all, or the default panels) if it gives none; unknown names go to
 * `ignored({ what, names, allowed, fallback })` (`listNotice` words them).
 */
export function listOf(what, text, allowed, ignored) {
  if (text == null || String(text).trim() === '') return null;
  const names = String(text).toLowerCase().split(/[\s,]+/).filter(Boolean);
  const known = names.filter((n) => allowed.includes(n));
  const unknown = names.filter((n) => !allowed.includes(n));
  if (unknown.length) {
    const quoted = unknown.slice(0, 4).map((n) => `"${n.slice(0, 30)}"`).join(', ') + (unknown.length > 4 ? ', …' : '');
    ignored({ what, names: quoted, allowed: allowed.join(', '), fallback: known.length ? 'no' : 'yes' });
  }
  return known.length ? new Set(known) : null;
}

/** The notice for names a `controls` or `panels` list ignored (`listOf`), in `say`'s words. */
export function listNotice(say, ignored) {
  return say('notice-list', ignored);
}

/** Every control shows the widget's settings (after a change, a bad value, on load). Returns
 *  whether the task is a sequence task ("The model writes" then has something to show), for
 *  playground.js, which owns the widget's state. */
export function showSettings(w) {
  const { el, controls, state } = w;
  const { settings } = w.parts;
  if (!settings) return state.sequenceTask;
  const depth = settings.get('depth');
  el('depth').value = depth;
  el('depth').setAttribute('aria-valuetext', w.sayCount('status-layers', depth));
  el('depth-value').textContent = depth;
  el('residual').checked = settings.get('residual') === 'on';
  const norm = settings.get('norm');
  el('layernorm').checked = norm !== 'off';
  el('placement').hidden = norm === 'off' || (state.shown.controls != null && !state.shown.controls.has('placement'));
  if (norm !== 'off') for (const r of controls.radios) r.checked = r.value === norm;
  for (const input of controls.params) input.value = settings.get(input.dataset.param);
  el('task').value = settings.get('task');
  el('preset').value = settings.get('preset');
  el('play').textContent = state.playing ? w.say('control-pause') : w.say('control-play');
  return settings.sequenceTask;
}

/** The reader's changes: `set(name, value)` (the Task menu: `chooseTask(task)`, which applies
 *  the task's defaults), then `emit` the element's input and change events. */
export function bindControls(w, { set, chooseTask, emit }) {
  const { el, controls } = w;
  const commit = (name, value) => {
    set(name, value);
    emit('input');
    emit('change');
  };
  el('depth').addEventListener('input', (e) => {
    set('depth', e.target.value);
    emit('input');
  });
  el('depth').addEventListener('change', () => emit('change'));
  // Page Up/Down move by ten layers (a browser's own step is a tenth of the range, 9.5, rounded)
  el('depth').addEventListener('keydown', (e) => {
    const by = { PageUp: 10, PageDown: -10 }[e.key];
    if (!by) return;
    e.preventDefault();
    const slider = e.target;
    const next = Math.min(Number(slider.max), Math.max(Number(slider.min), Number(slider.value) + by));
    if (String(next) === slider.value) return;
    slider.value = String(next);
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    slider.dispatchEvent(new Event('change', { bubbles: true }));
  });
  el('residual').addEventListener('change', (e) => commit('residual', e.target.checked ? 'on' : 'off'));
  el('layernorm').addEventListener('change', (e) => {
    const placement = controls.radios.find((r) => r.checked)?.value ?? 'pre';
    commit('norm', e.target.checked ? placement : 'off');
  });
  for (const r of controls.radios) r.addEventListener('change', () => commit('norm', r.value));
  el('preset').addEventListener('change', (e) => commit('preset', e.target.value));
  el('task').addEventListener('change', (e) => {
    chooseTask(e.target.value);
    emit('input');
    emit('change');
  });
  for (const input of controls.params) input.addEventListener('change', () => commit(input.dataset.param, input.value));
}

/** The buttons: each calls the controller, as a host's script would. */
export function wireButtons(w, controller) {
  const { el } = w;
  el('pin').addEventListener('click', () => controller.pin());
  el('fit-lens').addEventListener('click', () => controller.tunedLens());
  for (const name of COMPARISON_PANELS) {
    el(`run-${name}`).addEventListener('click', () => controller[STARTS[name]]());
    el(`again-${name}`).addEventListener('click', () => controller[STARTS[name]]());
  }
  el('play').addEventListener('click', () => (controller.playing ? controller.pause() : controller.play()));
  el('step').addEventListener('click', () => controller.step());
  el('reset').addEventListener('click', () => controller.reset());
  el('rescale').addEventListener('click', () => controller.fitAxis(true));
  el('reset-scale').addEventListener('click', () => controller.fitAxis(false));
  el('copy').addEventListener('click', async () => {
    const link = el('link');
    link.value = controller.link();
    link.hidden = false;
    link.select();
    try {
      await navigator.clipboard.writeText(link.value);
      el('copy').textContent = w.say('control-copied');
    } catch {
      el('copy').textContent = w.say('control-copy-below');
    }
  });
}
