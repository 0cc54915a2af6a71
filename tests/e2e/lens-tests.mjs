// End-to-end tests of the lens panels (docs/findings.md, "What the layers do"): what each layer would
// predict and how much each changes the stream, on every task; where each attention head looks,
// on the sequence tasks: drawn live, named by their sentences, its layer chosen by keyboard.
//
// Registered into run.mjs's runner, so every test here also fails on any console error,
// uncaught exception, failed request or visible error box.

import { canvasHash } from './lib.mjs';
import { assert, test, waitFor } from './harness.mjs';

export default function registerLensTests() {
  const value = (page) => page.evaluate(() => window.ablationPlayground.value);
  const panel = (page, name) => page.locator(`[data-ap-root] [data-panel="${name}"]`);
  /** A panel's summary and its canvas's accessible name. */
  const named = (page, name) =>
    page.evaluate((name) => {
      const p = document.querySelector(`[data-ap-root] [data-panel="${name}"]`);
      return { summary: p.querySelector('figcaption').textContent, label: p.querySelector('canvas').getAttribute('aria-label') };
    }, name);

  test('the lens on the regression: what each depth would predict, and how much each layer changes the stream', async ({ page, load }) => {
    await load('/?depth=6&steps=300');
    await waitFor(page, () => window.ablationPlayground.value?.finished, null, 'the run did not finish its 300 steps', 30_000);
    assert(await panel(page, 'readout').isVisible(), 'the readout panel is shown by default');
    assert(!(await panel(page, 'attention').isVisible()), 'the attention panel belongs to the sequence tasks');
    const v = await value(page);
    const { readout_loss: r, update_ratio: u } = v.layers;
    assert(r.init.length === 7 && r.final.length === 7 && u.init.length === 6 && u.final.length === 6, `lengths: ${JSON.stringify(v.layers)}`);
    const s = JSON.parse(await page.evaluate(() => window.ablationPlayground.playground.stateJson()));
    assert(r.final[6] === s.now.probe_loss, `the readout at the top is the probe loss: ${r.final[6]} vs ${s.now.probe_loss}`);
    const { summary, label } = await named(page, 'readout');
    assert(summary === label && /Read out on the probe batch at step 300/.test(summary), `the canvas is named by its sentence: ${summary}`);
    assert(/A layer changes the stream by \d/.test(summary), `the update ratios in words: ${summary}`);
    // the slider alone is labelled Depth (lesson scripts find it by that label), whatever the panels say
    await page.goto('about:blank');
    await load('/?depth=6&autoplay=off');
    assert((await page.getByLabel('Depth').count()) === 1, 'one control labelled Depth before training');
  });

  for (const [task, query] of [
    ['copy', '/?preset=copy'],
    ['text', '/?preset=text&depth=4'],
  ]) {
    test(`the lens on ${task}: the readout, and each head's map drawn live, named, and its layer chosen by keyboard`, async ({ page, load, note }) => {
      await load(query);
      await waitFor(page, () => window.ablationPlayground.value?.attention, null, 'no attention maps in .value', 30_000);
      assert(await panel(page, 'readout').isVisible() && (await panel(page, 'attention').isVisible()), 'both lens panels are shown');
      // the heatmap is drawn, and changes as training goes on
      await waitFor(page, () => window.ablationPlayground.value.step >= 50, null, 'training did not start', 30_000);
      const early = await canvasHash(page, 'attention');
      note('waiting for the maps to change');
      await waitFor(page, () => window.ablationPlayground.value.step >= 400, null, 'training did not reach step 400', 60_000);
      await page.waitForTimeout(400); // the maps are drawn at most four times a second
      const later = await canvasHash(page, 'attention');
      assert(early !== later, 'the heatmap changes as the heads train');
      // the sentences: the canvas's name is the panel's summary; one list item per head
      const { summary, label } = await named(page, 'attention');
      assert(summary === label, 'the canvas is named by its summary');
      assert(/^Layer 0 of the attention sublayers \(0 and 2|^Layer 0 of the attention sublayers \(0, 2/.test(summary), `the layer and its siblings: ${summary}`);
      const heads = await page.locator('[data-ap-root] [data-el="attention-heads"] li').allTextContents();
      assert(heads.length === 4 && heads.every((h, i) => new RegExp(`^layer 0, head ${i + 1}: \\d+(\\.\\d)?% of its weight`).test(h)), `one sentence per head: ${heads}`);
      const v = await value(page);
      const depth = v.depth;
      assert(v.layers.readout_loss.final.length === depth + 1, 'L + 1 readouts in .value');
      assert(v.attention.layer === 0 && v.attention.heads.length === 4 && v.attention.tokens.length === v.context, `the attention in .value: ${JSON.stringify(v.attention)}`);
      if (task === 'copy') {
        note('waiting for a head to copy');
        await waitFor(page, () => /Head \d copies: in the repeated half it puts (9\d|100)% of its weight 8 positions back/.test(
          document.querySelector('[data-ap-root] [data-el="attention-summary"]').textContent), null,
          () => 'no head of layer 0 copies', 60_000);
      }
      // the layer, chosen by keyboard: the run goes on, the panel shows the next attention layer
      note('choosing layer 2 by keyboard');
      const stepBefore = (await value(page)).step;
      const select = page.locator('[data-ap-root] [data-panel="attention"] select');
      assert((await select.getAttribute('data-param')) === 'attention_layer', 'the menu sets the table\'s parameter');
      const name = await page.getByRole('combobox', { name: 'Attention of layer' }).count();
      assert(name === 1, 'the menu is named "Attention of layer"');
      await select.focus();
      await page.keyboard.press('ArrowDown');
      await waitFor(page, () => window.ablationPlayground.value.attention?.layer === 2, null, 'the arrow key did not choose layer 2');
      const after = await value(page);
      assert(after.attention_layer === 2 && after.step >= stepBefore, `the run went on (step ${stepBefore} → ${after.step})`);
      await waitFor(page, () => document.querySelector('[data-ap-root] [data-el="attention-heads"] li')?.textContent.startsWith('layer 2, head 1'), null, 'the sentences follow the layer');
      const { summary: readout } = await named(page, 'readout');
      assert(/Read out on the held-out set at step \d+: the input x₀ gives/.test(readout), `the readout's sentence: ${readout}`);
    });
  }

  test('the lens panels follow panels=, keep a pin\'s readout, and All four lists each combination\'s', async ({ page, load }) => {
    await load('/?preset=copy&depth=4&steps=60&panels=attention,readout,compare');
    const shown = await page.evaluate(() => [...document.querySelectorAll('[data-ap-root] [data-panel]')].filter((p) => !p.hidden).map((p) => p.dataset.panel));
    assert(shown.join() === 'readout,attention,compare', `panels= names them: ${shown}`);
    await waitFor(page, () => window.ablationPlayground.value?.finished, null, 'the run did not finish', 30_000);
    await page.getByRole('button', { name: 'Pin', exact: true }).click();
    await page.getByRole('button', { name: 'All four', exact: true }).click();
    await waitFor(page, () => window.ablationPlayground.value.compare?.runs.every((r) => r.done), null, 'All four did not finish', 60_000);
    const v = await value(page);
    assert(v.compare.runs.every((r) => r.readout_loss.length === 5), `each combination's readout: ${JSON.stringify(v.compare.runs.map((r) => r.readout_loss))}`);
    const rows = await page.locator('[data-ap-root] [data-el="compare-readout"] tr').allTextContents();
    assert(rows.length === 5 && /x_0.*x_4/.test(rows[0]), `a table of what each depth would predict: ${rows}`);
    const summary = (await named(page, 'readout')).summary;
    assert(summary.length > 0, 'the readout panel keeps its words with a pin');
  });
}
