// The split step's benchmarks (tests/e2e/bench.mjs --split, --split-near, --shared): a step's
// shards on 1 and 2 helper workers against the unsplit step, and the weights shared against
// copied, paired round by round.

import { DIST, median, startServer } from '../lib.mjs';
import { open, QUICK, window_ } from './common.mjs';

/** --split-near: the split measured at four settings around where the default starts splitting. */
export const SPLIT_NEAR = process.argv.includes('--split-near');
/**
 * The live run's split step (issue 54): each setting unsplit on one worker, split into 2
 * shards on one worker (the live one runs both), and split on 2 (a helper takes one), in
 * turn for `rounds` rounds so that each ratio pairs windows measured moments apart. Also the
 * step's time as the worker sees it (a split step's, from its start to the last answer).
 */
export async function splitBench(browser, server, row, out, problems) {
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
export async function sharedBench(browser, server, row, out, problems) {
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
