// End-to-end tests in the hosts lessons are written in, installed from the registries by the
// test command (scripts/tools.sh, ensure_hosts): MkDocs Material with instant navigation, in
// its default palette and in slate toggled at run time; a Reveal.js deck in its black and
// white themes; and Debian's pandoc with the filter in _extensions/. Each host's page loads
// the npm-style package (dist/package) as its documentation tells an author to.
//
// Registered into run.mjs's runner: a console error, an uncaught exception or a failed request
// fails a test here too.

import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { assert, test, waitFor } from './harness.mjs';
import { DIST, E2E_DIR, ROOT, startServer } from './lib.mjs';

const run = promisify(execFile);
const MKDOCS = process.env.AP_MKDOCS ?? 'mkdocs';
const PANDOC = process.env.AP_PANDOC ?? 'pandoc';

/** WCAG contrast of an element's text against what is painted behind it, across shadow roots,
 *  read from computed styles (evaluated in the page; self-contained, as page functions are).
 *  The element: `'host >>> inner'` (each `>>>` a shadow root further in), or an element and a
 *  selector in its shadow root (`handle.evaluate(textContrast, inner)`). */
export function textContrast(target, inner) {
  const parse = (c) => c.match(/[\d.]+/g).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => ((v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  let el;
  if (typeof target === 'string') {
    const [first, ...rest] = target.split(' >>> ');
    el = document.querySelector(first);
    for (const selector of rest) el = el.shadowRoot.querySelector(selector);
  } else el = target.shadowRoot.querySelector(inner);
  const fg = parse(getComputedStyle(el).color);
  let bg = null;
  for (let e = el; e && !bg; ) {
    const c = parse(getComputedStyle(e).backgroundColor);
    if (c.length === 3 || c[3] >= 0.999) bg = c.slice(0, 3);
    e = e.parentElement ?? (e.getRootNode() instanceof ShadowRoot ? e.getRootNode().host : null);
  }
  bg ??= [255, 255, 255];
  const [a, b] = [lum(fg.slice(0, 3)), lum(bg)];
  return { ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), fg, bg, bgLum: lum(bg) };
}

/** The luminance of a chart canvas's top-left pixel (its background), 0 to 1. */
export function canvasBackground(selector) {
  const [hostSel, inner] = selector.split(' >>> ');
  const c = document.querySelector(hostSel).shadowRoot.querySelector(inner);
  const [r, g, b] = c.getContext('2d').getImageData(2, 2, 1, 1).data;
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

export default function registerRealHostTests() {
  const started = (page, id) =>
    waitFor(page, (i) => (document.getElementById(i)?.value?.step ?? 0) > 2, id, `#${id} did not start training`, 30_000);

  test('MkDocs Material: readable in its default palette and in slate toggled at run time; instant navigation starts the next page', async ({ page, shot }) => {
    const dir = await mkdtemp(join(tmpdir(), 'ap-mkdocs-'));
    try {
      await mkdir(join(dir, 'docs'));
      await writeFile(
        join(dir, 'mkdocs.yml'),
        [
          'site_name: A lesson',
          'theme:',
          '  name: material',
          '  font: false',
          '  features: [navigation.instant]',
          '  palette:',
          '    - scheme: default',
          '      toggle: { icon: material/brightness-7, name: Switch to dark mode }',
          '    - scheme: slate',
          '      toggle: { icon: material/brightness-4, name: Switch to light mode }',
          'plugins: []',
          'extra_javascript:',
          '  - path: ablation-playground/index.js',
          '    type: module',
          '',
        ].join('\n'),
      );
      await writeFile(join(dir, 'docs', 'index.md'), '# One\n\n<ablation-playground id="a" depth="6" panels="histogram,loss"></ablation-playground>\n\n[The next page](next.md)\n');
      await writeFile(join(dir, 'docs', 'next.md'), '# Two\n\n<ablation-playground id="b" depth="4" panels="loss"></ablation-playground>\n');
      await cp(join(DIST, 'package'), join(dir, 'docs', 'ablation-playground'), { recursive: true });
      await run(MKDOCS, ['build', '--quiet', '-d', join(dir, 'site')], { cwd: dir });
      const site = await startServer(join(dir, 'site'));
      try {
        await page.goto(`${site.url}/`);
        await started(page, 'a');
        const light = await page.evaluate(textContrast, '#a >>> [data-el="status"]');
        assert(light.ratio >= 4.5 && light.bgLum > 0.5, `default palette: status text ${light.fg} on ${light.bg}, ${light.ratio.toFixed(2)}:1`);
        // the reader toggles slate: the host sets data-md-color-scheme on <body>
        await page.locator('label[title="Switch to dark mode"]').click();
        await waitFor(page, () => document.body.getAttribute('data-md-color-scheme') === 'slate', null, 'the toggle did not switch to slate');
        await waitFor(page, (f) => eval(`(${f})`)('#a >>> [data-el="status"]').bgLum < 0.1, textContrast.toString(), 'the host did not turn dark', 5000);
        await waitFor(page, (f) => eval(`(${f})`)('#a >>> [data-el="status"]').ratio >= 4.5, textContrast.toString(),
          async () => `slate: the status line reads at ${JSON.stringify(await page.evaluate(textContrast, '#a >>> [data-el="status"]'))}`, 5000);
        for (const inner of ['[data-el="caption"]', '[data-control="depth"] label']) {
          const c = await page.evaluate(textContrast, `#a >>> ${inner}`);
          assert(c.ratio >= 4.5, `slate: ${inner} ${c.fg} on ${c.bg}, ${c.ratio.toFixed(2)}:1`);
        }
        await waitFor(page, (f) => eval(`(${f})`)('#a >>> [data-el="loss"]') < 0.2, canvasBackground.toString(), 'slate: the charts stay light', 5000);
        await shot('mkdocs-slate');
        // instant navigation swaps the page without a reload: the next page's element starts
        await page.getByRole('link', { name: 'The next page' }).first().click();
        await started(page, 'b');
        const next = await page.evaluate(textContrast, '#b >>> [data-el="status"]');
        assert(next.ratio >= 4.5, `the next page, slate: ${next.ratio.toFixed(2)}:1`);
      } finally {
        await site.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  for (const theme of ['black', 'white']) {
    test(`Reveal.js (${theme} theme): the widget on a slide under a heading fits it, reads, starts when shown, and answers the slider`, async ({ page, shot }) => {
      const dir = await mkdtemp(join(tmpdir(), 'ap-reveal-'));
      try {
        await cp(join(E2E_DIR, 'node_modules', 'reveal.js', 'dist'), join(dir, 'reveal'), { recursive: true });
        await cp(join(DIST, 'package'), join(dir, 'ablation-playground'), { recursive: true });
        await writeFile(
          join(dir, 'index.html'),
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>a deck</title>
<link rel="stylesheet" href="reveal/reveal.css"><link rel="stylesheet" href="reveal/theme/${theme}.css"></head>
<body><div class="reveal"><div class="slides">
<section><h2>Residuals and LayerNorm</h2></section>
<section><h3>Try it</h3><ablation-playground id="w" controls="depth,residual,norm,placement,task,play" panels="histogram,loss"></ablation-playground></section>
</div></div>
<script type="module">
import Reveal from './reveal/reveal.mjs';
import './ablation-playground/index.js';
window.deck = Reveal;
Reveal.initialize({ hash: false, transition: 'none' }).then(() => { window.deckReady = true; });
</script></body></html>`,
        );
        const deck = await startServer(dir);
        try {
          await page.setViewportSize({ width: 1280, height: 800 });
          await page.goto(`${deck.url}/`);
          await waitFor(page, () => window.deckReady, null, 'the deck did not start');
          await page.waitForTimeout(500);
          const before = await page.evaluate(() => document.getElementById('w').value?.step ?? 0);
          assert(before === 0, `the widget on the hidden slide trains already: step ${before}`);
          await page.evaluate(() => window.deck.next());
          await started(page, 'w');
          const fit = await page.evaluate(() => {
            // the slide itself, with its heading, inside the viewport and the slides' frame
            const present = document.querySelector('.reveal .slides section.present').getBoundingClientRect();
            const frame = document.querySelector('.reveal .slides').getBoundingClientRect();
            const slide = { top: Math.max(0, frame.top), bottom: Math.min(innerHeight, frame.bottom) };
            if (present.bottom > slide.bottom + 1 || present.top < slide.top - 1) return { over: [present.top, present.bottom, slide.top, slide.bottom] };
            const w = document.getElementById('w').getBoundingClientRect();
            // in the slide's own pixels (960 × 700): where the slide's content ends, and the rows of controls
            const own = document.querySelector('.reveal .slides');
            const section = document.querySelector('.reveal .slides section.present');
            const rows = new Set([...document.getElementById('w').shadowRoot.querySelectorAll('.ap-controls > *')]
              .filter((c) => c.offsetParent).map((c) => Math.round(c.offsetTop))).size;
            const ownFit = { end: section.offsetTop + section.offsetHeight, height: own.offsetHeight, rows };
            const canvases = [...document.getElementById('w').shadowRoot.querySelectorAll('canvas')]
              .filter((c) => c.getBoundingClientRect().width > 0)
              .map((c) => [c.width, c.height]);
            return { slide: [slide.top, slide.bottom, slide.left, slide.right], w: [w.top, w.bottom, w.left, w.right], canvases, ownFit };
          });
          await shot(`reveal-${theme}-fit`);
          assert(!fit.over, `the slide with its heading (top, bottom ${fit.over?.slice(0, 2).map(Math.round)}) overflows the view (${fit.over?.slice(2).map(Math.round)})`);
          assert(fit.w[1] <= fit.slide[1] + 1 && fit.w[0] >= fit.slide[0] - 1, `the widget (${fit.w.map(Math.round)}) overflows the slide (${fit.slide.map(Math.round)})`);
          assert(fit.canvases.length === 2 && fit.canvases.every(([cw, ch]) => cw > 100 && ch > 60), `two charts drawn at a size: ${JSON.stringify(fit.canvases)}`);
          assert(fit.ownFit.rows >= 2, `the widget shows ${fit.ownFit.rows} row(s) of controls; this test is of two or more`);
          assert(fit.ownFit.end <= fit.ownFit.height, `the slide's content ends at ${fit.ownFit.end} px of the slide's own ${fit.ownFit.height}`);
          await page.waitForTimeout(300);
          await shot(`reveal-${theme}`);
          const c = await page.evaluate(textContrast, '#w >>> [data-el="status"]');
          assert(c.ratio >= 4.5, `${theme}: the status line ${c.fg} on ${c.bg}, ${c.ratio.toFixed(2)}:1`);
          // the slider answers the mouse in the scaled slide: a click near its right end
          const slider = page.getByLabel('Depth');
          const box = await slider.boundingBox();
          await page.mouse.click(box.x + box.width * 0.9, box.y + box.height / 2);
          await waitFor(page, () => Number(document.getElementById('w').getAttribute('depth')) > 60, null,
            async () => `the slider did not follow the mouse: depth ${await page.evaluate(() => document.getElementById('w').getAttribute('depth'))}`);
        } finally {
          await deck.close();
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  }

  test('pandoc: the filter writes the element, its script and lesson steps in HTML, and a figure with its alt text elsewhere', async ({ page, problems }) => {
    const dir = await mkdtemp(join(tmpdir(), 'ap-pandoc-'));
    try {
      const filter = join(ROOT, '_extensions', 'ablation-playground', 'ablation-playground.lua');
      await writeFile(
        join(dir, 'lesson.md'),
        [
          '---',
          'title: A lesson',
          'ablation-playground:',
          '  src: ablation-playground/index.js',
          '---',
          '',
          'Some prose.',
          '',
          '::: {.ablation-playground #story preset=break-and-heal depth=6}',
          'Both switches off: the activations blow up.',
          ':::',
          '',
          'Now [turn LayerNorm on]{.ablation-step for=story set="norm=pre"} and see.',
          '',
          '[Scrolled to, residual on.]{.ablation-step for=story set="residual=on" when=visible}',
          '',
          '::: {.ablation-playground depth=24 residual=off figure=figures/named.svg alt="A figure the author named"}',
          ':::',
          '',
          '::: {.ablation-playground #heads preset=copy depth=2 panel=attention}',
          'Where the copy heads look.',
          ':::',
          '',
        ].join('\n'),
      );
      const pandoc = (args) => run(PANDOC, ['--lua-filter', filter, 'lesson.md', ...args], { cwd: dir }).then((r) => r.stdout);
      const html = await pandoc(['-s', '-t', 'html']);
      assert((html.match(/<script type="module" src="ablation-playground\/index.js"><\/script>/g) ?? []).length === 1, `one script tag: ${html}`);
      assert(html.includes('<ablation-playground id="story" preset="break-and-heal" depth="6">'), `the first element: ${html}`);
      assert(html.includes('<ablation-playground depth="24" residual="off">'), `the second, without the filter's own attributes: ${html}`);
      assert(html.replace(/\s+/g, ' ').includes('<button type="button" data-ablation-playground="story" data-set="norm=pre">turn LayerNorm on</button>'), `the lesson step: ${html}`);
      assert(html.replace(/\s+/g, ' ').includes('<span data-ablation-playground="story" data-set="residual=on" data-when="visible">Scrolled to, residual on.</span>'), `the step that applies when scrolled to: ${html}`);
      // other formats: the named figure, and one drawn by ablate from the attributes
      const ablate = join(ROOT, 'target', 'release', 'ablate');
      const plain = await pandoc(['-t', 'plain', '-M', `ablation-playground-ablate=${ablate}`]);
      assert(plain.includes('Both switches off: the activations blow up.') && plain.includes('A figure the author named'), `the alt texts: ${plain}`);
      assert(plain.includes('Now turn LayerNorm on and see.') && plain.includes('Scrolled to, residual on.'), `a lesson step is its words elsewhere: ${plain}`);
      const md = await pandoc(['-t', 'markdown', '-M', `ablation-playground-ablate=${ablate}`]);
      assert(md.includes('](figures/named.svg'), `the named figure: ${md}`);
      assert(md.includes('](ablation-figures/story/loss.svg'), `the drawn figure: ${md}`);
      const svg = await readFile(join(dir, 'ablation-figures', 'story', 'loss.svg'), 'utf8');
      assert(svg.startsWith('<svg') && svg.includes('training loss'), 'ablate drew the loss panel');
      // a div's own panel: the attention maps of the copy stack
      assert(md.includes('](ablation-figures/heads/attention.svg'), `the attention figure: ${md}`);
      const heads = await readFile(join(dir, 'ablation-figures', 'heads', 'attention.svg'), 'utf8');
      assert(heads.includes('where each position looks'), 'ablate drew the attention panel');
      assert(html.includes('<ablation-playground id="heads" preset="copy" depth="2">'), `panel= is the filter's own: ${html}`);
      // the HTML, served with the package, trains
      await cp(join(DIST, 'package'), join(dir, 'ablation-playground'), { recursive: true });
      await writeFile(join(dir, 'index.html'), html);
      const site = await startServer(dir);
      try {
        await page.goto(`${site.url}/`);
        await started(page, 'story');
        const v = await page.evaluate(() => document.getElementById('story').value);
        assert(v.depth === 6 && v.gain === 2.25, `the element took the div's attributes: ${JSON.stringify(v).slice(0, 200)}`);
        // the lesson step the filter wrote drives it
        // by keyboard: a click by position could land elsewhere while a widget below the
        // button grows as it starts
        await page.getByRole('button', { name: 'turn LayerNorm on' }).focus();
        await page.keyboard.press('Enter');
        await waitFor(page, () => document.getElementById('story').value?.norm === 'pre', null, 'the pandoc lesson step did not reach the element');
      } finally {
        // (the click scrolled the other elements into view, which start loading: leave first;
        // what leaving cuts short is the test's doing, not the widget's)
        const before = problems.length;
        await page.goto('about:blank').catch(() => {});
        for (let i = problems.length - 1; i >= before; i--) if (problems[i].includes(site.url) && /ERR_ABORTED/.test(problems[i])) problems.splice(i, 1);
        await site.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}
