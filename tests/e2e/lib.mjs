// Shared plumbing for the end-to-end tests (run.mjs) and the browser benchmark (bench.mjs):
// a tiny static server for dist/, one headless Chromium, pages that record every console
// error and uncaught exception, and small helpers that read the playground's state.

import { createServer } from 'node:http';
import { readFile, stat, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

// Paths are resolved from this file, so the scripts work from any working directory.
export const E2E_DIR = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(E2E_DIR, '..', '..');
// E2E_DIST serves another build of the page (e.g. one made with `trunk build --dist DIR`).
export const DIST = process.env.E2E_DIST ? resolve(process.env.E2E_DIST) : join(ROOT, 'dist');
export const ARTIFACTS = join(E2E_DIR, 'artifacts');

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves `dir` on 127.0.0.1 with an OS-assigned port. `/` and directories serve their
 * index.html; anything outside `dir` or missing is a 404. /favicon.ico is an empty 204 so
 * the browser's automatic favicon request does not log a console error.
 */
export async function startServer(dir = DIST) {
  if (!existsSync(join(dir, 'index.html'))) {
    throw new Error(
      `${dir}/index.html is missing: build the page first ` +
        '(source scripts/tools.sh && trunk build --release --offline)',
    );
  }
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    try {
      const pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (pathname === '/favicon.ico') {
        res.writeHead(204).end();
        return;
      }
      let file = normalize(join(root, pathname));
      if (file !== root && !file.startsWith(root + sep)) throw new Error('outside the root');
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': MIME[extname(file)] ?? 'application/octet-stream',
        'content-length': body.length,
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
    }
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', ok);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((ok) => server.close(ok)),
  };
}

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

export async function launchBrowser() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A fresh browser context and page (light colour scheme, motion allowed, unless told
 * otherwise). `problems` collects every console.error, uncaught
 * exception, unhandled rejection and failed or 4xx/5xx request, as text.
 */
export async function openPage(
  browser,
  { viewport = { width: 1280, height: 900 }, colorScheme = 'light', reducedMotion = 'no-preference', initScript } = {},
) {
  const context = await browser.newContext({ viewport, colorScheme, reducedMotion });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console.error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  if (initScript) await page.addInitScript(initScript);
  return { context, page, problems };
}

/** Loads `path` (e.g. '/?depth=12') and waits until the wasm handle exists and has spoken. */
export async function loadPlayground(page, baseUrl, path = '/') {
  await page.goto(baseUrl + path, { waitUntil: 'load' });
  await page.waitForFunction(() => window.ablationPlayground?.playground, null, { timeout: 30_000 });
  // The first animation frame writes the status line; until then it reads "Loading…".
  await page.waitForFunction(
    () => {
      const s = document.querySelector('[data-ap-root] [data-el="status"]');
      return s && s.textContent !== 'Loading…';
    },
    null,
    { timeout: 30_000 },
  );
}

/** The playground's stateJson(), parsed. */
export async function state(page) {
  return JSON.parse(await page.evaluate(() => window.ablationPlayground.playground.stateJson()));
}

/** Resolves after `n` animation frames have run (so any pending redraw has happened). */
export async function frames(page, n = 2) {
  await page.evaluate(
    (n) =>
      new Promise((done) => {
        const tick = (k) => (k === 0 ? done() : requestAnimationFrame(() => tick(k - 1)));
        tick(n);
      }),
    n,
  );
}

/** A short hash of a canvas's pixels (its PNG data URL). */
export async function canvasHash(page, dataEl) {
  const url = await page.evaluate(
    (name) => document.querySelector(`[data-ap-root] [data-el="${name}"]`).toDataURL('image/png'),
    dataEl,
  );
  return createHash('sha256').update(url).digest('hex').slice(0, 16);
}

/**
 * How many distinct colours a canvas shows, and its size. A blank (or uniformly filled)
 * canvas has at most one.
 */
export async function canvasColours(page, dataEl) {
  return page.evaluate((name) => {
    const c = document.querySelector(`[data-ap-root] [data-el="${name}"]`);
    if (!c.width || !c.height) return { width: c.width, height: c.height, colours: 0 };
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    for (let i = 0; i < data.length && seen.size < 64; i += 4) {
      seen.add((data[i] << 24) | (data[i + 1] << 16) | (data[i + 2] << 8) | data[i + 3]);
    }
    return { width: c.width, height: c.height, colours: seen.size };
  }, dataEl);
}

export async function ensureArtifacts() {
  await mkdir(ARTIFACTS, { recursive: true });
  return ARTIFACTS;
}

/** Median of a list of numbers. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
