// Bad input on the page gets a clear notice and a working widget: URLs, typed values, lists,
// the notice box itself, and a WebAssembly module that fails to load.
//
// Registered into run.mjs's runner, so every test here also fails on any console error,
// uncaught exception, failed request or visible error box.

import { assert, test, waitFor } from './harness.mjs';
import { axeViolations, state } from './lib.mjs';
import { el, status, waitStatus } from './page.mjs';

export default function registerNoticesTests() {
  test('a bad URL shows a notice naming the parameters and the widget still works', async ({ page, load, shot }) => {
    await load('/?depth=500&width=31&residual=maybe&colour=red&lr=abc');
    const notice = el(page, 'notice');
    assert(await notice.isVisible(), 'no visible notice for a bad URL');
    const text = (await notice.textContent()).trim();
    for (const name of ['depth', 'width', 'residual', 'lr']) {
      assert(new RegExp(`\\b${name}\\b`).test(text), `the notice does not name ${name}: ${text}`);
    }
    const s = await status(page);
    assert(s.depth === 96 && s.residual && Number.isFinite(s.std), `expected 96 layers, residual on: ${s.text}`);
    assert((await page.getByRole('slider', { name: 'Depth' }).inputValue()) === '96', 'the slider should show 96');
    const j = await state(page);
    assert(j.config.width === 32 && j.config.lr === 0.01, `width ${j.config.width}, lr ${j.config.lr}`);
    await shot('bad-url-notice');
    // Still works: the slider and a switch change the state.
    await page.getByRole('slider', { name: 'Depth' }).fill('4');
    await waitStatus(page, /^4 layers · Residual ON /);
    await page.getByRole('switch', { name: 'Residual' }).click();
    await waitStatus(page, /^4 layers · Residual OFF /);
    await page.waitForTimeout(500);
    assert((await state(page)).step > 0, 'training should run');
  });

  test('an unknown URL parameter is named in the notice', async ({ page, load }) => {
    await load('/?depth=500&width=31&residual=maybe&colour=red&lr=abc');
    const text = (await el(page, 'notice').textContent()).trim();
    assert(/\bcolour\b/.test(text), `the notice does not name the unknown parameter colour: ${text}`);
  });

  test('the notice box keeps the last 8 notices, and a new notice is added without rewriting the others', async ({ page, load }) => {
    const unknown = Array.from({ length: 10 }, (_, i) => `x${i}=1`).join('&');
    await load(`/?${unknown}`);
    const box = el(page, 'notice');
    const text = (await box.textContent()).trim();
    assert(text.startsWith('…and 2 earlier · ') && /\bx9\b/.test(text) && !/\bx1\b/.test(text), `the notice: ${text}`);
    const after = await page.evaluate(() => {
      const box = document.querySelector('main [data-el="notice"]');
      const last = [...box.querySelectorAll('[data-notice]')].at(-1);
      window.ablationPlayground.set('depth', 'deep', { lenient: true });
      return { kept: last?.isConnected, items: box.querySelectorAll('[data-notice]').length, text: box.textContent };
    });
    assert(after.kept && after.items === 8 && after.text.startsWith('…and 3 earlier · ') && /depth/.test(after.text) && !after.text.includes('x2'),
      `after one more notice: ${JSON.stringify(after)}`);
  });

  test('a value out of range typed under More is refused with a notice, and the control shows the value in force', async ({ page, load }) => {
    await load('/?width=24');
    await page.getByText('More', { exact: true }).click();
    const width = page.getByRole('spinbutton', { name: 'Width' });
    await width.fill('200');
    await width.press('Enter');
    await waitFor(page, () => /width/.test(document.querySelector('main [data-el="notice"]').textContent), null,
      async () => `no notice for width 200: ${await el(page, 'notice').textContent()}`);
    assert((await width.inputValue()) === '24', `the Width field shows ${await width.inputValue()}, not the 24 in force`);
    assert((await state(page)).config.width === 24, 'the refused width changed the run');
  });

  test('a WebAssembly module that fails to load is a visible error with its reason, not a blank page', async ({ page, baseUrl, problems }) => {
    await page.route('**/ablation-playground_bg.wasm', (route) => route.fulfill({ status: 200, contentType: 'application/wasm', body: 'not a wasm module' }));
    await page.goto(`${baseUrl}/`);
    await waitFor(page, () => document.querySelector('main [data-el="error"]:not([hidden])'), null, 'no error box after the wasm failed to load');
    const text = await el(page, 'error').textContent();
    assert(/^The playground stopped: .*WebAssembly.*\. Reload the page to try again\.$/.test(text), `the error box says: ${text}`);
    // Trunk's own loader fails the same way; that is the only other complaint
    assert(problems.every((p) => /WebAssembly|CompileError/.test(p)), `other problems: ${problems.join('; ')}`);
    problems.length = 0;
    await page.goto('about:blank'); // the shared end-of-test check fails on any visible error box
  });

  for (const colorScheme of ['light', 'dark']) {
    test(`axe-core finds no WCAG 2.2 AA violation on the page (${colorScheme}), with More open, a pin and a notice`, async ({ page, load }) => {
      await load('/?depth=12&colour=red');
      await page.getByText('More', { exact: true }).click();
      await page.getByRole('button', { name: 'Pin', exact: true }).click();
      await waitFor(page, () => document.querySelectorAll('main [data-el="pins"] li').length === 1, null, 'the pin was not listed');
      const found = await axeViolations(page);
      assert(found.length === 0, found.join('; '));
    }, { colorScheme });
  }

  test('misspelt controls and panels lists are named in a notice and never hide everything', async ({ page, load }) => {
    await load('/?controls=Depth,sliders&panels=nothing');
    const text = (await el(page, 'notice').textContent()).trim();
    assert(/controls: ignored "sliders"/.test(text) && /panels: ignored "nothing".*showing the default panels/.test(text), `the notice: ${text}`);
    const shown = await page.evaluate(() => ({
      controls: [...document.querySelectorAll('main [data-control]')].filter((c) => !c.hidden).map((c) => c.dataset.control),
      panels: [...document.querySelectorAll('main [data-panel]')].filter((p) => !p.hidden).map((p) => p.dataset.panel),
    }));
    assert(shown.controls.join() === 'depth', `"Depth" shows the depth control alone: ${shown.controls}`);
    assert(shown.panels.join() === 'histogram,loss,depth,readout', `no known panel name shows the default panels: ${shown.panels}`);
  });
}
