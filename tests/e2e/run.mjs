// End-to-end tests of the playground page in a real (headless) Chromium.
//
//   node tests/e2e/run.mjs            (from anywhere; paths are resolved from this file)
//
// Serves dist/ (build it with `trunk build --release --offline`), runs every test in a fresh
// browser context, fails a test on any console error, uncaught exception, failed request or
// visible error box, prints "ok - name" / "FAIL - name: reason" per test and, last,
// "e2e: N passed, M failed". Screenshots of the main states go to tests/e2e/artifacts/.
// The harness (test, assert, waitFor, the runner) is harness.mjs, which every suite imports;
// the page's own tests are page-tests.mjs. E2E_FILTER=regex runs only the matching tests.

import { run } from './harness.mjs';
import registerPageTests from './page-tests.mjs';
import registerEmbedTests from './embed-tests.mjs';
import registerWorkerTests from './worker-tests.mjs';
import registerHostTests from './host-tests.mjs';
import registerCompareTests from './compare-tests.mjs';
import registerTaskTests from './task-tests.mjs';
import registerLensTests from './lens-tests.mjs';
import registerDepthTests from './depth-tests.mjs';
import registerRealHostTests from './real-hosts.mjs';
import registerDocusaurusTests from './docusaurus-tests.mjs';
import registerNotebookTests from './notebook-tests.mjs';
import registerMarimoTests from './marimo-tests.mjs';
import registerMystTests from './myst-tests.mjs';
import registerDocsTests from './docs-tests.mjs';
import registerStacksTests from './stacks-tests.mjs';
import registerOwnTextTests from './own-text-tests.mjs';
import registerReactTests from './react-tests.mjs';

registerPageTests();
registerEmbedTests();
registerWorkerTests();
registerHostTests();
registerCompareTests();
registerTaskTests();
registerLensTests();
registerStacksTests();
registerOwnTextTests();
registerDepthTests();
registerRealHostTests();
registerDocusaurusTests();
registerReactTests();
registerNotebookTests();
registerMarimoTests();
registerMystTests();
registerDocsTests();

run().catch((e) => {
  console.log(`FAIL - harness: ${e.stack ?? e}`);
  console.log('e2e: 0 passed, 1 failed');
  process.exitCode = 1;
});
