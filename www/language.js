// The widget's language: its `lang` option (the element's lang attribute, a link's lang=, the
// notebook's trait), else its host's (the nearest ancestor's lang: the page's <html lang>), else
// English. Every word is Rust's: a wasm `Words` made from the language's catalogue
// (www/i18n/<tag>.ftl, fetched once a page when a widget first speaks it) words the markup's
// [data-i18n] elements here and, given to the `View`, the status line, the captions and the
// charts. A change re-words the widget without restarting its run.

import { catalogueUrl } from './assets.js';

/** Each catalogue's text, fetched once a page (a failed fetch is tried again next time). */
const fetched = new Map();
function catalogue(file) {
  if (!fetched.has(file)) {
    const text = fetch(catalogueUrl(file)).then((response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.text();
    });
    text.catch(() => fetched.delete(file));
    fetched.set(file, text);
  }
  return fetched.get(file);
}

/** Words every element of `root` that names a message: `data-i18n` its text,
 *  `data-i18n-label` its aria-label, `data-i18n-placeholder` its placeholder; and the parameter
 *  table's words, whose English is the table's (`data-en`, `data-en-label`): `data-i18n-table`
 *  its text, `data-i18n-table-label` its aria-label, `data-i18n-table-title` its tooltip
 *  (`tableWords` marks them). */
export function wordMarkup(root, words) {
  const say = (id) => words.say(id);
  const sayOr = (id, english) => words.sayOr(id, english ?? '');
  for (const e of root.querySelectorAll('[data-i18n]')) e.textContent = say(e.dataset.i18n);
  for (const e of root.querySelectorAll('[data-i18n-label]')) e.setAttribute('aria-label', say(e.dataset.i18nLabel));
  for (const e of root.querySelectorAll('[data-i18n-placeholder]')) e.placeholder = say(e.dataset.i18nPlaceholder);
  for (const e of root.querySelectorAll('[data-i18n-table]')) e.textContent = sayOr(e.dataset.i18nTable, e.dataset.en);
  for (const e of root.querySelectorAll('[data-i18n-table-label]')) e.setAttribute('aria-label', sayOr(e.dataset.i18nTableLabel, e.dataset.enLabel));
  for (const e of root.querySelectorAll('[data-i18n-table-title]')) e.title = sayOr(e.dataset.i18nTableTitle, e.dataset.enTitle);
}

/** Marks `element` as showing the table's words `english` under message `id` (schema.js names
 *  it: its text, with `label` its aria-label, with `title` its tooltip), and shows them in
 *  English until the widget is worded. */
export function tableWords(element, id, english, { label = false, title = false } = {}) {
  if (title) {
    element.dataset.i18nTableTitle = id;
    element.dataset.enTitle = english;
    element.title = english;
  } else if (label) {
    element.dataset.i18nTableLabel = id;
    element.dataset.enLabel = english;
    element.setAttribute('aria-label', english);
  } else {
    element.dataset.i18nTable = id;
    element.dataset.en = english;
    element.textContent = english;
  }
  return element;
}

/**
 * The language of widget `w` (its root, markup, view and notices), English until `want(tag,
 * explicit)` has its catalogue (explicit: the widget's own, which says when it cannot be
 * spoken; else the host's, which falls back to English in silence). `say(id)` is a message in
 * it; `apply()` gives it to the view once there is one; `changed` rewords what JavaScript wrote
 * and redraws.
 */
export function createLanguage(w, { changed }) {
  const { Words } = w.bindings;
  let words = Words.english();
  let asked = { tag: '', explicit: false };
  let ticket = 0;
  let settled;
  /** Resolves once the widget first speaks the language it was asked for (or English, if it
   *  cannot): what is said before then would be said in English. */
  const ready = new Promise((resolve) => (settled = resolve));

  function use(next) {
    words?.free();
    words = next;
    w.root.lang = words.tag;
    wordMarkup(w.root, words);
    for (const e of w.options.alsoWorded ?? []) {
      wordMarkup(e, words);
      e.lang = words.tag;
    }
    apply();
    changed();
    settled();
  }

  /** Message `id`, with `args` ({ name: value }, each value as text) when it takes some. */
  function say(id, args) {
    if (!args) return words.say(id);
    const names = Object.keys(args);
    return words.sayWith(id, names, names.map((n) => String(args[n])));
  }

  /** A reason given deep inside (a worker's refusal of a text, the core's of a weights file,
   *  texts.js's `refusal` of an address), in the widget's words: a message sent as its id and
   *  arguments (`Words.sayReason`), or plain text as it is. */
  function reason(text) {
    return words.sayReason(String(text)) ?? String(text);
  }

  /** The sentence about a reader's text from what its worker measured (`installOwnText`). */
  function textWords(facts) {
    return words.textWords(facts);
  }

  function sayCount(id, n) {
    return words.sayCount(id, n >>> 0);
  }

  async function want(tag, explicit) {
    asked = { tag: String(tag ?? '').trim(), explicit: Boolean(explicit) };
    const mine = ++ticket;
    const file = Words.catalogueFor(asked.tag);
    let text;
    let problem = null;
    if (file) text = await catalogue(file).catch((e) => ((problem = `the ${asked.tag} words could not be fetched (${e.message ?? e}): English it is`), undefined));
    if (mine !== ticket || w.state.stopped) return; // asked again since, or gone
    let next = null;
    if (!problem) {
      try {
        next = new Words(asked.tag, text);
      } catch (e) {
        problem = e.message ?? String(e);
      }
    }
    if (problem && asked.explicit) w.notice([problem]);
    use(next ?? Words.english());
  }

  /** Gives the words to the settings and the view (made when the widget first comes near the
   *  viewport): their notices, errors and sentences are said in them. */
  function apply() {
    w.parts.settings?.setWords(words);
    w.parts.view?.setWords(words);
  }

  w.root.lang = 'en';
  wordMarkup(w.root, words);
  return {
    want,
    apply,
    ready,
    say,
    reason,
    textWords,
    sayCount,
    get spoken() {
      return words.tag;
    },
  };
}
