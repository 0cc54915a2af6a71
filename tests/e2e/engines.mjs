// The other engines a reader has: Firefox ESR (Debian's `firefox-esr`, driven over WebDriver
// BiDi through puppeteer-core) and WebKitGTK, the engine of Safari (Debian's
// `webkit2gtk-driver`: `WebKitWebDriver` starts `MiniBrowser` under Xvfb, driven over classic
// WebDriver by the few requests below). Both give the same small page interface, so that
// smoke-tests.mjs runs one suite in each:
//
//   page.goto(url)                      loads and waits for `load`
//   page.evaluate(fnSource, arg)        runs `(fnSource)(arg)` in the page, awaits it, returns JSON
//   page.waitFor(fnSource, arg, ms)     until it returns something truthy; that value, or throws
//   page.press(fnSource, key)           focuses the element `(fnSource)()` returns, then presses
//                                       `key` ('ArrowRight', ' ') as the keyboard would
//   page.collectProblems()              console errors and uncaught exceptions so far (in WebKit,
//                                       whose classic WebDriver cannot listen to the console, from
//                                       listeners put in each page once it has loaded: what
//                                       happens while it loads is seen only as an error box)
//   engine.close()

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './lib.mjs';

export const FIREFOX = process.env.FIREFOX ?? '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = process.env.MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const XVFB = '/usr/bin/Xvfb';

/** Which engines this machine has, with what is missing for the others. */
export function available() {
  const missing = (paths) => paths.filter((p) => !existsSync(p));
  return [
    { name: 'firefox', missing: missing([FIREFOX]) },
    { name: 'webkit', missing: missing([WEBKIT_DRIVER, MINIBROWSER, XVFB]) },
  ];
}

export async function launch(name) {
  return name === 'firefox' ? launchFirefox() : launchWebKit();
}

const call = (fn, arg) => `(${fn})(${JSON.stringify(arg ?? null)})`;

/** What the page's playground shows, for a failure's message (lib.mjs's `seenNow`). */
const SEEN = `() => {
  const s = document.querySelector('[data-ap-root] [data-el="status"]')?.textContent;
  const v = window.ablationPlayground?.value;
  return { status: s, step: v?.step, task: v?.task, loss: v?.loss, val_loss: v?.val_loss, accuracy: v?.accuracy, floors: v?.floors, diverged_at: v?.diverged_at };
}`;

async function poll(evaluate, fn, arg, ms, what) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    try {
      last = await evaluate(fn, arg);
      if (last) return last;
    } catch (e) {
      last = `threw ${e.message}`;
    }
    if (Date.now() > end) {
      const seen = await evaluate(SEEN).catch((e) => `nothing could be read: ${e.message.split('\n')[0]}`);
      throw new Error(`${what ?? fn.slice(0, 120)}: not true within ${ms} ms (last: ${JSON.stringify(last)?.slice(0, 200)}; seen: ${JSON.stringify(seen)?.slice(0, 400)})`);
    }
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

async function launchFirefox() {
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
  const engine = {
    name: 'firefox',
    async newPage({ width = 1280, height = 900 } = {}) {
      const p = await browser.newPage();
      await p.setViewport({ width, height });
      const problems = [];
      p.on('console', (m) => m.type() === 'error' && problems.push(`console.error: ${m.text()}`));
      p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      const evaluate = (fn, arg) => p.evaluate(call(fn, arg));
      return {
        collectProblems: async () => problems,
        goto: (url) => p.goto(url, { waitUntil: 'load' }),
        evaluate,
        waitFor: (fn, arg, ms = 30_000, what) => poll(evaluate, fn, arg, ms, what),
        async press(fn, key) {
          await evaluate(fn.startsWith('(') || fn.startsWith('function') ? `() => (${fn})().focus()` : fn);
          await p.keyboard.press(key);
        },
        close: () => p.close(),
      };
    },
    close: () => browser.close(),
  };
  return engine;
}

/** Listeners for a page's console errors and uncaught exceptions, where the driver has none. */
const LISTEN = `() => {
  if (window.__apProblems) return;
  const problems = (window.__apProblems = []);
  const error = console.error.bind(console);
  console.error = (...args) => { problems.push('console.error: ' + args.join(' ')); error(...args); };
  addEventListener('error', (e) => problems.push('page error: ' + e.message));
  addEventListener('unhandledrejection', (e) => problems.push('unhandled rejection: ' + String(e.reason)));
}`;

/** Classic WebDriver's key codes for the keys the suite presses. */
const KEYS = { ArrowRight: '\uE014', ArrowLeft: '\uE012', ' ': '\uE00D', Enter: '\uE007' };

async function launchWebKit() {
  // a display no other server holds, and a wait for its socket: on a busy machine Xvfb took
  // longer than the half second this once waited, and MiniBrowser said "cannot open display"
  const free = [...Array(40).keys()].map((i) => 90 + i).filter((n) => !existsSync(`/tmp/.X${n}-lock`));
  const number = free[Math.floor(Math.random() * Math.min(free.length, 9))] ?? 99;
  const display = `:${number}`;
  const xvfb = spawn(XVFB, [display, '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
  for (let waited = 0; !existsSync(`/tmp/.X11-unix/X${number}`); waited += 100) {
    if (waited >= 15_000) throw new Error(`Xvfb did not open display ${display} in 15 s`);
    await new Promise((ok) => setTimeout(ok, 100));
  }
  const port = await freePort();
  const profile = await mkdtemp(join(tmpdir(), 'ap-webkit-'));
  // in a session of its own, as Playwright and Puppeteer start Chromium and Firefox: Linux's
  // scheduler shares the CPU between sessions first, and WebKit in the session of this script
  // (and of the benchmark's busy processes) had a third of what the others had (BENCHMARKS.md)
  const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, DISPLAY: display, XDG_RUNTIME_DIR: profile, WEBKIT_DISABLE_COMPOSITING_MODE: '1' },
    detached: true,
  });
  const killGroup = (signal) => {
    try {
      process.kill(-driver.pid, signal);
    } catch {
      // gone already
    }
  };
  process.once('exit', () => killGroup('SIGKILL'));
  let log = '';
  driver.stderr.on('data', (d) => (log = (log + d).slice(-2000)));
  const base = `http://127.0.0.1:${port}`;
  const request = async (method, path, body) => {
    const res = await fetch(base + path, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(`WebDriver ${method} ${path}: ${json.value?.error ?? res.status} ${json.value?.message ?? ''}`);
    return json.value;
  };
  for (let i = 0; i < 100; i++) {
    if (await fetch(`${base}/status`).then((r) => r.ok, () => false)) break;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  const sessions = [];
  const stop = async () => {
    for (const id of sessions.splice(0)) await request('DELETE', `/session/${id}`).catch(() => {});
    driver.kill('SIGTERM');
    killGroup('SIGTERM');
    xvfb.kill('SIGTERM');
    await rm(profile, { recursive: true, force: true });
  };
  return {
    name: 'webkit',
    async newPage({ width = 1280, height = 900 } = {}) {
      const session = await request('POST', '/session', {
        capabilities: {
          alwaysMatch: {
            'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
            'unhandledPromptBehavior': 'dismiss',
          },
        },
      }).catch((e) => {
        throw new Error(`${e.message} (driver: ${log.slice(-400)})`);
      });
      const id = session.sessionId;
      sessions.push(id);
      await request('POST', `/session/${id}/window/rect`, { width, height }).catch(() => {});
      await request('POST', `/session/${id}/timeouts`, { script: 120_000, pageLoad: 60_000 });
      const evaluate = async (fn, arg) => {
        const script =
          'const done = arguments[arguments.length - 1];' +
          `Promise.resolve().then(() => ${call(fn, arg)}).then((v) => done({ ok: v === undefined ? null : v }), (e) => done({ err: String(e && e.stack || e) }));`;
        const r = await request('POST', `/session/${id}/execute/async`, { script, args: [] });
        if (r && 'err' in r) throw new Error(r.err);
        return r?.ok;
      };
      const problems = [];
      const collect = async () => {
        const found = await evaluate('() => window.__apProblems?.splice(0) ?? []').catch(() => []);
        problems.push(...found);
        return problems;
      };
      return {
        collectProblems: collect,
        async goto(url) {
          await collect();
          await request('POST', `/session/${id}/url`, { url });
          await evaluate(LISTEN);
        },
        evaluate,
        waitFor: (fn, arg, ms = 30_000, what) => poll(evaluate, fn, arg, ms, what),
        async press(fn, key) {
          await evaluate(`() => (${fn})().focus()`);
          const value = KEYS[key] ?? key;
          await request('POST', `/session/${id}/actions`, {
            actions: [{ type: 'key', id: 'keyboard', actions: [{ type: 'keyDown', value }, { type: 'keyUp', value }] }],
          });
          await request('DELETE', `/session/${id}/actions`).catch(() => {});
        },
        async close() {
          await request('DELETE', `/session/${id}`).catch(() => {});
          sessions.splice(sessions.indexOf(id), 1);
        },
      };
    },
    close: stop,
  };
}
