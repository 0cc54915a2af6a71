// End-to-end tests of embedding in someone else's page (docs/embedding.md): the element,
// loaded from another origin, leaves a hostile host page's styles alone and is not broken by
// them; the host themes it through --ap-* and ::part; and it runs under a strict
// Content-Security-Policy (scripts only from the widget's origin, no inline scripts).
//
// Registered into run.mjs's runner, so every test here also fails on any console error
// (a CSP violation is one), uncaught exception, failed request or visible error box.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_PAGES, installPackage, startServer, strictCsp } from './lib.mjs';
import { assert, test, waitFor } from './harness.mjs';

/** A host page on its own origin that embeds one element from `widget` (the dist/ origin). */
function hostPage(widget, { head = '', element = '<ablation-playground id="w" depth="6" panels="histogram,loss"></ablation-playground>' } = {}) {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>a lesson host</title>${head}` +
    `<script type="module" src="${widget}/www/ablation-playground.js"></script></head>` +
    `<body><p class="host">The host's own paragraph.</p>${element}</body></html>`
  );
}

/** Styles a careless (or hostile) host page might have. */
const HOSTILE = `<style>
  :root { --accent: rgb(200, 0, 0); --bg: rgb(250, 240, 200); }
  body { margin: 40px; background: rgb(250, 240, 200); font-family: Georgia, serif; }
  p.host { color: var(--accent); }
  * { box-sizing: content-box; }
  button { font: 20px serif; padding: 2em; }
  canvas { width: 100% !important; }
  input { all: unset; }
  ablation-playground::part(status) { color: rgb(1, 2, 3); }
</style>`;

export default function registerHostTests() {
  const started = (page) =>
    waitFor(page, () => (document.getElementById('w')?.value?.step ?? 0) > 3, null, 'the element did not start training', 20_000);

  test('a hostile host page keeps its own styles, and does not break the widget', async ({ page, baseUrl }) => {
    const host = await startServer();
    try {
      // A host built with Trunk keeps its own app's bindings in window.wasmBindings.
      const trunkHost = '<script>window.wasmBindings = { default() {}, hostApp: true };</script>';
      TEST_PAGES.set('/__test/hostile.html', () => hostPage(baseUrl, { head: HOSTILE + trunkHost }));
      await page.goto(`${host.url}/__test/hostile.html`);
      await started(page);
      // The host page is as its author styled it.
      const h = await page.evaluate(() => {
        const body = getComputedStyle(document.body);
        return {
          margin: body.marginTop,
          background: body.backgroundColor,
          font: body.fontFamily,
          paragraph: getComputedStyle(document.querySelector('p.host')).color,
          sheets: [...document.styleSheets].map((s) => s.href).filter(Boolean),
          adopted: document.adoptedStyleSheets.length,
        };
      });
      assert(h.margin === '40px' && h.background === 'rgb(250, 240, 200)' && /Georgia/.test(h.font), `the host's body was restyled: ${JSON.stringify(h)}`);
      assert(h.paragraph === 'rgb(200, 0, 0)', `the host's paragraph (its own --accent) turned ${h.paragraph}`);
      assert(h.sheets.length === 0 && h.adopted === 0, `the widget added styles to the host document: ${JSON.stringify(h)}`);
      // The widget is as designed: its buttons, inputs and canvases ignore the host's rules,
      // it inherits the host's font family, and ::part reaches only what it names.
      const w = await page.evaluate(() => {
        const s = document.getElementById('w').shadowRoot;
        const css = (sel) => getComputedStyle(s.querySelector(sel));
        const canvas = s.querySelector('[data-el="histogram"]');
        const panel = canvas.closest('figure').getBoundingClientRect();
        return {
          buttonPadding: css('[data-el="step"]').paddingTop,
          buttonFont: css('[data-el="step"]').fontSize,
          sliderWidth: s.querySelector('[data-el="depth"]').getBoundingClientRect().width,
          sliderAppearance: css('[data-el="depth"]').appearance,
          canvasWidth: canvas.getBoundingClientRect().width,
          panelWidth: panel.width,
          statusColour: css('[data-el="status"]').color,
          statusFont: css('[data-el="status"]').fontFamily,
          sizing: css('[data-el="step"]').boxSizing,
        };
      });
      assert(parseFloat(w.buttonPadding) < 10 && w.buttonFont !== '20px', `the host's button rule reached the widget: ${JSON.stringify(w)}`);
      assert(w.sliderWidth > 100 && w.sliderAppearance !== 'none', `the host's input rule reached the slider: ${JSON.stringify(w)}`);
      assert(w.canvasWidth < w.panelWidth, `the host's canvas rule reached the charts: ${JSON.stringify(w)}`);
      assert(w.sizing === 'border-box', `the host's * rule reached the widget: ${w.sizing}`);
      assert(w.statusColour === 'rgb(1, 2, 3)', `::part(status) did not style the status line: ${w.statusColour}`);
      assert(/Georgia/.test(w.statusFont), `the widget should inherit the host's font family: ${w.statusFont}`);
      // Keyboard focus shows the widget's focus ring.
      await page.locator('#w [data-el="step"]').focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      const ring = await page.evaluate(() => {
        const b = document.getElementById('w').shadowRoot.querySelector('[data-el="step"]');
        const c = getComputedStyle(b);
        return { focused: document.getElementById('w').shadowRoot.activeElement === b, style: c.outlineStyle, width: c.outlineWidth };
      });
      assert(ring.focused && ring.style === 'solid' && ring.width === '3px', `no focus ring: ${JSON.stringify(ring)}`);
    } finally {
      await host.close();
    }
  });

  test('the host themes the widget: --ap-accent reaches the controls and the charts', async ({ page, baseUrl }) => {
    const host = await startServer();
    try {
      const element = '<ablation-playground id="w" depth="6" panels="histogram" style="--ap-accent: rgb(10, 150, 20); --ap-font: monospace; --ap-bg: rgb(250, 245, 230); --ap-fg: rgb(30, 20, 90)"></ablation-playground>';
      TEST_PAGES.set('/__test/themed.html', () => hostPage(baseUrl, { element }));
      // the host's style attribute needs no CSP here; this page has none
      await page.goto(`${host.url}/__test/themed.html`);
      await started(page);
      const t = await page.evaluate(() => {
        const s = document.getElementById('w').shadowRoot;
        return {
          switchOn: getComputedStyle(s.querySelector('[data-el="residual"]')).backgroundColor,
          font: getComputedStyle(s.querySelector('[data-el="status"]')).fontFamily,
          fg: getComputedStyle(s.querySelector('[data-el="status"]')).color,
          panel: getComputedStyle(s.querySelector('[data-panel="histogram"]')).backgroundColor,
          // every part docs/embedding.md names, present for a host's ::part()
          parts: ['controls', 'status', 'caption', 'notice', 'error', 'panels', 'panel', 'histogram', 'loss', 'depth', 'readout', 'attention', 'writes', 'compare', 'sweep', 'depth-width', 'knockout']
            .filter((name) => !s.querySelector(`[part~="${name}"]`)),
        };
      });
      assert(t.switchOn === 'rgb(10, 150, 20)', `the Residual switch should take --ap-accent: ${t.switchOn}`);
      assert(t.font === 'monospace', `--ap-font: ${t.font}`);
      assert(t.fg === 'rgb(30, 20, 90)' && t.panel === 'rgb(250, 245, 230)', `--ap-fg and --ap-bg: text ${t.fg}, panel ${t.panel}`);
      assert(t.parts.length === 0, `parts docs/embedding.md names but the widget lacks: ${t.parts}`);
      // The histogram's bars are drawn in the accent colour.
      await waitFor(page, () => {
        const c = document.getElementById('w').shadowRoot.querySelector('[data-el="histogram"]');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 0; i < d.length; i += 4) if (d[i] === 10 && d[i + 1] === 150 && d[i + 2] === 20) return true;
        return false;
      }, null, 'no pixel of the histogram has the host\'s accent colour', 5000);
    } finally {
      await host.close();
    }
  });

  test('in a host that sets no --ap-*, the widget follows its theme toggled at run time (a class on <html>, a stylesheet swap), keeps 1rem, and --ap-* still win', async ({ page, baseUrl }) => {
    const host = await startServer();
    try {
      const head = `<style>
        body { font-size: 42px; background: rgb(250, 250, 250); color: rgb(20, 20, 20); }
        html.night body { background: rgb(24, 26, 31); color: rgb(225, 228, 232); }
      </style>`;
      TEST_PAGES.set('/__test/theme.html', () => hostPage(baseUrl, { head }));
      await page.goto(`${host.url}/__test/theme.html`);
      await started(page);
      const look = () =>
        page.evaluate(() => {
          const s = document.getElementById('w').shadowRoot;
          const st = getComputedStyle(s.querySelector('[data-el="status"]'));
          const c = s.querySelector('[data-el="histogram"]');
          const [r, g, b] = c.getContext('2d').getImageData(2, 2, 1, 1).data;
          return { fg: st.color, size: st.fontSize, panel: getComputedStyle(s.querySelector('[data-panel="histogram"]')).backgroundColor, chart: [r, g, b] };
        });
      const day = await look();
      assert(day.size === '16px', `the widget keeps 1rem in a 42 px host: ${day.size}`);
      assert(day.fg === 'rgb(20, 20, 20)' && day.panel === 'rgb(250, 250, 250)', `it takes the host's own text and background: ${JSON.stringify(day)}`);
      // the host's own toggle: a class on <html>
      await page.evaluate(() => document.documentElement.classList.add('night'));
      await waitFor(page, () => {
        const s = document.getElementById('w').shadowRoot;
        return getComputedStyle(s.querySelector('[data-el="status"]')).color === 'rgb(225, 228, 232)';
      }, null, async () => `after html.night: ${JSON.stringify(await look())}`, 3000);
      await waitFor(page, () => {
        const c = document.getElementById('w').shadowRoot.querySelector('[data-el="histogram"]');
        const [r, g, b] = c.getContext('2d').getImageData(2, 2, 1, 1).data;
        return r < 60 && g < 60 && b < 60;
      }, null, async () => `the chart stays light at night: ${JSON.stringify(await look())}`, 3000);
      // a stylesheet swapped in <head>
      await page.evaluate(() => {
        document.documentElement.classList.remove('night');
        const sheet = document.createElement('style');
        sheet.textContent = 'body { background: rgb(0, 0, 90); color: rgb(255, 255, 200); }';
        document.head.append(sheet);
      });
      await waitFor(page, () => getComputedStyle(document.getElementById('w').shadowRoot.querySelector('[data-el="status"]')).color === 'rgb(255, 255, 200)',
        null, async () => `after a stylesheet swap: ${JSON.stringify(await look())}`, 3000);
      // the host's own --ap-* win, and --ap-font-size sizes it
      await page.evaluate(() => document.getElementById('w').setAttribute('style', '--ap-bg: rgb(255, 255, 255); --ap-fg: rgb(40, 0, 0); --ap-font-size: 20px'));
      await waitFor(page, () => {
        const st = getComputedStyle(document.getElementById('w').shadowRoot.querySelector('[data-el="status"]'));
        return st.color === 'rgb(40, 0, 0)' && st.fontSize === '20px';
      }, null, async () => `--ap-fg and --ap-font-size: ${JSON.stringify(await look())}`, 3000);
    } finally {
      await host.close();
    }
  });

  test('the element runs under a strict Content-Security-Policy with Trusted Types, from another origin', async ({ page, baseUrl }) => {
    const host = await startServer();
    try {
      // Trusted Types too: the widget's HTML and worker URLs go through its named policy.
      const csp = strictCsp(baseUrl);
      const head = `<meta http-equiv="Content-Security-Policy" content="${csp}">`;
      TEST_PAGES.set('/__test/csp.html', () => hostPage(baseUrl, { head }));
      const violations = [];
      page.on('console', (m) => /Content Security Policy|Refused to/i.test(m.text()) && violations.push(m.text()));

      await page.goto(`${host.url}/__test/csp.html`);
      await started(page);
      const notice = await page.evaluate(() => {
        const n = document.getElementById('w').shadowRoot.querySelector('[data-el="notice"]');
        return n.hidden ? '' : n.textContent;
      });
      assert(notice === '', `a notice under CSP (no worker?): ${notice}`);
      const styled = await page.evaluate(() => getComputedStyle(document.getElementById('w').shadowRoot.querySelector('[data-el="status"]')).fontWeight);
      assert(styled === '600', `the widget's stylesheet did not load under CSP (status font-weight ${styled})`);
      assert(!violations.length, `CSP violations: ${violations.join(' | ')}`);
    } finally {
      await host.close();
    }
  });

  test('lesson steps: a button in the prose drives the element with no script of the page\'s, under the strict CSP, by keyboard', async ({ page, baseUrl }) => {
    const host = await startServer();
    try {
      const head = `<meta http-equiv="Content-Security-Policy" content="${strictCsp(baseUrl)}">`;
      const element = '<ablation-playground id="w" depth="6" panels="histogram,loss"></ablation-playground>' +
        '<p>Now <button type="button" data-ablation-playground="w" data-set="preset=gradient-experiment depth=7 norm=pre" data-call="pause">turn LayerNorm on</button>' +
        ' and <button type="button" data-ablation-playground="nowhere" data-set="depth=3">a step to no playground</button>.</p>';
      TEST_PAGES.set('/__test/steps.html', () => hostPage(baseUrl, { head, element }));
      const violations = [];
      const warned = [];
      page.on('console', (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
        if (m.type() === 'warning') warned.push(m.text());
      });
      await page.goto(`${host.url}/__test/steps.html`);
      await started(page);
      // the keyboard: focus the step and press Enter, as a reader tabbing through the prose would
      await page.getByRole('button', { name: 'turn LayerNorm on' }).focus();
      await page.keyboard.press('Enter');
      await waitFor(page, () => {
        const w = document.getElementById('w');
        return w.getAttribute('depth') === '7' && w.getAttribute('norm') === 'pre' && w.value?.depth === 7 && w.value.norm === 'pre';
      }, null, async () => `the step did not reach the element: ${JSON.stringify(await page.evaluate(() => [...document.getElementById('w').attributes].map((a) => `${a.name}=${a.value}`)))}`);
      const v = await page.evaluate(() => document.getElementById('w').value);
      assert(v.residual === 'off' && v.gain === 0.5, `the preset first, then the others adjust it: ${JSON.stringify(v).slice(0, 160)}`);
      // data-call="pause" was called after the attributes: the run stands still
      await page.waitForTimeout(300);
      const stepA = await page.evaluate(() => document.getElementById('w').value.step);
      await page.waitForTimeout(800);
      const stepB = await page.evaluate(() => document.getElementById('w').value.step);
      assert(stepA === stepB, `data-call="pause": the run went on from step ${stepA} to ${stepB}`);
      // the change is announced: the status line (role="status") names it
      const status = await page.evaluate(() => document.getElementById('w').shadowRoot.querySelector('[role="status"]').textContent);
      assert(/^7 layers · Residual OFF · LayerNorm ON \(pre\)/.test(status), `the status line: ${status}`);
      const controls = await page.getByRole('button', { name: 'turn LayerNorm on' }).getAttribute('aria-controls');
      assert(controls === 'w', `the step controls the playground: aria-controls=${controls}`);
      // a step to no playground does nothing, with one warning
      await page.getByRole('button', { name: 'a step to no playground' }).click();
      await page.waitForTimeout(200);
      assert(warned.some((w) => /ignored a lesson step: no <ablation-playground id="nowhere">/.test(w)), `one warning: ${warned}`);
      assert(!violations.length, `CSP violations: ${violations.join(' | ')}`);
    } finally {
      await host.close();
    }
  });

  test('lesson steps with data-when="visible" apply as the reader scrolls to them, again on the way back, and not on a click', async ({ page, baseUrl }) => {
    const host = await startServer();
    try {
      const head = `<meta http-equiv="Content-Security-Policy" content="${strictCsp(baseUrl)}">`;
      // a tall spacer that needs no style attribute (the strict CSP blocks inline styles)
      const spacer = '<canvas width="1" height="1600"></canvas>';
      const element = '<ablation-playground id="w" depth="6" panels="loss"></ablation-playground>' + spacer +
        '<p id="s1" data-ablation-playground="w" data-set="depth=9 norm=post" data-when="visible">At depth 9, post-norm.</p>' + spacer +
        '<p id="s2" data-ablation-playground="w" data-set="depth=5 norm=pre" data-when="visible">At depth 5, pre-norm.</p>' + spacer;
      TEST_PAGES.set('/__test/scrolly.html', () => hostPage(baseUrl, { head, element }));
      await page.goto(`${host.url}/__test/scrolly.html`);
      await started(page);
      const attrs = () => page.evaluate(() => ['depth', 'norm'].map((a) => document.getElementById('w').getAttribute(a)).join());
      const expectAttrs = (want, what) =>
        waitFor(page, (w) => ['depth', 'norm'].map((a) => document.getElementById('w').getAttribute(a)).join() === w, want,
          async () => `${what}: the element reads ${await attrs()}, not ${want}`, 5000);
      await page.waitForTimeout(300);
      assert((await attrs()) === '6,', `no step is in view at first, so none applied: ${await attrs()}`);
      await page.evaluate(() => document.getElementById('s1').scrollIntoView({ block: 'center' }));
      await expectAttrs('9,post', 'scrolled to the first step');
      await page.evaluate(() => document.getElementById('s2').scrollIntoView({ block: 'center' }));
      await expectAttrs('5,pre', 'scrolled to the second step');
      await page.evaluate(() => document.getElementById('s1').scrollIntoView({ block: 'center' }));
      await expectAttrs('9,post', 'scrolled back to the first step');
      // a click on a step that applies by scrolling does nothing more
      await page.evaluate(() => document.getElementById('w').setAttribute('depth', '4'));
      await page.locator('#s1').click();
      await page.waitForTimeout(300);
      assert((await attrs()) === '4,post', `a click applied a scrolling step: ${await attrs()}`);
      // a step added later (as MkDocs' instant navigation swaps a page in) is watched too
      await page.evaluate(() => {
        // (inside a new element, as a page swapped in is; built without innerHTML, which the
        // strict CSP's Trusted Types refuse)
        const added = document.createElement('div');
        const p = Object.assign(document.createElement('p'), { id: 's3', textContent: 'At depth 3.' });
        for (const [k, v] of [['data-ablation-playground', 'w'], ['data-set', 'depth=3'], ['data-when', 'visible']]) p.setAttribute(k, v);
        added.append(p, Object.assign(document.createElement('canvas'), { width: 1, height: 1600 }));
        document.body.append(added);
        document.getElementById('s3').scrollIntoView({ block: 'center' });
      });
      await expectAttrs('3,post', 'scrolled to a step added after the page loaded');
      await page.evaluate(() => document.getElementById('w').setAttribute('depth', '4'));
      // back at the element, it runs in the state the last step left
      await page.evaluate(() => window.scrollTo(0, 0));
      await waitFor(page, () => /^4 layers · Residual ON · LayerNorm ON \(post\)/.test(document.getElementById('w').shadowRoot.querySelector('[role="status"]').textContent),
        null, 'the status line did not follow the steps', 10_000);
    } finally {
      await host.close();
    }
  });

  test('the npm package, installed from its tarball into a fresh Vite app and bundled into a two-line page, registers the element and finds its files', async ({ page, note }) => {
    // A bundler-based site: the package as `npm install` gives it (the tarball scripts/build.sh
    // packs) and nothing else, a page whose whole script is `import 'ablation-playground'`, built by Vite.
    const site = await mkdtemp(join(tmpdir(), 'ap-vite-'));
    let server = null;
    try {
      note('npm install of the tarball');
      await installPackage(site);
      await writeFile(join(site, 'main.js'), "import 'ablation-playground';\n");
      await writeFile(
        join(site, 'index.html'),
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bundled</title>' +
          '<script type="module" src="./main.js"></script></head>' +
          '<body><ablation-playground id="w" depth="4" panels="loss"></ablation-playground></body></html>',
      );
      note('importing Vite');
      const { build } = await import('vite');
      note('building with Vite');
      await build({ root: site, configFile: false, logLevel: 'silent', build: { outDir: join(site, 'out'), emptyOutDir: true } });
      server = await startServer(join(site, 'out'));
      note('loading the bundled page');
      await page.goto(`${server.url}/`);
      note('waiting for the bundled element to train');
      await started(page);
      const w = await page.evaluate(() => {
        const s = document.getElementById('w').shadowRoot;
        const n = s.querySelector('[data-el="notice"]');
        return { notice: n.hidden ? '' : n.textContent, weight: getComputedStyle(s.querySelector('[data-el="status"]')).fontWeight };
      });
      assert(w.notice === '', `the bundled element fell back or complained: ${w.notice}`);
      assert(w.weight === '600', `the bundled element's stylesheet did not load (status font-weight ${w.weight})`);
    } finally {
      await server?.close();
      await rm(site, { recursive: true, force: true });
    }
    // (an npm install and a Vite build before the page, as the React test: its budget)
  }, { timeoutMs: 180_000 });
}
