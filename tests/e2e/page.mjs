// What the page's suites share (page-, accessibility-, run-controls- and notices-tests.mjs):
// the playground page's status line, read and waited for, Play and Pause as a reader presses
// them, and the numbers behind the words (stateJson).

import { AssertionError, assert, parseStatus, waitFor } from './harness.mjs';
import { frames, state } from './lib.mjs';

// ---------------------------------------------------------------------------------------
// Page helpers

export const el = (page, name) => page.locator(`main[data-ap-root] [data-el="${name}"]`);

export async function statusText(page) {
  return (await el(page, 'status').textContent()).trim();
}

export async function status(page) {
  return parseStatus(await statusText(page));
}

/**
 * Waits until the status line matches `re` (it is refreshed at most every 250 ms, or at once
 * after a control changes), then returns it parsed.
 */
export async function waitStatus(page, re, timeout = 5000) {
  try {
    await page.waitForFunction(
      ([source, flags]) =>
        new RegExp(source, flags).test(
          document.querySelector('main[data-ap-root] [data-el="status"]').textContent.trim(),
        ),
      [re.source, re.flags],
      { timeout },
    );
  } catch {
    throw new AssertionError(`status line never matched ${re} within ${timeout} ms; it reads ${JSON.stringify(await statusText(page))}`);
  }
  return status(page);
}

/** Pauses training with the Play/Pause button (a no-op if already paused). */
export async function pause(page) {
  const pauseButton = page.getByRole('button', { name: 'Pause' });
  // A run that reaches its step limit just as Playwright clicks turns the button into Play
  // under the pointer, and the click then continues the run: click again, at most twice.
  // The run may also end between the count and the click (the button then reads Play and the
  // click would wait for a Pause that never comes): a click that finds no Pause is let go.
  for (let i = 0; i < 3 && (await pauseButton.count()); i++) await pauseButton.click({ timeout: 2000 }).catch(() => {});
  // A run that stopped by itself (its limit, a divergence) reads Play but is not paused: the
  // next setting's run would train. The controller's pause, as a host's script says it, is
  // the reader's Pause there too.
  await page.evaluate(() => window.ablationPlayground.pause());
  const play = page.getByRole('button', { name: 'Play' });
  assert((await play.count()) === 1, 'after Pause the button should read Play');
  // Let a frame already scheduled with a training slice run, so nothing changes afterwards.
  await frames(page, 2);
}

export async function play(page) {
  await page.getByRole('button', { name: 'Play' }).click();
  // the click took: the button reads Pause while the run trains, or a short run has already
  // trained to its end and reads Play again (300 steps at depth 12 can finish before the
  // button is read, under load)
  await waitFor(
    page,
    () => document.querySelector('main[data-ap-root] [data-el="play"]').textContent === 'Pause' || window.ablationPlayground.value?.finished,
    null,
    async () => `after Play the button should read Pause (it reads ${JSON.stringify(await page.textContent('main[data-ap-root] [data-el="play"]'))})`,
  );
}

/** Reads both std numbers of the current state: the status line's and stateJson's. */
export async function stds(page) {
  const s = await status(page);
  const j = await state(page);
  // The status line rounds (0.0094 prints as 0.009), so the two agree to within 10%.
  assert(
    Math.abs(s.std - j.act_std) <= 0.1 * Math.abs(j.act_std),
    `status says act. std = ${s.std} but stateJson().act_std is ${j.act_std}`,
  );
  return { status: s.std, json: j.act_std, text: s.text };
}

export const ratio = (a, b) => Math.max(a / b, b / a);

/** The live run's smoothed loss at its last step (the loss panel's line). */
export async function smoothedLoss(page) {
  const buckets = JSON.parse(await page.evaluate(() => window.ablationPlayground.playground.stateJson())).loss_history.buckets;
  return buckets[buckets.length - 1][4];
}
