// End-to-end tests of the docs site that scripts/build.sh writes into dist/docs (an MkDocs
// Material site of docs/, with the package beside it): every page with a widget loads it and
// it trains; the lesson steps on "Authoring a lesson" drive their playground from the
// keyboard; and every link of every page, the navigation's included, reaches a file and an
// anchor that exist.
//
// Registered into run.mjs's runner: a console error, an uncaught exception or a failed request
// fails a test here too.

import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { CONTROLS, PANELS } from '../../www/template.js';
import { DIST, ROOT, axeViolations } from './lib.mjs';
import { assert, test, waitFor } from './harness.mjs';

const DOCS = join(DIST, 'docs');

/** The site's pages (the top folder: MkDocs with use_directory_urls off) and their text. */
async function pages() {
  const names = (await readdir(DOCS)).filter((n) => n.endsWith('.html'));
  return Promise.all(names.map(async (name) => ({ name, html: await readFile(join(DOCS, name), 'utf8') })));
}

/** The ids of the widgets a page's HTML holds. */
const widgetIds = (html) => [...html.matchAll(/<ablation-playground\b[^>]*\bid="([^"]+)"/g)].map((m) => m[1]);

export default function registerDocsTests() {

  test('docs: every page with a widget loads it, and each widget trains', async ({ page, baseUrl }) => {
    const withWidgets = (await pages()).filter((p) => widgetIds(p.html).length > 0);
    const names = withWidgets.map((p) => p.name);
    assert(names.includes('index.html') && names.includes('authoring.html'), `pages with a widget: ${names}`);
    for (const { name, html } of withWidgets) {
      await page.goto(`${baseUrl}/docs/${name}`);
      for (const id of widgetIds(html)) {
        // an instance starts when it comes near the viewport
        await page.locator(`#${id}`).scrollIntoViewIfNeeded();
        await waitFor(page, (i) => (document.getElementById(i)?.value?.step ?? 0) > 2, id, `${name}: #${id} did not train`, 30_000);
        const status = await page.locator(`#${id}`).getByRole('status').first().textContent();
        assert(/^\d+ layers · Residual (ON|OFF) · LayerNorm /.test(status), `${name}: #${id} status "${status}"`);
      }
    }
  });

  test('docs: the lesson steps on "Authoring a lesson" drive their playground from the keyboard, and the status line says so', async ({ page, baseUrl }) => {
    await page.goto(`${baseUrl}/docs/authoring.html`);
    const story = page.locator('#story');
    await story.scrollIntoViewIfNeeded();
    await waitFor(page, () => (document.getElementById('story')?.value?.step ?? 0) > 0, null, 'the story did not start', 30_000);
    const status = story.getByRole('status').first();
    const expectStatus = async (re, what) =>
      waitFor(page, (src) => new RegExp(src).test(document.getElementById('story').shadowRoot.querySelector('[role="status"]').textContent), re.source,
        async () => `${what}: the status reads "${await status.textContent()}"`, 10_000);
    await expectStatus(/Residual OFF · LayerNorm OFF/, 'at first');
    await page.getByRole('button', { name: '2. LayerNorm on' }).focus();
    await page.keyboard.press('Enter');
    await expectStatus(/Residual OFF · LayerNorm ON \(pre\)/, 'after step 2');
    await page.getByRole('button', { name: '3. Residual on too' }).focus();
    await page.keyboard.press('Space');
    await expectStatus(/Residual ON · LayerNorm ON \(pre\)/, 'after step 3');
    const attrs = await page.evaluate(() => ['preset', 'residual', 'norm'].map((a) => document.getElementById('story').getAttribute(a)));
    assert(attrs[1] === 'on' && attrs[2] === 'pre', `the attributes follow the step: ${attrs}`);
    const controls = await page.getByRole('button', { name: '3. Residual on too' }).getAttribute('aria-controls');
    assert(controls === 'story', `the step names the playground it controls: ${controls}`);
  });

  test("docs: Embedding lists every control and panel name the element knows, and no other", async () => {
    const text = (await readFile(join(ROOT, 'docs', 'embedding.md'), 'utf8')).replace(/\s+/g, ' ');
    const listed = (what) => {
      const m = text.match(new RegExp(`shows only those ${what} \\(from ([^)]*)\\)`));
      assert(m, `docs/embedding.md lists the ${what}`);
      return [...m[1].matchAll(/`([^`]+)`/g)].map((x) => x[1]);
    };
    assert(listed('controls').join() === CONTROLS.join(), `controls: ${listed('controls')} against ${CONTROLS}`);
    assert(listed('panels').join() === PANELS.join(), `panels: ${listed('panels')} against ${PANELS}`);
  });

  test("docs: Embedding names every field of the element's value", async ({ page, baseUrl }) => {
    const text = await readFile(join(ROOT, 'docs', 'embedding.md'), 'utf8');
    await page.goto(`${baseUrl}/?preset=copy`);
    await waitFor(page, () => (window.ablationPlayground?.value?.step ?? 0) > 0, null, 'the page did not start');
    const keys = await page.evaluate(() => Object.keys(window.ablationPlayground.value));
    assert(keys.length > 25, `the value's fields were read: ${keys}`);
    // a parameter's field is named in the reference, which Embedding links to
    const { PARAMS } = await import('../../www/schema.js');
    const params = new Set(PARAMS.map((p) => p.name));
    const missing = keys.filter((k) => !params.has(k) && !text.includes(`\`${k}\``));
    assert(missing.length === 0, `docs/embedding.md does not name these fields of .value: ${missing}`);
  });

  test('docs: axe-core finds no WCAG 2.2 AA violation on the authoring page, in the default palette and in slate', async ({ page, baseUrl }) => {
    await page.goto(`${baseUrl}/docs/authoring.html`);
    // Material's header swaps its title with a 0.15 s fade whenever the page scrolls past the
    // heading (axe scrolls while it checks): half-faded, the title reads as low contrast. The
    // host's own fade is not what this test judges (reduced motion would drop it, but would also
    // keep the widget from starting), so the header alone loses its transition.
    await page.addStyleTag({ content: '.md-header__topic { transition: none !important; }' });
    await page.locator('#story').scrollIntoViewIfNeeded();
    await waitFor(page, () => (document.getElementById('story')?.value?.step ?? 0) > 0, null, 'the story did not start', 30_000);
    const light = await axeViolations(page);
    assert(light.length === 0, `default palette: ${light.join('; ')}`);
    await page.locator('label[title="Switch to dark mode"]').first().click();
    await waitFor(page, () => document.body.getAttribute('data-md-color-scheme') === 'slate', null, 'the toggle did not switch to slate');
    await page.waitForTimeout(500); // the widget follows the host's theme through observers
    const dark = await axeViolations(page);
    assert(dark.length === 0, `slate: ${dark.join('; ')}`);
  });

  test('docs: every link of every page reaches a file and an anchor that exist', async () => {
    const all = await pages();
    const ids = new Map(all.map((p) => [p.name, new Set([...p.html.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]))]));
    const broken = [];
    let checked = 0;
    for (const { name, html } of all) {
      for (const [, href] of html.matchAll(/<a\b[^>]*\bhref="([^"]*)"/g)) {
        if (/^[a-z]+:/i.test(href) || href.startsWith('//')) continue; // another site
        const [path, anchor] = href.replace(/&amp;/g, '&').split('#');
        let target = path === '' ? name : posix.normalize(posix.join(posix.dirname(name), decodeURI(path)));
        if (target.endsWith('/') || target === '.') target = posix.join(target, 'index.html');
        checked++;
        if (!existsSync(join(DOCS, target))) {
          broken.push(`${name}: ${href} (no ${target})`);
        } else if (anchor && target.endsWith('.html') && !ids.get(target)?.has(decodeURIComponent(anchor))) {
          broken.push(`${name}: ${href} (no #${anchor} in ${target})`);
        }
      }
    }
    assert(checked > 100, `the links were read: ${checked}`);
    assert(broken.length === 0, `broken links:\n${broken.join('\n')}`);
    assert(existsSync(join(dirname(DOCS), 'docs', 'ablation-playground', 'index.js')), 'the package is beside the docs');
  });
}
