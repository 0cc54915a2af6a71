// Browser benchmark of the playground page in headless Chromium.
//
//   node tests/e2e/bench.mjs [--quick] [--comparisons] [--tasks] [--depth] [--engines [--load]] [--seeds] [--stacks] [--reader] [--tuned] [--split] [--shared] [--phone] [--vs DIR]
//     (--split: the live run's step split into 2 shards on 1 and 2 workers against the unsplit
//     step, at depth 96 × width 128 × 256 tokens, depth 96 and the text preset, paired round
//     by round; --split-near the same at four settings around 2·10⁸ multiply-adds a step,
//     where shards=0, the default, starts splitting in two; --shared the split steps' weights
//     handed to 1 and 2 helpers in one SharedArrayBuffer, on a cross-origin isolated page,
//     against a copy a helper, paired round by round; --phone the first trained step on a
//     phone's profile, served plain and gzipped, with --vs DIR against another build, round by
//     round: bench/phone.mjs)
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

import { DIST, launchBrowser, startServer } from './lib.mjs';
import { bundleSizes, kib } from './bench/common.mjs';
import { comparisons, depthBuys, seedsBench, tunedBench } from './bench/comparisons.mjs';
import { enginePaces } from './bench/engines.mjs';
import { liveBench } from './bench/live.mjs';
import { sharedBench, splitBench } from './bench/split.mjs';
import { phoneBench } from './bench/phone.mjs';
import { readerBench, stacksBench, tasks } from './bench/tasks.mjs';

const ONLY_COMPARISONS = process.argv.includes('--comparisons');
const ONLY_TASKS = process.argv.includes('--tasks');
const ONLY_DEPTH = process.argv.includes('--depth');
const ONLY_ENGINES = process.argv.includes('--engines');
const ONLY_SEEDS = process.argv.includes('--seeds');
const ONLY_STACKS = process.argv.includes('--stacks');
const ONLY_READER = process.argv.includes('--reader');
const ONLY_TUNED = process.argv.includes('--tuned');
const ONLY_SPLIT = process.argv.includes('--split') || process.argv.includes('--split-near');
const ONLY_SHARED = process.argv.includes('--shared');
const ONLY_PHONE = process.argv.includes('--phone');

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
    if (ONLY_PHONE) await phoneBench(browser, server, row, out, problems);
    if (!ONLY_SPLIT && !ONLY_SHARED && !ONLY_COMPARISONS && !ONLY_TASKS && !ONLY_DEPTH && !ONLY_ENGINES && !ONLY_SEEDS && !ONLY_STACKS && !ONLY_READER && !ONLY_TUNED && !ONLY_PHONE) {
      await liveBench(browser, server, row, out, problems);
    }
    // 4. The comparisons.
    if (!ONLY_SPLIT && !ONLY_SHARED && !ONLY_TASKS && !ONLY_DEPTH && !ONLY_ENGINES && !ONLY_SEEDS && !ONLY_STACKS && !ONLY_READER && !ONLY_TUNED && !ONLY_PHONE) await comparisons(browser, server, row, out, problems);
    // 5. The sequence tasks: steps/s and frames/s at their defaults (and the teacher on the
    // same stack and tokens), the longest main-thread task, and the share of the worker's
    // time that writing the samples took.
    if (!ONLY_SPLIT && !ONLY_SHARED && !ONLY_COMPARISONS && !ONLY_DEPTH && !ONLY_ENGINES && !ONLY_SEEDS && !ONLY_STACKS && !ONLY_READER && !ONLY_TUNED && !ONLY_PHONE) await tasks(browser, server, row, out, problems);
  } finally {
    await browser.close().catch(() => {});
    await server.close();
  }
  const bundle = ONLY_SHARED || ONLY_COMPARISONS || ONLY_TASKS || ONLY_DEPTH || ONLY_ENGINES || ONLY_SEEDS || ONLY_STACKS || ONLY_READER || ONLY_PHONE ? [] : await bundleSizes();
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
