// A soak of the page in every engine (issue 37): what a reader's browser meets over many loads
// and over a long time, counted, never assumed.
//
//   node tests/e2e/soak.mjs [--engines chromium,firefox,webkit] [--loads N] [--seconds S] [--long MINUTES]
//
//   --loads N     N page loads per engine across the presets (text, copy, induction, warmup,
//                 break-and-heal, depth 96, encoder-decoder), each trained for S seconds (10):
//                 counts crashes (the page or its session gone), hangs (the page not answering
//                 within 30 s), pages that never start (no step within 20 s), non-finite numbers
//                 in `.value` (they read null), error boxes and console errors. Each problem
//                 is printed with what was seen (the preset, the step, the numbers read).
//   --long M      one page left training for M minutes per engine (depth 24, steps without end),
//                 its memory sampled every minute: the browser's own processes' resident memory
//                 (and Chromium's JS heap), to see that it stays flat.
//
// The test command runs a short version (3 loads per engine, 6 s each); the full soak is run by
// hand and recorded in BENCHMARKS.md. Serves dist/ (after scripts/build.sh). Exit code 1 if any
// problem was counted.

import { execFileSync } from 'node:child_process';
import { available, launch } from './engines.mjs';
import { launchBrowser, openPage, startServer } from './lib.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const ENGINES = arg('engines', 'chromium,firefox,webkit').split(',');
const LOADS = Number(arg('loads', '0'));
const SECONDS = Number(arg('seconds', '10'));
const LONG = Number(arg('long', '0'));

const PRESETS = [
  '/?preset=text',
  '/?preset=copy',
  '/?preset=induction',
  '/?preset=warmup',
  '/?preset=break-and-heal',
  '/?depth=96&steps=1000000',
  '/?preset=encoder-decoder',
];

/** Chromium through Playwright, with the small interface engines.mjs gives the others. */
async function launchChromium() {
  const browser = await launchBrowser();
  return {
    name: 'chromium',
    async newPage() {
      const { context, page, problems } = await openPage(browser);
      let gone = null;
      page.on('crash', () => (gone = 'the page crashed'));
      return {
        goto: (url) => page.goto(url, { waitUntil: 'load', timeout: 60_000 }),
        evaluate: async (fn, a) => {
          if (gone) throw new Error(gone);
          return page.evaluate(`(${fn})(${JSON.stringify(a ?? null)})`);
        },
        collectProblems: async () => problems,
        close: () => context.close(),
      };
    },
    close: () => browser.close(),
    pids: () => [browser.process?.()?.pid].filter(Boolean),
  };
}

const open = (name) => (name === 'chromium' ? launchChromium() : launch(name));

/** Resolves `p` or fails after `ms`: a page that does not answer is a hang. */
const within = (p, ms, what) =>
  Promise.race([p, new Promise((_, fail) => setTimeout(() => fail(new Error(`hang: ${what} did not answer within ${ms / 1000} s`)), ms))]);

/** What `.value` holds now, and which of its numbers that should be finite read null. */
const READ = `() => {
  const v = window.ablationPlayground?.value;
  if (!v) return { started: false };
  const bad = [];
  const want = (path, x) => { if (typeof x !== 'number' || !Number.isFinite(x)) bad.push(path + '=' + JSON.stringify(x)); };
  if (v.step > 0 && v.diverged_at === null) { want('loss', v.loss); want('act_std', v.act_std); }
  if (v.floors) for (const [k, x] of Object.entries(v.floors)) want('floors.' + k, x);
  if (v.task && v.task !== 'teacher' && v.step >= 100 && v.diverged_at === null) want('val_loss', v.val_loss);
  const error = [...document.querySelectorAll('[data-ap-root] .ap-error:not([hidden])')].map((e) => e.textContent).join(' | ');
  return { started: v.step > 0, step: v.step, task: v.task, loss: v.loss, val_loss: v.val_loss, floors: v.floors, diverged_at: v.diverged_at, bad, error };
}`;

/** The resident memory, in MiB, of the processes whose command line names the engine. */
function residentMiB(name) {
  const pattern = { chromium: /chromium/i, firefox: /firefox/i, webkit: /WebKit(Web|Network)Process|MiniBrowser/ }[name];
  const lines = execFileSync('ps', ['-eo', 'rss=,args='], { encoding: 'utf8' }).split('\n');
  const kib = lines.filter((l) => pattern.test(l) && !/soak\.mjs/.test(l)).reduce((a, l) => a + Number(l.trim().split(/\s+/)[0] || 0), 0);
  return kib / 1024;
}

async function loads(name, server, counts, log) {
  let engine = await open(name);
  try {
    for (let i = 0; i < LOADS; i++) {
      const path = PRESETS[i % PRESETS.length];
      const label = `${name} load ${i + 1} ${path}`;
      let page = null;
      try {
        page = await within(engine.newPage(), 60_000, 'a new page');
        await within(page.goto(server.url + path), 60_000, 'the load');
        const t0 = Date.now();
        let seen = await within(page.evaluate(READ), 30_000, 'the page');
        while (!seen.started && Date.now() - t0 < 20_000) {
          await new Promise((ok) => setTimeout(ok, 250));
          seen = await within(page.evaluate(READ), 30_000, 'the page');
        }
        if (!seen.started) {
          counts.neverStarted++;
          log(`NEVER STARTED - ${label}: ${JSON.stringify(seen)}`);
          continue;
        }
        await new Promise((ok) => setTimeout(ok, SECONDS * 1000));
        seen = await within(page.evaluate(READ), 30_000, 'the page');
        if (seen.bad.length) {
          counts.nonFinite++;
          log(`NON-FINITE - ${label}: ${seen.bad.join(', ')} at step ${seen.step} (${JSON.stringify(seen)})`);
        }
        if (seen.error) {
          counts.errorBoxes++;
          log(`ERROR BOX - ${label}: ${seen.error}`);
        }
        const problems = await within(page.collectProblems(), 30_000, 'the page');
        if (problems.length) {
          counts.consoleErrors += problems.length;
          log(`CONSOLE - ${label}: ${problems.join('; ')}`);
        }
        counts.loads++;
        counts.steps.push(seen.step);
      } catch (e) {
        const hang = /^hang:/.test(e.message);
        if (hang) counts.hangs++;
        else counts.crashes++;
        log(`${hang ? 'HANG' : 'CRASH'} - ${label}: ${e.message}`);
        // a crashed or hung engine is started again, so the soak goes on
        await engine.close().catch(() => {});
        engine = await open(name);
        page = null;
      } finally {
        await page?.close().catch(() => {});
      }
    }
  } finally {
    await engine.close().catch(() => {});
  }
}

async function long(name, server, log) {
  const engine = await open(name);
  const samples = [];
  try {
    const page = await engine.newPage();
    await page.goto(`${server.url}/?depth=24&steps=100000000`);
    for (let minute = 0; minute <= LONG; minute++) {
      if (minute > 0) await new Promise((ok) => setTimeout(ok, 60_000));
      const v = await within(page.evaluate(`() => ({ step: window.ablationPlayground?.value?.step, heap: performance.memory?.usedJSHeapSize ?? null })`), 30_000, 'the page');
      const rss = residentMiB(name);
      samples.push({ minute, step: v.step, rss, heap: v.heap });
      log(`${name} minute ${minute}: step ${v.step}, resident ${rss.toFixed(0)} MiB${v.heap ? `, JS heap ${(v.heap / 2 ** 20).toFixed(1)} MiB` : ''}`);
    }
    const problems = await page.collectProblems();
    if (problems.length) log(`CONSOLE - ${name} long run: ${problems.join('; ')}`);
    await page.close();
  } finally {
    await engine.close().catch(() => {});
  }
  return samples;
}

async function main() {
  const server = await startServer();
  const missing = Object.fromEntries(available().map((e) => [e.name, e.missing]));
  const log = (line) => console.log(line);
  let problems = 0;
  try {
    for (const name of ENGINES) {
      if (missing[name]?.length) {
        log(`FAIL - ${name}: missing ${missing[name].join(', ')}`);
        problems++;
        continue;
      }
      if (LOADS > 0) {
        const counts = { loads: 0, crashes: 0, hangs: 0, neverStarted: 0, nonFinite: 0, errorBoxes: 0, consoleErrors: 0, steps: [] };
        const t0 = Date.now();
        await loads(name, server, counts, log);
        const found = counts.crashes + counts.hangs + counts.neverStarted + counts.nonFinite + counts.errorBoxes + counts.consoleErrors;
        problems += found;
        log(`| ${name} | ${LOADS} loads × ${SECONDS} s | ${counts.crashes} | ${counts.hangs} | ${counts.neverStarted} | ${counts.nonFinite} | ${counts.errorBoxes} | ${counts.consoleErrors} | ${((Date.now() - t0) / 60000).toFixed(1)} min |`);
      }
      if (LONG > 0) {
        const s = await long(name, server, log);
        const rss = s.map((x) => x.rss);
        log(`| ${name} | ${LONG} min | steps ${s.at(-1).step} | resident ${rss.map((x) => x.toFixed(0)).join(', ')} MiB |`);
      }
    }
  } finally {
    await server.close();
  }
  log(`soak: ${problems} problems`);
  process.exit(problems ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
