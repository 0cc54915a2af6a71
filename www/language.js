// The widget's language: its `lang` option (the element's lang attribute, a link's lang=, the
// notebook's trait), else its host's (the nearest ancestor's lang: the page's <html lang>), else
// English. The words are Rust's (View.setLanguage): a language's catalogue, www/i18n/<tag>.ftl,
// is fetched once a page when a widget first speaks it, and a change re-words the widget without
// restarting its run.

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

/**
 * The language of widget `w` (its root, view and notices): `want(tag, explicit)` asks for one
 * (explicit: the widget's own, which says when it cannot be spoken; else the host's, which falls
 * back to English in silence), `apply()` words the view once it exists; `changed` redraws.
 */
export function createLanguage(w, { changed }) {
  let asked = { tag: '', explicit: false };
  let ticket = 0;
  let spoken = 'en';

  async function apply() {
    const view = w.parts.view;
    if (!view) return;
    const { tag, explicit } = asked;
    const mine = ++ticket;
    const file = w.bindings.View.catalogueFor(tag);
    let text;
    let problem = null;
    if (file) text = await catalogue(file).catch((e) => ((problem = `the ${tag} words could not be fetched (${e.message ?? e}): English it is`), undefined));
    if (mine !== ticket || w.state.stopped) return; // asked again since
    try {
      spoken = problem ? view.setLanguage('en') : view.setLanguage(tag, text);
    } catch (e) {
      spoken = 'en';
      problem = e.message ?? String(e);
    }
    if (problem && explicit) w.notice([problem]);
    w.root.lang = spoken;
    changed();
  }

  return {
    want(tag, explicit) {
      asked = { tag: String(tag ?? '').trim(), explicit: Boolean(explicit) };
      return apply();
    },
    apply,
    get spoken() {
      return spoken;
    },
  };
}
