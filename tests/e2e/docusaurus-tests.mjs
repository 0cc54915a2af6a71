// End-to-end tests in a real Docusaurus 3 site (tests/hosts/docusaurus: MDX pages, the element
// registered by a client module), its dependencies installed from the npm registry by the test
// command (tests/hosts/docusaurus/ensure.sh, ensure_docusaurus). Each run copies the site,
// installs the widget's npm tarball (dist/ablation-playground-*.tgz, what `npm pack` makes of
// dist/package) into the copy with npm (--prefer-offline), as an author installs a package, builds it
// with `docusaurus build` (webpack, and the pages rendered on the server in Node) and serves
// the build: the widget trains, a lesson step written in MDX drives it, it follows Docusaurus's
// dark mode (data-theme="dark" on <html>, set by the navbar's toggle), and Docusaurus's
// client-side navigation starts the next page's widget.
//
// Registered into run.mjs's runner: a console error (React's hydration errors among them), an
// uncaught exception or a failed request fails a test here too.

import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { assert, test, waitFor } from './harness.mjs';
import { ROOT, packageTarball, startServer } from './lib.mjs';
import { canvasBackground, textContrast } from './static-sites-tests.mjs';

const run = promisify(execFile);
const SITE = process.env.AP_DOCUSAURUS_DIR ?? join(ROOT, 'tests', 'hosts', 'docusaurus');
// (the build is the longest part: about 40 s on two cores)
const TIMEOUT_MS = 240_000;

/** Runs a program, failing the test with what it printed if it fails. */
async function sh(what, file, args, options) {
  try {
    return await run(file, args, { maxBuffer: 64 << 20, ...options });
  } catch (e) {
    // eslint-disable-next-line no-control-regex
    const said = `${e.stdout ?? ''}\n${e.stderr ?? ''}`.replace(/\x1b\[[0-9;]*m/g, '').trim().split('\n').slice(-40).join('\n');
    assert(false, `${what} failed (${e.code ?? e.signal ?? e.message}):\n${said}`);
  }
}

const made = new Set();
process.on('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

let built = null;
/** The site copied, the tarball installed into it and the site built: once a run, for both
 *  tests (a build that failed fails them both, and their retries, at once: no second build). */
function buildSite(note) {
  built ??= (async () => {
    const tgz = await packageTarball();
    const dir = await mkdtemp(join(tmpdir(), 'ap-docusaurus-'));
    made.add(dir);
    note('copying the Docusaurus site');
    for (const name of await readdir(SITE)) {
      if (!['node_modules', 'build', '.docusaurus'].includes(name)) await cp(join(SITE, name), join(dir, name), { recursive: true });
    }
    // Its installed dependencies, hard-linked (quick: 30 000 files) where the file system allows.
    // npm rewrites node_modules/.package-lock.json in place, so that one is a copy of its own,
    // and the copy starts with no build cache.
    await run('cp', ['-al', join(SITE, 'node_modules'), join(dir, 'node_modules')]).catch(async () => {
      await rm(join(dir, 'node_modules'), { recursive: true, force: true });
      await sh('copying node_modules', 'cp', ['-a', join(SITE, 'node_modules'), join(dir, 'node_modules')]);
    });
    await rm(join(dir, 'node_modules', '.package-lock.json'), { force: true });
    await cp(join(SITE, 'node_modules', '.package-lock.json'), join(dir, 'node_modules', '.package-lock.json'));
    await rm(join(dir, 'node_modules', '.cache'), { recursive: true, force: true });
    note('installing the tarball');
    await sh(`npm install --prefer-offline ${tgz}`, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-update-notifier', '--loglevel=error', tgz], { cwd: dir });
    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    assert(pkg.dependencies['ablation-playground']?.endsWith('.tgz'), `npm did not add the tarball to the site's dependencies: ${JSON.stringify(pkg.dependencies)}`);
    note('docusaurus build');
    await sh('docusaurus build', join(dir, 'node_modules', '.bin', 'docusaurus'), ['build'], {
      cwd: dir,
      env: { ...process.env, NO_UPDATE_NOTIFIER: '1', NO_COLOR: '1' },
    });
    return { dir, build: join(dir, 'build') };
  })();
  return built;
}

const started = (page, id) =>
  waitFor(page, (i) => (document.getElementById(i)?.value?.step ?? 0) > 2, id, `#${id} did not start training`, 30_000);

/** The contrast of the widget `#id`'s status line, asserted at least 4.5:1. */
async function readable(page, id, where) {
  const c = await page.evaluate(textContrast, `#${id} >>> [data-el="status"]`);
  assert(c.ratio >= 4.5, `${where}: #${id}'s status line ${c.fg} on ${c.bg}, ${c.ratio.toFixed(2)}:1`);
  return c;
}

export default function registerDocusaurusTests() {
  test(
    'Docusaurus 3: the tarball installed builds with SSR; the MDX page trains, its lesson step drives it, and it follows the dark mode toggle',
    async ({ page, note, shot }) => {
      const { build } = await buildSite(note);
      // the element and the step, rendered on the server as the MDX writes them
      const html = await readFile(join(build, 'index.html'), 'utf8');
      assert(html.includes('<ablation-playground id="p" depth="6" panels="histogram,loss"></ablation-playground>'), `the server-rendered element: ${html.match(/<ablation-playground[^>]*>/)?.[0] ?? 'none'}`);
      assert(
        html.includes('<button type="button" data-ablation-playground="p" data-set="residual=off" data-call="play">Turn the residual off</button>'),
        `the server-rendered lesson step: ${html.match(/<button[^>]*data-ablation[^>]*>[^<]*/)?.[0] ?? 'none'}`,
      );
      const site = await startServer(build);
      try {
        note('the lesson page');
        await page.goto(`${site.url}/`);
        await started(page, 'p');
        const v = await page.evaluate(() => document.getElementById('p').value);
        assert(v.depth === 6 && v.residual === 'on', `the element took the MDX's attributes: ${JSON.stringify(v).slice(0, 200)}`);
        const light = await readable(page, 'p', 'light mode');
        assert(light.bgLum > 0.5, `light mode: the status line sits on ${light.bg}`);
        await shot('docusaurus-light');

        note('the lesson step');
        await page.getByRole('button', { name: 'Turn the residual off' }).click();
        await waitFor(page, () => document.getElementById('p').value?.residual === 'off', null,
          async () => `the lesson step did not turn the residual off: ${JSON.stringify(await page.evaluate(() => document.getElementById('p').value?.residual))}`);
        const at = await page.evaluate(() => document.getElementById('p').value.step);
        await waitFor(page, (s) => document.getElementById('p').value.step > s + 2, at, `after the lesson step the widget did not play on from step ${at}`);

        note('dark mode');
        // the reader clicks the navbar's toggle: Docusaurus sets data-theme="dark" on <html>
        await page.getByRole('button', { name: /Switch between dark and light mode/ }).click();
        await waitFor(page, () => document.documentElement.dataset.theme === 'dark', null,
          async () => `the toggle did not turn the site dark: data-theme=${await page.evaluate(() => document.documentElement.dataset.theme)}`);
        const probe = textContrast.toString();
        await waitFor(page, (f) => eval(`(${f})`)('#p >>> [data-el="status"]').bgLum < 0.1, probe,
          async () => `the widget did not turn dark with the site: ${JSON.stringify(await page.evaluate(textContrast, '#p >>> [data-el="status"]'))}`, 5000);
        await waitFor(page, (f) => eval(`(${f})`)('#p >>> [data-el="status"]').ratio >= 4.5, probe,
          async () => `dark mode: the status line reads at ${JSON.stringify(await page.evaluate(textContrast, '#p >>> [data-el="status"]'))}`, 5000);
        const dark = await readable(page, 'p', 'dark mode');
        const fgLum = dark.fg.slice(0, 3).reduce((a, c) => a + c, 0) / 3;
        assert(fgLum > 128, `dark mode: the status text is not light: ${dark.fg} on ${dark.bg}`);
        for (const inner of ['[data-el="caption"]', '[data-control="depth"] label']) {
          const c = await page.evaluate(textContrast, `#p >>> ${inner}`);
          assert(c.ratio >= 4.5, `dark mode: ${inner} ${c.fg} on ${c.bg}, ${c.ratio.toFixed(2)}:1`);
        }
        await waitFor(page, (f) => eval(`(${f})`)('#p >>> [data-el="loss"]') < 0.2, canvasBackground.toString(), 'dark mode: the charts stay light', 5000);
        // (the widget's top just under Docusaurus's fixed navbar)
        await page.evaluate(() => scrollTo(0, document.getElementById('p').getBoundingClientRect().top + scrollY - 80));
        await shot('docusaurus-dark');
      } finally {
        await site.close();
      }
    },
    { timeoutMs: TIMEOUT_MS },
  );

  test(
    'Docusaurus 3: client-side navigation to the next MDX page starts its widget, and back again',
    async ({ page, note }) => {
      const { build } = await buildSite(note);
      const site = await startServer(build);
      try {
        await page.goto(`${site.url}/`);
        await started(page, 'p');
        note('a link to the next page');
        await page.evaluate(() => (window.apSamePage = true)); // (gone if the link reloaded the page)
        await page.getByRole('link', { name: 'the next page' }).click();
        await waitFor(page, () => location.pathname === '/next' && !document.getElementById('p'), null,
          async () => `the link did not lead to /next without a reload: ${await page.evaluate(() => location.pathname)}`);
        assert(await page.evaluate(() => window.apSamePage === true), 'the link reloaded the page: Docusaurus did not navigate client-side');
        await started(page, 'q');
        const q = await page.evaluate(() => document.getElementById('q').value);
        assert(q.depth === 4, `the next page's element took its attributes: ${JSON.stringify(q).slice(0, 200)}`);
        await readable(page, 'q', 'the next page');
        note('back');
        await page.goBack();
        await started(page, 'p');
        assert(await page.evaluate(() => !document.getElementById('q')), 'the next page\'s element is still in the page');
      } finally {
        await site.close();
      }
    },
    { timeoutMs: TIMEOUT_MS },
  );
}
