// marimo as a real host of the notebook widget: the lesson tests/hosts/marimo/lesson.py run
// by marimo's own server (`marimo run`, the app view), marimo from PyPI in a virtualenv of its
// own (tests/hosts/marimo/ensure.sh, ensure_marimo, which exports AP_MARIMO_VENV), the wheel
// just built (DIST/python) installed into it here, its dependency anywidget resolved by pip on
// the first install. In Chromium: the widget trains, a slider move reaches Python, a marimo
// control's value set on the widget from Python reaches the widget, marimo's button drives it
// as a lesson step, a pin reaches Python, and it follows marimo's dark theme.
//
// Registered into run.mjs's runner: a console error, an uncaught exception or a failed request
// fails a test here too; so do a cell's exception, which marimo run shows as "An internal
// error occurred" with its traceback in the server's log, and an error logged by marimo.

import { execFile as execFileCallback, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DIST, ROOT, freePort } from './lib.mjs';
import { assert, test, waitFor } from './harness.mjs';
import { textContrast } from './static-sites-tests.mjs';

const execFile = promisify(execFileCallback);
const VENV = process.env.AP_MARIMO_VENV ?? '';
const LESSON = join(ROOT, 'tests', 'hosts', 'marimo', 'lesson.py');

/** The wheel just built, installed into marimo's virtualenv: anywidget with it the first time
 *  (pip reads it from the wheel), and the wheel itself anew on every run (it changes with
 *  every build, its version does not). */
async function installWheel() {
  const python = join(VENV, 'bin', 'python');
  const dir = join(DIST, 'python');
  const wheel = join(dir, (await readdir(dir)).find((f) => f.endsWith('-py3-none-any.whl')));
  const pip = (...args) => execFile(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', ...args], { maxBuffer: 16 << 20 });
  const hasAnywidget = await execFile(python, ['-c', 'import anywidget']).then(() => true, () => false);
  if (!hasAnywidget) await pip(wheel);
  await pip('--force-reinstall', '--no-deps', wheel);
}

export default function registerMarimoTests() {
  test('marimo: marimo run serves a lesson whose Playground trains, follows marimo\'s dark theme, tells Python of a slider move and a pin, takes a trait set from Python, and is driven by a marimo button and by an HTML lesson step', async ({ page, problems, shot, note }) => {
    note('installing the wheel into marimo\'s virtualenv');
    assert(VENV, 'AP_MARIMO_VENV is not set: source scripts/tools.sh and tests/hosts/marimo/ensure.sh, then run ensure_marimo');
    await installWheel();
    // marimo's settings, state and logs in a directory of the test's own: the reader's theme
    // is dark (what marimo's settings write into the user's marimo.toml), whatever the OS says
    const dir = await mkdtemp(join(tmpdir(), 'ap-marimo-'));
    await mkdir(join(dir, 'marimo'));
    await writeFile(join(dir, 'marimo', 'marimo.toml'), '[display]\ntheme = "dark"\n');
    const port = await freePort();
    note('starting marimo run');
    const server = spawn(join(VENV, 'bin', 'marimo'), ['run', LESSON, '--headless', '--host', '127.0.0.1', '--port', String(port), '--no-token', '--no-sandbox'], {
      cwd: dir,
      env: { ...process.env, XDG_CONFIG_HOME: dir, XDG_CACHE_HOME: dir, XDG_STATE_HOME: dir, MARIMO_SKIP_UPDATE_CHECK: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    server.stdout.on('data', (d) => (log += d));
    server.stderr.on('data', (d) => (log += d));
    server.on('error', (e) => (log += `could not start ${join(VENV, 'bin', 'marimo')}: ${e.message}`));
    const url = `http://127.0.0.1:${port}`;
    try {
      let up = false;
      for (let i = 0; i < 120 && !up && server.exitCode === null; i++) {
        up = await fetch(`${url}/health`).then((r) => r.ok, () => false);
        if (!up) await new Promise((ok) => setTimeout(ok, 250));
      }
      assert(up, `marimo did not start: ${log.slice(-600)}`);
      note('waiting for the widget to train');
      await page.goto(url);
      // the element is in marimo's output, inside the shadow root of <marimo-anywidget>:
      // locators reach through it, and its handle is passed to the page's functions
      const locator = page.locator('ablation-playground');
      await locator.waitFor({ state: 'attached', timeout: 30_000 });
      const element = await locator.elementHandle();
      await waitFor(page, (e) => (e.value?.step ?? 0) > 3, element, async () => `the widget did not train in marimo (${log.slice(-400)})`, 30_000);
      const first = await element.evaluate((e) => e.value);
      assert(first.depth === 6 && first.task === 'copy', `the widget took the constructor's traits: ${JSON.stringify(first).slice(0, 160)}`);
      // what Python sees: a cell reading pg.value, rendered by marimo in its output
      const sees = (text) => waitFor(page, (t) => document.body.innerText.includes(t), text,
        async () => `Python did not come to see "${text}": ${await page.getByText(/^Python sees/).textContent().catch(() => '?')} (marimo's log: ${log.slice(-400)})`, 15_000);
      await sees('Python sees depth 6, norm pre, residual on, pins: none');

      note('dark theme');
      assert(await page.evaluate(() => document.body.classList.contains('dark-theme')), `marimo is not in its dark theme: <body class="${await page.evaluate(() => document.body.className)}">`);
      await waitFor(page, (e) => e.shadowRoot.querySelector('[data-ap-root]')?.style.getPropertyValue('color-scheme') === 'dark' || getComputedStyle(e.shadowRoot.querySelector('[data-ap-root]')).colorScheme === 'dark', element,
        'the widget did not take marimo\'s dark theme', 5000);
      for (const inner of ['[data-el="status"]', '[data-el="caption"]', '[data-control="depth"] label']) {
        const c = await element.evaluate(textContrast, inner);
        assert(c.bgLum < 0.1, `marimo dark: ${inner} is on a light background ${c.bg}`);
        assert(c.ratio >= 4.5, `marimo dark: ${inner} ${c.fg} on ${c.bg}, ${c.ratio.toFixed(2)}:1`);
      }
      const chart = await element.evaluate((e) => {
        const [r, g, b] = e.shadowRoot.querySelector('[data-el="loss"]').getContext('2d').getImageData(2, 2, 1, 1).data;
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
      });
      assert(chart < 0.2, `marimo dark: the loss chart's background is light (${chart.toFixed(2)})`);
      await shot('marimo-dark');

      note('a slider move, to Python');
      await page.getByLabel('Depth').focus();
      await page.keyboard.press('ArrowRight');
      await waitFor(page, (e) => e.value?.depth === 7, element, 'the slider did not move');
      await sees('Python sees depth 7,');

      note('a trait set from Python, to the widget');
      await page.getByLabel('LayerNorm, set from Python').selectOption('post');
      await waitFor(page, (e) => e.value?.norm === 'post' && e.getAttribute('norm') === 'post', element,
        async () => `w.norm = "post" from a cell did not reach the widget: ${await element.evaluate((e) => e.value?.norm)}`, 15_000);
      await waitFor(page, (e) => /LayerNorm ON \(post\)/.test(e.shadowRoot.querySelector('[data-el="status"]').textContent), element, 'the status line did not follow');
      await sees('Python sees depth 7, norm post,');

      note('a lesson step: marimo\'s button sets a trait and calls play()');
      await page.getByRole('button', { name: 'Pause', exact: true }).click();
      await waitFor(page, (e) => e.shadowRoot.querySelector('[data-el="play"]').textContent === 'Play', element, 'Pause did not pause');
      await page.getByRole('button', { name: 'Turn the residual off' }).click();
      await waitFor(page, (e) => e.value?.residual === 'off' && e.shadowRoot.querySelector('[data-el="play"]').textContent === 'Pause', element,
        async () => `the step did not turn the residual off and play: ${JSON.stringify(await element.evaluate((e) => [e.value?.residual, e.shadowRoot.querySelector('[data-el="play"]').textContent]))}`, 15_000);
      await waitFor(page, (e) => (e.value?.step ?? 0) > 3, element, 'the run did not go on after the step', 15_000);
      await sees('Python sees depth 7, norm post, residual off,');

      note('a lesson step as on any page: data-ablation-playground names the element_id');
      await page.getByRole('button', { name: 'Sandwich it, and pause' }).click();
      await waitFor(page, (e) => e.value?.norm === 'sandwich' && e.shadowRoot.querySelector('[data-el="play"]').textContent === 'Play', element,
        async () => `the HTML step did not set norm=sandwich and pause: ${JSON.stringify(await element.evaluate((e) => [e.id, e.value?.norm, e.shadowRoot.querySelector('[data-el="play"]').textContent]))}`, 15_000);
      await sees('Python sees depth 7, norm sandwich,');

      note('a pin, to Python');
      await page.getByRole('button', { name: 'Pin', exact: true }).click();
      await waitFor(page, () => /Python sees .*pins: \S*@\d+/.test(document.body.innerText), null,
        async () => `the pin did not reach Python: ${await page.getByText(/^Python sees/).textContent().catch(() => '?')}`, 15_000);
      await page.getByText(/^Python sees/).scrollIntoViewIfNeeded();
      await shot('marimo-dark-python');

      // the widget's own error box is in marimo's shadow root, out of the harness's sight
      const shown = await element.evaluate((e) => [...e.shadowRoot.querySelectorAll('[data-el="error"]')].filter((x) => !x.hidden).map((x) => x.textContent.trim()));
      assert(shown.length === 0, `the widget shows an error: ${shown.join(' | ')}`);
      // marimo run shows a cell's exception as "An internal error occurred" and writes its
      // traceback to the server's log, not to the browser's console
      assert(!(await page.evaluate(() => document.body.innerText.includes('An internal error occurred'))), `a cell failed: ${log.slice(-800)}`);
      assert(!/Traceback|\[E \d{6}/.test(log), `marimo logged an error: ${log.slice(-800)}`);
    } finally {
      // leave the page before the server goes: its websocket and requests cut short by leaving
      // are marimo's, not the widget's
      const before = problems.length;
      await page.goto('about:blank').catch(() => {});
      for (let i = problems.length - 1; i >= before; i--) if (problems[i].includes(`${url}/`) && /ERR_ABORTED/.test(problems[i])) problems.splice(i, 1);
      const exited = new Promise((ok) => (server.exitCode !== null || server.signalCode !== null ? ok() : server.once('exit', ok)));
      server.kill('SIGTERM');
      const stubborn = setTimeout(() => server.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(stubborn);
      await rm(dir, { recursive: true, force: true });
    }
  }, { timeoutMs: 90_000 }); // the wheel's install, marimo's start and six round trips through Python
}
