// End-to-end tests of the example lesson (www/lesson.html: ten elements driven by prose buttons) and the static SVG figures (docs/embedding.md).
//
// Registered into run.mjs's runner, so every test here also fails on any console error,
// uncaught exception, failed request or visible error box.

import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { attrs, paramsOf, sameJson, value, waitElStatus } from './embedding.mjs';
import { assert, test, waitFor } from './harness.mjs';
import { ROOT, state } from './lib.mjs';

export default function registerLessonTests() {
  test('the example lesson: ten live instances, prose buttons drive them with no script of its own, noscript figures exist', async ({ page, baseUrl }) => {
    await page.goto(`${baseUrl}/www/lesson.html`);
    const inline = await page.evaluate(() => [...document.querySelectorAll('script')].filter((s) => !s.src).length);
    assert(inline === 0, `the lesson has ${inline} inline scripts: its buttons are lesson steps (steps.js)`);
    await waitFor(page, () => {
      const els = [...document.querySelectorAll('ablation-playground')];
      return els.length === 10 && els.every((e) => e.shadowRoot?.querySelector('[data-ap-root] [data-el="status"]'));
    }, null, async () => `expected ten mounted <ablation-playground> elements, found ${await page.locator('ablation-playground').count()}`, 30_000);
    const ids = await page.evaluate(() => [...document.querySelectorAll('ablation-playground')].map((e) => e.id));
    assert(sameJson(ids, ['four', 'deep', 'placement', 'knock', 'text', 'copy', 'lens', 'induction', 'shapes', 'stacks']), `instances: ${ids}`);
    await waitElStatus(page, 'four', /^12 layers · Residual OFF · LayerNorm OFF · /, 15_000);
    // controls="..." hides what it does not list
    assert(await page.locator('#deep [data-control="depth"]').isHidden(), '#deep has controls without depth: its slider should be hidden');
    assert(await page.locator('#placement [data-control="residual"]').isHidden(), '#placement shows only play and the placement');
    // Print shows the static figures in place of the live widgets.
    await page.emulateMedia({ media: 'print' });
    assert(await page.locator('#four').isHidden(), 'in print the live widget is hidden');
    const printed = await page.evaluate(() =>
      [...document.querySelectorAll('.lesson-print img')].filter((i) => i.getBoundingClientRect().width > 0).length);
    assert(printed >= 8, `in print the static figures show (${printed} visible)`);
    await page.emulateMedia({ media: 'screen' });

    // Section 1's three clicks: the break-and-heal preset, then only the switches.
    await waitElStatus(page, 'four', /^12 layers · Residual OFF · LayerNorm OFF · act\. std = [0-9.e]+ · /, 15_000);
    assert((await value(page, 'four')).gain === 2.25, 'the element starts as the preset break-and-heal');
    await page.getByRole('button', { name: '2. LayerNorm on' }).click();
    await waitElStatus(page, 'four', /^12 layers · Residual OFF · LayerNorm ON \(pre\) · /);
    await page.getByRole('button', { name: '3. Residual on too' }).click();
    await waitElStatus(page, 'four', /^12 layers · Residual ON · LayerNorm ON \(pre\) · /);
    assert((await value(page, 'four')).gain === 2.25, 'the clicks keep the preset\'s init gain');
    await page.getByRole('button', { name: '1. both off' }).click();
    await waitElStatus(page, 'four', /^12 layers · Residual OFF · LayerNorm OFF · /);

    // Section 1's "both on" button (the default recipe).
    await page.getByRole('button', { name: 'both on', exact: true }).click();
    const a = await attrs(page, 'four');
    assert(a.residual === 'on' && a.norm === 'pre', `"both on" should set residual="on" norm="pre": ${JSON.stringify(a)}`);
    await waitElStatus(page, 'four', /^12 layers · Residual ON · LayerNorm ON \(pre\) · /);
    const v = await value(page, 'four');
    assert(v.residual === 'on' && v.norm === 'pre', `#four.value after "both on": ${JSON.stringify(paramsOf(v))}`);

    // "make it blow up": the explode preset through the element's preset attribute, so the
    // prose and the widget agree.
    await page.getByRole('button', { name: 'make it blow up' }).click();
    await waitElStatus(page, 'four', /^12 layers · Residual OFF · LayerNorm OFF · .* · diverged at step [0-9]$/, 15_000);
    const blown = await value(page, 'four');
    assert(blown.optimizer === 'sgd' && blown.gain === 2 && blown.diverged_at <= 5, `#four after "make it blow up": ${JSON.stringify(blown)}`);
    // and "both on" resets the rest of the preset before setting its switches
    // (the diverged run stopped by itself: the new one trains, with no Play)
    await page.getByRole('button', { name: 'both on', exact: true }).click();
    await waitElStatus(page, 'four', /^12 layers · Residual ON · LayerNorm ON \(pre\) · /);
    await waitFor(page, () => {
      const v = document.getElementById('four').value;
      return v.residual === 'on' && v.step > 0 && v.diverged_at === null;
    }, null, async () => `#four did not train after "both on": ${JSON.stringify(await value(page, 'four')).slice(0, 300)}`);
    assert((await value(page, 'four')).optimizer === 'adam', 'the "both on" button is the default recipe again');

    // Section 3's warmup button, then the instance is scrolled to: its state is the button's,
    // on the warmup preset, and it trains (the button also calls play)
    await page.getByRole('button', { name: '2. 300 warmup steps' }).click();
    await page.locator('#placement').scrollIntoViewIfNeeded();
    await waitFor(page, () => document.getElementById('placement').value?.warmup === 300, null,
      async () => `#placement after "2. 300 warmup steps": ${JSON.stringify(await value(page, 'placement'))}`);
    await waitElStatus(page, 'placement', /^12 layers · Residual ON · LayerNorm ON \(post\) · /);
    const placed = await value(page, 'placement');
    assert(placed.task === 'text' && placed.lr === 0.003 && String(placed.seed) === '3', `#placement is the warmup preset: ${JSON.stringify(paramsOf(placed))}`);
    await page.getByRole('button', { name: '3. pre-norm, no warmup' }).click();
    await waitElStatus(page, 'placement', /^12 layers · Residual ON · LayerNorm ON \(pre\) · /);
    assert((await value(page, 'placement')).warmup === 0, 'the third click turns the warmup off again');
    await waitFor(page, () => document.getElementById('placement').value?.step > 0, null, '#placement does not train after the third click', 20_000);

    // Section 4: the knockout button calls the element's method on the trained stack.
    await page.locator('#knock').scrollIntoViewIfNeeded();
    await waitFor(page, () => document.getElementById('knock').value?.finished, null, '#knock did not finish its 500 steps', 30_000);
    await page.getByRole('button', { name: 'knock out each layer', exact: true }).click();
    await waitFor(page, () => document.getElementById('knock').value?.knockout?.loss.length === 12, null,
      async () => `#knock's knockout: ${JSON.stringify((await value(page, 'knock'))?.knockout)}`, 20_000);

    // Section 6: the placement buttons set the lens instance's recipe; its lens panels show
    await page.getByRole('button', { name: 'post-norm', exact: true }).click();
    await page.locator('#lens').scrollIntoViewIfNeeded();
    // the step sets the attributes at once; the widget's settings follow from its own callback
    const lensAttributes = async () => JSON.stringify(await page.evaluate(() => {
      const lens = document.getElementById('lens');
      return Object.fromEntries(['norm', 'lr', 'warmup'].map((n) => [n, lens.getAttribute(n)]));
    }));
    await waitFor(page, () => document.getElementById('lens').getAttribute('norm') === 'post', null,
      async () => `the post-norm step did not set #lens's attributes: ${await lensAttributes()}`);
    await waitFor(page, () => {
      const v = document.getElementById('lens').value;
      return v?.norm === 'post' && v.warmup === 300 && v.lr === 0.003;
    }, null, async () => `#lens after the post-norm button (attributes ${await lensAttributes()}): ${JSON.stringify(await value(page, 'lens'))}`, 20_000);
    await waitFor(page, () => document.getElementById('lens').value?.attention?.heads.length === 4, null, '#lens shows no attention maps', 30_000);
    assert(await page.locator('#lens [data-panel="readout"]').isVisible() && (await page.locator('#lens [data-panel="attention"]').isVisible()), '#lens shows the two lens panels');
    // the lesson's step calls tunedLens(): a lens fitted to the stack as trained so far
    await page.getByRole('button', { name: 'fit a tuned lens', exact: true }).click();
    await waitFor(page, () => document.getElementById('lens').value?.tuned_lens?.done, null,
      async () => `#lens fitted no tuned lens: ${JSON.stringify((await value(page, 'lens'))?.tuned_lens)}`, 60_000);
    assert((await value(page, 'lens')).tuned_lens.readout_loss.length === 13, 'a reading at every depth of the 12');

    // Section 7: the induction buttons set the depth; "Train depth or width" calls the method
    await page.getByRole('button', { name: 'one attention layer' }).click();
    await waitFor(page, () => document.getElementById('induction').value?.depth === 1, null, 'the induction instance at one layer');
    await page.getByRole('button', { name: 'Spend the budget six ways' }).click();
    await page.locator('#shapes').scrollIntoViewIfNeeded();
    await waitFor(page, () => document.getElementById('shapes').value?.depth_width?.runs.length === 7, null,
      async () => `#shapes did not start depth or width: ${JSON.stringify((await value(page, 'shapes'))?.depth_width)}`, 30_000);

    // The <noscript> figures (and the playground page's): fetched and parsed as SVG. A
    // DOMParser document runs no scripts, so its <noscript> content is parsed as elements.
    const figures = await page.evaluate(async () => {
      const out = [];
      for (const pageUrl of ['/www/lesson.html', '/index.html']) {
        const doc = new DOMParser().parseFromString(await (await fetch(pageUrl)).text(), 'text/html');
        for (const img of doc.querySelectorAll('noscript img')) {
          const url = new URL(img.getAttribute('src'), new URL(pageUrl, location.href)).href;
          const res = await fetch(url);
          const svg = new DOMParser().parseFromString(await res.text(), 'image/svg+xml');
          out.push({ pageUrl, url, status: res.status, type: res.headers.get('content-type'), root: svg.documentElement.localName, error: svg.querySelector('parsererror')?.textContent ?? null });
        }
      }
      return out;
    });
    assert(figures.filter((f) => f.pageUrl === '/www/lesson.html').length === 14, `the lesson's noscript should reference 14 figures: ${JSON.stringify(figures.map((f) => f.url))}`);
    for (const f of figures) {
      assert(f.status === 200, `${f.url}: HTTP ${f.status}`);
      assert(/^image\/svg\+xml/.test(f.type), `${f.url} is served as ${f.type}`);
      assert(f.root === 'svg' && !f.error, `${f.url} is not a parseable SVG: root ${f.root}, ${f.error}`);
    }
  });

  // =======================================================================================
  // 9. The static figures

  test('every static figure in www/figures parses as SVG and renders as an image', async ({ page, baseUrl }) => {
    const dir = join(ROOT, 'www', 'figures');
    const files = [];
    for (const d of await readdir(dir, { withFileTypes: true })) {
      if (!d.isDirectory()) continue;
      for (const f of await readdir(join(dir, d.name))) if (f.endsWith('.svg')) files.push(`/www/figures/${d.name}/${f}`);
    }
    assert(files.length >= 21, `expected 3 figures for each of the 7 runs in list.txt, found ${files.length}`);
    await page.goto(`${baseUrl}/www/lesson.html`);
    const results = await page.evaluate(async (files) => {
      const out = [];
      for (const url of files) {
        const res = await fetch(url);
        const doc = new DOMParser().parseFromString(await res.text(), 'image/svg+xml');
        const root = doc.documentElement;
        const img = new Image();
        img.src = url;
        const decoded = await img.decode().then(() => true, () => false);
        out.push({
          url, status: res.status, type: res.headers.get('content-type'),
          error: doc.querySelector('parsererror')?.textContent ?? null,
          root: `${root.namespaceURI} ${root.localName}`,
          viewBox: root.getAttribute('viewBox'),
          texts: doc.querySelectorAll('text').length,
          decoded, width: img.naturalWidth,
        });
      }
      return out;
    }, files);
    const bad = results.filter(
      (r) => r.status !== 200 || !/^image\/svg\+xml/.test(r.type) || r.error || r.root !== 'http://www.w3.org/2000/svg svg' || !r.viewBox || !r.texts || !r.decoded || !r.width,
    );
    assert(!bad.length, `bad figures: ${JSON.stringify(bad)}`);
  });
}
