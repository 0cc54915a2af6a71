// Browser benchmark of the playground page in headless Chromium.
//
//   node tests/e2e/bench.mjs          (from anywhere; serves dist/, takes about half a minute)
//
// Prints markdown tables: slider latency per depth, training throughput and the longest
// main-thread task at depth 96, and the size of the shipped bundle. Timings come from
// performance.now() inside the page, which Chromium coarsens to 0.1 ms.

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DIST, frames, launchBrowser, loadPlayground, median, openPage, startServer, state } from './lib.mjs';

const DEPTHS = [1, 12, 48, 96];
const REPEATS = 15;
const TRAIN_SECONDS = 5;

// Installed before the page's own scripts, so no long task is missed.
function recordLongTasks() {
  window.__benchLongTasks = [];
  window.__benchLongTaskSupport = PerformanceObserver.supportedEntryTypes.includes('longtask');
  if (!window.__benchLongTaskSupport) return;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__benchLongTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
const stat = (xs) => `${fmt(median(xs))} (${fmt(Math.max(...xs))})`;

/**
 * Slider latency, paused so only the slider causes work. For each sample, in the page:
 * dispatch an 'input' event on the slider as a drag would (the handler restarts the stack at
 * the new depth synchronously), then wait for the next animation frame, in which the page's
 * own frame callback (queued before ours) measures the probe and draws the three charts; our
 * callback runs right after it, so that is "drawn". A second frame later the result has been
 * presented: "next frame". Depths alternate so every sample really changes the depth.
 */
async function sliderLatency(page) {
  const drawn = Object.fromEntries(DEPTHS.map((d) => [d, []]));
  const presented = Object.fromEntries(DEPTHS.map((d) => [d, []]));
  for (let r = 0; r < REPEATS; r++) {
    for (const d of DEPTHS) {
      const t = await page.evaluate(
        (depth) =>
          new Promise((done) => {
            const slider = document.querySelector('[data-ap-root] [data-el="depth"]');
            const t0 = performance.now();
            slider.value = String(depth);
            slider.dispatchEvent(new Event('input', { bubbles: true }));
            requestAnimationFrame(() => {
              const t1 = performance.now();
              requestAnimationFrame(() => done({ drawn: t1 - t0, presented: performance.now() - t0 }));
            });
          }),
        d,
      );
      drawn[d].push(t.drawn);
      presented[d].push(t.presented);
    }
  }
  // Sanity check that the page followed the slider.
  const last = await state(page);
  if (last.config.depth !== DEPTHS.at(-1)) throw new Error(`the page's depth is ${last.config.depth} after the benchmark`);
  return { drawn, presented };
}

/** The synchronous wasm cost of a depth change: pg.set (rebuild + init probe) and pg.measure. */
async function syncCost(page) {
  const cost = Object.fromEntries(DEPTHS.map((d) => [d, []]));
  for (let r = 0; r < REPEATS; r++) {
    for (const d of DEPTHS) {
      const ms = await page.evaluate((depth) => {
        const pg = window.ablationPlayground.playground;
        const t0 = performance.now();
        pg.set('depth', String(depth));
        pg.measure();
        return performance.now() - t0;
      }, d);
      cost[d].push(ms);
    }
  }
  return cost;
}

/** Steps per second, animation frames per second and the longest task while training. */
async function training(page) {
  await page.waitForTimeout(500); // past the first frames and any load-time work
  const before = await page.evaluate(() => {
    // Count animation frames from here on.
    window.__benchFrames = 0;
    const tick = () => {
      window.__benchFrames++;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    return { step: window.ablationPlayground.playground.step, t: performance.now() };
  });
  await page.waitForTimeout(TRAIN_SECONDS * 1000);
  const after = await page.evaluate(() => ({
    step: window.ablationPlayground.playground.step,
    t: performance.now(),
    frames: window.__benchFrames,
    supported: window.__benchLongTaskSupport,
    tasks: window.__benchLongTasks,
  }));
  const seconds = (after.t - before.t) / 1000;
  const tasks = after.tasks.filter((e) => e.start >= before.t && e.start <= after.t);
  return {
    playing: await page.evaluate(() => window.ablationPlayground.playing),
    stepsPerSecond: (after.step - before.step) / seconds,
    framesPerSecond: after.frames / seconds,
    seconds,
    supported: after.supported,
    longTasks: tasks.length,
    longest: tasks.length ? Math.max(...tasks.map((e) => e.duration)) : null,
  };
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

async function main() {
  const started = Date.now();
  const server = await startServer();
  const browser = await launchBrowser();
  const chromiumVersion = browser.version();
  const problems = [];
  let latency, cost, train;
  try {
    // Latency and synchronous cost, on one paused page.
    {
      const p = await openPage(browser);
      await loadPlayground(p.page, server.url, '/?depth=12');
      await p.page.getByRole('button', { name: 'Pause' }).click();
      await frames(p.page, 2);
      latency = await sliderLatency(p.page);
      cost = await syncCost(p.page);
      problems.push(...p.problems);
      await p.context.close();
    }
    // Training at depth 96 with the defaults, on a fresh page.
    {
      const p = await openPage(browser, { initScript: recordLongTasks });
      await loadPlayground(p.page, server.url, '/?depth=96');
      train = await training(p.page);
      if (!train.playing) problems.push('the page was not playing during the training measurement');
      problems.push(...p.problems);
      await p.context.close();
    }
  } finally {
    await browser.close().catch(() => {});
    await server.close();
  }
  const bundle = await bundleSizes();

  const out = [];
  out.push(`Chromium ${chromiumVersion}, headless, 1280×900, serving ${DIST}; ${REPEATS} samples per depth; median (max), ms.`);
  out.push('');
  out.push(`| slider → redrawn | ${DEPTHS.map((d) => `depth ${d}`).join(' | ')} |`);
  out.push(`|---|${DEPTHS.map(() => '---:').join('|')}|`);
  out.push(`| input event → charts drawn (1 rAF) | ${DEPTHS.map((d) => stat(latency.drawn[d])).join(' | ')} |`);
  out.push(`| input event → next frame (2 rAF) | ${DEPTHS.map((d) => stat(latency.presented[d])).join(' | ')} |`);
  out.push(`| sync \`pg.set('depth') + pg.measure()\` | ${DEPTHS.map((d) => stat(cost[d])).join(' | ')} |`);
  out.push('');
  out.push('| measure | value |');
  out.push('|---|---:|');
  out.push(`| training steps/s, depth 96, defaults (${train.seconds.toFixed(1)} s playing) | ${train.stepsPerSecond.toFixed(1)} |`);
  out.push(`| animation frames/s while training at depth 96 | ${train.framesPerSecond.toFixed(1)} |`);
  const longest = !train.supported
    ? 'longtask entries not supported'
    : train.longest === null
      ? 'none over 50 ms'
      : `${fmt(train.longest)} ms (${train.longTasks} tasks over 50 ms)`;
  out.push(`| longest main-thread task while training at depth 96 | ${longest} |`);
  for (const b of bundle) out.push(`| \`dist/${b.name}\` raw / gzip -9 | ${kib(b.raw)} / ${kib(b.gzip)} |`);
  const total = bundle.reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
  out.push(`| wasm + js total raw / gzip -9 | ${kib(total.raw)} / ${kib(total.gzip)} |`);
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
