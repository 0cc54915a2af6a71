// What a reader brings and takes away: a text to train on (a file chosen or dropped, or pasted),
// a prompt for the stack to continue, and the downloads (the run, its loss history, its weights,
// each chart). The controls only read the reader's input and call the widget's functions
// (playground.js), which own the state; no maths here.

import { CHARTS, TEXT_LIMITS } from './schema.js';
import { fileBytes, pastedBytes } from './texts.js';


/**
 * Binds the text, prompt and download controls of widget `w` to `useText(bytes, source)`,
 * `usePlays()`, `setPrompt(text | null, chars)` and `download(what, chart)`; `notice(lines)`
 * says what went wrong.
 */
export function bindReaderIo(w, { useText, usePlays, setPrompt, download, loadWeights, notice }) {
  const { el, root } = w;
  const fail = (e) => notice([e?.message ?? String(e)]);

  // a text: a file chosen, dropped anywhere on the widget, or pasted
  el('text-choose').addEventListener('click', () => el('text-file').click());
  el('text-file').addEventListener('change', async () => {
    const file = el('text-file').files?.[0];
    el('text-file').value = '';
    if (file) useFile(file);
  });
  async function useFile(file) {
    try {
      await useText(await fileBytes(file), `the file ${file.name}`);
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
      await useText(pastedBytes(el('text-paste').value), 'the pasted text');
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
      notice([`Characters to write: from 1 to ${TEXT_LIMITS.maxWriteChars}, not "${el('prompt-chars').value}"`]);
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
      await loadWeights(new Uint8Array(await file.arrayBuffer()), `the file ${file.name}`);
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
