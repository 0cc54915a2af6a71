// End-to-end tests of the comparisons (docs/using.md, "Comparing"): pins survive a switch and come
// back from a copied link, All four fills its table with the CLI's numbers, the depth sweep
// fills in without blocking the page, and an element that shows only a comparison panel runs it
// and reports it in its events. The knockout's are knockout-tests.mjs; the split step's
// split-tests.mjs.
//
// Registered into run.mjs's runner, so every test here also fails on any console error,
// uncaught exception, failed request or visible error box.

import { ablate, TEST_PAGES } from './lib.mjs';
import { assert, test, waitFor } from './harness.mjs';

TEST_PAGES.set('/__test/compare.html', () =>
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>compare</title>' +
    '<script type="module" src="/www/ablation-playground.js"></script></head><body>' +
    '<ablation-playground id="c" depth="4" width="16" tokens="8" panels="compare,loss" pin="depth:4,width:16,tokens:8,residual:off@30"></ablation-playground></body></html>',
);

export default function registerCompareTests() {
  const value = (page) => page.evaluate(() => window.ablationPlayground.value);
  const el = (page, name) => page.locator(`main[data-ap-root] [data-el="${name}"]`);

  test('a run past the pins\' 100 000 steps is not pinned: a notice says why and the widget trains on', async ({ page, load }) => {
    await load('/?depth=1&width=8&tokens=4&steps=100001');
    await waitFor(page, () => window.ablationPlayground.value.finished, null, 'the run did not finish its 100 001 steps', 60_000);
    await page.getByRole('button', { name: 'Pin', exact: true }).click();
    const notice = el(page, 'notice');
    await waitFor(page, () => /at most 100000 steps/.test(document.querySelector('main [data-el="notice"]').textContent), null,
      async () => `no notice about the pin's step limit: ${await notice.textContent()}`);
    assert((await value(page)).pins.length === 0, 'the run was pinned');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await waitFor(page, () => window.ablationPlayground.value.step > 100_001, null, 'Play did not continue the run after the refused pin');
  });

  test('pin, flip a switch, Copy link: a fresh page recomputes the pin with the same label and values', async ({ page, load, context }) => {
    await load('/?depth=6&steps=200');
    await waitFor(page, () => window.ablationPlayground.value.finished, null, 'the run did not finish its 200 steps', 20_000);
    await page.getByRole('button', { name: 'Pin', exact: true }).click();
    await page.getByRole('switch', { name: 'Residual' }).click();
    // computed, and labelled against the live run with the residual now off
    await waitFor(page, () => window.ablationPlayground.value.pins[0]?.done && window.ablationPlayground.value.residual === 'off'
      && window.ablationPlayground.value.pins[0].label.includes('Residual ON'), null,
      async () => `the pin was not computed and labelled: ${JSON.stringify((await value(page)).pins)}`, 20_000);
    const pinned = (await value(page)).pins[0];
    assert(pinned.label === 'pinned: Residual ON · step 200', `the label says what differs: ${pinned.label}`);
    assert(pinned.pin === 'depth:6,steps:200@200' || pinned.pin === 'depth:6@200', `the pin's text: ${pinned.pin}`);
    // the list and the loss summary are drawn from the frame after the pin's report: wait for them
    await waitFor(page, () => document.querySelector('main [data-el="pins"]').textContent.includes('pinned: Residual ON · step 200'), null,
      async () => `the pins list does not show the label: ${(await el(page, 'pins').textContent()).trim()} (pins ${JSON.stringify((await value(page)).pins)})`);
    await waitFor(page, () => document.querySelector('main [data-el="loss-summary"]').textContent.includes('Pinned runs: pin 1 (Residual ON · step 200): loss'), null,
      async () => `the loss summary does not include the pin: ${await el(page, 'loss-summary').textContent()} (pins ${JSON.stringify((await value(page)).pins)})`);
    const remove = page.getByRole('button', { name: /^Remove pin 1: pinned: Residual ON/ });
    assert((await remove.count()) === 1, 'the pin has a named Remove button');

    await page.getByRole('button', { name: 'Copy link' }).click();
    const link = await el(page, 'link').inputValue();
    assert(link.includes('pin=') && link.includes('residual=off'), `the link carries the pin: ${link}`);
    const fresh = await context.newPage();
    await fresh.goto(link);
    await waitFor(fresh, () => window.ablationPlayground?.value?.pins?.[0]?.done, null, 'the fresh page did not recompute the pin', 30_000);
    const again = (await value(fresh)).pins[0];
    assert(again.label === pinned.label, `label in the fresh page: ${again.label}`);
    assert(Object.is(again.loss, pinned.loss) && again.step === pinned.step, `the pin's loss: ${again.loss} vs ${pinned.loss}`);

    // a double click on Remove removes one pin, not also the next one
    await page.getByRole('button', { name: 'Pin', exact: true }).click();
    await waitFor(page, () => window.ablationPlayground.value.pins.length === 2 && document.querySelectorAll('main [data-el="pins"] button').length === 2, null,
      'the second pin was not listed');
    await remove.dblclick();
    await waitFor(page, () => window.ablationPlayground.value.pins.length < 2 && document.querySelectorAll('main [data-el="pins"] button').length === 1, null,
      'a double click on Remove did not leave one pin listed');
    await page.waitForTimeout(300);
    assert((await value(page)).pins.length === 1, `a double click on Remove removed ${2 - (await value(page)).pins.length} pins`);

    // removed from the keyboard; the focus moves to Pin
    const last = page.getByRole('button', { name: /^Remove pin 1: / });
    await last.focus();
    await page.keyboard.press('Enter');
    await waitFor(page, () => window.ablationPlayground.value.pins.length === 0, null, 'Enter on Remove did not remove the pin');
    assert(await page.evaluate(() => document.activeElement?.dataset.el === 'pin'), 'after Remove the focus is not on Pin');
    await waitFor(page, () => document.querySelector('main [data-el="pins"]').hidden, null, 'an empty pins list is hidden');
    await waitFor(page, () => !location.search.includes('pin='), null, 'the address still has the pin');
  });

  test('All four fills a four-row table with the numbers of ablate --compare', async ({ page, load }) => {
    await load('/?depth=6&width=16&tokens=8&autoplay=off');
    await page.getByRole('button', { name: 'All four' }).click();
    await waitFor(page, () => window.ablationPlayground.value.compare?.runs.every((r) => r.done), null, 'All four did not finish', 40_000);
    const rows = await el(page, 'compare-table').locator('tbody tr').count();
    assert(rows === 4, `the table has ${rows} rows`);
    const header = await el(page, 'compare-table').locator('thead th').allTextContents();
    assert(header.includes('loss after 500 steps'), `header: ${header}`);
    const cli = await ablate(['--depth', '6', '--width', '16', '--tokens', '8', '--steps', '500', '--compare']);
    const web = (await value(page)).compare.runs;
    for (let i = 0; i < 4; i++) {
      const [a, b] = [cli.compare[i], web[i]];
      assert(a.residual === b.residual && a.norm === b.norm, `row ${i}: ${b.residual}/${b.norm} vs ${a.residual}/${a.norm}`);
      for (const k of ['init_top_std', 'grad_ratio', 'final_loss']) assert(Object.is(a[k], b[k]), `row ${i} ${k}: page ${b[k]}, CLI ${a[k]}`);
    }
    const cells = await el(page, 'compare-table').locator('tbody tr').first().locator('td').allTextContents();
    assert(cells[0] === 'both off', `first row: ${cells}`);
  });

  test('over 3 seeds at tuned rates All four counts its rounds and runs, draws a band, names each rate, and equals ablate --seeds 3 --tune', async ({ page, load }) => {
    await load('/?depth=6&width=16&tokens=8&autoplay=off&seeds=3&tune=on');
    const before = await value(page);
    assert(before.seeds === 3 && before.tune === 'on', `seeds and tune reach .value: ${before.seeds}, ${before.tune}`);
    // every text the panel's sentence takes, from the click on
    await page.evaluate(() => {
      const caption = document.querySelector('main[data-ap-root] [data-panel="compare"] figcaption');
      window.captions = [];
      new MutationObserver(() => window.captions.push(caption.textContent)).observe(caption, { childList: true, characterData: true, subtree: true });
    });
    await page.getByRole('button', { name: 'All four' }).click();
    await waitFor(page, () => window.ablationPlayground.value.compare?.runs.every((r) => r.done), null, 'All four over 3 seeds did not finish', 180_000);
    const captions = await page.evaluate(() => window.captions);
    const progress = captions.map((t) => /\((?:round (\d) of (\d), )?(\d+) of (\d+) runs/.exec(t)).filter(Boolean);
    const rounds = progress.filter((m) => m[1]).map((m) => Number(m[1]));
    assert(rounds.includes(1) && rounds.some((r) => r > 1) && progress.some((m) => !m[1]), `the progress line counts the rounds, then the runs: ${captions.slice(0, 3)} … ${captions.at(-1)}`);
    const counts = progress.map((m) => Number(m[3]));
    assert(counts.every((k, i) => i === 0 || k >= counts[i - 1]), `and never goes back: ${counts}`);
    const compare = (await value(page)).compare;
    assert(compare.runs_total === compare.runs_finished && compare.runs_total > 12 && compare.round === null, `every job counted: ${compare.runs_finished} of ${compare.runs_total}, round ${compare.round}`);
    const cli = await ablate(['--depth', '6', '--width', '16', '--tokens', '8', '--steps', '500', '--compare', '--seeds', '3', '--tune']);
    for (let i = 0; i < 4; i++) {
      const [a, b] = [cli.compare[i], compare.runs[i]];
      assert(Object.is(a.lr, b.lr) && JSON.stringify(a.tuning) === JSON.stringify(b.tuning), `row ${i}: ${JSON.stringify(b.tuning)}, CLI ${JSON.stringify(a.tuning)}`);
      assert(Object.is(a.median_final_loss, b.median_final_loss), `row ${i} median: page ${b.median_final_loss}, CLI ${a.median_final_loss}`);
      assert(b.runs.map((r) => r.seed).join() === '1,2,3', `row ${i} seeds: ${b.runs.map((r) => r.seed)}`);
      for (let k = 0; k < 3; k++) assert(Object.is(a.runs[k].final_loss, b.runs[k].final_loss), `row ${i} seed ${k + 1}: page ${b.runs[k].final_loss}, CLI ${a.runs[k].final_loss}`);
    }
    const header = await el(page, 'compare-table').locator('thead th').allTextContents();
    assert(header.at(-1) === 'learning rate (chosen on seeds 4–6)' && header.at(-2) === 'plateaued', `the table names the tuned rate, the seeds that chose it, and the plateau: ${header}`);
    const cells = await el(page, 'compare-table').locator('tbody tr').nth(3).locator('td').allTextContents();
    assert(/^[0-9.e-]+ \[[0-9.e-]+–[0-9.e-]+\]$/.test(cells[3]) && /^[0-9.e-]+( \((lowest|highest) allowed\))?$/.test(cells[6]) && /^\d of 3$/.test(cells[5]), `a row says median [min–max], whether its runs plateaued and its rate: ${cells}`);
    // the band: pixels of both on's colour at the band's alpha over the background
    const tinted = () => page.evaluate(() => {
      const root = document.querySelector('main[data-ap-root]');
      const rgb = (name) => getComputedStyle(root.querySelector(`[data-colour="${name}"]`)).color.match(/\d+/g).map(Number);
      const [bg, now] = [rgb('background'), rgb('now')];
      const want = bg.map((b, i) => b + 0.18 * (now[i] - b));
      const canvas = root.querySelector('[data-el="compare"]');
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let p = 0; p < data.length; p += 4) if (want.every((w, i) => Math.abs(data[p + i] - w) <= 4)) n++;
      return n;
    });
    const band = await tinted();
    assert(band > 300, `the band is drawn: ${band} pixels of its colour`);
    // one seed, the same comparison: no band
    await page.evaluate(async () => {
      window.ablationPlayground.set('seeds', 1);
      await window.ablationPlayground.compare();
    });
    await waitFor(page, () => window.ablationPlayground.value.compare?.runs.every((r) => r.done && r.runs.length === 1), null, 'All four over 1 seed did not finish', 120_000);
    const none = await tinted();
    assert(none < band / 5, `one seed draws no band: ${none} pixels against ${band}`);
  }, { timeoutMs: 300_000 });

  test('tuned All four on the text: the sentence names the seeds that chose and the seeds shown, and any arm at a limit; the page equals ablate', async ({ page, load }) => {
    await load('/?preset=text&depth=2&width=16&autoplay=off&seeds=2&choose_seeds=2&tune=on');
    await page.getByRole('button', { name: 'All four' }).click();
    await waitFor(page, () => window.ablationPlayground.value.compare?.runs.every((r) => r.done), null,
      async () => `the tuned All four on the text did not finish: ${JSON.stringify((await value(page)).compare?.runs.map((r) => r.tuning?.rounds))}`, 240_000);
    const compare = (await value(page)).compare;
    const sentence = await el(page, 'compare').getAttribute('aria-label');
    assert(/over seeds 1–2, each arm's learning rate chosen on seeds 3–4 \(not shown\) by successive halving over rates half a decade apart/.test(sentence), `the sentence names the seeds: ${sentence}`);
    const names = { 'off/off': 'both off', 'off/pre': 'LayerNorm alone \\(pre\\)', 'on/off': 'residual alone', 'on/pre': 'both on \\(pre\\)' };
    for (const r of compare.runs) {
      const t = r.tuning;
      assert(t.choosing_seeds.join() === '3,4' && t.reporting_seeds.join() === '1,2' && r.runs.every((x) => x.lr === t.chosen.lr), `${JSON.stringify(t)}`);
      const said = new RegExp(`${names[`${r.residual}/${r.norm}`]}'s best rate is the (lowest|highest) allowed`).test(sentence);
      assert(said === (t.limit !== null) && t.bracketed.lr === (t.limit === null), `an arm at a limit is said, a bracketed one is not: ${JSON.stringify(t)} in ${sentence}`);
      assert(r.converged.length === 2 && r.converged.every((c) => typeof c === 'boolean'), `whether each run plateaued: ${r.converged}`);
    }
    const cli = await ablate(['--preset', 'text', '--depth', '2', '--width', '16', '--compare', '--seeds', '2', '--choose-seeds', '2', '--tune']);
    for (let i = 0; i < 4; i++) {
      const [a, b] = [cli.compare[i], compare.runs[i]];
      assert(JSON.stringify(a.tuning) === JSON.stringify(b.tuning) && Object.is(a.median_final_loss, b.median_final_loss), `row ${i}: page ${JSON.stringify(b.tuning)} ${b.median_final_loss}, CLI ${JSON.stringify(a.tuning)} ${a.median_final_loss}`);
    }
  }, { timeoutMs: 420_000 });

  test('a pin keeps its seeds: each is its run at that seed, and the loss panel says their spread', async ({ page, load }) => {
    await load('/?depth=4&width=8&tokens=8&autoplay=off&seeds=2&pin=depth:4,width:8,tokens:8,seeds:2@30');
    await waitFor(page, () => window.ablationPlayground.value.pins?.[0]?.done, null, 'the pin was not computed', 30_000);
    const pin = (await value(page)).pins[0];
    assert(pin.seeds.map((s) => s.seed).join() === '1,2' && pin.pin.includes('seeds:2'), `the pin keeps its seeds: ${JSON.stringify(pin)}`);
    for (const s of pin.seeds) {
      const cli = await ablate(['--depth', '4', '--width', '8', '--tokens', '8', '--steps', '30', '--seed', String(s.seed)]);
      assert(s.step === 30 && Object.is(s.loss, cli.loss[29]), `seed ${s.seed}: page ${s.loss} at step ${s.step}, CLI ${cli.loss[29]}`);
    }
    const summary = await el(page, 'loss-summary').textContent();
    assert(/pin 1 \([^)]*\): loss [0-9.e-]+, 2 seeds: [0-9.e-]+ \[[0-9.e-]+–[0-9.e-]+\]/.test(summary), summary);
  });

  test('All four on the text task trains as long as the task needs: 1500 steps, both on below the bigram line, the CLI\'s numbers', async ({ page, load }) => {
    await load('/?preset=text&autoplay=off');
    await page.getByRole('button', { name: 'All four' }).click();
    await waitFor(page, () => window.ablationPlayground.value.compare?.runs.every((r) => r.done), null, 'All four on text did not finish', 120_000);
    const compare = (await value(page)).compare;
    assert(compare.steps === 1500, `All four on text trains 1500 steps: ${compare.steps}`);
    const header = await el(page, 'compare-table').locator('thead th').allTextContents();
    assert(header.some((h) => h.includes('1500 steps')), `the table says the count: ${header}`);
    const cli = await ablate(['--preset', 'text', '--compare']);
    for (let i = 0; i < 4; i++) {
      for (const k of ['final_loss', 'val_loss']) assert(Object.is(cli.compare[i][k], compare.runs[i][k]), `row ${i} ${k}: page ${compare.runs[i][k]}, CLI ${cli.compare[i][k]}`);
    }
    const bothOn = compare.runs.find((r) => r.residual === 'on' && r.norm === 'pre');
    assert(bothOn.val_loss < 2.46, `both on crosses the bigram line: ${bothOn.val_loss}`);
    for (const r of compare.runs.filter((x) => x !== bothOn)) assert(!(r.val_loss < 2.46), `${r.residual}/${r.norm} stays above it: ${r.val_loss}`);
  }, { timeoutMs: 240_000 }); // four runs of 1500 steps on the page, then the same four natively

  test('a comparison job that fails is said once, in its row and a notice; its worker is replaced and the other rows finish', async ({ page, load }) => {
    // the test's injection: the first job sent to a worker of the pool arrives damaged, so
    // that the worker cannot read it (as a job whose wasm fails would)
    await page.addInitScript(() => {
      const post = Worker.prototype.postMessage;
      let damaged = false;
      Worker.prototype.postMessage = function (m, ...rest) {
        if (m?.kind === 'job' && !damaged) {
          damaged = true;
          m.bytes[0] ^= 0xff;
        }
        return post.call(this, m, ...rest);
      };
    });
    await load('/?depth=6&width=16&tokens=8&autoplay=off');
    await page.getByRole('button', { name: 'All four' }).click();
    await waitFor(page, () => window.ablationPlayground.value.compare?.runs.every((r) => r.done), null,
      async () => `All four did not finish around its failed job: ${JSON.stringify((await value(page)).compare?.runs.map((r) => [r.done, r.failed]))}`, 40_000);
    const v = await value(page);
    const failed = v.compare.runs.filter((r) => r.failed);
    assert(failed.length === 1 && /job/i.test(failed[0].failed), `one row failed, with its reason: ${JSON.stringify(v.compare.runs.map((r) => r.failed))}`);
    assert(v.compare.runs.filter((r) => !r.failed).every((r) => Number.isFinite(r.final_loss)), 'the other three finished');
    assert(v.failures?.length === 1 && v.failures[0].includes(failed[0].failed), `.value.failures: ${JSON.stringify(v.failures)}`);
    const cells = await el(page, 'compare-table').locator('tbody td').allTextContents();
    assert(cells.filter((c) => c.startsWith('failed: ')).length === 1, `the table says it once: ${cells}`);
    const notices = await page.textContent('[data-ap-root] [data-el="notice"]');
    assert((notices.match(/a comparison failed/g) ?? []).length === 1, `one notice: ${notices}`);
    // the chart's words say it too (its curve is labelled "(failed)")
    const summary = await page.textContent('[data-ap-root] [data-el="compare-summary"]');
    assert(/failed \(/.test(summary), `the chart's summary: ${summary}`);
    // the pool goes on: a second All four runs whole
    await page.getByRole('button', { name: 'All four', exact: true }).click();
    await waitFor(page, () => window.ablationPlayground.value.compare?.runs.every((r) => r.done && !r.failed), null, 'a second All four did not finish whole', 40_000);
  });

  test('a comparisons\' worker that does not start is replaced on its own; the jobs stay off the page\'s thread', async ({ page, load }) => {
    // the test's injection: the first worker of the pool never hears its boot message, so it
    // never starts (as a worker too slow to load would), and the pool gives up on it
    await page.addInitScript(() => {
      const post = Worker.prototype.postMessage;
      let dropped = false;
      Worker.prototype.postMessage = function (m, ...rest) {
        if (m?.kind === 'boot' && m.role === 'jobs' && !dropped) {
          dropped = true;
          return undefined;
        }
        return post.call(this, m, ...rest);
      };
    });
    await load('/?depth=6&width=16&tokens=8&autoplay=off');
    await page.getByRole('button', { name: 'All four' }).click();
    await waitFor(page, () => window.ablationPlayground.value.compare?.runs.every((r) => r.done && !r.failed), null, 'All four did not finish after its first worker failed to start', 45_000);
    const info = await page.evaluate(() => window.ablationPlayground.playground.workers);
    assert(info.pool.mode === 'worker' && info.pool.workers.every((w) => w.id > 2), `the jobs stayed in workers, the first one replaced: ${JSON.stringify(info)}`);
    const notices = await page.textContent('[data-ap-root] [data-el="notice"]');
    assert(/did not start .*another takes its place/.test(notices), `a notice says so: ${notices}`);
  }, { timeoutMs: 90_000 });

  test('the depth sweep fills in at depth 96 and no main-thread task exceeds 50 ms', async ({ page, baseUrl }) => {
    await page.addInitScript(() => {
      window.__long = [];
      new PerformanceObserver((list) => window.__long.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
    });
    await page.goto(`${baseUrl}/?depth=96&panels=sweep,loss`);
    await waitFor(page, () => window.ablationPlayground?.value?.sweep?.runs_finished >= 4, null, 'the sweep did not start filling in', 30_000);
    const first = (await value(page)).sweep.runs_finished;
    await page.evaluate(() => (window.__long = []));
    await page.waitForTimeout(8000);
    const v = await value(page);
    assert(v.sweep.runs_finished > first, `the sweep fills in: ${first} → ${v.sweep.runs_finished} runs`);
    assert(v.step > 0, 'the live run trains beside it');
    const long = await page.evaluate(() => window.__long);
    assert(long.length === 0, `main-thread tasks over 50 ms while the sweep ran: ${long.map((d) => d.toFixed(0)).join(', ')} ms`);
    // the sentence and the canvas's name, read together once they agree: the sweep goes on
    // filling in, and two reads apart could see two of its frames
    const named = () => {
      const root = document.querySelector('main[data-ap-root]');
      const summary = root.querySelector('[data-el="sweep-summary"]').textContent;
      return summary === root.querySelector('[data-el="sweep"]').getAttribute('aria-label') && summary;
    };
    await waitFor(page, named, null, async () => `the canvas is named by the sentence: ${JSON.stringify(await el(page, 'sweep').getAttribute('aria-label'))}`);
    const summary = await page.evaluate(named);
    assert(/^After \d+ steps at depth \d+, .* ends lowest/.test(summary) && summary.length < 400, `the sweep's summary is one sentence: ${summary}`);
    const rows = await page.locator('main[data-ap-root] [data-el="sweep-table"] tbody tr').count();
    assert(rows >= 1, `the sweep's numbers are a table: ${rows} rows`);
    const cell = await page.locator('main[data-ap-root] [data-el="sweep-table"] tbody tr').first().locator('td').nth(1).textContent();
    assert(/^[0-9.e-]+, [0-9.e-]+ · (not )?plateaued$|^✕/.test(cell), `a cell holds the loss, the gradient ratio and whether the run plateaued: ${cell}`);
    assert(await el(page, 'histogram').isHidden(), 'panels=sweep,loss hides the histogram');
  });

  test('an element showing All four runs it, reports it in playground-update, and recomputes its pin attribute', async ({ page, baseUrl }) => {
    await page.goto(`${baseUrl}/__test/compare.html`);
    await page.evaluate(() => {
      window.updates = [];
      document.getElementById('c').addEventListener('playground-update', (e) => window.updates.push(e.detail));
    });
    await waitFor(page, () => window.updates.some((d) => d.compare?.runs.every((r) => r.done)), null, 'no playground-update carried a finished comparison', 40_000);
    const shown = await page.evaluate(() =>
      [...document.getElementById('c').shadowRoot.querySelectorAll('[data-panel]')].filter((p) => !p.hidden).map((p) => p.dataset.panel));
    assert(shown.join() === 'loss,compare', `only the loss and compare panels show: ${shown}`);
    // the comparisons' methods return promises, like the other commands
    const promises = await page.evaluate(async () => {
      const c = document.getElementById('c');
      const out = [];
      for (const m of ['compare', 'knockout']) {
        const p = c[m]();
        out.push(p instanceof Promise);
        await p;
      }
      return out;
    });
    assert(promises.every(Boolean), `compare() and knockout() return promises: ${promises}`);
    const v = await page.evaluate(() => document.getElementById('c').value);
    assert(v.compare.depth === 4 && v.compare.runs.length === 4, `.value.compare: ${JSON.stringify(v.compare).slice(0, 200)}`);
    // the pin attribute: recomputed, labelled against the live run, and in the loss panel's text
    await waitFor(page, () => document.getElementById('c').value?.pins?.[0]?.done, null, 'the pin attribute was not computed');
    const pin = (await page.evaluate(() => document.getElementById('c').value)).pins[0];
    assert(pin.label === 'pinned: Residual OFF · step 30' && pin.step === 30, `the attribute's pin: ${JSON.stringify(pin)}`);
    const summary = await page.evaluate(() => document.getElementById('c').shadowRoot.querySelector('[data-el="loss-summary"]').textContent);
    assert(summary.includes('Pinned runs: pin 1 (Residual OFF · step 30)'), summary);
  });
}
