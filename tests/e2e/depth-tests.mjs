// End-to-end tests of what depth buys (docs/findings.md, "What depth buys"): the induction task, which
// needs two attention layers, with its panels; and "Depth or width", stacks of one parameter
// budget from deep and narrow to shallow and wide, trained in the pool and timed.
//
// Registered into run.mjs's runner, so every test here also fails on any console error,
// uncaught exception, failed request or visible error box.

import { assert, test, waitFor } from './harness.mjs';

export default function registerDepthTests() {
  const value = (page) => page.evaluate(() => window.ablationPlayground.value);
  const text = (page, name) => page.textContent(`[data-ap-root] [data-el="${name}"]`);

  test('induction: the task trains two attention layers to repeat strings, marks mistakes and shows the two steps', async ({ page, load, note }) => {
    await load('/?preset=induction');
    const v = await value(page);
    assert(v.task === 'induction' && v.sublayer === 'attention' && v.depth === 2 && v.context === 24, `the preset: ${JSON.stringify(v).slice(0, 300)}`);
    assert((await page.locator('[data-ap-root] [data-el="task"]').inputValue()) === 'induction', 'the Task menu names it');
    note('waiting for the strings to be repeated');
    await waitFor(page, () => (window.ablationPlayground.value.accuracy ?? 0) >= 0.95, null,
      async () => `the held-out symbols copied right stayed at ${(await value(page)).accuracy}`, 120_000);
    const writes = await text(page, 'writes-text');
    assert(writes.split('\n').length === 3 && writes.split('\n').every((l) => l.includes('|')), `three held-out strings and their repeats: ${writes}`);
    assert(/% copied/.test(await text(page, 'status')), 'the status line says how much is copied');
    // layer 1's heads look just after the current symbol's earlier occurrence
    const select = page.locator('[data-ap-root] [data-panel="attention"] select');
    assert(sameList(await select.locator('option').allTextContents(), ['0', '1']), 'both layers attend');
    await select.selectOption('1');
    await waitFor(page, () => /Looking just after the current symbol's earlier occurrence, where the symbol to write stands: head \d/.test(
      document.querySelector('[data-ap-root] [data-el="attention-summary"]').textContent), null,
      async () => `no look-up head named: ${await text(page, 'attention-summary')}`);
  });

  test('"Depth or width": the button trains stacks of one budget in the pool, with a sentence, a chart and a table', async ({ page, load, note }) => {
    await load('/?depth=12&steps=300');
    assert(!(await page.locator('[data-ap-root] [data-panel="depth-width"]').isVisible()), 'hidden until started');
    await page.getByRole('button', { name: 'Depth or width', exact: true }).click();
    assert(await page.locator('[data-ap-root] [data-panel="depth-width"]').isVisible(), 'shown once started');
    note('waiting for every shape');
    await waitFor(page, () => window.ablationPlayground.value.depth_width?.done, null, 'depth or width did not finish', 90_000);
    const d = (await value(page)).depth_width;
    assert(d.steps === 300 && d.runs.length >= 2, `the runs: ${JSON.stringify(d)}`);
    // the budget is the parameters without the embeddings (Kaplan's N); a head keeps its 8
    // features; the last shape is the control off the budget, the run's depth at the narrowest width
    const budget = d.runs.find((r) => r.depth === 12 && r.width === 32).non_embedding_params;
    const [control, shapes] = [d.runs.at(-1), d.runs.slice(0, -1)];
    for (const r of shapes) {
      assert(Math.abs(r.non_embedding_params - budget) <= 0.1 * budget, `${r.depth} × ${r.width}: ${r.non_embedding_params} parameters against ${budget}`);
      assert(r.final_loss > 0 && r.ms_per_step > 0 && r.ms_per_char === null && r.lr === 0.01, `${JSON.stringify(r)}`);
    }
    assert(d.runs.every((r) => r.head_dim === 8 && r.heads * 8 === r.width), `heads of 8 features: ${JSON.stringify(d.runs.map((r) => [r.width, r.heads]))}`);
    assert(shapes.length >= 5 && shapes.every((r, i) => i === 0 || (r.depth < shapes[i - 1].depth && r.width > shapes[i - 1].width)), 'deep and narrow first');
    assert(control.depth === 12 && control.width === Math.min(...shapes.map((r) => r.width)) && control.non_embedding_params < budget / 2, `the control: ${JSON.stringify(control)}`);
    const summary = await text(page, 'depth-width-summary');
    assert(/^After 300 steps, \d+ × \d+ ends lowest \(loss [0-9.e-]+\), against .+; each of about [0-9.e]+ parameters without the embeddings, heads of 8 features\. The control 12 × 16 \([0-9.k]+ parameters, off the budget\) ends at [0-9.e-]+\. At equal time, the [0-9.e-]+ ms the fastest shape takes for its 300 steps \(the others read where they had got\), \d+ × \d+ is lowest \([0-9.e-]+\)/.test(summary), `the sentence: ${summary}`);
    assert((await page.locator('[data-ap-root] [data-el="depth-width"]').getAttribute('aria-label')) === summary, 'the canvas is named by it');
    const rows = await page.locator('[data-ap-root] [data-el="depth-width-table"] tr').count();
    assert(rows === d.runs.length + 1, `a header and a row per shape: ${rows}`);
  });

  function sameList(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }
}
