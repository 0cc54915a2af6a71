// A soak of the page in every engine: what a reader's browser meets over many loads
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
//   --long M      one page left training for M minutes per engine (depth 96, up to 1 000 000 steps),
//                 its memory sampled every minute: the browser's own processes' resident memory
//                 (and Chromium's JS heap), to see that it stays flat.
//   --lesson      (Chromium, which reports long tasks) a lesson page of 12 playgrounds between
//                 tall paragraphs, scrolled top to bottom and back three times: the longest
//                 main-thread task, how many train at each stop against how many are in view,
//                 and the resident memory at the top before and after.
//
// The test command runs a short version (3 loads per engine, 6 s each); the full soak is run by
// hand and recorded in BENCHMARKS.md. Serves dist/ (after scripts/build.sh). Exit code 1 if any
// problem was counted.

import { execFileSync } from 'node:child_process';
import { available, launch } from './engines.mjs';
import { TEST_PAGES, launchBrowser, openPage, startServer } from './lib.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const ENGINES = arg('engines', 'chromium,firefox,webkit').split(',');
const LOADS = Number(arg('loads', '0'));
const SECONDS = Number(arg('seconds', '10'));
const LONG = Number(arg('long', '0'));
const LESSON = process.argv.includes('--lesson');

// a lesson of 12 playgrounds, each between paragraphs taller than the window
TEST_PAGES.set('/__test/soak-lesson.html', () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Twelve playgrounds</title>
<script type="module" src="/www/ablation-playground.js"></script>
<style>body { font: 16px sans-serif; margin: 0 auto; max-width: 900px } p.gap { height: 1100px }</style></head><body><main><h1>Twelve playgrounds</h1>
${[...Array(12).keys()].map((i) => `<p class="gap">Paragraph ${i + 1}.</p><ablation-playground id="p${i}" depth="${[12, 24, 48][i % 3]}" steps="1000000" panels="loss,histogram"></ablation-playground>`).join('\n')}
<p class="gap">The end.</p></main></body></html>`);

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

/** The resident memory, in MiB, of the engine's processes that this script started (its
 *  descendants whose command line names the engine: another browser on the machine, or a
 *  test run beside, does not count). */
function residentMiB(name) {
  const pattern = { chromium: /chromium/i, firefox: /firefox/i, webkit: /WebKit(Web|Network)Process|MiniBrowser/ }[name];
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().match(/^(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/))
    .filter(Boolean)
    .map(([, pid, ppid, rss, args]) => ({ pid: Number(pid), ppid: Number(ppid), rss: Number(rss), args }));
  const mine = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const r of rows) if (!mine.has(r.pid) && mine.has(r.ppid)) grew = mine.add(r.pid) && true;
  }
  const kib = rows.filter((r) => mine.has(r.pid) && pattern.test(r.args)).reduce((a, r) => a + r.rss, 0);
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
    // the deepest stack: it trains the whole time in every engine (depth 24 reached the
    // 1 000 000-step limit in 9 to 27 minutes)
    await page.goto(`${server.url}/?depth=96&steps=1000000`);
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

/** The lesson of 12, scrolled down and up three times in Chromium. */
async function lesson(server, log) {
  const browser = await launchBrowser();
  let found = 0;
  try {
    const { page, problems } = await openPage(browser, {
      initScript: () => {
        window.__long = [];
        // the workers alive: started and not yet let go
        window.__workers = 0;
        window.__made = 0;
        const Native = window.Worker;
        window.Worker = class extends Native {
          constructor(...args) {
            super(...args);
            window.__workers++;
            window.__made++;
          }
          terminate() {
            window.__workers--;
            return super.terminate();
          }
        };
        new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__long.push({ start: e.startTime, duration: e.duration }))).observe({ type: 'longtask', buffered: true });
      },
    });
    await page.goto(`${server.url}/__test/soak-lesson.html`, { waitUntil: 'load' });
    await page.waitForFunction(() => [...document.querySelectorAll('ablation-playground')].every((e) => e.shadowRoot?.querySelector('[data-el="status"]')), null, { timeout: 60_000 });
    await page.waitForTimeout(3000);
    const top = residentMiB('chromium');
    const workersAtTop = await page.evaluate(() => window.__workers);
    // which train: a step that moved over a second; which are in view
    const survey = () => page.evaluate(async () => {
      const els = [...document.querySelectorAll('ablation-playground')];
      const before = els.map((e) => e.value?.step ?? 0);
      await new Promise((ok) => setTimeout(ok, 1000));
      // near the view as the widget counts it (observers.js: 200 px around the viewport)
      const inView = els.map((e) => { const r = e.getBoundingClientRect(); return r.bottom > -200 && r.top < innerHeight + 200; });
      return els.map((e, i) => ({ training: (e.value?.step ?? 0) > before[i], inView: inView[i] }));
    });
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    let wrong = 0;
    let stops = 0;
    const t0 = await page.evaluate(() => performance.now());
    for (let round = 0; round < 3; round++) {
      for (const down of [true, false]) {
        for (let y = 0; y <= height; y += 450) {
          await page.evaluate((y) => scrollTo(0, y), down ? y : height - y);
          await page.waitForTimeout(60);
          if (y % 2700 === 0) {
            const s = await survey();
            stops++;
            // one near the view not training, or one away from it training
            const bad = s.filter((x) => x.inView !== x.training);
            if (bad.length) {
              wrong++;
              log(`LESSON - stop ${stops}: ${JSON.stringify(s.map((x) => `${x.inView ? 'V' : '-'}${x.training ? 'T' : '-'}`))}`);
            }
          }
        }
      }
    }
    await page.evaluate(() => scrollTo(0, 0));
    // (a widget 20 s away from the view lets its worker go, HIBERNATE_MS; an idle worker of the
    // comparisons' pool after 30 s)
    await page.waitForTimeout(35_000);
    const back = residentMiB('chromium');
    const workersBack = await page.evaluate(() => window.__workers);
    const made = await page.evaluate(() => window.__made);
    log(`lesson: workers alive at the top ${workersAtTop} before, ${workersBack} after (${made} started in all)`);
    // memory returns: within a tenth of what the top took before the scrolling
    const kept = back - top > 0.1 * top;
    if (kept) log(`LESSON - memory did not come back: ${top.toFixed(0)} → ${back.toFixed(0)} MiB`);
    // the tasks while scrolling, not while the twelve mounted and compiled
    const scrolled = await page.evaluate((t0) => window.__long.filter((e) => e.start >= t0).map((e) => e.duration), t0);
    const mounting = await page.evaluate((t0) => window.__long.filter((e) => e.start < t0).map((e) => e.duration.toFixed(0)), t0);
    const longest = Math.max(0, ...scrolled);
    const over = scrolled.filter((d) => d > 50).length;
    log(`lesson: long tasks while the twelve mounted: ${mounting.join(', ') || 'none'} ms`);
    found += over + wrong + problems.length + (kept ? 1 : 0);
    if (problems.length) log(`CONSOLE - lesson: ${problems.join('; ')}`);
    log(`| lesson of 12, scrolled down and up 3 times | longest main-thread task ${longest.toFixed(0)} ms (${over} over 50 ms) | ${stops - wrong} of ${stops} stops: exactly the ones in view train | resident at the top ${top.toFixed(0)} → ${back.toFixed(0)} MiB (35 s after the last scroll) |`);
  } finally {
    await browser.close();
  }
  return found;
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
    if (LESSON) problems += await lesson(server, log);
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
