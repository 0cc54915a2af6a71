// What a reader brings and takes away: a text to train on (a file chosen or dropped, or pasted,
// or a host's text-src), a weights file, a prompt for the stack to continue, and the downloads
// (the run, its loss history, its weights, each chart). Each reaches the widget's state through
// its `dispatch` and its settings through `apply`/`set` (playground.js); the prompt's promise is
// this module's own. No maths here: the live worker checks a text, the core reads a file.

import { CHARTS, TEXT_LIMITS } from './schema.js';
import { fileBytes, keepText, pastedBytes, textBytes, urlBytes } from './texts.js';

/** What the text panel says of the shipped text. */

/** A reader's text named by its id (`<sha256>.<chars>.<vocab>`), in words. */
function awaitingWords(w, id) {
  const [hash, chars] = id.split('.');
  return w.say('notice-awaited-text', { chars: Number(chars).toLocaleString(w.root.lang || 'en'), hash: hash.slice(0, 12) });
}

/**
 * The reader's texts, weights, prompt and downloads for widget `w` (its markup, state and
 * parts): `dispatch(message)` changes its state, `apply(change)` and `set(name, value)` its
 * settings, `created` resolves once it has started, `drawn()` once a frame answers the newest
 * state. Binds the controls; returns the functions the widget and its controller call.
 */
export function createReaderIo(w, { dispatch, apply, set, created, drawn }) {
  const { el, root, notice, parts, state: st, bindings } = w;
  const onParam = w.options.onParam ?? (() => {});
  /** The prompt the reader last asked to continue, until its continuation is announced. */
  let promptAsked = null;

  /** The sentence about the text the run learns (a reader's, as its worker described it). */
  function showText() {
    const id = parts.settings.get('text_id');
    const facts = st.textWords?.id === id ? w.textWords(st.textWords.facts) : '';
    const words = id === 'plays' ? w.say('text-plays-words') : facts || w.say('text-own-words', { hash: id.slice(0, 12) });
    const waiting = st.awaitingText ? w.say('text-waiting', { text: awaitingWords(w, st.awaitingText) }) : '';
    if (el('text-words').textContent !== words + waiting) el('text-words').textContent = words + waiting;
    el('text-plays').hidden = id === 'plays';
  }

  /** Trains on a reader's text (its bytes, from where `source(say)` words: "the file x.txt"): the live run's
   *  worker checks it and holds it; then the text task on it. Refused in words, changing
   *  nothing, if the worker finds it unusable or a link waits for another text. */
  async function useText(bytes, source) {
    if (!parts.settings) await created;
    await w.wordsReady; // (what it says, in the widget's language: a link's text-src comes early)
    if (st.stopped) return;
    let checked;
    try {
      checked = await parts.driver.checkText(bytes);
    } catch (e) {
      notice([w.say('notice-not-trained', { source: source(w.say), why: w.reason(e.message ?? e) })]);
      return;
    }
    if (st.awaitingText && checked.id !== st.awaitingText) {
      const awaited = { awaited: st.awaitingText.slice(0, 12), text: awaitingWords(w, st.awaitingText) };
      notice([w.say('notice-other-text', { source: source(w.say), hash: checked.id.slice(0, 12), ...awaited })]);
      return;
    }
    keepText(checked.id, bytes);
    dispatch({ kind: 'text-checked', words: checked });
    apply((s) => [...(s.get('task') === 'text' ? [] : s.chooseTask('text')), ...s.set('text_id', checked.id)]);
    showText();
  }

  /** Starts the run again from a weights file (from where `source(say)` words: "the file w.safetensors"): its
   *  configuration, then its weights, measured at step 0 and paused; Play trains on from
   *  them. Refused in words, changing nothing, if the file is not one of ours, is damaged, or
   *  trained on a reader's text this page does not have. */
  async function loadWeights(bytes, source) {
    if (!parts.settings) await created;
    await w.wordsReady;
    if (st.stopped) return;
    let textId;
    try {
      textId = bindings.weightsTextId(bytes);
    } catch (e) {
      notice([w.say('notice-not-loaded', { source: source(w.say), why: w.reason(e.message ?? e) })]);
      return;
    }
    if (textId !== 'plays' && !textBytes(textId)) {
      notice([w.say('notice-weights-need-text', { source: source(w.say), text: awaitingWords(w, textId) })]);
      return;
    }
    dispatch({ kind: 'weights-loaded' });
    apply((s) => s.adoptWeights(bytes));
    try {
      await parts.driver.loadWeights(bytes);
    } catch (e) {
      notice([w.say('notice-not-loaded', { source: source(w.say), why: w.reason(e.message ?? e) })]);
      return;
    }
    notice([w.say('notice-loaded', { source: source(w.say) })]);
    await drawn();
  }

  /** Loads the weights file at `url` (`weights-src`). */
  function weightsFrom(url) {
    return urlBytes(url, 'weights').then(
      (bytes) => loadWeights(bytes, (say) => say('source-weights-at', { url })),
      (e) => w.wordsReady.then(() => notice([w.say('notice-not-loaded', { source: 'weights-src', why: w.reason(e.message ?? e) })])),
    );
  }

  /** Trains on the text at `url` (`text-src`), fetched on this thread, checked in the worker. */
  function textFrom(url) {
    return urlBytes(url).then(
      (bytes) => useText(bytes, (say) => say('source-text-at', { url })),
      (e) => w.wordsReady.then(() => notice([w.say('notice-not-trained', { source: 'text-src', why: w.reason(e.message ?? e) })])),
    );
  }

  /** Back to the three plays (and no longer waiting for a link's text). */
  function usePlays() {
    dispatch({ kind: 'plays' });
    set('text_id', 'plays');
    if (parts.settings) showText();
  }

  /** The stack continues `text` by `chars` characters from now on (null: the text's own
   *  prompt); resolves with the continuation once it is written (a prompt asked again, or
   *  none, resolves the one before with null). */
  function setPrompt(text, chars) {
    if (!parts.settings || st.stopped) return Promise.resolve(null);
    promptAsked?.resolve(null);
    const done = new Promise((resolve) => {
      promptAsked = text == null ? null : { text, chars, resolve };
    });
    el('prompt-said').textContent = '';
    dispatch({ kind: 'prompt', prompt: text == null ? null : { text, chars } });
    return text == null ? Promise.resolve(null) : done;
  }

  /** Saves `what`: 'report' (JSON), 'csv' (the loss history), 'weights' (safetensors), or
   *  chart `chart` as 'svg' or 'png'. */
  async function download(what, chart) {
    if (!parts.view?.hasFrame) throw new Error(w.say('download-nothing'));
    const stem = `ablation-playground-step${parts.view.step}`;
    if (what === 'weights') saveFile(root, `${stem}.safetensors`, await parts.driver.exportRun('weights'), 'application/octet-stream');
    else if (what === 'report') {
      // the run in ablate's report's schema, and the page's comparisons as .value has them
      const report = JSON.parse(await parts.driver.exportRun('report'));
      report.comparisons = JSON.parse(parts.view.comparisonsJson());
      saveFile(root, `${stem}.json`, JSON.stringify(report, null, 1), 'application/json');
    } else if (what === 'csv') saveFile(root, `${stem}-loss.csv`, parts.view.lossCsv(), 'text/csv');
    else if (!chart) throw new Error(w.say('download-no-chart'));
    else if (what === 'svg') saveFile(root, `${stem}-${chart}.svg`, parts.view.svg(chart, parts.theme?.dark ?? parts.renderer.dark.matches), 'image/svg+xml');
    else if (what === 'png') {
      const canvas = parts.renderer.canvasOf(chart);
      const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
      if (!blob) throw new Error(w.say('download-no-png', { chart }));
      saveFile(root, `${stem}-${chart}.png`, blob);
    }
  }

  /** Waits for the reader's text `id` (refusing another) while the plays train, saying that
   *  `whose` run (`link`: "This link's run", or `run`) trained on it. */
  function awaitText(id, whose) {
    dispatch({ kind: 'await-text', id });
    onParam('text_id', 'plays');
    notice([w.say('notice-awaiting', { whose, text: awaitingWords(w, id) })]);
    if (st.textTask) showText();
  }

  /** Says once, politely, what the stack wrote after the reader's prompt. */
  function announcePrompt() {
    if (promptAsked == null) return;
    const [prompt, continuation, outside] = parts.view.written() ?? [];
    // said once it is whole (the frames show it as it is written)
    if (continuation === undefined || [...continuation].length < promptAsked.chars) return;
    if (prompt !== promptAsked.text && !outside) return;
    promptAsked.resolve(continuation);
    promptAsked = null;
    el('prompt-said').textContent = outside
      ? w.say('prompt-said-outside', { outside, continuation })
      : w.say('prompt-said', { continuation });
  }

  bindReaderIo(w, { useText, usePlays, setPrompt, download, loadWeights, notice });
  return {
    useText,
    loadWeights,
    textFrom,
    weightsFrom,
    setPrompt,
    showText,
    awaitText,
    announcePrompt,
    /** Nothing more will be written: the prompt waiting resolves with null. */
    stop() {
      promptAsked?.resolve(null);
      promptAsked = null;
    },
  };
}


/**
 * Binds the text, prompt and download controls of widget `w` to `useText(bytes, source)`,
 * `usePlays()`, `setPrompt(text | null, chars)` and `download(what, chart)`; `notice(lines)`
 * says what went wrong.
 */
function bindReaderIo(w, { useText, usePlays, setPrompt, download, loadWeights, notice }) {
  const { el, root } = w;
  const fail = (e) => notice([w.reason(e?.message ?? String(e))]);

  // a text: a file chosen, dropped anywhere on the widget, or pasted
  el('text-choose').addEventListener('click', () => el('text-file').click());
  el('text-file').addEventListener('change', async () => {
    const file = el('text-file').files?.[0];
    el('text-file').value = '';
    if (file) useFile(file);
  });
  async function useFile(file) {
    try {
      await useText(await fileBytes(file), (say) => say('source-file', { name: file.name }));
    } catch (e) {
      fail(e);
    }
  }
  const carriesFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
  root.addEventListener('dragover', (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    root.classList.add('ap-dropping');
  });
  root.addEventListener('dragleave', (e) => {
    if (!root.contains(e.relatedTarget)) root.classList.remove('ap-dropping');
  });
  root.addEventListener('drop', (e) => {
    root.classList.remove('ap-dropping');
    const file = e.dataTransfer?.files?.[0];
    if (!file) return;
    e.preventDefault();
    useFile(file);
  });
  el('text-use').addEventListener('click', async () => {
    try {
      await useText(pastedBytes(el('text-paste').value), (say) => say('source-pasted'));
    } catch (e) {
      fail(e);
    }
  });
  el('text-plays').addEventListener('click', () => usePlays());

  // a prompt: Enter or Write asks the stack to continue it
  el('prompt-chars').max = String(TEXT_LIMITS.maxWriteChars);
  el('prompt-chars').value = String(TEXT_LIMITS.sampleChars);
  el('prompt').maxLength = TEXT_LIMITS.maxPromptChars;
  // Enter writes; Shift+Enter is a new line of the prompt (a speaker's name, then a line)
  el('prompt').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      el('prompt-form').requestSubmit();
    }
  });
  el('prompt-form').addEventListener('submit', (e) => {
    e.preventDefault();
    e.stopPropagation(); // the controls' form must not see it
    const chars = Math.round(Number(el('prompt-chars').value));
    if (!(chars >= 1 && chars <= TEXT_LIMITS.maxWriteChars)) {
      notice([w.say('notice-write-chars', { max: TEXT_LIMITS.maxWriteChars, value: el('prompt-chars').value })]);
      return;
    }
    setPrompt(el('prompt').value, chars);
  });
  el('prompt-clear').addEventListener('click', () => {
    el('prompt').value = '';
    setPrompt(null, TEXT_LIMITS.sampleChars);
  });

  // the downloads: the chart menu lists the panels that have something to draw when it opens
  el('download').addEventListener('toggle', () => {
    if (!el('download').open || !w.parts.view?.hasFrame) return;
    const ready = JSON.parse(w.parts.view.panels()).panels;
    const menu = el('download-chart');
    const chosen = menu.value;
    menu.replaceChildren(
      ...CHARTS.filter(({ name }) => ready[name]?.ready).map(({ name, label }) => new Option(label, name)),
    );
    if ([...menu.options].some((o) => o.value === chosen)) menu.value = chosen;
  });
  el('weights-choose').addEventListener('click', () => el('weights-file').click());
  el('weights-file').addEventListener('change', async () => {
    const file = el('weights-file').files?.[0];
    el('weights-file').value = '';
    if (!file) return;
    try {
      await loadWeights(new Uint8Array(await file.arrayBuffer()), (say) => say('source-file', { name: file.name }));
    } catch (e) {
      fail(e);
    }
  });
  for (const button of root.querySelectorAll('[data-download]')) {
    button.addEventListener('click', () => download(button.dataset.download, el('download-chart').value).catch(fail));
  }
}

/** Saves `data` (bytes or text) as a file named `name` (an <a download> of an object URL). */
export function saveFile(root, name, data, type) {
  const url = URL.createObjectURL(data instanceof Blob ? data : new Blob([data], { type }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  a.style.display = 'none';
  root.append(a); // inside the widget: the host's document is not touched
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
