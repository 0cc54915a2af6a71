// What every measure of tests/e2e/bench.mjs shares: the page opened with its instruments, the
// window of training it reads, the slider's and a click's latency, the formats of its tables.

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { clickAnswers, DIST, loadPlayground, median, openPage, timeClickAnswers, timeoutDelays } from '../lib.mjs';

export const QUICK = process.argv.includes('--quick');
export const TRAIN_SECONDS = QUICK ? 4 : 10;
export const LARGEST = '/?depth=96&sublayer=block&width=128&tokens=256';
// Installed before the page's own scripts: long tasks, and every animation frame's time.
export function instrument() {
  window.__bench = { longTasks: [], rafs: [], supported: PerformanceObserver.supportedEntryTypes.includes('longtask') };
  if (window.__bench.supported) {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__bench.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  }
  const tick = (t) => {
    window.__bench.rafs.push(t);
    if (window.__bench.rafs.length > 100_000) window.__bench.rafs.splice(0, 50_000);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  // Counts the frames the widget draws (each changes the status line).
  window.__benchDrawn = 0;
  addEventListener('DOMContentLoaded', () => {
    const watch = () => {
      const s = document.querySelector('[data-ap-root] [data-el="status"]');
      if (!s) return setTimeout(watch, 50);
      new MutationObserver(() => window.__benchDrawn++).observe(s, { childList: true, characterData: true, subtree: true });
    };
    watch();
  });
}
export const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
export const mib = (n) => `${(n / 2 ** 20).toFixed(1)} MiB`;
/** What the page did between two moments: steps, frames, drawn frames, long tasks. */
export async function window_(page, seconds) {
  const mark = () =>
    page.evaluate(() => ({
      t: performance.now(),
      step: window.ablationPlayground.playground.step,
      drawn: window.__benchDrawn,
      mode: window.ablationPlayground.playground.mode,
      memory: window.ablationPlayground.playground.memory,
      stepMs: window.ablationPlayground.playground.timings?.stepMs,
      heap: performance.memory?.usedJSHeapSize ?? 0,
    }));
  const a = await mark();
  await page.waitForTimeout(seconds * 1000);
  const b = await mark();
  const detail = await page.evaluate(
    ([t0, t1]) => ({
      tasks: window.__bench.longTasks.filter((e) => e.start >= t0 && e.start <= t1),
      rafs: window.__bench.rafs.filter((t) => t >= t0 && t <= t1),
      supported: window.__bench.supported,
    }),
    [a.t, b.t],
  );
  const s = (b.t - a.t) / 1000;
  const gaps = detail.rafs.slice(1).map((t, i) => t - detail.rafs[i]);
  return {
    seconds: s,
    stepsPerSecond: (b.step - a.step) / s,
    fps: detail.rafs.length / s,
    drawnPerSecond: (b.drawn - a.drawn) / s,
    frameMedian: gaps.length ? median(gaps) : NaN,
    frameP95: gaps.length ? pct(gaps, 0.95) : NaN,
    longest: detail.tasks.length ? Math.max(...detail.tasks.map((e) => e.duration)) : 0,
    longTasks: detail.tasks.length,
    supported: detail.supported,
    step: b.step,
    mode: b.mode,
    memory: b.memory,
    heap: b.heap,
    stepMs: b.stepMs,
  };
}
/**
 * The engine's rebuild after a seed change (a new stack drawn from scratch, then its first
 * probe), timed inside the worker; paused, so no training slice is in the way. Median of `n`.
 */
export async function rebuildMs(page, n) {
  const times = [];
  await page.evaluate(() => window.ablationPlayground.pause());
  for (let k = 0; k < n; k++) {
    times.push(
      await page.evaluate(async (seed) => {
        const w = window.ablationPlayground;
        w.set('seed', String(seed));
        await w.drawn();
        return w.playground.timings.restartMs;
      }, 100 + k),
    );
  }
  return median(times);
}
/** A fresh page at `path`, instrumented and training. */
export async function open(browser, server, path) {
  const p = await openPage(browser, { initScript: instrument });
  await loadPlayground(p.page, server.url, path);
  return p;
}
/**
 * Slider latency while training at depth 96: dispatch an `input` event as a drag would, then
 * count animation frames until the status line names the new depth (the worker has rebuilt,
 * probed and sent a frame of the new generation, and the page drew it). Our counting callback
 * is queued before the page's in every frame, so `frames` is the number of frames that began
 * after the input, the drawing one included: 1 means drawn in the very next frame.
 */
export async function sliderLatency(page, samples) {
  const out = [];
  for (let i = 0; i < samples; i++) {
    const depth = i % 2 ? 96 : 95;
    out.push(
      await page.evaluate(
        (depth) =>
          new Promise((done) => {
            const slider = document.querySelector('[data-ap-root] [data-el="depth"]');
            const status = document.querySelector('[data-ap-root] [data-el="status"]');
            let rafs = 0;
            const count = () => {
              rafs++;
              if (!finished) requestAnimationFrame(count);
            };
            let finished = false;
            const t0 = performance.now();
            new MutationObserver((_, obs) => {
              if (status.textContent.startsWith(`${depth} layers`)) {
                finished = true;
                obs.disconnect();
                done({ ms: performance.now() - t0, frames: rafs });
              }
            }).observe(status, { childList: true, characterData: true, subtree: true });
            requestAnimationFrame(count);
            slider.value = String(depth);
            slider.dispatchEvent(new Event('input', { bubbles: true }));
          }),
        depth,
      ),
    );
    await page.waitForTimeout(150);
  }
  return out;
}
/** At a setting whose step takes seconds: how long a click, and an empty task, wait. */
export async function responsiveness(page, seconds) {
  const waits = await timeoutDelays(page, seconds, 100);
  // A real click through the browser: Pause, then Play; the button's text answers it. Timed in
  // the page (`timeClickAnswers`) and by the driver, whose round trip waits for two stable
  // frames before it clicks.
  await timeClickAnswers(page);
  const clicks = [];
  for (let i = 0; i < 4; i++) {
    const name = i % 2 ? 'Play' : 'Pause';
    const t0 = Date.now();
    await page.getByRole('button', { name, exact: true }).click({ timeout: 5000 });
    await page.getByRole('button', { name: i % 2 ? 'Pause' : 'Play', exact: true }).waitFor({ timeout: 5000 });
    clicks.push(Date.now() - t0);
  }
  await page.waitForTimeout(100);
  const answers = (await clickAnswers(page)).map((ms) => Math.round(ms));
  return { timeoutWait: { median: median(waits), max: Math.max(...waits) }, clicks, answers };
}
export async function bundleSizes() {
  const rows = [];
  const add = async (name) => {
    const body = await readFile(join(DIST, name));
    rows.push({ name, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
  };
  for (const f of (await readdir(DIST)).sort()) if (/\.(wasm|js)$/.test(f)) await add(f);
  for (const f of (await readdir(join(DIST, 'www'))).sort()) if (f.endsWith('.js')) await add(`www/${f}`);
  return rows;
}
export const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
/** Steps per second of the live run over `ms`, read from the frames on screen. */
export async function liveRate(page, ms) {
  const a = await page.evaluate(() => [performance.now(), window.ablationPlayground.playground.step]);
  await page.waitForTimeout(ms);
  const b = await page.evaluate(() => [performance.now(), window.ablationPlayground.playground.step]);
  return ((b[1] - a[1]) * 1000) / (b[0] - a[0]);
}
/** Seconds from the Depth sweep button to its last run drawn (the live run training). */
export async function sweepSeconds(page) {
  await page.getByRole('button', { name: 'Depth sweep', exact: true }).click();
  const t0 = await page.evaluate(() => performance.now());
  await page.waitForFunction(() => {
    const s = window.ablationPlayground.value.sweep;
    return s && s.runs_finished === s.runs_total;
  }, null, { timeout: 300_000, polling: 20 });
  return ((await page.evaluate(() => performance.now())) - t0) / 1000;
}
export const list = (xs, digits) => xs.map((x) => x.toFixed(digits)).join(', ');
