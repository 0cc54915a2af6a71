// End-to-end tests of training off the page's thread (docs/using.md): frames come
// from a dedicated worker, frames of a restart that was superseded are never drawn, the
// largest valid setting keeps the page responsive, a run stops at its step limit and Play
// continues it, the element starts from another origin, and without a worker the widget
// trains on the page's thread and says so.
//
// Registered into run.mjs's runner, so every test here also fails on any console error,
// uncaught exception, failed request or visible error box.

import { ablate, clickAnswers, startServer, state, TEST_PAGES, timeClickAnswers, timeoutDelays } from './lib.mjs';
import './embedding.mjs'; // registers the test pages (`/__test/one.html`), for this suite alone too
import { assert, AssertionError, test, waitFor } from './harness.mjs';

const LARGEST = '/?depth=96&sublayer=block&width=128&tokens=256';

// Two playgrounds side by side, both in view.
TEST_PAGES.set('/__test/side-by-side.html', () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Two at once</title>
<script type="module" src="/www/ablation-playground.js"></script></head><body><main style="display: flex; gap: 8px">
<ablation-playground id="a" depth="12" steps="1000000" panels="loss" style="flex: 1"></ablation-playground>
<ablation-playground id="b" depth="24" steps="1000000" panels="loss" style="flex: 1"></ablation-playground></main></body></html>`);

export default function registerWorkerTests() {
  const pg = (page, expr) => page.evaluate(`window.ablationPlayground.playground.${expr}`);
  const statusText = (page) => page.locator('main[data-ap-root] [data-el="status"]').textContent();

  test('frames come from a dedicated worker and the page thread does not train', async ({ page, load }) => {
    await page.addInitScript(() => {
      // Count Worker constructions, so the test knows a worker was really started.
      const Native = window.Worker;
      window.__workers = 0;
      window.Worker = class extends Native {
        constructor(...args) {
          super(...args);
          window.__workers++;
        }
      };
    });
    await load('/?depth=12');
    assert((await pg(page, 'mode')) === 'worker', `training runs in mode ${await pg(page, 'mode')}`);
    assert((await page.evaluate(() => window.__workers)) === 1, 'exactly one worker was started');
    const a = await pg(page, 'step');
    await page.waitForTimeout(500);
    const b = await pg(page, 'step');
    assert(b > a, `the frames on screen advance: step ${a} → ${b}`);
    const m = await pg(page, 'memory');
    assert(m.engine > 0 && m.page > 0, `the worker reports its wasm memory: ${JSON.stringify(m)}`);
  });

  test('a replacement worker is sent the desired state and reaches the same frame', async ({ page, load }) => {
    await load('/?depth=4&width=16&tokens=8&steps=30');
    await waitFor(page, () => window.ablationPlayground.value.finished, null, 'the run did not finish its 30 steps');
    const before = JSON.parse(await pg(page, 'stateJson()'));
    const live = (await pg(page, 'workers')).live;
    await page.evaluate(() => window.ablationPlayground.playground.replaceWorker());
    // the new worker starts from the desired state (paused, the same settings), not a replay
    await waitFor(page, () => window.ablationPlayground.playground.settled && window.ablationPlayground.playground.step === 0, null,
      'the replacement worker did not answer the desired state');
    const now = await pg(page, 'workers');
    assert(now.live !== live, `a new live worker: ${live} → ${now.live}`);
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await waitFor(page, () => window.ablationPlayground.value.finished, null, 'the replacement did not train to the step limit');
    const after = JSON.parse(await pg(page, 'stateJson()'));
    assert(after.generation > before.generation, `frames answer newer states: ${before.generation} → ${after.generation}`);
    delete before.generation;
    delete after.generation;
    assert(JSON.stringify(after) === JSON.stringify(before), 'the replacement reached another frame than the worker it replaced');
  });

  test('the comparisons run in the pool, never in the live worker, with the same bits from any number of workers', async ({ page, load }) => {
    await load('/?depth=6&width=16&tokens=8&steps=1000000');
    const rate = async (ms) => {
      const a = await pg(page, 'step');
      await page.waitForTimeout(ms);
      return ((await pg(page, 'step')) - a) / (ms / 1000);
    };
    await waitFor(page, () => window.ablationPlayground.playground.step > 20, null, 'training did not start');
    const alone = await rate(1000);
    const runs = [];
    for (const workers of [1, 3]) {
      await page.evaluate((n) => window.ablationPlayground.playground.resizePool(n), workers);
      // paused, the pool has every core (training, it leaves this 2-core machine's to the live run)
      if (workers > 1) await page.getByRole('button', { name: 'Pause', exact: true }).click();
      await page.getByRole('button', { name: 'All four', exact: true }).click();
      const during = await rate(700);
      await waitFor(page, () => window.ablationPlayground.value.compare?.runs.every((r) => r.done), null, 'All four did not finish', 60_000);
      const info = await pg(page, 'workers');
      const used = info.pool.workers.filter((w) => w.jobs > 0);
      assert(used.length >= Math.min(2, workers) && used.length <= workers, `${workers} pool workers allowed, these ran jobs: ${JSON.stringify(info)}`);
      assert(used.every((w) => w.id !== info.live) && info.live > 0, `a job ran in the live worker: ${JSON.stringify(info)}`);
      if (workers === 1) {
        // the pool leaves the live run its pace (sharing its worker, as before, halved it);
        // BENCHMARKS.md records the real ratio
        assert(during >= 0.6 * alone, `the live run fell from ${alone.toFixed(0)} to ${during.toFixed(0)} steps/s while All four trained`);
      }
      runs.push((await page.evaluate(() => window.ablationPlayground.value.compare)).runs);
    }
    assert(JSON.stringify(runs[0]) === JSON.stringify(runs[1]), 'All four from 1 and from 3 pool workers differ');
    const cli = await ablate(['--depth', '6', '--width', '16', '--tokens', '8', '--steps', '500', '--compare']);
    for (let i = 0; i < 4; i++) {
      assert(Object.is(cli.compare[i].final_loss, runs[0][i].final_loss), `row ${i}: page ${runs[0][i].final_loss}, CLI ${cli.compare[i].final_loss}`);
    }
  });

  test('a frame from before a slider move is never drawn', async ({ page, load }) => {
    await load('/?depth=96');
    await waitFor(page, () => window.ablationPlayground.playground.step > 5, null, 'training did not start');
    const seen = await page.evaluate(
      () =>
        new Promise((done) => {
          const status = document.querySelector('main[data-ap-root] [data-el="status"]');
          const slider = document.querySelector('main[data-ap-root] [data-el="depth"]');
          const texts = [];
          new MutationObserver(() => texts.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
          // a fast drag: seven restarts within one task
          for (const d of [90, 91, 92, 93, 94, 95, 96, 48]) {
            slider.value = String(d);
            slider.dispatchEvent(new Event('input', { bubbles: true }));
          }
          setTimeout(() => done(texts), 1500);
        }),
    );
    assert(seen.length > 0, 'nothing was drawn after the drag');
    const stale = seen.filter((t) => !t.startsWith('48 layers'));
    assert(!stale.length, `after the drag ended at 48, these were drawn: ${stale.slice(0, 3).join(' | ')}`);
    const j = await state(page);
    assert(j.config.depth === 48 && j.generation === (await pg(page, 'generation')), `the frame on screen: depth ${j.config.depth}`);
  });

  test('the largest setting keeps the page responsive; a slider move does not wait for the step', async ({ page, load }) => {
    await load(LARGEST);
    // While the worker spends seconds per step, the page's thread stays free.
    const delays = await timeoutDelays(page, 3);
    const worst = Math.max(...delays);
    assert(worst < 100, `a setTimeout(0) waited up to ${worst.toFixed(0)} ms at the largest setting`);
    await timeClickAnswers(page);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: 1000 });
    await waitFor(page, () => window.__clickAnswers.length === 1, null, 'the Pause click was not timed');
    const [answer] = await clickAnswers(page);
    assert(answer < 100, `the Pause click was answered (its new label drawn) ${answer.toFixed(0)} ms after the input`);
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForTimeout(300); // inside a step now
    await page.evaluate(() => {
      const slider = document.querySelector('main[data-ap-root] [data-el="depth"]');
      slider.value = '2';
      slider.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await waitFor(page, () => document.querySelector('main[data-ap-root] [data-el="status"]').textContent.startsWith('2 layers'), null,
      'after a slider move during a long step the new depth was not drawn', 5000);
  });

  test('a run stops at its step limit, says so, and Play continues it', async ({ page, load }) => {
    await load('/?depth=2&steps=40');
    await waitFor(page, () => /· finished$/.test(document.querySelector('main[data-ap-root] [data-el="status"]').textContent), null, 'the run did not finish');
    const j = await state(page);
    assert(j.step === 40 && j.finished, `finished at step ${j.step}`);
    assert(/· step 40 · finished$/.test(await statusText(page)), await statusText(page));
    const caption = await page.locator('main[data-ap-root] [data-el="caption"]').textContent();
    assert(caption.includes('finished its 40 steps'), caption);
    assert((await page.getByRole('button', { name: 'Play', exact: true }).count()) === 1, 'a finished run shows Play');
    await page.waitForTimeout(300);
    assert((await state(page)).step === 40, 'a finished run does not train on');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await waitFor(page, () => window.ablationPlayground.playground.step === 80, null, 'Play did not continue the run to step 80');
    await waitFor(page, () => /· finished$/.test(document.querySelector('main[data-ap-root] [data-el="status"]').textContent), null, 'the continued run did not finish');
    // a run that stopped by itself is not a pause: a new setting's run trains
    const frameAt = (depth) => waitFor(page, (d) => {
      const p = window.ablationPlayground.playground;
      return p.settled && JSON.parse(p.stateJson())?.config.depth === d;
    }, depth, async () => `no frame of depth ${depth}: ${JSON.stringify(await state(page))}`);
    await page.evaluate(() => window.ablationPlayground.set('depth', '3'));
    await frameAt(3);
    await waitFor(page, () => window.ablationPlayground.value.finished, null,
      async () => `the new setting's run did not train to its limit: ${JSON.stringify(await state(page))}`);
    // the reader's Pause is kept over a new setting
    await page.evaluate(() => window.ablationPlayground.pause());
    await page.evaluate(() => window.ablationPlayground.set('depth', '4'));
    await frameAt(4);
    await page.waitForTimeout(500);
    const paused = await state(page);
    assert(paused.step === 0 && (await page.getByRole('button', { name: 'Play', exact: true }).count()) === 1, `a paused widget trained the new setting: ${JSON.stringify(paused).slice(0, 300)}`);
  });

  test('the element starts when its script, wasm and worker come from another origin', async ({ page, baseUrl }) => {
    const host = await startServer();
    try {
      TEST_PAGES.set('/__test/cross-origin.html', () =>
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title>` +
          `<script type="module" src="${baseUrl}/www/ablation-playground.js"></script></head>` +
          `<body><ablation-playground id="x" depth="6" panels="loss"></ablation-playground></body></html>`,
      );
      await page.goto(`${host.url}/__test/cross-origin.html`);
      await page.waitForFunction(() => (document.getElementById('x').value?.step ?? 0) > 3, null, { timeout: 20_000 }).catch(() => {
        throw new AssertionError('the cross-origin element did not train');
      });
      const status = await page.locator('#x [data-el="status"]').textContent();
      assert(status.startsWith('6 layers'), status);
      const notice = await page.locator('#x [data-el="notice"]');
      assert(await notice.isHidden(), `a notice was shown: ${await notice.textContent()}`);
    } finally {
      await host.close();
    }
  });

  test('the wasm is fetched and compiled once per page: the live worker and the pool boot from the compiled module', async ({ page, baseUrl }) => {
    const host = await startServer();
    const fetched = [];
    // the context's requests include its workers' (a worker that fetched the wasm would show)
    page.context().on('request', (r) => r.url().endsWith('.wasm') && fetched.push(r.url()));
    try {
      TEST_PAGES.set('/__test/one-compile.html', () =>
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title>` +
          `<script type="module" src="${baseUrl}/www/ablation-playground.js"></script></head>` +
          '<body><ablation-playground id="x" depth="4" width="8" tokens="8" panels="loss,compare"></ablation-playground></body></html>',
      );
      await page.goto(`${host.url}/__test/one-compile.html`);
      await page.waitForFunction(() => document.getElementById('x').value?.compare?.runs.every((r) => r.done), null, { timeout: 30_000 }).catch(() => {
        throw new AssertionError('All four did not finish');
      });
      // the live run trains too (its first steps may come after All four's small runs have
      // finished, on a loaded machine: waited for, not read once)
      await waitFor(page, () => document.getElementById('x').value.step > 0, null, 'the live run trained');
      assert(fetched.length === 1, `the wasm was fetched ${fetched.length} times: ${fetched}`);
    } finally {
      await host.close();
    }
  });

  test('on the playground page the wasm is fetched once: the module Trunk\'s loader compiled boots the live worker and the pool', async ({ page, load }) => {
    const fetched = [];
    page.context().on('request', (r) => r.url().endsWith('.wasm') && fetched.push(r.url()));
    // a phone's network (9 Mbit/s, 85 ms), over which a second fetch of the wasm would start
    // before the first has ended: on the loopback the first may end before the second starts
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 85, downloadThroughput: 9e6 / 8, uploadThroughput: 9e6 / 8 });
    await load('/?depth=4&width=8&tokens=8&panels=loss,compare');
    await page.getByRole('button', { name: 'All four', exact: true }).click();
    await waitFor(page, () => window.ablationPlayground.value.compare?.runs.every((r) => r.done), null, 'All four did not finish', 30_000);
    await waitFor(page, () => window.ablationPlayground.value.step > 0, null, 'the live run trained');
    assert(fetched.length === 1, `the wasm was fetched ${fetched.length} times: ${fetched}`);
  });

  test('without a worker the widget trains on the page and says so', async ({ page, load, problems }) => {
    await page.route('**/www/worker.js', (route) => route.abort());
    await load('/?depth=4');
    await waitFor(page, () => window.ablationPlayground.playground.mode === 'page', null, 'the widget did not fall back to the page');
    const notice = await page.locator('main[data-ap-root] [data-el="notice"]').textContent();
    assert(/Training runs on the page's thread/.test(notice), notice);
    await waitFor(page, () => window.ablationPlayground.playground.step > 5, null, 'the fallback does not train');
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    const j = await state(page);
    assert(/^4 layers/.test(await statusText(page)) && j.config.depth === 4, await statusText(page));
    // the blocked worker script is the point of this test, not a problem
    for (let i = problems.length - 1; i >= 0; i--) if (/worker\.js|ERR_FAILED/.test(problems[i])) problems.splice(i, 1);
  });

  test('a widget training on the page\'s thread, removed, throws nothing, stops its loop and its timers, and disconnects its observers', async ({ page, baseUrl }) => {
    await page.addInitScript(() => {
      window.Worker = undefined; // no workers: the live run trains on the page's thread
      window.__disconnects = 0;
      for (const O of [ResizeObserver, IntersectionObserver, MutationObserver]) {
        const disconnect = O.prototype.disconnect;
        O.prototype.disconnect = function () { window.__disconnects++; return disconnect.call(this); };
      }
      window.__timers = 0;
      const setTimeout_ = window.setTimeout.bind(window);
      window.setTimeout = (...args) => { window.__timers++; return setTimeout_(...args); };
    });
    await page.goto(`${baseUrl}/__test/one.html`);
    await waitFor(page, () => (document.getElementById('p').value?.step ?? 0) > 20, null, 'the widget did not train on the page');
    const before = await page.evaluate(async () => {
      const p = document.getElementById('p');
      window.__updates = 0;
      p.addEventListener('playground-update', () => window.__updates++);
      const disconnects = window.__disconnects;
      p.remove();
      await new Promise((r) => setTimeout(r, 500)); // the element's teardown waits a microtask; a slice may end meanwhile
      return { disconnects: window.__disconnects - disconnects, step: p.value?.step, timers: window.__timers, updates: window.__updates };
    });
    await page.waitForTimeout(1500);
    const after = await page.evaluate(() => ({ timers: window.__timers, updates: window.__updates }));
    assert(before.disconnects >= 2, `the observers disconnected: ${JSON.stringify(before)}`);
    assert(after.timers === before.timers, `no timer set after the teardown: ${after.timers - before.timers} in 1.5 s (${JSON.stringify(before)})`);
    assert(after.updates === before.updates, `no update after the teardown: ${after.updates - before.updates}`);
  });

  test('a widget away from the view lets its worker go and, back, goes on from its run bit for bit', async ({ page, load }) => {
    const path = '/?depth=12&steps=4000&seed=5&panels=loss,histogram';
    const step = () => page.evaluate(() => window.ablationPlayground.value?.step);
    // uninterrupted: the frame at the step limit
    await load(path);
    await waitFor(page, () => window.ablationPlayground.value?.finished, null, 'the uninterrupted run did not finish', 30_000);
    const straight = JSON.parse(await pg(page, 'stateJson()'));
    // scrolled away mid-run (below a spacer taller than the window), let go, back: the same
    // frame at the step limit
    await load(path);
    await waitFor(page, () => window.ablationPlayground.value?.step > 50, null, 'the run did not start');
    await page.evaluate(() => window.ablationPlayground.playground.hibernateAfter(200));
    const first = (await pg(page, 'workers')).live;
    await page.evaluate(() => {
      const spacer = document.createElement('div');
      spacer.style.height = '6000px';
      document.body.append(spacer);
      scrollTo(0, document.documentElement.scrollHeight);
    });
    await waitFor(page, () => window.ablationPlayground.playground.workers.asleep, null,
      async () => `the worker was not let go: ${JSON.stringify(await pg(page, 'workers'))}`);
    const away = await step();
    assert(away < 4000, `the run was let go mid-way (step ${away} of 4000)`);
    assert((await pg(page, 'workers')).live === 0, 'no live worker while away');
    const canvasSizes = () => page.evaluate(() => [...document.querySelectorAll('[data-panel="loss"] canvas, [data-panel="histogram"] canvas')].map((c) => `${c.width}x${c.height}`));
    const awaySizes = await canvasSizes();
    assert(awaySizes.every((x) => x === '0x0'), `the canvases' pixels let go while away: ${awaySizes}`);
    await page.waitForTimeout(300);
    assert((await step()) === away, `the panels keep the last frame while away: ${away} → ${await step()}`);
    await page.evaluate(() => {
      window.__steps = [];
      const sample = () => {
        window.__steps.push(window.ablationPlayground.value.step);
        if (!window.ablationPlayground.value.finished) requestAnimationFrame(sample);
      };
      scrollTo(0, 0);
      requestAnimationFrame(sample);
    });
    await waitFor(page, () => window.ablationPlayground.value?.finished, null, 'the resumed run did not finish', 30_000);
    const back = await pg(page, 'workers');
    const backSizes = await canvasSizes();
    assert(backSizes.length === 2 && backSizes.every((x) => x !== '0x0'), `the canvases drawn again: ${backSizes}`);
    assert(back.live !== 0 && back.live !== first && !back.asleep, `a new worker: ${first} → ${JSON.stringify(back)}`);
    const steps = await page.evaluate(() => window.__steps);
    assert(steps.every((s) => s >= away), `it went on from step ${away}, never from the seed: ${steps.slice(0, 20).join(', ')}`);
    const resumed = JSON.parse(await pg(page, 'stateJson()'));
    delete straight.generation;
    delete resumed.generation;
    const a = JSON.stringify(straight);
    const b = JSON.stringify(resumed);
    const at = [...a].findIndex((c, i) => c !== b[i]);
    assert(a === b, `the resumed run's frame differs from the uninterrupted run's at character ${at}: …${a.slice(at - 80, at + 80)}… against …${b.slice(at - 80, at + 80)}…`);
  });

  test('the live runs training on one page leave a core to the page', async ({ page, baseUrl }) => {
    await page.goto(`${baseUrl}/__test/side-by-side.html`);
    const read = () => page.evaluate(async () => {
      const { trainingShares } = await import('/www/cores.js');
      return { cores: navigator.hardwareConcurrency, shares: trainingShares(), steps: ['a', 'b'].map((id) => document.getElementById(id).value?.step ?? 0) };
    });
    await waitFor(page, () => ['a', 'b'].every((id) => (document.getElementById(id).value?.step ?? 0) > 20), null, 'both did not train');
    await page.waitForTimeout(500); // a frame or two after the share was given
    const both = await read();
    const expected = Math.min(1, Math.max(1, both.cores - 1) / 2);
    assert(both.shares.length === 2, `two runs train: ${JSON.stringify(both)}`);
    assert(both.shares.every((s) => s.given === expected && s.engine === expected), `each at ${expected} of a core with ${both.cores} cores: ${JSON.stringify(both)}`);
    await page.evaluate(() => document.getElementById('a').pause());
    await page.waitForTimeout(500);
    const one = await read();
    assert(one.shares.length === 1 && one.shares[0].given === 1 && one.shares[0].engine === 1, `the one left training takes a whole core: ${JSON.stringify(one)}`);
    await page.waitForTimeout(500);
    const later = await read();
    assert(later.steps[1] > one.steps[1], `and trains on: ${JSON.stringify([one.steps, later.steps])}`);
  });
}
