// End-to-end tests of the playground in a real (headless) Chromium.
//
//   node tests/e2e/run.mjs            (from anywhere; paths are resolved from this file)
//
// Serves dist/ (scripts/build.sh builds it), runs every test in a fresh browser context, fails
// a test on any console error, uncaught exception, failed request or visible error box, prints
// "ok - name" / "FAIL - name: reason" per test and, last, "e2e: N passed, M failed".
// Screenshots of the main states go to tests/e2e/artifacts/. The harness (test, assert,
// waitFor, the runner) is harness.mjs, which every suite imports.
//
// The suites are this folder's files named FEATURE-tests.mjs, one per feature, each exporting
// the function that registers its tests; a new file is run without a word here. (The smoke
// suite, smoke-tests.mjs, runs in Firefox ESR and WebKit by itself.) E2E_SUITES=page,notices
// runs only those files' tests, E2E_FILTER=regex only the matching tests, E2E_REPEAT=N each N
// times.

import { readdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const OWN_RUNNER = new Set(['smoke-tests.mjs']);

try {
  const only = process.env.E2E_SUITES ? new Set(process.env.E2E_SUITES.split(',').map((s) => `${s.trim()}-tests.mjs`)) : null;
  const suites = (await readdir(here)).filter((f) => f.endsWith('-tests.mjs') && !OWN_RUNNER.has(f) && (!only || only.has(f))).sort();
  if (only && suites.length !== only.size) throw new Error(`E2E_SUITES names a file that is not here: ${[...only].filter((f) => !suites.includes(f))}`);
  for (const file of suites) {
    const register = (await import(`./${file}`)).default;
    if (typeof register !== 'function') throw new Error(`${file} exports no function that registers its tests`);
    register();
  }
  await run();
} catch (e) {
  console.log(`FAIL - harness: ${e.stack ?? e}`);
  console.log('e2e: 0 passed, 1 failed');
  process.exitCode = 1;
}
