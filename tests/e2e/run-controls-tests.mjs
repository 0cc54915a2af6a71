// A run's course on the page: divergence and recovery, the lesson's three clicks, Pause,
// Step and Reset.
//
// Registered into run.mjs's runner, so every test here also fails on any console error,
// uncaught exception, failed request or visible error box.

import { assert, AssertionError, test } from './harness.mjs';
import { canvasColours, frames, state } from './lib.mjs';
import { el, pause, play, smoothedLoss, status, waitStatus } from './page.mjs';

export default function registerRunControlsTests() {
  test('divergence is a normal state, and the widget recovers from it', async ({ page, load, shot }) => {
    await load('/?depth=12&norm=off&gain=3&optimizer=sgd&lr=5');
    await page.waitForFunction(() => typeof JSON.parse(window.ablationPlayground.playground.stateJson()).diverged_at === 'number', null, { timeout: 10_000 });
    const at = (await state(page)).diverged_at;
    const s = await waitStatus(page, /· diverged at step \d+$/, 3000);
    assert(s.divergedAt === at, `status says diverged at step ${s.divergedAt}, stateJson says ${at}`);
    await page.waitForFunction(() => /diverged/i.test(document.querySelector('[data-el="caption"]').textContent), null, { timeout: 3000 }).catch(() => {
      throw new AssertionError('the caption does not mention the divergence');
    });
    assert(await el(page, 'error').isHidden(), 'a divergence must not show the error box');
    await shot('diverged');

    // Switching LayerNorm on restarts training from the seed. (Paused first: pre-norm at this
    // learning rate diverges again after 3 steps, which would race with the reading.)
    await pause(page);
    await page.getByRole('switch', { name: 'LayerNorm' }).click();
    const after = await state(page);
    assert(after.diverged_at === null && after.step === 0 && after.config.norm === 'pre', `after LayerNorm on: diverged_at ${after.diverged_at}, step ${after.step}, norm ${after.config.norm}`);
    const t = await waitStatus(page, /· LayerNorm ON \(pre\) · act\. std = \S+ · loss \S+$/);
    assert(t.divergedAt === null, t.text);
    await page.getByRole('button', { name: 'Step' }).click();
    assert((await state(page)).step === 1, 'Step after the recovery should train one step');
    // (Not the play() helper: this recipe diverges again within a few steps, and a diverged run
    // stops by itself, so the button may already read Play again.)
    await page.getByRole('button', { name: 'Play' }).click();
    await page.waitForFunction(() => window.ablationPlayground.playground.step > 1, null, { timeout: 3000 }).catch(() => {
      throw new AssertionError('Play after the recovery should train again');
    });
  });

  test('after the explode preset diverges, the histogram still draws bars and says which step it shows', async ({ page, load, shot }) => {
    await load('/?preset=explode');
    const s = await waitStatus(page, /· diverged at step 2$/, 15_000);
    assert(s.std > 1e6, `the status line keeps the last finite state's std: ${s.text}`);
    await page.waitForFunction(() => /^Step 1, the last finite state; diverged at step 2\. /.test(document.querySelector('[data-el="histogram-summary"]').textContent), null, { timeout: 10_000 })
      .catch(async () => assert(false, `the histogram's summary: ${await el(page, 'histogram-summary').textContent()}`));
    const summary = await el(page, 'histogram-summary').textContent();
    assert(!/NaN/.test(summary) && /\b[1-9][0-9]* above it/.test(summary), `values beyond the axis, no NaN: ${summary}`);
    assert(/^Step 1, the last finite state/.test(await el(page, 'depth-summary').textContent()), 'the per-layer panel says which step it shows');
    const label = await el(page, 'histogram').getAttribute('aria-label');
    assert(label === summary, 'the canvas is named by the same words');
    // bars: the alert colour (values piled at the edge) and the accent (the zeros of ReLU)
    const colours = await canvasColours(page, 'histogram');
    assert(colours.colours > 8, `the histogram draws: ${JSON.stringify(colours)}`);
    const alertPixels = await page.evaluate(() => {
      const root = document.querySelector('[data-ap-root]');
      // the alert colour, as the widget's CSS resolves it (the palette's fifth swatch)
      const [r, g, b] = getComputedStyle(root.querySelector('[data-el="palette"]').children[4]).color.match(/[0-9.]+/g).map(Number);
      const c = root.querySelector('[data-el="histogram"]');
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - r) < 3 && Math.abs(d[i + 1] - g) < 3 && Math.abs(d[i + 2] - b) < 3) n++;
      return n;
    });
    assert(alertPixels > 100, `values beyond the axis pile up at its edge in the alert colour: ${alertPixels} pixels`);
    await shot('explode-last-finite');
  });

  test('break-and-heal: the lesson\'s three clicks, flipping only the switches', async ({ page, load }) => {
    await load('/?preset=break-and-heal&steps=300');
    const off = await waitStatus(page, /^12 layers · Residual OFF · LayerNorm OFF · /);
    const init = JSON.parse(await page.evaluate(() => window.ablationPlayground.playground.stateJson())).init;
    assert(init.act_std[12] >= 20, `click 1: std at the top ≥ 20 at initialisation: ${init.act_std[12]}`);
    await page.waitForFunction(() => window.ablationPlayground.value.finished, null, { timeout: 30_000 });
    const lossOff = await smoothedLoss(page);
    assert(lossOff > 0.7, `click 1: the loss does not descend below ~1: ${lossOff} (${off.text})`);
    // a run that stopped at its limit is not paused: each switch's run trains, as the lesson's
    // reader flips it ("the histogram snaps back to a tidy bell with std = 1.00 … yet the loss
    // still crawls")
    const flip = async (name, field, on) => {
      await page.getByRole('switch', { name }).click();
      await page.waitForFunction(([f, v]) => {
        const p = window.ablationPlayground.playground;
        const frame = JSON.parse(p.stateJson());
        return p.settled && frame.config[f] === v && frame.finished;
      }, [field, on], { timeout: 30_000 }).catch(async () => {
        throw new AssertionError(`${name} on: the new run did not train to its limit: ${(await page.evaluate(() => window.ablationPlayground.playground.stateJson())).slice(0, 300)}`);
      });
      return JSON.parse(await page.evaluate(() => window.ablationPlayground.playground.stateJson())).init;
    };
    const normed = await flip('LayerNorm', 'norm', 'pre');
    assert(normed.readout_std.toFixed(2) === '1.00', `click 2: the bell at std 1.00 at initialisation: ${normed.readout_std}`);
    const plateau = await smoothedLoss(page);
    await flip('Residual', 'residual', 'on');
    const dive = await smoothedLoss(page);
    assert(plateau > 0.4 && dive < plateau / 4, `click 2 plateaus (${plateau}), click 3 dives (${dive})`);
  });

  // A divergence after the first frames: the frame in which training diverges redraws, and
  // its words must be written too, even when the last words were written under 250 ms (the
  // caption: 1 s) ago, for nothing is dirty again after it.
  test('a divergence after the first frames is announced in the status line and caption', async ({ page, load }) => {
    // Plain SGD ramping up to lr 3.5 over 300 warmup steps diverges at step 13 without the final
    // norm (with it, it does not diverge), after the first frame (the one at step 0) is on screen.
    await load('/?depth=12&optimizer=sgd&lr=3.5&warmup=300&final_norm=off');
    await page.waitForFunction(() => typeof JSON.parse(window.ablationPlayground.playground.stateJson()).diverged_at === 'number', null, { timeout: 10_000 });
    const at = (await state(page)).diverged_at;
    const s = await waitStatus(page, /· diverged at step \d+$/, 3000);
    assert(s.divergedAt === at, `status says diverged at step ${s.divergedAt}, stateJson says ${at}`);
    const caption = (await el(page, 'caption').textContent()).trim();
    assert(caption.includes(`diverged at step ${at}`), `caption does not announce the divergence: ${caption}`);
  });

  // Same root cause, the everyday case: pausing leaves the readouts up to 250 ms (caption 1 s)
  // behind the charts, which are drawn from the latest step.
  test('after Pause the status line matches the paused state', async ({ page, load }) => {
    await load('/?depth=12');
    await page.waitForTimeout(500);
    // While training, the status line is marked busy, so a screen reader waits to read it.
    const busy = () => page.evaluate(() => document.querySelector('[data-el="status"]').getAttribute('aria-busy'));
    assert((await busy()) === 'true', `training: aria-busy is ${await busy()}`);
    // Pause a few frames after a status refresh, well inside the 250 ms interval, so this does
    // not depend on luck: at least one training slice has run since the line was written.
    await page.evaluate(
      () =>
        new Promise((done) => {
          const line = document.querySelector('[data-el="status"]');
          new MutationObserver((_, observer) => {
            observer.disconnect();
            done();
          }).observe(line, { childList: true, characterData: true, subtree: true });
        }),
    );
    await page.waitForTimeout(60);
    await pause(page);
    await page.waitForTimeout(600); // longer than the status line's 250 ms refresh interval
    assert((await busy()) === 'false', `paused: aria-busy is ${await busy()}`);
    const j = await state(page);
    const s = await status(page);
    // The status line counts the updates applied; its loss is the last update's batch.
    assert(s.step === j.step, `paused at ${j.step} steps, the status line still says "step ${s.step}": ${s.text}`);
    const last = j.loss_history.last;
    // (the status line prints 3 decimals below 1, so allow half a unit of the last one)
    assert(Math.abs(s.loss - last) <= 0.01 * Math.abs(last) + 5e-4, `paused with loss ${last}, the status line says loss ${s.loss}`);
  });

  test('Step and Reset', async ({ page, load }) => {
    await load('/?depth=12');
    await pause(page);
    await page.getByRole('button', { name: 'Reset' }).click();
    let j = await state(page);
    assert(j.step === 0 && j.loss_history.count === 0, `Reset: step ${j.step}, ${j.loss_history.count} losses`);
    let s = await waitStatus(page, /· loss \S+$/);
    assert(s.step === null, `after Reset the status line should carry no step: ${s.text}`);
    for (let k = 1; k <= 3; k++) {
      await page.getByRole('button', { name: 'Step' }).click();
      j = await state(page);
      assert(j.step === k, `after ${k} Step clicks stateJson().step is ${j.step}`);
      // five presses of Step read "step 5": the count of updates applied
      s = await waitStatus(page, new RegExp(`· step ${k}$`));
    }
    await frames(page, 3);
    assert((await state(page)).step === 3, 'Step should leave training paused');
  });
}
