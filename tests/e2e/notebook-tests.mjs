// The notebook widget (python/, built by scripts/build.sh into dist/python/*.whl): its front end
// loaded exactly as anywidget loads it, from a blob: URL with a model offering get, set, on,
// off and save_changes; and one notebook in a real JupyterLab from PyPI (installed by the test
// command, scripts/tools.sh ensure_notebook), with a real kernel.
//
// Registered into run.mjs's runner: a console error, an uncaught exception or a failed request
// fails a test here too.

import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, TEST_PAGES, freePort, frontEnd, startServer } from './lib.mjs';
import { assert, test, waitFor } from './harness.mjs';

const VENV = process.env.AP_HOSTS_VENV ?? '';
const command = promisify(execFile);

export default function registerNotebookTests() {

  test('notebook: the front end loads from a blob: URL as anywidget loads it, trains, and syncs its traits both ways', async ({ page, baseUrl }) => {
    const esm = await frontEnd();
    TEST_PAGES.set('/__test/anywidget.html', () => '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>a notebook</title></head><body><div id="out"></div></body></html>');
    await page.goto(`${baseUrl}/__test/anywidget.html`);
    await page.evaluate(async ({ esm, schemaUrl }) => {
      const { PARAMS } = await import(schemaUrl);
      // the kernel's side: every trait at its default, as the Python class starts them
            const state = { preset: '', pinned: '', controls: null, panels: 'histogram,loss', autoplay: true, value: {} };
      for (const p of PARAMS) state[p.name] = p.switch ? p.default === 'on' : ['int', 'float', 'seed'].includes(p.kind) ? Number(p.default) : p.default;
      Object.assign(state, { depth: 6, residual: false });
      const handlers = {};
      const model = {
        saved: 0,
        get: (k) => state[k],
        set: (k, v) => {
          const old = state[k];
          state[k] = v;
          if (old !== v) for (const h of handlers[`change:${k}`] ?? []) h();
        },
        on: (e, h) => (handlers[e] ??= []).push(h),
        off: (e, h) => (handlers[e] = (handlers[e] ?? []).filter((x) => x !== h)),
        save_changes() {
          this.saved++;
        },
        send: (m) => {
          for (const h of handlers['msg:custom'] ?? []) h(m);
        },
      };
      window.nb = { model, state, handlers };
      const url = URL.createObjectURL(new Blob([esm], { type: 'text/javascript' }));
      const widget = (await import(url)).default;
      window.nb.cleanup = await widget.render({ model, el: document.getElementById('out') });
      window.nb.render = (el) => widget.render({ model, el });
      window.nb.esmUrl = url;
    }, { esm, schemaUrl: `${baseUrl}/www/schema.js` });
    const element = () => page.locator('#out ablation-playground');
    await waitFor(page, () => (document.querySelector('#out ablation-playground')?.value?.step ?? 0) > 3, null, 'the widget did not train', 30_000);
    const first = await page.evaluate(() => document.querySelector('#out ablation-playground').value);
    assert(first.depth === 6 && first.residual === 'off', `the model's traits set the widget: ${JSON.stringify(first).slice(0, 120)}`);
    // no playground page to link to from a notebook: the element hides Copy link by itself
    assert(await page.evaluate(() => document.querySelector('#out ablation-playground').shadowRoot.querySelector('[data-control="copy"]').hidden), 'Copy link shows in a notebook, where it has no page to link to');
    // the widget → the kernel: value, and a slider move
    await waitFor(page, () => window.nb.state.value?.step > 0 && window.nb.model.saved > 0, null, 'value never reached the model');
    const slider = page.getByLabel('Depth');
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await waitFor(page, () => window.nb.state.depth === 8, null, async () => `a slider move did not reach the model: depth ${await page.evaluate(() => window.nb.state.depth)}`);
    // the kernel → the widget: a trait set from a cell restarts it
    await page.evaluate(() => window.nb.model.set('norm', 'post'));
    await waitFor(page, () => document.querySelector('#out ablation-playground').value?.norm === 'post', null, 'norm = "post" did not reach the widget');
    assert((await element().getAttribute('norm')) === 'post', 'the attribute follows');
    await page.evaluate(() => window.nb.model.set('residual', true));
    await waitFor(page, () => document.querySelector('#out ablation-playground').value?.residual === 'on', null, 'residual = True did not reach the widget');
    // a method: pause, as w.pause() sends it
    await page.evaluate(() => window.nb.model.send({ method: 'pause' }));
    await waitFor(page, () => document.querySelector('#out ablation-playground').shadowRoot.querySelector('[data-el="play"]').textContent === 'Play', null, 'pause() did not pause');
    // the lang trait: the widget speaks Spanish, from the catalogue inside the module
    await page.evaluate(() => window.nb.model.set('lang', 'es'));
    await waitFor(page, () => /^8 capas · Residual SÍ · /.test(document.querySelector('#out ablation-playground').shadowRoot.querySelector('[data-el="status"]').textContent), null,
      async () => `lang = "es" did not word the widget: ${await page.evaluate(() => document.querySelector('#out ablation-playground').shadowRoot.querySelector('[data-el="status"]').textContent)}`);
    assert((await element().getAttribute('lang')) === 'es', 'the lang attribute follows the trait');
    assert((await page.evaluate(() => document.querySelector('#out ablation-playground').shadowRoot.querySelector('[data-el="play"]').textContent)) === 'Entrenar', 'the paused widget\'s Play button in Spanish');
    // the cell run again: the module evaluated anew from a new blob: URL, the old view cleaned up
    await page.evaluate(async (esm) => {
      window.nb.cleanup();
      const url = URL.createObjectURL(new Blob([esm], { type: 'text/javascript' }));
      const widget = (await import(url)).default;
      window.nb.cleanup = await widget.render({ model: window.nb.model, el: document.getElementById('out') });
    }, esm);
    const count = await page.evaluate(() => document.querySelectorAll('#out ablation-playground').length);
    assert(count === 1, `one view after the cell ran again: ${count}`);
    await waitFor(page, () => (document.querySelector('#out ablation-playground')?.value?.step ?? 0) > 0 || document.querySelector('#out ablation-playground')?.value?.norm === 'post', null, 'the new view did not start');
  });

  test('notebook: a real JupyterLab from PyPI runs the Playground, follows a trait set from a cell, and writes a slider move back to the kernel, starts depth or width from a method, keeps the constructor\'s arguments over a preset and an exact u64 seed, hears a pin, and takes a text, a prompt and the weights out and back', async ({ page, problems }) => {
    const dir = await mkdtemp(join(tmpdir(), 'ap-lab-'));
    const port = await freePort();
    const weights = join(dir, 'run.safetensors');
    const cells = [
      'from ablation_playground import Playground\nw = Playground(preset="break-and-heal", norm="pre", depth=6, residual=False, seed=2**64 - 1, panels="histogram,loss")\nw',
      'w.norm = "post"',
      'print("depth is", w.depth)',
      'w.depth_width()',
      'print("pinned:", w.pinned)',
      // a reader's text, a prompt, the weights out and back in
      'w.text = "the cat sat on the mat and the dog sat on the log. " * 40',
      'f = w.prompt("the ", 30)',
      'print("wrote:", repr(w.writing), repr(f.result(timeout=0)))',
      `saved = w.save_weights(${JSON.stringify('WEIGHTS')})`,
      'import os; print("saved:", saved.result(timeout=0), os.path.getsize(saved.result()))',
      `w.load_weights(${JSON.stringify('WEIGHTS')})`,
      // the static figure's own output, emptied once the front end showed the live view
      'print("static figures emptied:", w._static_emptied, "left:", len(w._static_outputs))',
    ];
    const notebook = {
      cells: cells.map((source) => source.replaceAll('WEIGHTS', weights)).map((source) => ({ cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source })),
      metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' } },
      nbformat: 4,
      nbformat_minor: 5,
    };
    await writeFile(join(dir, 'lesson.ipynb'), JSON.stringify(notebook));
    const lab = spawn(join(VENV, 'bin', 'jupyter'), [
      'lab', '--no-browser', `--port=${port}`, '--ip=127.0.0.1', `--ServerApp.root_dir=${dir}`,
      '--IdentityProvider.token=', '--ServerApp.password=', '--ServerApp.disable_check_xsrf=True',
      '--LabApp.news_url=', '--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate',
      '--LabApp.extension_manager=readonly', '--allow-root',
    ], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    lab.stderr.on('data', (d) => (log += d));
    lab.on('error', (e) => (log += `could not start ${join(VENV, 'bin', 'jupyter')}: ${e.message} (scripts/test.sh installs it; AP_HOSTS_VENV names its virtualenv)`));
    try {
      const url = `http://127.0.0.1:${port}`;
      // up once it answers (a first start builds its caches: give it time)
      let up = false;
      for (let i = 0; i < 240 && !up && lab.exitCode === null; i++) {
        up = await fetch(`${url}/api/status`).then((r) => r.ok, () => false);
        if (!up) await new Promise((ok) => setTimeout(ok, 250));
      }
      assert(up, `JupyterLab did not start: ${log.slice(-600)}`);
      await page.goto(`${url}/lab/tree/lesson.ipynb`);
      const run = async (n) => {
        const cell = page.locator('.jp-Notebook .jp-Cell').nth(n);
        await cell.locator('.jp-InputArea-editor').click();
        await page.keyboard.press('Shift+Enter');
      };
      await page.locator('.jp-Notebook .jp-Cell').first().waitFor({ timeout: 30_000 });
      // the kernel is up once the status bar reads Idle
      await waitFor(page, () => /\| Idle/.test(document.querySelector('.jp-StatusBar-Widget, #jp-main-statusbar')?.textContent ?? ''), null,
        async () => `the kernel did not start: ${await page.locator('#jp-main-statusbar').textContent().catch(() => '?')}`, 30_000);
      await run(0);
      await waitFor(page, () => (document.querySelector('ablation-playground')?.value?.step ?? 0) > 3, null, async () => `the widget did not train in JupyterLab (${log.slice(-400)})`, 40_000);
      const v = await page.evaluate(() => document.querySelector('ablation-playground').value);
      assert(v.depth === 6 && v.residual === 'off', `the widget took the constructor's traits: ${JSON.stringify(v).slice(0, 120)}`);
      // the constructor's arguments adjust the preset, even one equal to its default (norm="pre"),
      // and a seed above 2**53 arrives exactly
      assert(v.norm === 'pre' && v.gain === 2.25, `the preset with the norm given: norm ${v.norm}, gain ${v.gain}`);
      assert(String(v.seed) === '18446744073709551615', `the seed arrives exactly: ${v.seed}`);
      // a live view: the static figure (for exported notebooks) is not shown beside it
      await waitFor(page, () => document.querySelectorAll('.ablation-playground-static').length === 0, null,
        async () => `the static figure stayed beside the live widget: ${await page.locator('.ablation-playground-static').count()}`, 15_000);
      // a trait set from a cell
      await run(1);
      await waitFor(page, () => document.querySelector('ablation-playground').value?.norm === 'post', null, 'w.norm = "post" from a cell did not reach the widget', 20_000);
      // a slider move, back to the kernel (the mouse: JupyterLab takes the arrow keys)
      const slider = page.getByLabel('Depth');
      await slider.scrollIntoViewIfNeeded();
      const box = await slider.boundingBox();
      await page.mouse.click(box.x + box.width * 0.5, box.y + box.height / 2);
      await waitFor(page, () => document.querySelector('ablation-playground').value?.depth > 20, null, 'the slider did not move');
      const depth = await page.evaluate(() => document.querySelector('ablation-playground').value.depth);
      await page.waitForTimeout(500);
      await run(2);
      const output = () => page.locator('.jp-Notebook .jp-Cell').nth(2).locator('.jp-OutputArea').textContent().catch(() => '');
      await waitFor(page, (d) => [...document.querySelectorAll('.jp-Notebook .jp-Cell')][2]?.querySelector('.jp-OutputArea')?.textContent.includes(`depth is ${d}`), depth,
        async () => `the kernel did not hear the slider (depth ${depth}): ${await output()}`, 20_000);
      // a method called from a cell: depth or width starts, and its panel shows
      await run(3);
      await waitFor(page, () => (document.querySelector('ablation-playground').value?.depth_width?.runs?.length ?? 0) > 0, null,
        async () => `w.depth_width() did not start depth or width: ${JSON.stringify(await page.evaluate(() => document.querySelector('ablation-playground').value?.depth_width ?? null))}`, 30_000);
      // a pin made in the widget reaches the kernel
      await page.evaluate(() => document.querySelector('ablation-playground').pin());
      await waitFor(page, () => (document.querySelector('ablation-playground').getAttribute('pin') ?? '').includes('@'), null, 'the pin did not reach the element\'s attribute');
      await page.waitForTimeout(500);
      await run(4);
      await waitFor(page, () => /pinned: .*@\d+/.test([...document.querySelectorAll('.jp-Notebook .jp-Cell')][4]?.querySelector('.jp-OutputArea')?.textContent ?? ''), null,
        async () => `the kernel did not hear the pin: ${await page.locator('.jp-Notebook .jp-Cell').nth(4).locator('.jp-OutputArea').textContent().catch(() => '')}`, 20_000);
      // w.text: the widget trains the text task on it
      await run(5);
      await waitFor(page, () => /\.2040\./.test(document.querySelector('ablation-playground').value?.text_id ?? ''), null, 'w.text did not reach the widget', 30_000);
      // w.prompt: the continuation comes back into w.writing and the future (a later cell)
      await run(6);
      await waitFor(page, () => document.querySelector('ablation-playground').shadowRoot.querySelector('[data-el="prompt-said"]').textContent.length > 0, null, 'the prompt was not continued', 30_000);
      await page.waitForTimeout(500);
      await run(7);
      const cellText = (n) => page.locator('.jp-Notebook .jp-Cell').nth(n).locator('.jp-OutputArea').textContent().catch(() => '');
      await waitFor(page, () => /wrote: '.{30}' '.{30}'/s.test([...document.querySelectorAll('.jp-Notebook .jp-Cell')][7]?.querySelector('.jp-OutputArea')?.textContent ?? ''), null,
        async () => `the continuation did not reach the kernel: ${await cellText(7)}`, 20_000);
      const said = await page.evaluate(() => document.querySelector('ablation-playground').shadowRoot.querySelector('[data-el="prompt-said"]').textContent);
      const wrote = (await cellText(7)).match(/wrote: '(.{30})'/s)?.[1];
      assert(said.endsWith(wrote.replaceAll('\\n', '\n')), `the kernel's w.writing is what the widget said: ${JSON.stringify(wrote)} in ${JSON.stringify(said)}`);
      // the weights: saved by the kernel from the browser's bytes, then loaded back
      await run(8);
      await page.waitForTimeout(1500);
      await run(9);
      await waitFor(page, () => /saved: .*run\.safetensors \d{4,}/.test([...document.querySelectorAll('.jp-Notebook .jp-Cell')][9]?.querySelector('.jp-OutputArea')?.textContent ?? ''), null,
        async () => `the weights were not saved: ${await cellText(9)}`, 20_000);
      await page.evaluate(() => document.querySelector('ablation-playground').play());
      await waitFor(page, () => document.querySelector('ablation-playground').value.step > 5, null, 'the run did not go on');
      await run(10);
      await waitFor(page, () => document.querySelector('ablation-playground').value.step === 0, null, 'w.load_weights did not start the run from the file', 20_000);
      await run(11);
      await waitFor(page, () => /static figures emptied: 1 left: 0/.test([...document.querySelectorAll('.jp-Notebook .jp-Cell')][11]?.querySelector('.jp-OutputArea')?.textContent ?? ''), null,
        async () => `the static figure's output was not emptied by the live view: ${await cellText(11)}`, 20_000);
    } finally {
      // leave JupyterLab's page first: it saves its workspace to a server about to go, and
      // requests of its own cut short by leaving (its busy favicon) are not the widget's
      const before = problems.length;
      await page.goto('about:blank').catch(() => {});
      const origin = `http://127.0.0.1:${port}/`;
      for (let i = problems.length - 1; i >= before; i--) if (problems[i].includes(origin) && /ERR_ABORTED/.test(problems[i])) problems.splice(i, 1);
      lab.kill('SIGTERM');
      await new Promise((ok) => (lab.exitCode !== null ? ok() : lab.once('exit', ok)));
      await rm(dir, { recursive: true, force: true });
    }
  }, { timeoutMs: 150_000 }); // JupyterLab's start, and twelve cells

  test('notebook: jupyter nbconvert --to html --execute shows the static figure, the same SVGs as ablate --svg, with the status line', async ({ page, note, shot }) => {
    const dir = await mkdtemp(join(tmpdir(), 'ap-nbconvert-'));
    try {
      const notebook = {
        cells: [
          { cell_type: 'markdown', metadata: {}, source: '# A lesson, exported' },
          { cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: 'from ablation_playground import Playground\nw = Playground(preset="copy", depth=6)\nw' },
        ],
        metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' } },
        nbformat: 4,
        nbformat_minor: 5,
      };
      await writeFile(join(dir, 'lesson.ipynb'), JSON.stringify(notebook));
      note('jupyter nbconvert --to html --execute');
      await command(join(VENV, 'bin', 'jupyter'), ['nbconvert', '--to', 'html', '--execute', 'lesson.ipynb', '--output', 'index.html'], { cwd: dir });
      // what ablate draws natively for the same state and steps (the figure's caption names them)
      const html = await readFile(join(dir, 'index.html'), 'utf8');
      const args = html.match(/trained by <code>ablate ([^<]*)<\/code>/)?.[1];
      assert(args, `the export has no static figure's caption: ${html.length} characters, ${(html.match(/ablation-playground-static/g) ?? []).length} figures`);
      assert(/--preset copy --depth 6 --steps 300$/.test(args), `the figure's command: ablate ${args}`);
      await command(join(ROOT, 'target', 'release', 'ablate'), [...args.split(' '), '--svg', join(dir, 'native')]);
      const native = [];
      for (const name of ['histogram', 'loss', 'depth', 'readout', 'attention']) native.push(await readFile(join(dir, 'native', `${name}.svg`), 'utf8'));
      const status = (await readFile(join(dir, 'native', 'status.txt'), 'utf8')).trim().replace(/ · finished$/, '');
      // the page as a reader opens it, offline: what it would fetch from CDNs (the widgets'
      // manager, MathJax) answers empty, as a blocked network leaves it
      await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (r) => r.fulfill({ status: 200, contentType: 'text/javascript', body: '' }));
      const site = await startServer(dir);
      try {
        await page.goto(`${site.url}/`);
        const shown = await page.evaluate(() => [...document.querySelectorAll('figure.ablation-playground-static')].map((f) => ({
          charts: [...f.querySelectorAll('svg')].filter((s) => s.getBoundingClientRect().width > 150 && s.getBoundingClientRect().height > 100).length,
          caption: f.querySelector('figcaption strong')?.textContent ?? '',
        })));
        assert(shown.length === 1 && shown[0].charts >= 5, `the exported page shows not exactly one static figure with its charts: ${JSON.stringify(shown)}`);
        assert(shown.every((f) => f.caption === status), `the figure's status line is ablate's: ${JSON.stringify(shown.map((f) => f.caption))} against ${JSON.stringify(status)}`);
        // each chart is ablate --svg's: nbconvert re-serialises the HTML (attributes sorted), so
        // both are compared as the browser parses them, element by element, every attribute
        // and every text
        const differ = await page.evaluate((native) => {
          // (the figure sizes each chart with a style on its <svg>)
          const canonical = (svg) => [svg, ...svg.querySelectorAll('*')]
            .map((e) => `${e.localName}[${[...e.attributes].filter((a) => !(e === svg && a.name === 'style')).map((a) => `${a.name}=${a.value}`).sort().join(' ')}]${[...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent.trim()).join('')}`)
            .join('\n');
          const shownCharts = [...document.querySelector('figure.ablation-playground-static').querySelectorAll(':scope > div > div > svg')].map(canonical);
          const probe = document.createElement('div');
          return native.map((svg, i) => {
            probe.innerHTML = svg;
            const want = canonical(probe.querySelector('svg'));
            return shownCharts[i] === want ? null : { chart: i, shown: (shownCharts[i] ?? '').slice(0, 200), want: want.slice(0, 200) };
          }).filter(Boolean);
        }, native);
        assert(differ.length === 0, `the export's charts are not ablate --svg's: ${JSON.stringify(differ)}`);
        await shot('nbconvert-export');
      } finally {
        await site.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, { timeoutMs: 120_000 });
}
