// End-to-end tests of the layer knockout (docs/using.md, "Comparing"): its bars have text
// alternatives, it is measured on the trained stack with the numbers of ablate --knockout, on
// the text against the gain below the bigram line, on copy with the copied share, and over
// seeds.
//
// Registered into run.mjs's runner, so every test here also fails on any console error,
// uncaught exception, failed request or visible error box.

import { ablate } from './lib.mjs';
import { assert, test, waitFor } from './harness.mjs';

export default function registerKnockoutTests() {
  const value = (page) => page.evaluate(() => window.ablationPlayground.value);
  const el = (page, name) => page.locator(`main[data-ap-root] [data-el="${name}"]`);

  test('the knockout bars have text alternatives, measured on the trained stack', async ({ page, load }) => {
    await load('/?depth=6&steps=300');
    await waitFor(page, () => window.ablationPlayground.value.finished, null, 'the run did not finish', 20_000);
    await page.getByRole('button', { name: 'Knock out layers' }).click();
    await waitFor(page, () => window.ablationPlayground.value.knockout?.loss.length === 6, null, 'the knockout did not finish', 20_000);
    const k = (await value(page)).knockout;
    assert(k.step === 300, `measured at the run's step: ${k.step}`);
    const probe = JSON.parse(await page.evaluate(() => window.ablationPlayground.playground.stateJson())).now.probe_loss;
    assert(Object.is(k.intact_loss, probe), `the intact loss is the live probe loss: ${k.intact_loss} vs ${probe}`);
    const label = await el(page, 'knockout').getAttribute('aria-label');
    assert(/^At step 300, knocking out layer \d hurts most/.test(label) && label.length < 400, `the canvas's name is two sentences: ${label}`);
    const cells = await page.locator('main[data-ap-root] [data-el="knockout-table"] tbody tr').evaluateAll((rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
    assert(cells.length === 6, `a row per layer: ${JSON.stringify(cells)}`);
    assert(await page.locator('main[data-ap-root] [data-el="knockout-details"]').evaluate((d) => d.open), 'six rows: the table is open');
    for (let l = 0; l < 6; l++) assert(cells[l][0] === String(l) && /^[0-9.e-]+$/.test(cells[l][1]), `layer ${l}'s row: ${cells[l]}`);
    const cli = await ablate(['--depth', '6', '--steps', '300', '--knockout']);
    for (let l = 0; l < 6; l++) assert(Object.is(cli.knockout.loss[l], k.loss[l]), `layer ${l}: page ${k.loss[l]}, CLI ${cli.knockout.loss[l]}`);
  });

  test('the knockout on the text judges removals against the gain below the bigram line, which the worker measured (the page thread holds no text)', async ({ page, load }) => {
    await load('/?preset=text&depth=4&width=16&heads=2&steps=400');
    await waitFor(page, () => window.ablationPlayground.value.finished, null, 'the run did not finish', 60_000);
    await page.getByRole('button', { name: 'Knock out layers' }).click();
    await waitFor(page, () => window.ablationPlayground.value.knockout?.random_k?.length > 0, null, 'the knockout did not finish', 60_000);
    const k = (await value(page)).knockout;
    const cli = await ablate(['--preset', 'text', '--depth', '4', '--width', '16', '--heads', '2', '--steps', '400', '--knockout']);
    assert(Object.is(k.intact_val_loss, cli.knockout.intact_val_loss), `the intact stack: page ${k.intact_val_loss}, CLI ${cli.knockout.intact_val_loss}`);
    const label = await el(page, 'knockout').getAttribute('aria-label');
    const below = cli.task.floors.bigram > cli.knockout.intact_val_loss;
    const rule = below ? /(lose under 10% of the gain below the bigram line|over 10% of that gain)/ : /(cost under 10%|over 10%)/;
    assert(rule.test(label), `judged by the gain below the bigram line (${cli.task.floors.bigram}) when the stack is below it (${cli.knockout.intact_val_loss}): ${label}`);
  });

  test('the knockout on copy: held-out loss and copied share per layer, the upper k and k at random, drawn, tabled and named as ablate --knockout measures them', async ({ page, load }) => {
    await load('/?preset=copy&depth=6&steps=300');
    await waitFor(page, () => window.ablationPlayground.value.finished, null, 'the run did not finish', 30_000);
    await page.getByRole('button', { name: 'Knock out layers' }).click();
    await waitFor(page, () => window.ablationPlayground.value.knockout?.random_k?.length > 0, null, 'the knockout did not finish', 60_000);
    const k = (await value(page)).knockout;
    const cli = await ablate(['--preset', 'copy', '--depth', '6', '--steps', '300', '--knockout']);
    const same = (a, b) => Object.is(a, b) || (a === null && b === null);
    assert(k.top_k.length === 6 && k.top_k.every((t, i) => t.k === i + 1), `the upper k for k = 1..6: ${JSON.stringify(k.top_k)}`);
    assert(JSON.stringify(k.random_k.map((r) => [r.k, r.draws])) === '[[1,5],[2,5],[3,5],[4,5]]', `k at random: ${JSON.stringify(k.random_k)}`);
    for (const field of ['top_k', 'random_k']) {
      for (const [i, r] of k[field].entries()) {
        const c = cli.knockout[field][i];
        assert(['loss', 'val_loss', 'accuracy'].every((f) => same(r[f], c[f])), `${field}[${i}]: page ${JSON.stringify(r)}, CLI ${JSON.stringify(c)}`);
      }
    }
    assert(k.val_loss.every((x, l) => same(x, cli.knockout.val_loss[l])) && same(k.intact_accuracy, cli.knockout.intact_accuracy), 'per layer, the held-out numbers are the CLI\'s');
    const label = await el(page, 'knockout').getAttribute('aria-label');
    assert(/^At step 300, knocking out layer \d hurts most \(held-out loss /.test(label), `judged on the held-out set: ${label}`);
    assert(/Removed together, (the upper \d keep 95% of the copying|even without the top layer it copies less than 95% as well); (\d at random, too|even one at random costs more) \(median of 5 draws\)\.$/.test(label), `the removals in words, by the share copied: ${label}`);
    const rows = await page.locator('main[data-ap-root] [data-el="knockout-removals"] tbody tr').evaluateAll((rs) => rs.map((r) => [...r.cells].map((c) => c.textContent)));
    assert(rows.length === 6 && rows.every((r, i) => r[0] === String(i + 1) && r.length === 5), `a row per k, the copied share beside each loss: ${JSON.stringify(rows)}`);
    assert(/%$/.test(rows[0][2]) && rows[5][3] === '–', `shares in percent, no random draw of all 6: ${JSON.stringify(rows)}`);
    const head = await page.locator('main[data-ap-root] [data-el="knockout-table"] thead th').allTextContents();
    assert(head.length === 4 && /^held-out loss/.test(head[1]) && /^copied/.test(head[2]), `the per-layer table's columns: ${head}`);
    // the panel is wide, and both halves are drawn (the curves' colours on the right)
    const drawn = await page.evaluate(() => {
      const c = document.querySelector('main[data-ap-root] [data-el="knockout"]');
      const ctx = c.getContext('2d');
      const half = (x0) => {
        const d = ctx.getImageData(x0, 0, c.width / 2, c.height).data;
        const seen = new Set();
        for (let i = 0; i < d.length; i += 4 * 7) seen.add(`${d[i] >> 4},${d[i + 1] >> 4},${d[i + 2] >> 4}`);
        return seen.size;
      };
      return { left: half(0), right: half(c.width / 2), wide: c.closest('figure').classList.contains('ap-wide') };
    });
    assert(drawn.wide && drawn.left > 4 && drawn.right > 4, `both halves drawn: ${JSON.stringify(drawn)}`);
  });

  test('the knockout over 3 seeds measures each seed\'s stack as ablate --knockout --seeds 3 does, and says on how many seeds its layer hurts most', async ({ page, load }) => {
    await load('/?depth=4&width=8&tokens=8&steps=60&seeds=3');
    await waitFor(page, () => window.ablationPlayground.value.finished, null, 'the run did not finish', 20_000);
    await page.getByRole('button', { name: 'Knock out layers' }).click();
    await waitFor(page, () => window.ablationPlayground.value.knockout?.seeds?.length === 3, null, 'the knockout over 3 seeds did not finish', 30_000);
    const k = (await value(page)).knockout;
    const cli = await ablate(['--depth', '4', '--width', '8', '--tokens', '8', '--steps', '60', '--knockout', '--seeds', '3']);
    for (let i = 0; i < 3; i++) {
      const [a, b] = [cli.knockout.seeds[i], k.seeds[i]];
      assert(a.seed === b.seed && a.loss.every((x, l) => Object.is(x, b.loss[l])), `seed ${b.seed}: page ${b.loss}, CLI ${a.loss}`);
    }
    const label = await el(page, 'knockout').getAttribute('aria-label');
    assert(/^Over 3 seeds' stacks \(medians\), at step 60, knocking out layer \d hurts most on \d of 3 seeds/.test(label), label);
  });
}
