// Browser benchmark of the playground page in headless Chromium.
//
//   node tests/e2e/bench.mjs [--quick] [--comparisons] [--tasks] [--depth] [--engines [--load]] [--seeds] [--stacks] [--reader] [--tuned] [--split] [--shared] [--vs DIR]
//     (--split: the live run's step split into 2 shards on 1 and 2 workers against the unsplit
//     step, at depth 96 × width 128 × 256 tokens, depth 96 and the text preset, paired round
//     by round; --split-near the same at four settings around 2·10⁸ multiply-adds a step,
//     where shards=0, the default, starts splitting in two; --shared the split steps' weights
//     handed to 1 and 2 helpers in one SharedArrayBuffer, on a cross-origin isolated page,
//     against a copy a helper, paired round by round)
//     (serves dist/, or E2E_DIST; about six minutes, --quick about three; --comparisons runs
//     only the comparisons' part; --tasks only the sequence tasks' part; --seeds only All four
//     over five seeds on the text task (about 15 minutes); --stacks only the encoder-decoder's
//     part (its step against a decoder-only one, the preset's time to 95%, its frame
//     rate and longest main-thread task at the extremes, about four minutes); --vs DIR alternates its pace and sweep figures with another
//     build's site, for instance the last commit's, page by page, for paired ratios)
//
// Prints markdown tables for BENCHMARKS.md: training throughput and frame rate at depth 96;
// the longest main-thread task while training each sublayer kind at depth 96 and at the
// largest setting (with how fast a click is answered there); slider latency while training;
// a long run at depth 1 (frame times and memory early and after 150 000+ steps); the bundle;
// and the comparisons: the live run's pace while All four trains at depth 96, the depth sweep's
// time at the default settings (by the pool's size), and the workers' memory at the largest
// setting.
// Timings come from performance.now() inside the page (coarsened by Chromium to 0.1 ms).

import * as FS from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  DIST,
  clickAnswers,
  launchBrowser,
  loadPlayground,
  median,
  openPage,
  startServer,
  timeClickAnswers,
  timeoutDelays,
} from './lib.mjs';

const QUICK = process.argv.includes('--quick');
const ONLY_COMPARISONS = process.argv.includes('--comparisons');
const ONLY_TASKS = process.argv.includes('--tasks');
const ONLY_DEPTH = process.argv.includes('--depth');
const ONLY_ENGINES = process.argv.includes('--engines');
const ONLY_SEEDS = process.argv.includes('--seeds');
const ONLY_STACKS = process.argv.includes('--stacks');
const ONLY_READER = process.argv.includes('--reader');
const ONLY_TUNED = process.argv.includes('--tuned');
const ONLY_SPLIT = process.argv.includes('--split') || process.argv.includes('--split-near');
/** --split-near: the split measured at four settings around where the default starts splitting. */
const SPLIT_NEAR = process.argv.includes('--split-near');
const ONLY_SHARED = process.argv.includes('--shared');
/** The processes of each engine, by command line, and the name its worker threads carry. */
const PROCESSES = { Chromium: /chrom|headless_shell/i, 'Firefox ESR': /firefox/i, WebKitGTK: /WebKit(Web|Network|GPU)Process|MiniBrowser/ };
/** The live worker's thread, as each engine names it (Chromium, Firefox, WebKitGTK). */
const WORKER_THREAD = /^(DedicatedWorker|DOM Worker|WebCore: Worker)/;

/** With --engines: a busy process per core beside the browsers, as on a reader's busy laptop. */
const LOADED = process.argv.includes('--load');
const TRAIN_SECONDS = QUICK ? 4 : 10;
const LARGEST = '/?depth=96&sublayer=block&width=128&tokens=256';

// Installed before the page's own scripts: long tasks, and every animation frame's time.
function instrument() {
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

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
const mib = (n) => `${(n / 2 ** 20).toFixed(1)} MiB`;

/** What the page did between two moments: steps, frames, drawn frames, long tasks. */
async function window_(page, seconds) {
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
async function rebuildMs(page, n) {
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
async function open(browser, server, path) {
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
async function sliderLatency(page, samples) {
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
async function responsiveness(page, seconds) {
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

async function bundleSizes() {
  const rows = [];
  const add = async (name) => {
    const body = await readFile(join(DIST, name));
    rows.push({ name, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
  };
  for (const f of (await readdir(DIST)).sort()) if (/\.(wasm|js)$/.test(f)) await add(f);
  for (const f of (await readdir(join(DIST, 'www'))).sort()) if (f.endsWith('.js')) await add(`www/${f}`);
  return rows;
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

/** Steps per second of the live run over `ms`, read from the frames on screen. */
async function liveRate(page, ms) {
  const a = await page.evaluate(() => [performance.now(), window.ablationPlayground.playground.step]);
  await page.waitForTimeout(ms);
  const b = await page.evaluate(() => [performance.now(), window.ablationPlayground.playground.step]);
  return ((b[1] - a[1]) * 1000) / (b[0] - a[0]);
}

/** Seconds from the Depth sweep button to its last run drawn (the live run training). */
async function sweepSeconds(page) {
  await page.getByRole('button', { name: 'Depth sweep', exact: true }).click();
  const t0 = await page.evaluate(() => performance.now());
  await page.waitForFunction(() => {
    const s = window.ablationPlayground.value.sweep;
    return s && s.runs_finished === s.runs_total;
  }, null, { timeout: 300_000, polling: 20 });
  return ((await page.evaluate(() => performance.now())) - t0) / 1000;
}

/**
 * The live run's pace while a comparison trains: two fresh pages at `path` on the same timeline,
 * one left alone and one where `start(page)` begins the comparison after `warmMs`; each counts
 * its live steps over `windowMs`, `gapMs` after that moment. A live run's steps grow dearer as
 * it trains (at the text defaults its steps/s fall by a fifth over its first 25 s with nothing
 * else running), so "before the comparison" against "during it" on one page would count that
 * as the comparison's cost. `order` says which page goes first; `after(page)` runs on the
 * comparison's page before it closes.
 */
async function pairedPace(browser, server, path, { warmMs, gapMs, windowMs, start, after, order = 0 }, problems) {
  const one = async (withComparison) => {
    const p = await open(browser, server, path);
    await p.page.waitForTimeout(warmMs);
    const t0 = Date.now();
    if (withComparison) await start(p.page);
    await p.page.waitForTimeout(Math.max(0, gapMs - (Date.now() - t0)));
    const rate = await liveRate(p.page, windowMs);
    const extra = withComparison && after ? await after(p.page, t0) : null;
    problems.push(...p.problems);
    await p.context.close();
    return { rate, extra };
  };
  const first = await one(order % 2 === 1);
  const second = await one(order % 2 === 0);
  const [alone, during] = order % 2 === 1 ? [second, first] : [first, second];
  return { alone: alone.rate, during: during.rate, ratio: during.rate / alone.rate, extra: during.extra };
}

/** The live run's steps/s at depth 96 without and with All four (paired pages). */
function paceWhileAllFour(browser, server, problems, order) {
  const start = (page) => page.getByRole('button', { name: 'All four', exact: true }).click();
  return pairedPace(browser, server, '/?depth=96', { warmMs: 1500, gapMs: 500, windowMs: 3000, start, order }, problems);
}

/** One depth sweep at the default settings on a fresh page (a finished sweep's state would
 *  otherwise answer at once), with at most `size` pool workers if the build has a pool. */
async function sweepOnce(browser, server, size, problems) {
  const p = await open(browser, server, '/');
  await p.page.waitForTimeout(500);
  if (size) await p.page.evaluate((n) => window.ablationPlayground.playground.resizePool?.(n), size);
  const seconds = await sweepSeconds(p.page);
  problems.push(...p.problems);
  await p.context.close();
  return seconds;
}

const list = (xs, digits) => xs.map((x) => x.toFixed(digits)).join(', ');

/** The comparisons: the live run's pace while All four trains, the sweep's time by the pool's
 *  size, and the memory at the largest setting. With `--vs DIR`, the pace and the default
 *  sweep alternate between DIR's build (`base`) and this one, pair by pair, for paired ratios. */
async function comparisons(browser, server, row, out, problems) {
  const vsAt = process.argv.indexOf('--vs');
  const base = vsAt > 0 ? await startServer(process.argv[vsAt + 1]) : null;
  try {
    const pairs = QUICK ? 3 : 5;
    out.push('| the comparisons | value |', '|---|---:|');
    const paces = [];
    const basePaces = [];
    for (let k = 0; k < pairs; k++) {
      if (base && k % 2 === 1) basePaces.push(await paceWhileAllFour(browser, base, problems, k));
      paces.push(await paceWhileAllFour(browser, server, problems, k));
      if (base && k % 2 === 0) basePaces.push(await paceWhileAllFour(browser, base, problems, k));
    }
    const show = (ps) => ps.map((x) => `${x.alone.toFixed(0)} → ${x.during.toFixed(0)}`).join(', ');
    row(`live steps/s at depth 96, alone → while All four trains (${pairs} pairs of pages)`, show(paces));
    row("live run's pace while All four trains, median", `${(100 * median(paces.map((x) => x.ratio))).toFixed(0)}%`);
    if (base) {
      row(`the same in the base build (${process.argv[vsAt + 1]})`, show(basePaces));
      row("base build's pace while All four trains, median", `${(100 * median(basePaces.map((x) => x.ratio))).toFixed(0)}%`);
    }
    const cores = await (async () => {
      const p = await open(browser, server, '/?autoplay=off');
      const n = await p.page.evaluate(() => navigator.hardwareConcurrency);
      await p.context.close();
      return n;
    })();
    const repeats = QUICK ? 3 : 5;
    if (base) {
      const ours = [];
      const theirs = [];
      for (let k = 0; k < repeats; k++) {
        if (k % 2) theirs.push(await sweepOnce(browser, base, null, problems));
        ours.push(await sweepOnce(browser, server, null, problems));
        if (!(k % 2)) theirs.push(await sweepOnce(browser, base, null, problems));
      }
      const ratios = ours.map((t, i) => t / theirs[i]);
      row(`depth sweep at the default settings, default pool, ${cores} cores: this build / base, s`, `${list(ours, 2)} / ${list(theirs, 2)}`);
      row('depth sweep time, this build ÷ base: median of the paired ratios', `${median(ratios).toFixed(2)}× (${list(ratios, 2)})`);
    }
    for (const size of [1, 2, 3, 4]) {
      const times = [];
      for (let k = 0; k < (QUICK ? 2 : 3); k++) times.push(await sweepOnce(browser, server, size, problems));
      row(`depth sweep at the default settings, at most ${size} pool worker${size > 1 ? 's' : ''}, ${cores} cores: median (runs)`, `${median(times).toFixed(2)} s (${list(times, 2)})`);
    }
    {
      const q = await open(browser, server, LARGEST);
      await q.page.waitForTimeout(2000);
      await q.page.getByRole('button', { name: 'All four', exact: true }).click();
      await q.page.waitForTimeout(QUICK ? 15_000 : 25_000);
      const m = await q.page.evaluate(() => window.ablationPlayground.playground.memory);
      problems.push(...q.problems);
      await q.context.close();
      row('wasm memory at the largest setting with All four under way: live worker / pool / page', `${mib(m.engine)} / ${m.pool == null ? '(shared)' : mib(m.pool)} / ${mib(m.page)}`);
    }
    out.push('');
  } finally {
    await base?.close();
  }
}

/** All four on the text task over five seeds (`--seeds` runs only this): 20 runs of 1500 steps.
 *  The live run's pace while they train, against a page left alone (pairedPace, 7 pairs: a
 *  text run's pace alone varies by a fifth from page to page here), then the seconds from the
 *  click to the last run with the live run training and with it paused. */
async function seedsBench(browser, server, row, out, problems) {
  out.push('| All four on the text task, `seeds=5` (20 runs of 1500 steps) | value |', '|---|---:|');
  const path = '/?preset=text&seeds=5&steps=1000000';
  const start = (page) => page.getByRole('button', { name: 'All four', exact: true }).click();
  const lastRun = async (page, t0) => {
    await page.waitForFunction(() => {
      const c = window.ablationPlayground.value?.compare;
      return c && c.runs_total === 20 && c.runs_finished === 20;
    }, null, { timeout: 1_800_000, polling: 500 });
    return (Date.now() - t0) / 1000;
  };
  const pairs = [];
  for (let i = 0; i < (QUICK ? 3 : 7); i++) {
    pairs.push(await pairedPace(browser, server, path, { warmMs: 3000, gapMs: 3000, windowMs: TRAIN_SECONDS * 1000, start, order: i }, problems));
  }
  row(`live steps/s at the text defaults, alone → while the 20 runs train (${pairs.length} pairs of pages)`,
    pairs.map((r) => `${r.alone.toFixed(0)} → ${r.during.toFixed(0)}`).join(', '));
  row("live run's pace while the 20 runs train: median of the paired ratios (range)",
    `${(100 * median(pairs.map((r) => r.ratio))).toFixed(0)}% (${(100 * Math.min(...pairs.map((r) => r.ratio))).toFixed(0)}–${(100 * Math.max(...pairs.map((r) => r.ratio))).toFixed(0)}%)`);
  const seconds = async (query) => {
    const p = await open(browser, server, `${path}${query}`);
    await p.page.waitForTimeout(3000);
    const t0 = Date.now();
    await start(p.page);
    const s = await lastRun(p.page, t0);
    problems.push(...p.problems);
    await p.context.close();
    return s;
  };
  const runs = QUICK ? 1 : 2;
  const training = [];
  const paused = [];
  for (let i = 0; i < runs; i++) {
    training.push(await seconds(''));
    paused.push(await seconds('&autoplay=off'));
  }
  row('seconds to the last run: the live run training; paused', `${list(training, 0)}; ${list(paused, 0)}`);
  row('median seconds to the last run: training / paused (ratio)',
    `${median(training).toFixed(0)} / ${median(paused).toFixed(0)} s (${(median(training) / median(paused)).toFixed(2)}×)`);
  out.push('');
}

/** The tuned All four on the text over five seeds (`--tuned` runs only this), the live run
 *  paused and training, and the untuned one paused: the seconds from the click to the verdict
 *  (every row done) and the jobs it ran. With
 *  `--vs DIR` the same page of DIR's build alternates with this one, pair by pair (the base
 *  build of issue 52 tuned on the seeds it showed, at ÷3, ×1 and ×3: 60 runs). */
async function tunedBench(browser, server, row, out, problems) {
  const vsAt = process.argv.indexOf('--vs');
  const base = vsAt > 0 ? await startServer(process.argv[vsAt + 1]) : null;
  for (const [what, path] of [
    ['the tuned All four on the text, `seeds=5&tune=on`, the live run paused', '/?preset=text&seeds=5&tune=on&autoplay=off'],
    ['the tuned All four on the text, `seeds=5&tune=on`, while the live run trains', '/?preset=text&seeds=5&tune=on'],
    ['the untuned All four on the text, `seeds=5`, the live run paused (what the tuned one is measured against)', '/?preset=text&seeds=5&autoplay=off'],
  ]) await tunedTable(what, path, base, server, browser, row, out, problems);
  await base?.close();
}

/** One table of `tunedBench`: the seconds from the click on All four to the verdict at `path`,
 *  here and (with a base) in the base build, alternating. */
async function tunedTable(what, path, base, server, browser, row, out, problems) {
  const vsAt = process.argv.indexOf('--vs');
  out.push(`| ${what} | value |`, '|---|---:|');
  const seconds = async (on) => {
    const p = await open(browser, on, path);
    await p.page.waitForTimeout(3000);
    const t0 = Date.now();
    await p.page.getByRole('button', { name: 'All four', exact: true }).click();
    await p.page.waitForFunction(() => {
      const c = window.ablationPlayground.value?.compare;
      return c && c.runs.every((r) => r.done);
    }, null, { timeout: 1_800_000, polling: 500 });
    const s = (Date.now() - t0) / 1000;
    const jobs = await p.page.evaluate(() => window.ablationPlayground.value.compare.runs_total);
    problems.push(...p.problems);
    await p.context.close();
    return { s, jobs };
  };
  const pairs = QUICK ? 1 : 2;
  const now = [];
  const was = [];
  for (let k = 0; k < pairs; k++) {
    if (base && k % 2 === 1) was.push(await seconds(base));
    now.push(await seconds(server));
    if (base && k % 2 === 0) was.push(await seconds(base));
  }
  row('seconds to the verdict (jobs)', now.map((x) => `${x.s.toFixed(0)} (${x.jobs})`).join(', '));
  if (base) {
    row(`the same in the base build (${process.argv[vsAt + 1]})`, was.map((x) => `${x.s.toFixed(0)} (${x.jobs})`).join(', '));
    row('paired ratio this / base, median', median(now.map((x, i) => x.s / was[i].s)).toFixed(2));
  }
  out.push('');
}

/** What depth buys (`--depth` runs only this): the seconds from loading the induction preset
 *  to 95% of its held-out symbols copied, and "Depth or width" at the text defaults: its
 *  seconds, and the live run's pace while it trains against a page left alone (pairedPace). */
async function depthBuys(browser, server, row, out, problems) {
  out.push('| what depth buys | value |', '|---|---:|');
  for (let i = 0; i < 2; i++) {
    const t0 = Date.now();
    const p = await open(browser, server, '/?preset=induction');
    await p.page.waitForFunction(() => (window.ablationPlayground.value?.accuracy ?? 0) >= 0.95, null, { timeout: 180_000 });
    const step = await p.page.evaluate(() => window.ablationPlayground.value.step);
    problems.push(...p.problems);
    await p.context.close();
    row(`induction preset: load to 95% copied (run ${i + 1})`, `${((Date.now() - t0) / 1000).toFixed(1)} s (step ${step})`);
  }
  const start = (page) => page.evaluate(() => window.ablationPlayground.depthWidth());
  const after = async (page, t0) => {
    await page.waitForFunction(() => window.ablationPlayground.value?.depth_width?.done, null, { timeout: 900_000, polling: 250 });
    return (Date.now() - t0) / 1000;
  };
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const r = await pairedPace(browser, server, '/?preset=text&steps=1000000', { warmMs: 3000, gapMs: 2000, windowMs: TRAIN_SECONDS * 1000, start, after, order: i }, problems);
    runs.push(r);
    row(`depth or width at the text defaults (pair ${i + 1}): seconds; live steps/s alone → during`,
      `${r.extra.toFixed(1)} s; ${r.alone.toFixed(0)} → ${r.during.toFixed(0)} (${(100 * r.ratio).toFixed(0)}%)`);
  }
  row('depth or width: median seconds; median of the paired paces',
    `${median(runs.map((r) => r.extra)).toFixed(1)} s; ${(100 * median(runs.map((r) => r.ratio))).toFixed(0)}%`);
  out.push('');
}

/**
 * Every engine's pace (`--engines` runs only this): the live run's steps/s at depth 96 and at
 * the text defaults in Chromium, Firefox ESR and WebKitGTK (engines.mjs), side by side: the
 * engines take turns, `rounds` times, each on a fresh page, counting steps over 10 s after 3 s.
 * Also the pure wasm step (`timings.stepMs`, the mean over the worker's last slice), to tell
 * the engine's wasm from the rest of the page; and All four's time at depth 96 with the live
 * run paused, the comparisons' job loop on its own.
 */
/** Every thread of the processes whose command line matches `pattern`: its name, and from the
 *  kernel's schedstat its time on a CPU and its time waiting on a run queue (ready, not
 *  running), in ms. Linux only; empty elsewhere. */
function threadTimes(pattern) {
  const { readdirSync, readFileSync } = FS;
  const out = new Map();
  let pids = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const pid of pids) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (!pattern.test(cmd) || /bench\.mjs/.test(cmd)) continue;
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
        const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
        out.set(`${pid}/${tid}`, { name, run: run / 1e6, wait: wait / 1e6 });
      }
    } catch {
      // a process or thread that ended meanwhile
    }
  }
  return out;
}

/** Per thread name (summed over threads of that name), what each did between two
 *  `threadTimes`, as shares of the `ms` between them: on a CPU, ready but waiting for one. */
function threadShares(before, after, ms) {
  const byName = new Map();
  for (const [id, t] of after) {
    const b = before.get(id) ?? { run: 0, wait: 0 };
    const x = byName.get(t.name) ?? { run: 0, wait: 0, threads: 0 };
    x.run += t.run - b.run;
    x.wait += t.wait - b.wait;
    x.threads++;
    byName.set(t.name, x);
  }
  return [...byName].map(([name, x]) => ({ name, threads: x.threads, run: x.run / ms, wait: x.wait / ms })).sort((a, b) => b.run - a.run);
}

async function enginePaces(browser, server, row, out, problems) {
  const { launch } = await import('./engines.mjs');
  const settings = [
    ['depth 96, defaults', '/?depth=96&steps=1000000'],
    ['text defaults', '/?preset=text&steps=1000000'],
    // the heaviest live setting, unsplit and split in 2 (a helper worker where it pays)
    ['depth 96 × width 128 × 256 tokens', '/?depth=96&width=128&tokens=256&shards=1&steps=1000000'],
    ['the same, 2 shards', '/?depth=96&width=128&tokens=256&shards=2&steps=1000000'],
  ];
  const engines = [
    { name: 'Chromium', open: async () => {
      const p = await open(browser, server, '/?autoplay=off');
      problems.push(...p.problems);
      return { goto: (u) => p.page.goto(u), evaluate: (fn) => p.page.evaluate(`(${fn})()`), close: () => p.context.close() };
    } },
    ...['firefox', 'webkit'].map((name) => ({ name: name === 'firefox' ? 'Firefox ESR' : 'WebKitGTK', engine: null, async open() {
      this.engine ??= await launch(name);
      return this.engine.newPage();
    } })),
  ];
  const results = new Map();
  const rounds = QUICK ? 1 : 3;
  const { spawn } = await import('node:child_process');
  const { cpus } = await import('node:os');
  // a busy loop per core, for the whole measurement (killed below, also on a failure)
  const burners = LOADED ? cpus().map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' })) : [];
  const stopBurners = () => burners.forEach((b) => b.kill('SIGKILL'));
  process.once('exit', stopBurners);
  if (LOADED) out.push(`With ${burners.length} busy processes beside the browsers (one per core).`, '');
  for (let r = 0; r < rounds; r++) {
    for (const [label, path] of settings) {
      for (const e of engines) {
        const page = await e.open();
        await page.goto(server.url + path);
        const mark = () => page.evaluate('() => [performance.now(), window.ablationPlayground?.playground?.step ?? 0, window.ablationPlayground?.playground?.timings?.stepMs ?? NaN, window.ablationPlayground?.playground?.timings?.turns ?? \'?\']');
        for (let i = 0; i < 100 && (await mark())[1] < 1; i++) await new Promise((ok) => setTimeout(ok, 100));
        await new Promise((ok) => setTimeout(ok, 3000));
        const threadsBefore = threadTimes(PROCESSES[e.name]);
        const a = await mark();
        const stepMs = [];
        for (let i = 0; i < 10; i++) {
          await new Promise((ok) => setTimeout(ok, 1000));
          stepMs.push((await mark())[2]);
        }
        const b = await mark();
        const threads = threadShares(threadsBefore, threadTimes(PROCESSES[e.name]), b[0] - a[0]);
        await page.close();
        const key = `${label}|${e.name}`;
        const list = results.get(key) ?? [];
        list.push({ rate: ((b[1] - a[1]) * 1000) / (b[0] - a[0]), stepMs: median(stepMs), threads, turns: b[3] });
        results.set(key, list);
      }
    }
  }
  // All four at depth 96 with the live run paused, so that the pool's workers have the cores:
  // the comparisons' job loop (jobs.js) on its own, seconds from the click to the fourth run
  // (not under --load, which measures the live run's pace)
  const allFour = new Map();
  for (let r = 0; r < (LOADED ? 0 : rounds); r++) {
    for (const e of engines) {
      const page = await e.open();
      await page.goto(server.url + '/?depth=96&autoplay=off');
      for (let i = 0; i < 100 && !(await page.evaluate('() => !!window.ablationPlayground?.value')); i++) await new Promise((ok) => setTimeout(ok, 100));
      const t0 = await page.evaluate('() => { window.ablationPlayground.compare(); return performance.now(); }');
      let t1 = NaN;
      for (let i = 0; i < 1200; i++) {
        await new Promise((ok) => setTimeout(ok, 100));
        const [now, done] = await page.evaluate('() => [performance.now(), (window.ablationPlayground.value.compare?.runs ?? []).filter((x) => x.done).length]');
        if (done === 4) {
          t1 = now;
          break;
        }
      }
      await page.close();
      allFour.set(e.name, [...(allFour.get(e.name) ?? []), (t1 - t0) / 1000]);
    }
  }
  stopBurners();
  for (const e of engines) await e.engine?.close();
  if (!LOADED) {
    out.push('| All four at depth 96, the live run paused | seconds to the fourth run | ÷ Chromium |', '|---|---:|---:|');
    const chromiumFour = median(allFour.get('Chromium'));
    for (const e of engines) {
      const xs = allFour.get(e.name);
      row(e.name, xs.map((x) => x.toFixed(1)).join(', '), (median(xs) / chromiumFour).toFixed(2));
    }
    out.push('');
  }
  // the worker's share of the time in steps: steps/s × the wasm step; the rest is the loop's
  // turns, frames, and the time the engine does not run the worker
  // (every fifth turn of the live worker's loop: a channel's message or a digest's reply, engine.js `turnTaker`)
  out.push('| setting | engine | live steps/s | ÷ Chromium | wasm step (median) | share of the time in steps | every fifth turn |', '|---|---|---:|---:|---:|---:|---|');
  for (const [label] of settings) {
    const chromium = median(results.get(`${label}|Chromium`).map((x) => x.rate));
    for (const e of engines) {
      const xs = results.get(`${label}|${e.name}`);
      const rate = median(xs.map((x) => x.rate));
      const step = median(xs.map((x) => x.stepMs));
      row(label, e.name, xs.map((x) => x.rate.toFixed(x.rate < 20 ? 1 : 0)).join(', '), (rate / chromium).toFixed(2), `${step.toFixed(2)} ms`, `${((100 * rate * step) / 1000).toFixed(0)}%`, xs.map((x) => x.turns).join(', '));
    }
  }
  out.push('');
  // where each engine's threads spent the window (Linux's schedstat): the worker's time on a
  // CPU, and its time ready but waiting for one (the machine's scheduling); the rest of the
  // window it slept, waiting for its next turn (our loop, or the engine's)
  out.push(
    '| setting | engine | worker thread: on a CPU | ready, waiting for a CPU | asleep | steps per second on a CPU | the busiest other threads (on a CPU) |',
    '|---|---|---:|---:|---:|---:|---|',
  );
  for (const [label] of settings) {
    for (const e of engines) {
      const runs = results.get(`${label}|${e.name}`).filter((x) => x.threads.length);
      if (!runs.length) continue;
      const worker = runs.map((x) => x.threads.find((t) => WORKER_THREAD.test(t.name)) ?? { run: NaN, wait: NaN, name: '?' });
      const pct = (f) => `${Math.max(0, 100 * median(worker.map(f))).toFixed(0)}%`;
      const perCpu = median(runs.map((x, i) => x.rate / worker[i].run));
      const others = runs[0].threads.filter((t) => !WORKER_THREAD.test(t.name)).slice(0, 3).map((t) => `${t.name} ${(100 * t.run).toFixed(0)}%`).join(', ');
      row(label, e.name, `${pct((x) => x.run)} (${worker[0].name})`, pct((x) => x.wait), pct((x) => 1 - x.run - x.wait), perCpu.toFixed(0), others);
    }
  }
  out.push('');
}

/** The sequence tasks' part of the benchmark (see main). */
async function tasks(browser, server, row, out, problems) {
  const settings = [
    ['text, defaults (block depth 12, 128 tokens as 4 × 32)', '/?preset=text&steps=1000000'],
    ['teacher, the same stack and tokens', '/?preset=text&task=teacher&steps=1000000'],
    ['copy, defaults (block depth 12, 8 × 16)', '/?preset=copy&steps=1000000'],
    ['text, block depth 96, width 128, 256 tokens as 4 × 64', '/?preset=text&depth=96&width=128&tokens=256&context=64&steps=1000000'],
    ['text, block depth 96, width 128, one sequence of 256', '/?preset=text&depth=96&width=128&tokens=256&context=256&steps=1000000'],
    // the largest attention maps a frame carries (4 heads of 256 × 256) at the fastest steps
    ['text, block depth 2, one sequence of 256', '/?preset=text&depth=2&tokens=256&context=256&steps=1000000'],
  ];
  out.push('| sequence task | steps/s | frames/s | longest main-thread task | writing, share of the worker |', '|---|---:|---:|---:|---:|');
  for (const [label, path] of settings) {
    const p = await open(browser, server, path);
    await p.page.waitForTimeout(3000);
    const w = await window_(p.page, TRAIN_SECONDS);
    const share = await p.page.evaluate(() => window.ablationPlayground.playground.timings?.writeShare ?? NaN);
    problems.push(...p.problems);
    await p.context.close();
    row(label, w.stepsPerSecond.toFixed(1), w.fps.toFixed(1), w.longTasks ? `${fmt(w.longest)} ms (${w.longTasks} over 50 ms)` : 'none over 50 ms', Number.isFinite(share) ? `${(100 * share).toFixed(1)}%` : '–');
  }
  out.push('');
}

/**
 * Lesson 000's two stacks (`--stacks`): the encoder-decoder's pace against the decoder-only
 * stack of as many sublayers on the same reverse batches, taking turns on fresh pages (steps/s
 * over a window, and the wasm step); the preset's time from load to 95% copied; and the frame
 * rate and longest main-thread task while the largest encoder-decoder trains with its
 * cross-attention map shown.
 */
async function stacksBench(browser, server, row, out, problems) {
  const pace = async (path) => {
    const p = await open(browser, server, path);
    await p.page.waitForTimeout(2000);
    const w = await window_(p.page, TRAIN_SECONDS);
    problems.push(...p.problems);
    await p.context.close();
    return w;
  };
  out.push('| encoder-decoder ÷ decoder-only, same sublayers (pairs in turn) | steps/s, each pair | median ratio of steps/s | median ratio of the wasm step |', '|---|---|---:|---:|');
  for (const [label, query] of [['the preset: 10 sublayers, width 32, 8 × 16 tokens', 'preset=encoder-decoder&steps=1000000'],
    ['95 sublayers, width 64, 16 × 16 tokens', 'preset=encoder-decoder&depth=95&width=64&tokens=256&steps=1000000']]) {
    const pairs = [];
    for (let i = 0; i < 3; i++) {
      const order = i % 2 ? ['decoder', 'encoder-decoder'] : ['encoder-decoder', 'decoder'];
      const got = {};
      for (const stack of order) got[stack] = await pace(`/?${query}&stack=${stack}`);
      pairs.push(got);
    }
    const ratio = (f) => median(pairs.map((g) => f(g['encoder-decoder']) / f(g.decoder)));
    row(label, pairs.map((g) => `${g['encoder-decoder'].stepsPerSecond.toFixed(0)} / ${g.decoder.stepsPerSecond.toFixed(0)}`).join('; '),
      ratio((w) => w.stepsPerSecond).toFixed(2), ratio((w) => w.stepMs).toFixed(2));
  }
  out.push('');
  out.push('| the encoder-decoder preset in Chromium | value |', '|---|---:|');
  for (let i = 0; i < 3; i++) {
    const t0 = Date.now();
    const p = await open(browser, server, '/?preset=encoder-decoder');
    await p.page.waitForFunction(() => (window.ablationPlayground.value?.accuracy ?? 0) >= 0.95, null, { timeout: 120_000, polling: 50 });
    const step = await p.page.evaluate(() => window.ablationPlayground.value.step);
    problems.push(...p.problems);
    await p.context.close();
    row(`load to 95% copied (run ${i + 1})`, `${((Date.now() - t0) / 1000).toFixed(1)} s (step ${step})`);
  }
  for (const [label, query] of [['the preset, the cross-attention map shown', 'preset=encoder-decoder&attention_layer=5&steps=1000000'],
    ['95 sublayers, width 128, 256 tokens as 8 × 32, cross-attention shown', 'preset=encoder-decoder&depth=95&width=128&tokens=256&context=32&attention_layer=93&steps=1000000']]) {
    const w = await pace(`/?${query}`);
    row(`${label}: steps/s; frames/s; longest main-thread task`, `${w.stepsPerSecond.toFixed(1)}; ${w.fps.toFixed(1)}; ${w.longTasks ? `${fmt(w.longest)} ms (${w.longTasks} over 50 ms)` : 'none over 50 ms'}`);
  }
  out.push('');
}

/**
 * What a reader brings and takes away (`--reader`), each timed on the page, median of
 * REPEATS fresh pages: a 5 MB text from its drop to the first step on it (the worker checks it,
 * counts its floors and builds the run); the same for 1 MB (whose floors the sentence shows);
 * the prompt's first character after Enter (the first frame whose writing continues it, at the
 * text's defaults and at depth 96, width 128); and the weights' download at depth 96, width 128
 * (from the click to the file). Also the longest main-thread task in each.
 */
async function readerBench(browser, server, row, out, problems) {
  const { madeUpText } = await import('./own-text-tests.mjs');
  const repeats = QUICK ? 1 : 3;
  const longest = (page) => page.evaluate(() => Math.max(0, ...window.__long));
  const watchLong = (page) => page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__long.push(e.duration))).observe({ type: 'longtask' });
  });
  out.push('| a reader\'s text, prompt and files | median (each) | longest main-thread task |', '|---|---:|---:|');
  for (const mb of [5, 1]) {
    const text = madeUpText(mb * 1_000_000, mb);
    const times = [];
    let worst = 0;
    for (let i = 0; i < repeats; i++) {
      const p = await open(browser, server, '/?preset=text&steps=1000000');
      const dt = await p.page.evaluateHandle((t) => {
        const d = new DataTransfer();
        d.items.add(new File([t], 'big.txt', { type: 'text/plain' }));
        return d;
      }, text);
      await watchLong(p.page);
      const t0 = await p.page.evaluate(() => performance.now());
      await p.page.locator('[data-ap-root]').dispatchEvent('drop', { dataTransfer: dt });
      await p.page.waitForFunction((n) => (window.ablationPlayground.value?.text_id ?? '').includes(`.${n}.`) && window.ablationPlayground.playground.step > 0, mb * 1_000_000, { timeout: 60_000, polling: 5 });
      times.push((await p.page.evaluate(() => performance.now())) - t0);
      worst = Math.max(worst, await longest(p.page));
      problems.push(...p.problems);
      await p.context.close();
    }
    row(`${mb} MB text: drop → its floors counted and the first step on it`, `${fmt(median(times))} ms (${times.map(fmt).join(', ')})`, `${fmt(worst)} ms`);
  }
  for (const [label, path] of [['text defaults', '/?preset=text&steps=1000000'], ['depth 96, width 128', '/?preset=text&depth=96&width=128&steps=1000000']]) {
    const times = [];
    const firsts = [];
    let worst = 0;
    for (let i = 0; i < repeats; i++) {
      const p = await open(browser, server, path);
      await p.page.waitForTimeout(2000);
      await watchLong(p.page);
      const field = p.page.getByRole('textbox', { name: 'Prompt' });
      const prompt = ['ROMEO.', 'JULIET.', 'HAMLET.'][i % 3];
      await field.fill(prompt);
      const t0 = await p.page.evaluate(() => performance.now());
      await field.press('Enter');
      // the first character after the prompt, then the whole continuation (its announcement)
      await p.page.waitForFunction((prompt) => {
        const heading = document.querySelector('[data-ap-root] [data-el="writes-heading"]').textContent;
        const text = document.querySelector('[data-ap-root] [data-el="writes-text"]').textContent;
        return heading.includes(JSON.stringify(prompt).slice(1, -1)) && text.length > prompt.length;
      }, prompt, { timeout: 120_000, polling: 5 });
      firsts.push((await p.page.evaluate(() => performance.now())) - t0);
      await p.page.waitForFunction(() => document.querySelector('[data-ap-root] [data-el="prompt-said"]').textContent.length > 0, null, { timeout: 180_000, polling: 5 });
      times.push((await p.page.evaluate(() => performance.now())) - t0);
      worst = Math.max(worst, await longest(p.page));
      problems.push(...p.problems);
      await p.context.close();
    }
    row(`prompt, ${label}: Enter → its first character drawn`, `${fmt(median(firsts))} ms (${firsts.map(fmt).join(', ')})`, '');
    row(`prompt, ${label}: Enter → all 200 characters, announced (training waits for it)`, `${fmt(median(times))} ms (${times.map(fmt).join(', ')})`, `${fmt(worst)} ms`);
  }
  {
    const times = [];
    let worst = 0;
    let bytes = 0;
    for (let i = 0; i < repeats; i++) {
      const p = await open(browser, server, '/?preset=text&depth=96&width=128&steps=1000000');
      await p.page.waitForTimeout(2000);
      await watchLong(p.page);
      await p.page.getByText('Download', { exact: true }).click();
      const t0 = await p.page.evaluate(() => performance.now());
      const [download] = await Promise.all([p.page.waitForEvent('download'), p.page.getByRole('button', { name: 'Weights (safetensors)' }).click()]);
      times.push((await p.page.evaluate(() => performance.now())) - t0);
      bytes = (await import('node:fs/promises')).stat(await download.path()).then((s) => s.size);
      bytes = await bytes;
      worst = Math.max(worst, await longest(p.page));
      problems.push(...p.problems);
      await p.context.close();
    }
    row(`weights at depth 96, width 128 (${mib(bytes)}): click → the file`, `${fmt(median(times))} ms (${times.map(fmt).join(', ')})`, `${fmt(worst)} ms`);
  }
  out.push('');
}

/**
 * The live run's split step (issue 54): each setting unsplit on one worker, split into 2
 * shards on one worker (the live one runs both), and split on 2 (a helper takes one), in
 * turn for `rounds` rounds so that each ratio pairs windows measured moments apart. Also the
 * step's time as the worker sees it (a split step's, from its start to the last answer).
 */
async function splitBench(browser, server, row, out, problems) {
  // with --vs DIR, the "where they pay" arm also in DIR's build, in the same rounds
  const vsAt = process.argv.indexOf('--vs');
  const base = vsAt > 0 ? await startServer(process.argv[vsAt + 1]) : null;
  const rounds = QUICK ? 2 : 3;
  const seconds = QUICK ? 4 : 8;
  const settings = SPLIT_NEAR ? [
    // around where shards=0 (the default) starts splitting: 2·10⁸ multiply-adds a step, 128 tokens
    ['depth 96, width 64, 256 tokens (10⁸)', '/?depth=96&width=64&tokens=256'],
    ['depth 48, width 128, 128 tokens (10⁸)', '/?depth=48&width=128&tokens=128'],
    ['depth 96, width 128, 64 tokens (10⁸ over 64 tokens)', '/?depth=96&width=128&tokens=64'],
    ['depth 96, width 128, 128 tokens (2·10⁸: split by default)', '/?depth=96&width=128&tokens=128'],
  ] : [
    // (the largest setting with blocks takes a second a step: windows of seconds cannot time it)
    ['depth 96, width 128, 256 tokens (the default sublayer, mlp)', '/?depth=96&width=128&tokens=256'],
    ['depth 96, defaults', '/?depth=96'],
    ['text preset', '/?preset=text'],
  ];
  const arms = [
    ['unsplit', '&shards=1', 1, false],
    ['2 shards, 1 worker', '&shards=2', 1, false],
    ['2 shards, 2 workers on every step', '&shards=2', 2, true],
    ['2 shards, 2 workers where they pay', '&shards=2', 2, false],
    ...(base ? [['the same in the base build', '&shards=2', 2, false, base]] : []),
  ];
  const partsSeen = [];
  out.push(`The live run's step split (${rounds} rounds of ${seconds} s windows each; steps/s, median, and each arm's wasm step in ms):`, '');
  const vs = base ? [` | where they pay in the base build (${process.argv[vsAt + 1]}) | this ÷ base build, where they pay, per round`, '---:|---|'] : ['', ''];
  out.push(`| setting | unsplit, 1 worker | 2 shards, 1 worker | 2 shards, 2 workers on every step | 2 shards, 2 workers where they pay (the way kept) | every step ÷ 1 worker (2 shards), per round | every step ÷ unsplit, per round | where they pay ÷ unsplit, per round${vs[0]} |`, `|---|---:|---:|---:|---:|---|---|---|${vs[1]}`);
  for (const [label, path] of settings) {
    const rates = arms.map(() => []);
    const steps = arms.map(() => []);
    const ways = [];
    for (let round = 0; round < rounds; round++) {
      for (const [i, [, extra, workers, always, at]] of arms.entries()) {
        const p = await open(browser, at ?? server, `${path}${extra}`);
        await p.page.evaluate(([n, a]) => window.ablationPlayground.playground.stepWorkers(n, a), [workers, always]);
        await p.page.waitForTimeout(2000);
        const w = await window_(p.page, seconds);
        const { helped, way, parts } = await p.page.evaluate(() => window.ablationPlayground.playground.timings);
        if (workers > 1 && always && parts && !at) partsSeen.push([label, parts]);
        if (workers > 1 && !(helped > 0)) problems.push(`${label}, ${workers} workers: no shard went to a helper`);
        if (workers > 1 && !always && !at) ways.push(way);
        problems.push(...p.problems);
        await p.context.close();
        rates[i].push(w.stepsPerSecond);
        steps[i].push(w.stepMs);
      }
    }
    const per = (a, b) => rates[a].map((x, r) => (x / rates[b][r]).toFixed(2)).join(', ');
    const cells = rates.map((r, i) => `${median(r).toFixed(2)} (${median(steps[i]).toFixed(1)} ms)`);
    cells[3] += ` (${ways.join(', ')})`;
    row(label, ...cells.slice(0, 4), per(2, 1), per(2, 0), per(3, 0), ...(base ? [cells[4], per(3, 4)] : []));
  }
  await base?.close();
  out.push('');
  // where a helped step's time goes on the live worker (2 workers on every step; ms, the rounds'
  // medians): what one helper's copies cost, apart from the shard's compute; and a frame's
  // probe, made here while the helper runs the whole step (where the probe costs more than a shard)
  out.push('| setting (2 workers, every step) | send: tasks and weights out | own shard | waiting for the helper | receive: gradients in and summed | finish: the update | a frame\'s probe meanwhile |', '|---|---:|---:|---:|---:|---:|---:|');
  for (const [label] of settings) {
    const seen = partsSeen.filter(([l]) => l === label).map(([, p]) => p);
    if (seen.length === 0) continue;
    const m = (k) => median(seen.map((p) => p[k])).toFixed(1);
    row(label, m('send'), m('own'), m('wait'), m('receive'), m('finish'), seen.some((p) => p.probe) ? m('probe') : '–');
  }
  out.push('');
}

/**
 * The split steps' weights handed to the helpers in one SharedArrayBuffer (a cross-origin
 * isolated page) against a copy a helper (any other page), at the heaviest live setting split
 * in 4, with 1 and 2 helpers, arms in turn within each round: steps per second, and the live
 * worker's `send` (the tasks and weights out, ms a step), which is what sharing changes.
 */
async function sharedBench(browser, server, row, out, problems) {
  const rounds = QUICK ? 2 : 3;
  const seconds = QUICK ? 4 : 8;
  const isolated = await startServer(DIST, { isolated: true });
  const path = '/?depth=96&width=128&tokens=256&shards=4';
  const arms = [
    ['2 workers, a copy a helper', server, 2],
    ['2 workers, shared', isolated, 2],
    ['3 workers, a copy a helper', server, 3],
    ['3 workers, shared', isolated, 3],
  ];
  const rates = arms.map(() => []);
  const sends = arms.map(() => []);
  try {
    for (let round = 0; round < rounds; round++) {
      for (const [i, [label, at, workers]] of arms.entries()) {
        const p = await open(browser, at, path);
        await p.page.evaluate((n) => window.ablationPlayground.playground.stepWorkers(n, true), workers);
        await p.page.waitForTimeout(2000);
        const w = await window_(p.page, seconds);
        const { shared, parts, helped } = await p.page.evaluate(() => window.ablationPlayground.playground.timings);
        if (!(helped > 0)) problems.push(`${label}: no shard went to a helper`);
        if (Boolean(shared) !== (at === isolated)) problems.push(`${label}: shared is ${shared}`);
        problems.push(...p.problems);
        await p.context.close();
        rates[i].push(w.stepsPerSecond);
        sends[i].push(parts?.send ?? NaN);
      }
    }
  } finally {
    await isolated.close();
  }
  out.push(`The split steps' weights shared or copied (depth 96 × width 128 × 256 tokens, 4 shards; ${rounds} rounds of ${seconds} s windows; medians):`, '');
  out.push('| arm | steps/s | send: tasks and weights out (ms a step) | shared ÷ copies, steps/s per round |', '|---|---:|---:|---|');
  for (const [i, [label]] of arms.entries()) {
    const paired = i % 2 === 1 ? rates[i].map((x, r) => (x / rates[i - 1][r]).toFixed(2)).join(', ') : '';
    row(label, median(rates[i]).toFixed(2), median(sends[i]).toFixed(1), paired);
  }
  out.push('');
}

async function main() {
  const started = Date.now();
  const server = await startServer();
  const browser = await launchBrowser();
  const out = [`Chromium ${browser.version()}, headless, 1280×900, serving ${DIST}.`, ''];
  const problems = [];
  const row = (...cells) => out.push(`| ${cells.join(' | ')} |`);
  try {
    if (ONLY_DEPTH) await depthBuys(browser, server, row, out, problems);
    if (ONLY_ENGINES) await enginePaces(browser, server, row, out, problems);
    if (ONLY_SEEDS) await seedsBench(browser, server, row, out, problems);
    if (ONLY_STACKS) await stacksBench(browser, server, row, out, problems);
    if (ONLY_READER) await readerBench(browser, server, row, out, problems);
    if (ONLY_TUNED) await tunedBench(browser, server, row, out, problems);
    if (ONLY_SPLIT) await splitBench(browser, server, row, out, problems);
    if (ONLY_SHARED) await sharedBench(browser, server, row, out, problems);
    if (!ONLY_SPLIT && !ONLY_SHARED && !ONLY_COMPARISONS && !ONLY_TASKS && !ONLY_DEPTH && !ONLY_ENGINES && !ONLY_SEEDS && !ONLY_STACKS && !ONLY_READER && !ONLY_TUNED) {
      // 1. Depth 96, defaults: throughput, frame rate, long tasks; then the slider while training.
      {
        const p = await open(browser, server, '/?depth=96');
        await p.page.waitForTimeout(1000);
        const w = await window_(p.page, TRAIN_SECONDS);
        const lat = await sliderLatency(p.page, QUICK ? 8 : 20);
        const rebuild = await rebuildMs(p.page, QUICK ? 5 : 15);
        problems.push(...p.problems);
        await p.context.close();
        out.push('| depth 96, defaults, training | value |', '|---|---:|');
        row(`training steps/s (${w.seconds.toFixed(1)} s, ${w.mode})`, w.stepsPerSecond.toFixed(0));
        row('animation frames/s (page)', w.fps.toFixed(1));
        row('frames drawn/s (status line updates)', w.drawnPerSecond.toFixed(1));
        row('frame interval median / p95', `${fmt(w.frameMedian)} / ${fmt(w.frameP95)} ms`);
        row('longest main-thread task', w.longTasks ? `${fmt(w.longest)} ms (${w.longTasks} over 50 ms)` : 'none over 50 ms');
        row('one training step in the worker (wasm), mean of the last slice', `${w.stepMs.toFixed(2)} ms`);
        row('rebuild after a seed change, in the worker (wasm), median', `${rebuild.toFixed(2)} ms`);
        const ms = lat.map((l) => l.ms);
        const fr = lat.map((l) => l.frames);
        row(`slider input → new depth drawn, median (max), ${lat.length} samples`, `${fmt(median(ms))} ms (${fmt(Math.max(...ms))}); ${median(fr)} frames (${Math.max(...fr)})`);
        out.push('');
      }
      // 2. Each sublayer kind at depth 96, and the largest setting.
      out.push('| training at depth 96 | steps/s | wasm step | rebuild | longest main-thread task | frames/s |', '|---|---:|---:|---:|---:|---:|');
      for (const sublayer of ['mlp', 'ffn', 'attention', 'block']) {
        const p = await open(browser, server, `/?depth=96&sublayer=${sublayer}`);
        await p.page.waitForTimeout(1000);
        const w = await window_(p.page, TRAIN_SECONDS);
        const rebuild = await rebuildMs(p.page, QUICK ? 3 : 7);
        problems.push(...p.problems);
        await p.context.close();
        row(sublayer, w.stepsPerSecond.toFixed(1), `${w.stepMs.toFixed(2)} ms`, `${rebuild.toFixed(1)} ms`, w.longTasks ? `${fmt(w.longest)} ms` : 'none over 50 ms', w.fps.toFixed(1));
      }
      {
        const t0 = Date.now();
        const p = await open(browser, server, LARGEST);
        const firstStatus = (Date.now() - t0) / 1000;
        const w = await window_(p.page, TRAIN_SECONDS);
        const r = await responsiveness(p.page, 3);
        problems.push(...p.problems);
        await p.context.close();
        row(`largest: \`${LARGEST.slice(2)}\``, w.stepsPerSecond.toFixed(2), `${(w.stepMs ?? NaN).toFixed(0)} ms`, '', w.longTasks ? `${fmt(w.longest)} ms` : 'none over 50 ms', w.fps.toFixed(1));
        out.push('');
        out.push(`Largest setting: first status line ${firstStatus.toFixed(1)} s after navigation; a setTimeout(0) waits ${fmt(r.timeoutWait.median)} ms median (${fmt(r.timeoutWait.max)} max); real clicks (Pause/Play, through the browser) answered in ${r.answers.join(', ')} ms from the input event to the frame that shows the new label (the driver's round trips: ${r.clicks.join(', ')} ms).`);
        out.push('');
      }
      // 3. A long run at depth 1.
      {
        const p = await open(browser, server, '/?depth=1&steps=1000000');
        await p.page.waitForTimeout(1000);
        const early = await window_(p.page, 5);
        const target = 150_000;
        const deadline = Date.now() + 180_000;
        while ((await p.page.evaluate(() => window.ablationPlayground.playground.step)) < target && Date.now() < deadline) {
          await p.page.waitForTimeout(2000);
        }
        const late = await window_(p.page, 5);
        problems.push(...p.problems);
        await p.context.close();
        out.push('| long run, depth 1 | first seconds | after the run |', '|---|---:|---:|');
        row('steps reached', early.step, late.step);
        row('training steps/s', early.stepsPerSecond.toFixed(0), late.stepsPerSecond.toFixed(0));
        row('frame interval median / p95', `${fmt(early.frameMedian)} / ${fmt(early.frameP95)} ms`, `${fmt(late.frameMedian)} / ${fmt(late.frameP95)} ms`);
        row('frames drawn/s', early.drawnPerSecond.toFixed(1), late.drawnPerSecond.toFixed(1));
        row('wasm memory, worker / page', `${mib(early.memory.engine)} / ${mib(early.memory.page)}`, `${mib(late.memory.engine)} / ${mib(late.memory.page)}`);
        row('JS heap (page)', mib(early.heap), mib(late.heap));
        out.push('');
        if (late.step < target) problems.push(`the long run reached only ${late.step} steps`);
      }
    }
    // 4. The comparisons.
    if (!ONLY_SPLIT && !ONLY_SHARED && !ONLY_TASKS && !ONLY_DEPTH && !ONLY_ENGINES && !ONLY_SEEDS && !ONLY_STACKS && !ONLY_READER && !ONLY_TUNED) await comparisons(browser, server, row, out, problems);
    // 5. The sequence tasks: steps/s and frames/s at their defaults (and the teacher on the
    // same stack and tokens), the longest main-thread task, and the share of the worker's
    // time that writing the samples took.
    if (!ONLY_SPLIT && !ONLY_SHARED && !ONLY_COMPARISONS && !ONLY_DEPTH && !ONLY_ENGINES && !ONLY_SEEDS && !ONLY_STACKS && !ONLY_READER && !ONLY_TUNED) await tasks(browser, server, row, out, problems);
  } finally {
    await browser.close().catch(() => {});
    await server.close();
  }
  const bundle = ONLY_SHARED || ONLY_COMPARISONS || ONLY_TASKS || ONLY_DEPTH || ONLY_ENGINES || ONLY_SEEDS || ONLY_STACKS || ONLY_READER ? [] : await bundleSizes();
  if (bundle.length) out.push('| shipped file | raw / gzip -9 |', '|---|---:|');
  for (const b of bundle) row(`\`dist/${b.name}\``, `${kib(b.raw)} / ${kib(b.gzip)}`);
  const total = bundle.reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
  if (bundle.length) row('total', `${kib(total.raw)} / ${kib(total.gzip)}`);
  console.log(out.join('\n'));
  console.log(`\n(${((Date.now() - started) / 1000).toFixed(0)} s)`);
  if (problems.length) {
    console.log(`\npage problems during the benchmark:\n- ${problems.join('\n- ')}`);
    process.exitCode = 1;
  }
}

main().catch((e) => {
  console.error(e.stack ?? String(e));
  process.exitCode = 1;
});
