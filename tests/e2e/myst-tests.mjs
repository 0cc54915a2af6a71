// MyST / Jupyter Book 2 as a host: the lesson in tests/hosts/myst/ (an `{anywidget}` directive
// naming the npm package's anywidget.js, a JSON body of the widget's properties), built by a
// real mystmd from the npm registry (installed by ensure_myst, tests/hosts/myst/ensure.sh,
// which exports AP_MYST_DIR).
//
// What runs offline and what does not: `myst build --html` needs the book theme, a Remix app
// that mystmd downloads from outside the npm registry, so it is not run. `myst build --site`
// is: it parses the directive and writes the page's AST (the JSON the theme renders), and it
// downloads the directive's module, as it would from jsDelivr, from this suite's server. The
// theme's own renderer of the node, @myst-theme/anywidget (from npm, with React), then runs in
// Chromium on a page of ours that stands in for the rest of the theme: it reads the built
// page's JSON and renders its anywidget nodes, on the theme's colours (@myst-theme/styles)
// with <html class="light|dark"> as the theme sets it. docs/embedding.md says the same.
//
// Registered into run.mjs's runner: a console error, an uncaught exception or a failed request
// fails a test here too.

import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { assert, test, waitFor } from './harness.mjs';
import { DIST, ROOT, startServer } from './lib.mjs';
import { textContrast } from './static-sites-tests.mjs';

/** The widget's status line, through the theme's shadow root and the element's. */
const STATUS = '.myst-anywidget >>> ablation-playground >>> [data-el="status"]';

const execFileP = promisify(execFile);
const MYST_DIR = process.env.AP_MYST_DIR ?? join(ROOT, 'tests', 'hosts', 'myst');
const MYST = join(MYST_DIR, 'node_modules', '.bin', 'myst');
/** The published package's address in lesson.md; the build reads our dist/package instead. */
const CDN = /https:\/\/cdn\.jsdelivr\.net\/npm\/ablation-playground@[^/\s]+\//g;
/** The directive's JSON body in lesson.md. */
const BODY = { depth: 6, residual: false, panels: 'histogram,loss' };

const temporary = [];
process.on('exit', () => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});
async function scratch(prefix) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}

/** The anywidget nodes of an AST, in document order. */
function anywidgets(tree, out = []) {
  if (tree?.type === 'anywidget') out.push(tree);
  for (const child of tree?.children ?? []) anywidgets(child, out);
  return out;
}

let building = null;
/**
 * The lesson built once per run by `myst build --site --strict`, in a copy of tests/hosts/myst
 * whose module address is this suite's server's dist/package instead of jsDelivr's, with two
 * pages the test adds: the module named by a path inside the project (the self-hosted form),
 * and a lesson step written as raw HTML. `--strict` fails the build on any warning or error (a
 * module it could not download, a body that is not JSON). The book theme is replaced by a
 * template.yml alone, so that mystmd does not ask the network for it (`--site` renders nothing
 * with it).
 */
function buildLesson(baseUrl) {
  // (the first page of the toc is the site's index: its JSON is content/index.json)
  building ??= (async () => {
    const dir = await scratch('ap-myst-');
    for (const f of ['myst.yml', 'lesson.md']) {
      let text = await readFile(join(MYST_DIR, f), 'utf8');
      if (f === 'lesson.md') text = text.replace(CDN, `${baseUrl}/package/`);
      if (f === 'myst.yml') text = text.replace('template: book-theme', 'template: ./offline-template').replace('- file: lesson.md', '- file: lesson.md\n    - file: self-hosted.md\n    - file: steps.md');
      await writeFile(join(dir, f), text);
    }
    await mkdir(join(dir, 'offline-template'));
    await writeFile(join(dir, 'offline-template', 'template.yml'), 'myst: v1\nkind: site\n');
    await cp(join(DIST, 'package'), join(dir, 'ablation-playground'), { recursive: true });
    await writeFile(join(dir, 'self-hosted.md'), `# Self-hosted\n\n\`\`\`{anywidget} ./ablation-playground/anywidget.js\n${JSON.stringify(BODY)}\n\`\`\`\n`);
    await writeFile(
      join(dir, 'steps.md'),
      '# A lesson step\n\n<button type="button" data-ablation-playground="p1" data-set="norm=pre" data-call="play">Turn LayerNorm on</button>\n',
    );
    // (asynchronous: this process's server answers mystmd's download meanwhile)
    await execFileP(MYST, ['build', '--site', '--strict'], { cwd: dir }).catch((e) => {
      throw new Error(`myst build --site --strict failed (${e.code}): ${`${e.stdout}\n${e.stderr}`.trim().slice(-1500)}`);
    });
    const site = join(dir, '_build', 'site');
    const page = async (slug) => JSON.parse(await readFile(join(site, 'content', `${slug}.json`), 'utf8'));
    return { site, lesson: await page('index'), selfHosted: await page('self-hosted'), steps: await page('steps') };
  })();
  building.catch(() => (building = null)); // a failed build is tried again by the next try
  return building;
}

let bundling = null;
/** tests/hosts/myst/theme-page.js (the theme's renderer, React) bundled once per run by Vite. */
function bundleThemePage() {
  bundling ??= (async () => {
    const out = await scratch('ap-myst-theme-');
    const { build } = await import('vite');
    await build({
      root: MYST_DIR,
      configFile: false,
      logLevel: 'silent',
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        outDir: out,
        emptyOutDir: true,
        target: 'esnext',
        minify: false,
        lib: { entry: join(MYST_DIR, 'theme-page.js'), formats: ['es'], fileName: () => 'theme-page.js' },
      },
    });
    return join(out, 'theme-page.js');
  })();
  bundling.catch(() => (bundling = null));
  return bundling;
}

/**
 * A MyST site as the theme serves it, from the build: the build's public files (the downloaded
 * module among them) at the root, the pages' JSON under content/, and our stand-in page that
 * runs the theme's renderer. Its <html> gets "light" or "dark" as the theme's blocking script
 * gives it (from prefers-color-scheme), and its body the theme's background, as its
 * `bg-myst-bg` class does, in the theme's own colour variables.
 */
async function serveSite(build) {
  const dir = await scratch('ap-myst-site-');
  await cp(join(build.site, 'public'), dir, { recursive: true });
  await cp(join(build.site, 'content'), join(dir, 'content'), { recursive: true });
  await cp(await bundleThemePage(), join(dir, 'theme-page.js'));
  await cp(join(MYST_DIR, 'node_modules', '@myst-theme', 'styles', 'theme-colors.css'), join(dir, 'theme-colors.css'));
  await writeFile(
    join(dir, 'index.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A MyST page</title>
<link rel="stylesheet" href="theme-colors.css">
<style>.bg-myst-bg { background-color: var(--myst-color-bg); } .prose { color: var(--myst-color-prose-body); max-width: 60rem; margin: 0 auto; font-family: system-ui, sans-serif; }</style>
<script>
  const theme = window.matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
  const classes = document.documentElement.classList;
  if (!classes.contains('light') && !classes.contains('dark')) classes.add(theme);
</script>
<script type="module" src="theme-page.js"></script></head>
<body class="m-0 bg-myst-bg"><article class="prose"></article></body></html>`,
  );
  return startServer(dir);
}

/** In the page: the widget the theme's renderer made (inside its shadow root), or null. */
function widgetInPage(n = 0) {
  const hosts = document.querySelectorAll('.myst-anywidget');
  return hosts[n]?.shadowRoot?.querySelector('ablation-playground') ?? null;
}

/** What the MyST page shows now, for a failure's message: the renderer's own error box (it
 *  says why a module failed to load), the widget's status line and readouts. */
async function mystSeen(page) {
  return page
    .evaluate(() => {
      const hosts = [...document.querySelectorAll('.myst-anywidget, [data-myst-node]')];
      const boxes = hosts.map((h) => h.textContent.trim()).filter(Boolean);
      const w = document.querySelector('.myst-anywidget')?.shadowRoot?.querySelector('ablation-playground');
      const status = w?.shadowRoot?.querySelector('[data-el="status"]')?.textContent;
      const v = w?.value;
      return `seen: ${JSON.stringify({ renderer: boxes.join(' | ').slice(0, 400) || null, widget: !!w, status, step: v?.step, depth: v?.depth, residual: v?.residual })}`;
    })
    .catch((e) => `nothing could be read: ${e.message.split('\n')[0]}`);
}

/** In the page: whether the theme's renderer shows its own box, "Failed to load anywidget
 *  module." (it does when the module's import fails). */
function loadFailedInPage() {
  return [...document.querySelectorAll('[data-myst-node] details')].some((d) => /Failed to load/.test(d.textContent));
}

/** Waits until the widget the theme's renderer made has trained a few steps, failing at once,
 *  with the renderer's words, if the module could not be loaded. */
async function trained(page, what) {
  await waitFor(page, ([f, g]) => (eval(`(${f})`)()?.value?.step ?? 0) > 3 || eval(`(${g})`)(), [widgetInPage.toString(), loadFailedInPage.toString()],
    async () => `${what} did not train under the theme's renderer: ${await mystSeen(page)}`, 30_000);
  assert(!(await page.evaluate(loadFailedInPage)), `the theme's renderer could not load the module of ${what}: ${await mystSeen(page)}`);
  const v = await page.evaluate((f) => eval(`(${f})`)().value, widgetInPage.toString());
  assert(v.depth === 6 && v.residual === 'off', `the body's properties set ${what}: depth ${v.depth}, residual ${v.residual}`);
}

export default function registerMystTests() {
  test('MyST: mystmd builds the {anywidget} directive offline into the node its theme renders: our module, downloaded as from jsDelivr, and the JSON body as the model; a self-hosted path is copied alone; a raw HTML lesson step does not survive', async ({ baseUrl }) => {
    const build = await buildLesson(baseUrl);
    const nodes = anywidgets(build.lesson.mdast);
    assert(nodes.length === 1, `lesson.md: one anywidget node, seen ${nodes.length}: ${JSON.stringify(build.lesson.mdast).slice(0, 300)}`);
    const [node] = nodes;
    assert(JSON.stringify(node.model) === JSON.stringify(BODY), `the node's model is the directive's body: ${JSON.stringify(node.model)}`);
    // mystmd downloads a module named by URL into the site (as it would from jsDelivr) and
    // names the copy instead: /<hash of the URL>.mjs
    assert(/^\/[0-9a-f]{32}\.mjs$/.test(node.esm), `the node names the site's copy of the module: esm ${JSON.stringify(node.esm)}`);
    const [copy, ours] = await Promise.all([readFile(join(build.site, 'public', node.esm.slice(1))), readFile(join(DIST, 'package', 'anywidget.js'))]);
    assert(copy.equals(ours), `the site's ${node.esm} is dist/package/anywidget.js (${copy.length} and ${ours.length} bytes)`);
    // the self-hosted form, a path inside the project: that one file is copied, under a hashed name
    const [own] = anywidgets(build.selfHosted.mdast);
    assert(/^\/anywidget-[0-9a-f]{32}\.js$/.test(own?.esm ?? '') && JSON.stringify(own.model) === JSON.stringify(BODY), `the self-hosted path becomes the site's copy: ${JSON.stringify(own)}`);
    const publicFiles = await readdir(join(build.site, 'public'));
    assert(!publicFiles.includes('schema.js') && !publicFiles.includes('ablation-playground_bg.wasm'), `only the module is copied, not the files beside it: ${publicFiles.join(', ')}`);
    // MyST turns raw HTML into its own AST: a <button> keeps its words and loses the element
    // and its data- attributes (and the theme renders no raw HTML)
    const steps = JSON.stringify(build.steps.mdast);
    assert(steps.includes('Turn LayerNorm on') && !steps.includes('data-ablation-playground') && !steps.includes('"button"'), `a raw HTML step's button is dropped, its words kept: ${steps.slice(0, 400)}`);
  });

  test('MyST: the theme\'s own anywidget renderer runs the built page\'s module: the widget trains with the body\'s properties, answers a control, follows the theme\'s dark and light modes, and goes when the page does', async ({ page, baseUrl, note, shot }) => {
    note('building the lesson with mystmd');
    const build = await buildLesson(baseUrl);
    note('bundling the theme\'s renderer');
    const site = await serveSite(build);
    try {
      note('loading the page');
      // the reader's system is dark (this test's colorScheme): the theme's blocking script
      // gives <html> "dark"
      await page.goto(`${site.url}/?page=index`);
      const seen = () => mystSeen(page);
      await waitFor(page, () => window.mystPage?.nodes === 1, null, async () => `the page did not render the lesson's anywidget node: ${await seen()}`, 20_000);
      note('waiting for the widget to train');
      await trained(page, 'the widget (the module downloaded as from jsDelivr)');
      const panels = await page.evaluate(
        (f) => [...eval(`(${f})`)().shadowRoot.querySelectorAll('[data-panel]')].filter((p) => p.checkVisibility()).map((p) => p.dataset.panel),
        widgetInPage.toString(),
      );
      assert(panels.join() === 'histogram,loss', `panels "histogram,loss" from the body: shown ${panels.join()}`);
      // the model holds the body's keys only: the others must read as not given, not as values
      const notice = await page.evaluate((f) => eval(`(${f})`)().shadowRoot.querySelector('[data-el="notice"]').textContent.trim(), widgetInPage.toString());
      assert(notice === '', `no notice of replaced values (the body's properties are valid; the model lacks the others): ${JSON.stringify(notice.slice(0, 300))}`);
      // dark: the theme's own colours behind it, and the widget reads on them
      assert((await page.evaluate(() => document.documentElement.className)) === 'dark', 'the theme\'s script set <html class="dark">');
      await waitFor(page, (f) => eval(`(${f})`)('.myst-anywidget >>> ablation-playground >>> [data-el="status"]').bgLum < 0.1, textContrast.toString(), async () => `dark mode: the widget is not dark: ${JSON.stringify(await page.evaluate(textContrast, STATUS))}`, 5000);
      const dark = await page.evaluate(textContrast, STATUS);
      assert(dark.ratio >= 4.5, `dark mode: the status line ${dark.fg} on ${dark.bg} reads at ${dark.ratio}:1`);
      await shot('myst-dark');
      // a control: the widget's Residual switch (a lesson step cannot be written in MyST)
      note('pressing Residual');
      await page.getByRole('switch', { name: 'Residual' }).click();
      await waitFor(page, (f) => eval(`(${f})`)().value?.residual === 'on', widgetInPage.toString(), async () => `the Residual switch did not turn the residual path on: ${await seen()}`);
      // the theme's toggle: <html class="light">
      note('switching the theme to light');
      await page.evaluate(() => (document.documentElement.className = 'light'));
      await waitFor(page, (f) => eval(`(${f})`)('.myst-anywidget >>> ablation-playground >>> [data-el="status"]').bgLum > 0.5, textContrast.toString(), async () => `light mode: the widget stayed dark: ${JSON.stringify(await page.evaluate(textContrast, STATUS))}`, 5000);
      // (the host's background turns first; the widget's text follows within a frame or two)
      await waitFor(page, (f) => eval(`(${f})`)('.myst-anywidget >>> ablation-playground >>> [data-el="status"]').ratio >= 4.5, textContrast.toString(),
        async () => `light mode: the status line reads at ${JSON.stringify(await page.evaluate(textContrast, STATUS))}`, 5000);
      await shot('myst-light');
      // the reader goes to another page: the theme unmounts the renderer, which calls the
      // cleanup that render() returned (one that throws, as MyST's model.off does, is a page
      // error, which fails the test)
      note('leaving the page');
      const element = await page.evaluateHandle(widgetInPage);
      await page.evaluate(() => window.mystUnmount());
      await waitFor(page, () => !document.querySelector('.myst-anywidget'), null, async () => `the widget stayed after the page went: ${await seen()}`);
      // the element is out of the document, which stops its worker (the cleanup render() returned
      // ran too: one that throws, as MyST's model.off does, is a page error)
      await waitFor(page, (e) => !e.isConnected, element, 'the cleanup did not remove the element');
    } finally {
      await site.close();
    }
  }, { timeoutMs: 90_000, colorScheme: 'dark' });

  test('MyST: the self-hosted form (a path inside the project, which mystmd copies alone) trains under the theme\'s renderer too', async ({ page, baseUrl, note }) => {
    note('building the lesson with mystmd');
    const build = await buildLesson(baseUrl);
    const site = await serveSite(build);
    try {
      await page.goto(`${site.url}/?page=self-hosted`);
      await trained(page, 'the self-hosted widget');
    } finally {
      await site.close();
    }
  });
}
