// The browser suites' readers of a playground page (lib.mjs hands them on): its state, a
// waitFor that fails with what it saw, a node's visibility, clicks and timers timed through the
// browser, frames, a canvas's hash and colours, and the median the benchmarks pair.

import { createHash } from 'node:crypto';

/** The playground's stateJson() (the frame on screen), parsed, once that frame reflects every
 *  command sent (training runs in a worker, so a click is answered by a later frame). */
export async function state(page) {
  await page.waitForFunction(() => window.ablationPlayground.playground?.settled, null, { timeout: 20_000 });
  return JSON.parse(await page.evaluate(() => window.ablationPlayground.playground.stateJson()));
}
/**
 * A `waitFor(target, fn, arg, message, timeout)` that runs page.waitForFunction and fails the
 * test with `Failure(message)` on a timeout (`message` may be a function giving the text).
 */
export function makeWaitFor(Failure) {
  return async function waitFor(target, fn, arg, message, timeout = 10_000) {
    try {
      await target.waitForFunction(fn, arg, { timeout });
    } catch (e) {
      if (!/Timeout/i.test(e.message)) throw e;
      const said = typeof message === 'function' ? await message() : message;
      throw new Failure(`${said} (waited ${timeout} ms; ${await seenNow(target)})`);
    }
  };
}
/**
 * What a page's playgrounds show now, for a failure's message: each one's status line and the
 * readouts that explain most failures (step, task, the held-out loss and accuracy, where it
 * diverged), so that a failure seen once can be understood. Never throws.
 */
export async function seenNow(target) {
  // (a page that hangs answers nothing: then say so rather than wait)
  let timer;
  const hung = new Promise((ok) => (timer = setTimeout(() => ok('nothing could be read: the page did not answer in 3 s'), 3000)));
  const read = target
    .evaluate(() => {
      const roots = [document, ...[...document.querySelectorAll('ablation-playground')].map((e) => e.shadowRoot).filter(Boolean)];
      const status = roots.map((r) => r.querySelector('[data-ap-root] [data-el="status"], [data-el="status"]')?.textContent).filter(Boolean);
      const v = window.ablationPlayground?.value ?? document.querySelector('ablation-playground')?.value;
      const read = v && { step: v.step, task: v.task, depth: v.depth, loss: v.loss, val_loss: v.val_loss, accuracy: v.accuracy, diverged_at: v.diverged_at, finished: v.finished };
      return `seen: ${JSON.stringify(status.slice(0, 3))}${read ? ` ${JSON.stringify(read)}` : ''}`;
    })
    .catch((e) => `nothing could be read: ${e.message.split('\n')[0]}`);
  try {
    return await Promise.race([read, hung]);
  } finally {
    clearTimeout(timer);
  }
}
/**
 * Times the page's answers to clicks from now on: for each click, from its input event
 * (`event.timeStamp`) to the animation frame after the clicked element's text changed, which
 * is what a reader waits for (a driver's own round trip adds its actionability checks). Read
 * them with `clickAnswers`.
 */
export async function timeClickAnswers(page) {
  await page.evaluate(() => {
    window.__clickAnswers = [];
    document.addEventListener(
      'click',
      (e) => {
        const target = e.composedPath()[0];
        const before = target.textContent;
        const seen = () => {
          if (target.textContent !== before) {
            requestAnimationFrame(() => window.__clickAnswers.push(performance.now() - e.timeStamp));
          } else {
            requestAnimationFrame(seen);
          }
        };
        requestAnimationFrame(seen);
      },
      true,
    );
  });
}
/** The click answers timed since `timeClickAnswers`, in ms. */
export async function clickAnswers(page) {
  return page.evaluate(() => window.__clickAnswers);
}
/**
 * How long a setTimeout(0) waits on the page's thread, sampled every `gapMs` for `seconds`:
 * a busy main thread shows up as long waits.
 */
export async function timeoutDelays(page, seconds, gapMs = 50) {
  return page.evaluate(
    ([seconds, gapMs]) =>
      new Promise((done) => {
        const out = [];
        const end = performance.now() + seconds * 1000;
        const probe = () => {
          const t = performance.now();
          setTimeout(() => {
            out.push(performance.now() - t);
            if (performance.now() < end) setTimeout(probe, gapMs);
            else done(out);
          }, 0);
        };
        probe();
      }),
    [seconds, gapMs],
  );
}
/** Resolves after `n` animation frames have run (so any pending redraw has happened). */
export async function frames(page, n = 2) {
  await page.evaluate(
    (n) =>
      new Promise((done) => {
        const tick = (k) => (k === 0 ? done() : requestAnimationFrame(() => tick(k - 1)));
        tick(n);
      }),
    n,
  );
}
/** A short hash of a canvas's pixels (its PNG data URL). */
export async function canvasHash(page, dataEl) {
  const url = await page.evaluate(
    (name) => document.querySelector(`[data-ap-root] [data-el="${name}"]`).toDataURL('image/png'),
    dataEl,
  );
  return createHash('sha256').update(url).digest('hex').slice(0, 16);
}
/**
 * How many distinct colours a canvas shows, and its size. A blank (or uniformly filled)
 * canvas has at most one.
 */
export async function canvasColours(page, dataEl) {
  return page.evaluate((name) => {
    const c = document.querySelector(`[data-ap-root] [data-el="${name}"]`);
    if (!c.width || !c.height) return { width: c.width, height: c.height, colours: 0 };
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    for (let i = 0; i < data.length && seen.size < 64; i += 4) {
      seen.add((data[i] << 24) | (data[i + 1] << 16) | (data[i + 2] << 8) | data[i + 3]);
    }
    return { width: c.width, height: c.height, colours: seen.size };
  }, dataEl);
}
/** Median of a list of numbers. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
