// End-to-end tests of the lens panels (docs/findings.md, "What the layers do"): what each layer would
// predict and how much each changes the stream, on every task; where each attention head looks,
// on the sequence tasks: drawn live, named by their sentences, its layer chosen by keyboard.
//
// Registered into run.mjs's runner, so every test here also fails on any console error,
// uncaught exception, failed request or visible error box.

import { ablate, canvasHash } from './lib.mjs';
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

  test('Xiong\'s picture: the gradients preset draws each sublayer\'s W² and W_V gradient at initialisation over 100 batches, pinned against pre-norm and depth 12, the CLI\'s numbers, and the Per layer menu switches views by keyboard without restarting', async ({ page, load, note }) => {
    await load('/?preset=gradients');
    note('waiting for the run, its 100 batches and its three pins');
    await waitFor(page, () => window.ablationPlayground.value?.finished && window.ablationPlayground.value.layers?.xiong_grad_norm?.batches === 100
      && window.ablationPlayground.value.pins?.length === 3 && window.ablationPlayground.value.pins.every((p) => p.done),
      null, () => `the run, its measure or its pins did not finish: ${JSON.stringify(window.ablationPlayground.value?.layers?.xiong_grad_norm?.batches)}`, 90_000);
    const v = await value(page);
    assert(v.depth === 48 && v.norm === 'post' && v.step === 0, `the preset's run, at initialisation: ${v.depth} ${v.norm} ${v.step}`);
    const m = v.layers.xiong_grad_norm;
    assert(m.values.length === 48 && m.of === 100, `one matrix per sublayer: ${m.values.length}, over ${m.of}`);
    assert(m.names[0] === 'attention.v.weight' && m.names[47] === 'ffn.down.weight', `Xiong's matrices: ${m.names.slice(0, 2)}`);
    // the same numbers as the native CLI, bit for bit
    const cli = await ablate(['--preset', 'gradients', '--steps', '0']);
    assert(m.values.every((x, l) => Object.is(x, cli.layers.xiong_grad_norm.values[l])), `page ${m.values.slice(-2)}, CLI ${cli.layers.xiong_grad_norm.values.slice(-2)}`);
    const select = page.locator('[data-ap-root] [data-panel="depth"] select');
    assert((await select.getAttribute('data-param')) === 'layer_view' && (await select.inputValue()) === 'matrices', 'the preset shows the matrices\' view');
    assert((await page.getByRole('combobox', { name: 'Per layer' }).count()) === 1, 'the menu is named "Per layer"');
    const { summary, label } = await named(page, 'depth');
    assert(summary === label, 'the canvas is named by its summary');
    assert(/Xiong's matrices of each of 48 sublayers \(the FFN's second matrix W² and attention's value matrix W_V\): their weight gradient ‖∂L\/∂W‖ at initialisation, the mean over 100 batches: the top FFN's [0-9.]+, [0-9.]+× the bottom one's \([0-9.]+\) and the top attention's/.test(summary), `the live run in words: ${summary}`);
    const pins = summary.split('Pinned runs: ')[1] ?? '';
    assert((pins.match(/at initialisation, the mean over 100 batches: the top FFN's/g) ?? []).length === 3, `each pin in words: ${pins}`);
    const matrices = await canvasHash(page, 'depthplot');
    // the weights' view on the probe batch, by keyboard: the run is not started again
    note('switching to the weights by keyboard');
    await select.focus();
    await page.keyboard.press('ArrowUp');
    await waitFor(page, () => /Weight gradient ‖∂L\/∂W‖ of each of 48 sublayers\. At initialisation the top FFN's [0-9.]+, [0-9.]+× the bottom one's \([0-9.]+\) and the top attention's/.test(document.querySelector('[data-ap-root] [data-el="depth-summary"]').textContent), null,
      () => 'the summary did not switch to the weights', 10_000);
    await page.waitForTimeout(400);
    assert((await canvasHash(page, 'depthplot')) !== matrices, 'the chart is drawn anew');
    const after = await value(page);
    assert(after.step === 0 && after.finished && after.pins.every((p) => p.done), `the run is as it was: step ${after.step}`);
    assert(after.layers.xiong_grad_norm === undefined, 'the weights\' view reports no matrices');
    const w = after.layers.weight_grad_norm;
    assert(w.init.every((x, l) => Object.is(x, cli.layers.weight_grad_norm.init[l])), `page ${w.init.slice(-2)}, CLI ${cli.layers.weight_grad_norm.init.slice(-2)}`);
    // one Step: the first update's gradients beside the initialisation's
    await page.getByRole('button', { name: 'Step', exact: true }).click();
    await waitFor(page, () => /At step 1, the top FFN's [0-9.e-]+, [0-9.e-]+× the bottom one's/.test(document.querySelector('[data-ap-root] [data-el="depth-summary"]').textContent), null,
      () => 'the weights\' view did not show step 1', 20_000);
    const stepped = (await value(page)).layers.weight_grad_norm.final;
    const one = await ablate(['--preset', 'gradients', '--steps', '1']);
    assert(stepped.every((x, l) => Object.is(x, one.layers.weight_grad_norm.final[l])), 'after one step, the CLI\'s numbers');
    // back to the matrices: the measure of the same run is kept, not made again
    await select.focus();
    await page.keyboard.press('ArrowDown');
    await waitFor(page, () => window.ablationPlayground.value?.layers?.xiong_grad_norm?.batches === 100, null,
      () => 'the matrices\' view did not come back', 10_000);
    const again = (await value(page)).layers.xiong_grad_norm.values;
    assert(again.every((x, l) => Object.is(x, m.values[l])), 'the matrices at initialisation, unchanged by the step');
    // and the stream's view, one further up
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await waitFor(page, () => /Gradient norm ‖∂L\/∂x‖ at layer 0/.test(document.querySelector('[data-ap-root] [data-el="depth-summary"]').textContent), null,
      () => 'the summary did not switch to the stream', 10_000);
  });

  test('Fit a tuned lens: a job of the pool on the trained stack, drawn beside the logit lens, named, and the same as ablate --tuned-lens', async ({ page, load, note }) => {
    await load('/?preset=text&depth=4&steps=300');
    await waitFor(page, () => window.ablationPlayground.value?.finished, null, 'the run did not finish its 300 steps', 60_000);
    const button = page.getByRole('button', { name: 'Fit a tuned lens' });
    assert(await button.isVisible(), 'the button is shown on a sequence task');
    const before = await canvasHash(page, 'readout');
    // by keyboard, as a reader without a mouse would
    await button.focus();
    await page.keyboard.press('Enter');
    note('waiting for the lens to be fitted');
    await waitFor(page, () => window.ablationPlayground.value.tuned_lens?.done, null,
      () => 'the tuned lens was not fitted', 60_000);
    const v = await value(page);
    const lens = v.tuned_lens;
    assert(lens.step === 300 && lens.fit_steps === 250 && lens.failed === null, `the lens of the stack at step 300: ${JSON.stringify(lens)}`);
    const cli = await ablate(['--preset', 'text', '--depth', '4', '--steps', '300', '--tuned-lens']);
    const expected = cli.layers.tuned_readout_loss;
    assert(lens.readout_loss.length === 5 && lens.readout_loss.every((x, l) => Object.is(x, expected[l])), `page ${lens.readout_loss}, CLI ${expected}`);
    // at the top the lens is the identity: the model's own held-out loss
    assert(Object.is(lens.readout_loss[4], v.val_loss), `the top reads the model's loss: ${lens.readout_loss[4]} vs ${v.val_loss}`);
    await page.waitForTimeout(400);
    assert((await canvasHash(page, 'readout')) !== before, 'the tuned lens is drawn');
    const { summary, label } = await named(page, 'readout');
    assert(summary === label && /A tuned lens fitted to the stack at step 300 \(a map of its own for each layer, Belrose et al\. 2023\) reads x_2 at [0-9.]+ against the logit lens's [0-9.]+/.test(summary), `the lens in words: ${summary}`);
    // what the upper layers contribute: the share of the lens's gain from x_0 made above x_2
    const t = lens.readout_loss;
    const share = Math.round((100 * (t[2] - t[4])) / (t[0] - t[4]));
    const said = Number(summary.match(/the upper half of the layers makes ([0-9.]+)% of its gain from x₀ to the top/)?.[1]);
    assert(Math.abs(said - share) <= 1, `the upper half's share: said ${said}, computed ${share}: ${summary}`);
    // a changed setting restarts the run, and the lens of the old stack goes
    await page.getByLabel('Depth').fill('3');
    await waitFor(page, () => window.ablationPlayground.value.tuned_lens === null, null, () => 'the old stack\'s lens stayed', 10_000);
    // the regression has no next-token distribution: no button
    await page.goto('about:blank');
    await load('/?depth=4&steps=10');
    assert(!(await button.isVisible()), 'no tuned lens on the regression');
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
