// The comparisons' benchmarks (tests/e2e/bench.mjs, --comparisons, --seeds, --tuned, --depth):
// the live run's pace while All four trains, the sweep's time by the pool's size, All four over
// seeds, the tuned comparisons' time to a verdict, what depth buys.

import { median, startServer } from '../lib.mjs';
import { LARGEST, list, liveRate, mib, open, QUICK, sweepSeconds, TRAIN_SECONDS } from './common.mjs';

/**
 * The live run's pace while a comparison trains: two fresh pages at `path` on the same timeline,
 * one left alone and one where `start(page)` begins the comparison after `warmMs`; each counts
 * its live steps over `windowMs`, `gapMs` after that moment. A live run's steps grow dearer as
 * it trains (at the text defaults its steps/s fall by a fifth over its first 25 s with nothing
 * else running), so "before the comparison" against "during it" on one page would count that
 * as the comparison's cost. `order` says which page goes first; `after(page)` runs on the
 * comparison's page before it closes.
 */
export async function pairedPace(browser, server, path, { warmMs, gapMs, windowMs, start, after, order = 0 }, problems) {
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
export function paceWhileAllFour(browser, server, problems, order) {
  const start = (page) => page.getByRole('button', { name: 'All four', exact: true }).click();
  return pairedPace(browser, server, '/?depth=96', { warmMs: 1500, gapMs: 500, windowMs: 3000, start, order }, problems);
}
/** One depth sweep at the default settings on a fresh page (a finished sweep's state would
 *  otherwise answer at once), with at most `size` pool workers if the build has a pool. */
export async function sweepOnce(browser, server, size, problems) {
  const p = await open(browser, server, '/');
  await p.page.waitForTimeout(500);
  if (size) await p.page.evaluate((n) => window.ablationPlayground.playground.resizePool?.(n), size);
  const seconds = await sweepSeconds(p.page);
  problems.push(...p.problems);
  await p.context.close();
  return seconds;
}
/** The comparisons: the live run's pace while All four trains, the sweep's time by the pool's
 *  size, and the memory at the largest setting. With `--vs DIR`, the pace and the default
 *  sweep alternate between DIR's build (`base`) and this one, pair by pair, for paired ratios. */
export async function comparisons(browser, server, row, out, problems) {
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
export async function seedsBench(browser, server, row, out, problems) {
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
export async function tunedBench(browser, server, row, out, problems) {
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
export async function tunedTable(what, path, base, server, browser, row, out, problems) {
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
export async function depthBuys(browser, server, row, out, problems) {
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
