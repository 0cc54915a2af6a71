// The live run's benchmark (tests/e2e/bench.mjs without a flag): depth 96's throughput, frame
// rate, long tasks and slider latency; each sublayer kind; the largest setting; a long run.

import { median } from '../lib.mjs';
import { fmt, LARGEST, mib, open, QUICK, rebuildMs, responsiveness, sliderLatency, TRAIN_SECONDS, window_ } from './common.mjs';

/** The live run: depth 96's throughput, frame rate, long tasks and slider latency; each
 *  sublayer kind at depth 96 and the largest setting; a long run at depth 1. */
export async function liveBench(browser, server, row, out, problems) {
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
