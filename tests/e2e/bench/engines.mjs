// The engines' benchmark (tests/e2e/bench.mjs --engines [--load]): the live run's pace in
// Chromium, Firefox ESR and WebKitGTK, and each process's share of the machine.

import * as FS from 'node:fs';
import { median } from '../lib.mjs';
import { open, QUICK } from './common.mjs';

/** The processes of each engine, by command line, and the name its worker threads carry. */
export const PROCESSES = { Chromium: /chrom|headless_shell/i, 'Firefox ESR': /firefox/i, WebKitGTK: /WebKit(Web|Network|GPU)Process|MiniBrowser/ };
/** The live worker's thread, as each engine names it (Chromium, Firefox, WebKitGTK). */
export const WORKER_THREAD = /^(DedicatedWorker|DOM Worker|WebCore: Worker)/;
/** With --engines: a busy process per core beside the browsers, as on a reader's busy laptop. */
export const LOADED = process.argv.includes('--load');
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
export function threadTimes(pattern) {
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
export function threadShares(before, after, ms) {
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
export async function enginePaces(browser, server, row, out, problems) {
  const { launch } = await import('../engines.mjs');
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
