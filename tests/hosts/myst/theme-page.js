// The MyST theme's own renderer of an {anywidget} node, run on a page that mystmd built, for
// tests/e2e/myst-tests.mjs (bundled by it with Vite). The book theme (a Remix app that
// `myst build --html` downloads) cannot be had offline; what it does with the node can: its
// root renders each node of the page's AST with its renderers, `anywidget` with
// @myst-theme/anywidget's AnyWidgetRenderer, which imports `node.esm` with import() and calls
// the module's render() with a MystAnyModel of `node.model` and an element in a shadow root.
// That renderer is the real one (from npm, the version package-lock.json pins); the page
// around it (this file and the HTML the test writes) is ours: it reads the page's JSON as the
// theme's loader does and renders the anywidget nodes only, in document order.

import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { ANY_RENDERERS } from '@myst-theme/anywidget';

const AnyWidgetRenderer = ANY_RENDERERS.anywidget;

/** The nodes of `type` in `tree`, in document order. */
function select(tree, type, out = []) {
  if (tree?.type === type) out.push(tree);
  for (const child of tree?.children ?? []) select(child, type, out);
  return out;
}

const slug = new URLSearchParams(location.search).get('page') ?? 'lesson';
const page = await (await fetch(`content/${slug}.json`)).json();
const article = document.querySelector('article');
const title = document.createElement('h1');
title.textContent = page.frontmatter?.title ?? slug;
article.append(title);
const roots = [];
for (const node of select(page.mdast, 'anywidget')) {
  const block = document.createElement('div');
  block.dataset.mystNode = node.id;
  article.append(block);
  const root = createRoot(block);
  root.render(createElement(AnyWidgetRenderer, { node }));
  roots.push(root);
}
window.mystPage = { slug, nodes: roots.length };
/** What the theme does when the reader goes to another page: its renderers unmount (the
 *  anywidget renderer then calls the cleanup that render() returned). */
window.mystUnmount = () => {
  for (const root of roots) root.unmount();
};
