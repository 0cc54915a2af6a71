// The e2e harness every suite imports, in Chromium and in the other engines: `test` registers
// a test, `assert` and `waitFor` fail it with an AssertionError (whose message is all that is
// printed), and `runEach` runs tests one by one, trying a failed one once more, and prints
// "ok - name", "FLAKY - name: …" or "FAIL - name: reason" per test; `finish` prints the last
// line ("e2e: N passed, M failed") and sets the exit code: a FLAKY test (a pass on the second
// try) fails the run too. `run()` runs the registered tests in Chromium, each in a fresh
// browser context, failing a test on any console error, uncaught exception, failed request or
// visible error box; smoke-tests.mjs runs them in Firefox ESR and WebKit.
// E2E_FILTER=regex runs only the matching tests, E2E_REPEAT=n each n times.

import { readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureArtifacts, frames, launchBrowser, loadPlayground, makeWaitFor, openPage, seenNow, startServer } from './lib.mjs';

const TEST_TIMEOUT_MS = 60_000;

export class AssertionError extends Error {}

export function assert(cond, message) {
  if (!cond) throw new AssertionError(message);
}

export const waitFor = makeWaitFor(AssertionError);

// `12 layers · Residual ON · LayerNorm ON (pre) · act. std = 1.40 · loss 0.068 · step 340`
// Numbers are whatever the core's short() prints: 0.009, 1.40, 1496, 1.5e5, NaN, ∞, −∞.
const NUM = '(-?[0-9.]+(?:e-?[0-9]+)?|NaN|∞|−∞)';
const STATUS_RE = new RegExp(
  '^(\\d+) (?:layer|layers) · Residual (ON|OFF) · (?:LayerNorm OFF|(?:LayerNorm|RMSNorm) ON \\((pre|post|sandwich|deepnorm)\\))' +
    ` · act\\. std = ${NUM} · loss ${NUM}(?: · held-out ${NUM.replace('(', '(?:')}(?: · \\d+% copied)?)?` +
    '(?: · step (\\d+)| · diverged at step (\\d+))?(?: · finished)?$',
);

function number(text) {
  if (text === '∞') return Infinity;
  if (text === '−∞') return -Infinity;
  return Number(text);
}

/** The status line, parsed; throws (failing the test) if it is not in the lesson's form. */
export function parseStatus(text) {
  const m = STATUS_RE.exec(text);
  assert(m, `status line not in the expected form: ${JSON.stringify(text)}`);
  return {
    text,
    depth: Number(m[1]),
    residual: m[2] === 'ON',
    norm: m[3] ?? 'off',
    std: number(m[4]),
    loss: number(m[5]),
    step: m[6] === undefined ? null : Number(m[6]),
    divergedAt: m[7] === undefined ? null : Number(m[7]),
  };
}

const tests = [];
/**
 * Registers a test. `fn({ page, load, shot, problems, baseUrl, context, note })`. Options: `viewport`, `colorScheme`,
 * `reducedMotion` (for the test's browser context).
 * A test that documents a known page bug keeps its full assertion and carries `bug`, a
 * one-line description printed with its failure; it is expected to fail until the page
 * is fixed.
 */
export function test(name, fn, options = {}) {
  tests.push({ name, fn, ...options });
}

/** The tests registered so far. */
export function registered() {
  return [...tests];
}

/**
 * Runs each test of `list` whose `prefix + name` E2E_FILTER matches (E2E_REPEAT times) by
 * `attempt(test)`, which resolves with null or the error. A failed test runs once more, to tell
 * a flake from a steady failure: a pass on the second try is reported as FLAKY with its first
 * failure (`onFlaky(test)` then), and a flake fails the run as a failure does, so that one is
 * mended when it appears (E2E_ALLOW_FLAKY=1 lets flakes pass, for work on one). Adds the
 * counts to `counts`.
 */
export async function runEach(list, attempt, counts, { prefix = '', onFlaky = () => {} } = {}) {
  const filter = process.env.E2E_FILTER ? new RegExp(process.env.E2E_FILTER, 'i') : null;
  const repeat = Math.max(1, Number(process.env.E2E_REPEAT ?? 1) || 1);
  const reasonOf = (error) => (error instanceof AssertionError ? error.message : error.stack ?? String(error)).replace(/\s+/g, ' ');
  const chosen = list.filter((t) => !filter || filter.test(prefix + t.name));
  for (const t of chosen.flatMap((t) => Array(repeat).fill(t))) {
    const title = prefix + t.name;
    const first = await attempt(t);
    const error = first && (await attempt(t));
    if (!error) {
      counts.passed++;
      if (first) {
        counts.flaky++;
        await onFlaky(t);
        console.log(`FLAKY - ${title}: passed on its second try; the first failed: ${reasonOf(first)}`);
      } else console.log(`ok - ${title}`);
    } else {
      counts.failed++;
      console.log(`FAIL - ${title}: ${reasonOf(error)}${t.bug ? ` [known page bug: ${t.bug}]` : ''}`);
    }
  }
  return counts;
}

/** Fresh counts for `runEach`. */
export const noCounts = () => ({ passed: 0, failed: 0, flaky: 0 });

/** Prints the last line, "`label`: N passed, M failed", and sets the exit code. */
export function finish(label, { passed, failed, flaky }) {
  console.log(`${label}: ${passed} passed${flaky ? ` (${flaky} only on a second try, see FLAKY above: a flake fails the run)` : ''}, ${failed} failed`);
  process.exitCode = failed || (flaky && process.env.E2E_ALLOW_FLAKY !== '1') ? 1 : 0;
}

// ---------------------------------------------------------------------------------------
// The runner

function slug(name) {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);
}

async function runOne(browser, baseUrl, artifacts, t) {
  const { context, page, problems } = await openPage(browser, {
    viewport: t.viewport,
    colorScheme: t.colorScheme,
    reducedMotion: t.reducedMotion,
  });
  const load = (path) => loadPlayground(page, baseUrl, path);
  const shot = (name, opts = {}) => page.screenshot({ path: join(artifacts, `${name}.png`), ...opts });
  let timer;
  // `note(what)` names the stage a test is in, so that a timeout says where it stood.
  let stage = '';
  const note = (what) => (stage = what);
  const timeout = new Promise((_, fail) => {
    timer = setTimeout(
      () => fail(new AssertionError(`timed out after ${(t.timeoutMs ?? TEST_TIMEOUT_MS) / 1000} s${stage ? ` (${stage})` : ''}; the page was at ${page.url()}`)),
      t.timeoutMs ?? TEST_TIMEOUT_MS,
    );
  });
  const body = t.fn({ page, load, shot, problems, baseUrl, context, note });
  body.catch(() => {}); // if the timeout wins, the body's later rejection is expected
  let error = null;
  try {
    await Promise.race([body, timeout]);
    // Checks common to every test: no visible error box (the page's, an element's or an
    // iframe's), nothing logged as an error.
    for (const frame of page.frames()) {
      const shown = await frame
        .evaluate(() => [...document.querySelectorAll('[data-el="error"]')].filter((e) => !e.hidden).map((e) => e.textContent.trim()))
        .catch(() => []); // a frame that navigated away meanwhile has no boxes to show
      if (shown.length) throw new AssertionError(`error box shown: ${shown.join(' | ')}`);
    }
    await frames(page, 1); // let errors from the last frame surface
    if (problems.length) throw new AssertionError(problems.join('; '));
  } catch (e) {
    error = e;
    // Console errors from a test that failed on an assertion are part of its story.
    if (problems.length && !e.message.includes(problems[0])) {
      error = new AssertionError(`${e instanceof AssertionError ? e.message : e.stack ?? e} (also: ${problems.join('; ')})`);
    }
    // Every failure says what the page showed (its playgrounds' status lines and readouts: the
    // step, the task, the losses), unless its message says so already (waitFor's do).
    if (!error.message?.includes('seen: ')) {
      const seen = await seenNow(page);
      error = new AssertionError(`${error instanceof AssertionError ? error.message : error.stack ?? error} (${seen})`);
    }
    await page.screenshot({ path: join(artifacts, `FAIL-${slug(t.name)}.png`), timeout: 5000 }).catch(() => {});
  } finally {
    clearTimeout(timer);
    await context.close().catch(() => {});
  }
  return error;
}

export async function run() {
  const artifacts = await ensureArtifacts();
  // Failure screenshots of an earlier run would mislead.
  for (const f of await readdir(artifacts)) if (f.startsWith('FAIL-') || f.startsWith('FLAKY-')) await rm(join(artifacts, f));
  const server = await startServer();
  const browser = await launchBrowser();
  const counts = noCounts();
  try {
    await runEach(tests, (t) => runOne(browser, server.url, artifacts, t), counts, {
      async onFlaky(t) {
        const shot = join(artifacts, `FAIL-${slug(t.name)}.png`);
        await rename(shot, shot.replace('FAIL-', 'FLAKY-')).catch(() => {});
      },
    });
  } finally {
    await browser.close().catch(() => {});
    await server.close();
  }
  finish('e2e', counts);
}
