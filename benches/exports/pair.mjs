// Two builds of the page paired through their exports in Node, alternating call by call: the
// live step, a frame made and read, the knockout's and the tuned lens's jobs, what the model
// writes. What BENCHMARKS.md's "paired before and after" rows in Node come from.
//
//   node benches/exports/pair.mjs NEW_DIST BASE_DIST     (each a Trunk build's dist/)
//
// Prints, per measure, each build's times and the median of the paired ratios (new ÷ base).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const dirs = process.argv.slice(2).map((d) => resolve(d));
if (dirs.length !== 2) {
  console.error('usage: node benches/exports/pair.mjs NEW_DIST BASE_DIST');
  process.exit(2);
}
const text = readFileSync(new URL('../../www/data/shakespeare.txt', import.meta.url));
const mods = [];
for (const d of dirs) {
  const m = await import(`${d}/ablation-playground.js?${mods.length}`);
  m.initSync({ module: readFileSync(`${d}/ablation-playground_bg.wasm`) });
  m.installText(text);
  mods.push(m);
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const report = (name, times) => {
  const ratios = times[0].map((v, k) => v / times[1][k]);
  const each = times.map((t) => t.map((v) => v.toFixed(v < 10 ? 3 : 0)).join(', '));
  console.log(`${name}: ${each[0]} | ${each[1]} | new ÷ base median ${median(ratios).toFixed(3)} (${ratios.map((r) => r.toFixed(2)).join(' ')})`);
};
/** `rounds` rounds, each running `f(module)` once per build in turn; `f` returns times by name. */
function paired(rounds, f) {
  const out = {};
  for (let round = 0; round < rounds; round++) {
    mods.forEach((m, i) => {
      for (const [name, t] of Object.entries(f(m))) {
        out[name] ??= [[], []];
        out[name][i].push(t);
      }
    });
  }
  Object.entries(out).forEach(([name, times]) => report(name, times));
}
const train = (s, n) => {
  const t = performance.now();
  for (let done = 0; done < n; ) done += s.train(n - done);
  return (performance.now() - t) / n;
};
function runJobs(m, view) {
  const t = performance.now();
  for (let ids = view.wanted(); ids.length; ids = view.wanted()) {
    const job = new m.Job(view.job(ids[0]));
    while (!job.advance(1000)) {}
    view.report(job.report());
    job.free();
  }
  return performance.now() - t;
}

for (const [query, steps] of [['depth=96&sublayer=mlp', 300], ['depth=96&sublayer=block', 40], ['depth=96&sublayer=block&width=128&tokens=256&task=copy', 3]]) {
  paired(5, (m) => {
    const settings = new m.Settings(query);
    const s = new m.Session(settings.configBytes(), 1);
    const view = new m.View();
    s.train(1);
    const step = train(s, steps);
    let t = performance.now();
    let bytes;
    for (let k = 0; k < 10; k++) bytes = s.frame();
    const frame = (performance.now() - t) / 10;
    t = performance.now();
    for (let k = 0; k < 10; k++) view.load(bytes, 1);
    const load = (performance.now() - t) / 10;
    s.free(); settings.free(); view.free();
    return { [`${query}: step, ms`]: step, [`${query}: Session.frame(), ms`]: frame, [`${query}: View.load, ms`]: load };
  });
}
paired(3, (m) => {
  const settings = new m.Settings('depth=24&task=text&sublayer=block');
  const s = new m.Session(settings.configBytes(), 1);
  train(s, 60);
  const bytes = s.knockoutJob();
  let view = new m.View();
  view.startKnockout(bytes);
  const knockout = runJobs(m, view);
  view.free();
  view = new m.View();
  view.startTunedLens(bytes);
  const lens = runJobs(m, view);
  view.free();
  const t = performance.now();
  for (let k = 0; k < 5; k++) {
    s.train(1);
    while (s.writeSome(8)) {}
  }
  const write = performance.now() - t;
  s.free(); settings.free();
  return { 'knockout of a depth-24 block stack on the text, ms': knockout, 'its tuned lens fitted, ms': lens, 'five samples written, ms': write };
});
