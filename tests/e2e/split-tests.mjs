// End-to-end tests of the split step (docs/using.md, "Workers and memory"): a step's batch
// split into shards gives in the page the bits ablate --shards gives natively, on one worker,
// with helper workers (helpers lost mid-step are replaced) and, on a cross-origin isolated
// page, with the weights in one SharedArrayBuffer.
//
// Registered into run.mjs's runner, so every test here also fails on any console error,
// uncaught exception, failed request or visible error box.

import { ablate, startServer } from './lib.mjs';
import { assert, test, waitFor } from './harness.mjs';

export default function registerSplitTests() {
  const value = (page) => page.evaluate(() => window.ablationPlayground.value);

  test('a step split into shards trains in the page with the bits ablate --shards gives natively, on any number of threads', async ({ page, load }) => {
    await load('/?depth=4&width=8&tokens=8&shards=2&autoplay=off&pin=depth:4,width:8,tokens:8,shards:2@30');
    await waitFor(page, () => window.ablationPlayground.value.pins?.[0]?.done, null, 'the sharded pin was not computed', 30_000);
    const pin = (await value(page)).pins[0];
    for (const threads of ['1', '2']) {
      const cli = await ablate(['--depth', '4', '--width', '8', '--tokens', '8', '--shards', '2', '--steps', '30', '--threads', threads]);
      assert(pin.step === 30 && Object.is(pin.loss, cli.loss[29]), `${threads} threads: page ${pin.loss} at step ${pin.step}, CLI ${cli.loss[29]}`);
    }
    const whole = await ablate(['--depth', '4', '--width', '8', '--tokens', '8', '--steps', '30']);
    assert(!Object.is(pin.loss, whole.loss[29]), `the shards change the sums' order, so the bits: ${pin.loss} against ${whole.loss[29]}`);
  });

  test('a split step shared with helper workers has the bits of ablate --shards on 1, 2 or 3 workers; helpers lost mid-step are replaced and the run goes on', async ({ page, load }) => {
    const steps = 300;
    // (a step of some milliseconds, so that the helpers are lost while one is under way)
    const cli = await ablate(['--depth', '8', '--width', '64', '--tokens', '128', '--shards', '4', '--steps', String(steps), '--threads', '1']);
    const want = cli.loss[steps - 1];
    let frame = null;
    // (the helpers on every split step: the page would time the ways and might keep its own;
    // on their ports, and, with 3 workers again, through the page)
    for (const [workers, always] of [[1, true], [2, true], [3, true], [3, 'relayed']]) {
      await load(`/?depth=8&width=64&tokens=128&shards=4&steps=${steps}&autoplay=off`);
      await page.evaluate(([n, a]) => window.ablationPlayground.playground.stepWorkers(n, a), [workers, always]);
      await waitFor(page, (n) => window.ablationPlayground.playground.workers.helpers.length === n - 1, workers,
        `${workers} workers: the helpers were not started`);
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      const lost = [];
      if (workers === 3) {
        // helpers terminated while the run trains: the live worker runs what they owed, and the
        // page starts others. A helper lost after it answered owes nothing, so helpers are lost
        // every few steps until one owed its shards (a split step is under way nearly always)
        for (let at = 10; at < steps - 20; at += 8) {
          await waitFor(page, (s) => window.ablationPlayground.playground.step >= s, at, `the run did not reach step ${at}`);
          lost.push(await page.evaluate(() => window.ablationPlayground.playground.loseHelper()));
          await page.waitForTimeout(50);
          if ((await page.evaluate(() => window.ablationPlayground.playground.timings.reclaimed)) > 0) break;
        }
      }
      await waitFor(page, () => window.ablationPlayground.value.finished, null, `${workers} workers: the run did not finish`, 60_000);
      const v = await page.evaluate(() => window.ablationPlayground.value);
      const t = await page.evaluate(() => window.ablationPlayground.playground.timings);
      const seen = `${workers} workers: loss ${v.loss} at step ${v.step}, ablate ${want}; timings ${JSON.stringify(t)}`;
      assert(v.step === steps && Object.is(v.loss, want), seen);
      // (after a helper is lost, the steps go on with fewer until its replacement has booted)
      if (workers === 2) assert(t.helpers === 1 && t.helped > 0 && t.shared === false && t.reused > 0, `the helper answered shards, sent a copy of the weights (this page is not cross-origin isolated) in the buffer it gave back: ${seen}`);
      // (a frame's probe costs more than a shard here: made while the helpers ran whole steps)
      if (workers > 1) assert(t.probed > 0, `frames probed while the helpers ran every shard of a step: ${seen}`);
      if (workers === 3) assert(t.helped > 0 && (always === 'relayed') === (t.relayed > 0), `the helpers answered shards, the way asked (${always}): ${seen}`);
      if (workers === 1) assert(t.helped === 0, `no helper with one worker: ${seen}`);
      if (workers === 3) {
        assert(lost.every(Boolean) && t.reclaimed > 0, `a helper was lost during a step and its shards run here (${lost}): ${seen}`);
        const ids = await page.evaluate(() => window.ablationPlayground.playground.workers.helpers);
        assert(ids.length === 2, `the lost helpers were replaced: ${ids}`);
      }
      const now = JSON.parse(await page.evaluate(() => window.ablationPlayground.playground.stateJson()));
      delete now.generation;
      frame ??= now;
      assert(JSON.stringify(now) === JSON.stringify(frame), `${workers} workers: another frame than on one worker`);
    }
  });

  test('on a cross-origin isolated page the helpers read the split steps\' weights from one SharedArrayBuffer, with the bits of ablate --shards', async ({ page }) => {
    const steps = 200;
    const cli = await ablate(['--depth', '8', '--width', '64', '--tokens', '128', '--shards', '4', '--steps', String(steps), '--threads', '1']);
    const want = cli.loss[steps - 1];
    const isolated = await startServer(undefined, { isolated: true });
    try {
      for (const workers of [2, 3]) {
        await page.goto(`${isolated.url}/?depth=8&width=64&tokens=128&shards=4&steps=${steps}&autoplay=off`);
        await waitFor(page, () => window.crossOriginIsolated && window.ablationPlayground?.playground?.step === 0, null, 'the isolated page did not start (crossOriginIsolated?)');
        await page.evaluate((n) => window.ablationPlayground.playground.stepWorkers(n, true), workers);
        await waitFor(page, (n) => window.ablationPlayground.playground.workers.helpers.length === n - 1, workers, `${workers} workers: the helpers were not started`);
        await page.getByRole('button', { name: 'Play', exact: true }).click();
        await waitFor(page, () => window.ablationPlayground.value.finished, null, `${workers} workers: the run did not finish`, 60_000);
        const v = await page.evaluate(() => window.ablationPlayground.value);
        const t = await page.evaluate(() => window.ablationPlayground.playground.timings);
        const seen = `${workers} workers: loss ${v.loss} at step ${v.step}, ablate ${want}; timings ${JSON.stringify(t)}`;
        assert(v.step === steps && Object.is(v.loss, want), seen);
        assert(t.shared === true && t.helped > 0 && t.reused === 0, `the helpers answered from the shared weights: ${seen}`);
      }
    } finally {
      await isolated.close();
    }
  });
}
