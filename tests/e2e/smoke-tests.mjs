// The smoke suite in the engines other than Chromium: Firefox ESR and WebKitGTK (engines.mjs).
// run.mjs runs the whole suite in Chromium; this one runs, in each other engine, what a reader
// of a lesson meets first: the page training in a worker, the example lesson's elements, the
// docs' authoring page with its lesson steps, the element under a strict Content-Security-Policy from another origin (and so
// in a Spanish host page, re-worded by its lang attribute), the text and copy tasks,
// All four, a pin and a copied link, the keyboard on the slider and the switches, a host theme
// toggled at run time, the notebook's module loaded from a blob: URL, and the induction task
// with the lens's panels and Depth or width, a reader's own text, prompt and downloads, a
// split step shared with a helper worker, and the live worker's turns (WebKit's on its own loop).
// Its tests are registered and run by the harness every suite uses (harness.mjs): a test that
// fails is tried once more and, if it then passes, reported FLAKY, which fails the run.
//
//   node tests/e2e/smoke-tests.mjs [firefox] [webkit]     (both by default)
//
// An engine whose programs are missing fails, naming them (scripts/test.sh installs them).
// Every test also fails on a visible error box, and on any console error or uncaught exception
// (in WebKit, whose classic WebDriver cannot listen to the console, those after each page
// has loaded: engines.mjs).

import { available, launch } from './engines.mjs';
import { AssertionError, assert, finish, noCounts, registered, runEach, test } from './harness.mjs';
import { ablate, TEST_PAGES, frontEnd, startServer, strictCsp } from './lib.mjs';

const only = new Set(process.argv.slice(2).filter((a) => !a.startsWith('-')));
/** A smoke test's time, unless it says another: the other engines are slower than Chromium. */
const SMOKE_TIMEOUT_MS = 90_000;

/** The live widget's `.value` on the playground page. */
const VALUE = '() => window.ablationPlayground?.value';
const inRoot = (el) => `() => document.querySelector('[data-ap-root] [data-el="${el}"]')`;
/** Clicks the playground page's button named `name`. */
const click = (page, name) =>
  page.evaluate(`(name) => [...document.querySelectorAll('[data-ap-root] button')].find((b) => b.textContent.trim() === name).click()`, name);

test('the page trains in a worker', async ({ page, url }) => {
  await page.goto(url('/'));
  const s = await page.waitFor('() => (window.ablationPlayground?.playground?.step ?? 0) > 50 && window.ablationPlayground.playground', null, 30_000, 'the page did not train');
  assert(s.mode === 'worker', `the live run trains in a worker, not ${s.mode}`);
  const status = await page.evaluate(`() => document.querySelector('[data-ap-root] [data-el="status"]').textContent`);
  assert(/^12 layers · Residual ON · LayerNorm ON \(pre\) · act\. std = /.test(status), `the status line: ${status}`);
});

test("the live worker's turns: WebKit's do not wait for the page's thread", async ({ page, url, engine }) => {
  // every fifth turn of the loop is a channel's message or, where those come late, a digest's
  // reply (engine.js turnTaker); in WebKit a worker's channel message waits while the page draws
  await page.goto(url('/'));
  const t = await page.waitFor('() => { const t = window.ablationPlayground?.playground?.timings; return Number.isFinite(t?.turnLate?.channel) && t; }', null, 30_000, 'the live worker did not time its turns');
  const seen = `kept ${t.turns}; late on average: the channel's ${t.turnLate.channel} ms, the digest's ${t.turnLate.digest} ms`;
  if (engine === 'webkit') {
    const tried = await page.waitFor('() => { const t = window.ablationPlayground.playground.timings; return Number.isFinite(t.turnLate.digest) && t; }', null, 30_000, `WebKit did not try the digest's turns (${seen})`);
    const now = `kept ${tried.turns}; late on average: the channel's ${tried.turnLate.channel} ms, the digest's ${tried.turnLate.digest} ms`;
    assert(tried.turns === 'digest' && tried.turnLate.digest < tried.turnLate.channel, `WebKit's turns: ${now}`);
  } else {
    // elsewhere either way may be kept, but never the one whose turns came later
    const late = t.turnLate;
    assert(t.turns === 'channel' ? !(late.digest < late.channel - 0.1) : late.digest <= late.channel + 0.1, `${engine}'s turns: ${seen}`);
  }
});

test("the example lesson's elements train, and its buttons drive them", async ({ page, url }) => {
  await page.goto(url('/www/lesson.html'));
  await page.waitFor("() => document.querySelectorAll('ablation-playground').length === 10 && (document.getElementById('four').value?.step ?? 0) > 5", null, 30_000, 'the lesson\'s first element did not train');
  await page.evaluate("() => [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === '2. LayerNorm on').click()");
  await page.waitFor("() => document.getElementById('four').value?.norm === 'pre'", null, 10_000, 'the prose button did not reach the element');
});

test("the docs' authoring page (MkDocs Material): its playground trains and a lesson step drives it", async ({ page, url }) => {
  await page.goto(url('/docs/authoring.html'));
  await page.evaluate("() => document.getElementById('story').scrollIntoView()");
  await page.waitFor("() => (document.getElementById('story')?.value?.step ?? 0) > 5", null, 30_000, "the docs' playground did not train");
  await page.evaluate("() => [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === '3. Residual on too').click()");
  await page.waitFor("() => { const v = document.getElementById('story').value; return v?.norm === 'pre' && v.residual === 'on'; }", null, 10_000, 'the step did not reach the playground');
});

test('the element under a strict Content-Security-Policy, from another origin', async ({ page, server }) => {
  const host = await startServer();
  try {
    // the favicon from the widget's origin, which the policy allows (Firefox asks the host's
    // /favicon.ico otherwise, and reports the policy's refusal as an error)
    const head = `<meta http-equiv="Content-Security-Policy" content="${strictCsp(server.url)}"><link rel="icon" href="${server.url}/www/favicon.svg">`;
    TEST_PAGES.set('/__test/smoke-csp.html', () =>
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>csp</title>${head}` +
      `<script type="module" src="${server.url}/www/ablation-playground.js"></script></head>` +
      '<body><ablation-playground id="w" depth="6" panels="histogram,loss"></ablation-playground></body></html>');
    await page.goto(`${host.url}/__test/smoke-csp.html`);
    await page.waitFor("() => (document.getElementById('w').value?.step ?? 0) > 20", null, 30_000, 'the element did not train under the CSP');
  } finally {
    await host.close();
  }
});

test('a Spanish host page from another origin, under a strict Content-Security-Policy: the element speaks Spanish, and its lang attribute re-words it', async ({ page, server }) => {
  const host = await startServer();
  try {
    const head = `<meta http-equiv="Content-Security-Policy" content="${strictCsp(server.url)}"><link rel="icon" href="${server.url}/www/favicon.svg">`;
    TEST_PAGES.set('/__test/smoke-es.html', () =>
      `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>lección</title>${head}` +
      `<script type="module" src="${server.url}/www/ablation-playground.js"></script></head>` +
      '<body><ablation-playground id="w" depth="6" panels="histogram,loss"></ablation-playground></body></html>');
    await page.goto(`${host.url}/__test/smoke-es.html`);
    const status = "() => document.getElementById('w').shadowRoot.querySelector('[data-el=\\'status\\']')?.textContent ?? ''";
    await page.waitFor(`() => /^6 capas · Residual SÍ · LayerNorm SÍ \\(pre\\) · desv\\. típ\\. act\\. = \\d+,\\d+ · pérdida \\d+,\\d+ · paso \\d+/.test((${status})())`, null, 30_000,
      'the status line is not in Spanish');
    await page.evaluate("() => document.getElementById('w').setAttribute('lang', 'zh')");
    await page.waitFor(`() => /^6 层 · 残差 开 · /.test((${status})())`, null, 10_000, 'the lang attribute did not re-word it');
  } finally {
    await host.close();
  }
});

test('the text task fetches its text, trains and writes', async ({ page, url }) => {
  await page.goto(url('/?preset=text'));
  const v = await page.waitFor(`() => { const v = window.ablationPlayground?.value; return v && v.val_loss < 3.0 && v.sample && v; }`, null, 80_000, 'the text task did not get below 3.0 held-out');
  // (once, in WebKit, bigram read null here: a non-finite floor. Not reproduced in 65 runs since;
  // the message says more should it come back)
  const floorsAgain = await page.evaluate('() => window.ablationPlayground.value.floors');
  assert(v.floors?.bigram > 2.4 && v.floors.bigram < 2.5,
    `the floors: ${JSON.stringify(v.floors)} at step ${v.step} (task ${v.task}, held-out ${v.val_loss}); read again: ${JSON.stringify(floorsAgain)}`);
}, { timeoutMs: 100_000 });

test("a reader's text, pasted then dropped, trains; a prompt is continued; the run and its weights download", async ({ page, url }) => {
  await page.goto(url('/?preset=text&depth=2&steps=60'));
  await page.waitFor('() => window.ablationPlayground?.value?.finished', null, 60_000, 'the plays run did not finish');
  // the downloads' files, as the page makes them (a headless engine may not save them)
  await page.evaluate(`() => { window.__saved = []; const make = URL.createObjectURL; URL.createObjectURL = (b) => { window.__saved.push(b); return make.call(URL, b); }; }`);
  const text = 'a reader brings a text of their own to the playground, and it learns it. '.repeat(40);
  await page.evaluate(`(text) => { const root = document.querySelector('[data-ap-root]'); root.querySelector('[data-el="text-paste"]').value = text; root.querySelector('[data-el="text-use"]').click(); }`, text);
  await page.waitFor(`() => /\\.2920\\./.test(window.ablationPlayground.value?.text_id ?? '')`, null, 30_000, 'the pasted text was not trained on');
  await page.evaluate(`(text) => { const dt = new DataTransfer(); dt.items.add(new File([text], 'dropped.txt', { type: 'text/plain' })); const root = document.querySelector('[data-ap-root]'); root.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true })); }`, text.slice(0, 1500));
  await page.waitFor(`() => /\\.1500\\./.test(window.ablationPlayground.value?.text_id ?? '')`, null, 30_000, 'the dropped text was not trained on');
  await page.waitFor('() => window.ablationPlayground.value.finished', null, 60_000, 'the run on the dropped text did not finish');
  await page.evaluate(`() => { const root = document.querySelector('[data-ap-root]'); root.querySelector('[data-el="prompt"]').value = 'a reader'; root.querySelector('[data-el="prompt-form"]').requestSubmit(); }`);
  const said = await page.waitFor(`() => document.querySelector('[data-ap-root] [data-el="prompt-said"]').textContent || null`, null, 30_000, 'the prompt was not continued');
  assert(/^It continued your prompt: .{200}$/s.test(said), `the continuation: ${JSON.stringify(said)}`);
  for (const name of ['The run (JSON)', 'Weights (safetensors)']) await click(page, name);
  const saved = await page.waitFor(`async () => { const s = window.__saved; if (s.length < 2) return null; return [JSON.parse(await s[0].text()).config.text_id, new Uint8Array(await s[1].arrayBuffer()).length]; }`, null, 30_000, 'the files were not made');
  assert(/\.1500\./.test(saved[0]) && saved[1] > 50_000, `the JSON names the text, the weights have their bytes: ${saved}`);
}, { timeoutMs: 120_000 });

test('the copy task copies', async ({ page, url }) => {
  await page.goto(url('/?preset=copy'));
  await page.waitFor(`() => (window.ablationPlayground?.value?.accuracy ?? 0) > 0.9`, null, 80_000, 'the copy task did not copy 90%');
}, { timeoutMs: 100_000 });

test('the encoder-decoder preset writes strings back reversed, its cross-attention reading the mirrored position', async ({ page, url }) => {
  await page.goto(url('/?preset=encoder-decoder&attention_layer=5'));
  await page.waitFor(`() => (window.ablationPlayground?.value?.accuracy ?? 0) >= 0.95`, null, 60_000, 'the encoder-decoder preset did not copy 95% of the reversed strings');
  await page.waitFor(`() => window.ablationPlayground.value.attention?.kind === 'cross' && window.ablationPlayground.value.attention.heads.some((h) => h.answer_share > 0.5)`, null, 30_000, 'no cross-attention head reads the mirrored position');
  const status = await page.evaluate(`() => document.querySelector('[data-ap-root] [data-el="status"]').textContent`);
  assert(/ · 2 encoder \+ 2 decoder layers · /.test(status), `the status line: ${status}`);
}, { timeoutMs: 100_000 });

test('a split step shared with a helper worker, on its port or through the page, has the bits of ablate --shards', async ({ page, url }) => {
  const steps = 60;
  const args = ['--depth', '8', '--width', '64', '--tokens', '128', '--shards', '2', '--steps', String(steps), '--threads', '1'];
  const cli = await ablate(args, { timeout: 60_000 });
  // (through the page: where a port between two workers copies what it carries, Firefox)
  for (const always of [true, 'relayed']) {
    await page.goto(url(`/?depth=8&width=64&tokens=128&shards=2&steps=${steps}&autoplay=off`));
    await page.waitFor(`() => window.ablationPlayground?.playground?.settled`, null, 30_000, 'the page did not start');
    await page.evaluate(`() => window.ablationPlayground.playground.stepWorkers(2, ${JSON.stringify(always)})`);
    await page.waitFor(`() => window.ablationPlayground.playground.workers.helpers.length === 1`, null, 30_000, 'no helper was started');
    await click(page, 'Play');
    const v = await page.waitFor(`() => window.ablationPlayground.value?.finished && window.ablationPlayground.value`, null, 60_000, 'the run did not finish');
    const t = await page.evaluate(`() => window.ablationPlayground.playground.timings`);
    const seen = `${always === true ? 'on its port' : 'through the page'}: loss ${v.loss} at step ${v.step}, ablate ${cli.loss[steps - 1]}; timings ${JSON.stringify(t)}`;
    assert(v.step === steps && Object.is(v.loss, cli.loss[steps - 1]), seen);
    assert(t.helped > 0 && (always === 'relayed') === (t.relayed > 0), `the helper answered shards, the way asked: ${seen}`);
  }
});

test('All four fills its table, a pin is kept, and a copied link brings it back', async ({ page, url }) => {
  await page.goto(url('/?depth=6&width=16&tokens=8&steps=200'));
  await page.waitFor(`() => window.ablationPlayground?.value?.finished`, null, 30_000, 'the run did not finish its 200 steps');
  await click(page, 'All four');
  const compare = await page.waitFor(`() => { const c = window.ablationPlayground.value.compare; return c?.runs.every((r) => r.done) && c; }`, null, 60_000, 'All four did not finish');
  assert(compare.runs.length === 4, `four rows: ${compare.runs.length}`);
  const rows = await page.evaluate(`() => document.querySelectorAll('[data-ap-root] [data-el="compare-table"] tbody tr').length`);
  assert(rows === 4, `the table has ${rows} rows`);
  await click(page, 'Pin');
  await page.waitFor(`() => window.ablationPlayground.value.pins?.length === 1`, null, 10_000, 'the pin was not kept');
  const link = await page.evaluate('() => window.ablationPlayground.link()');
  assert(/pin=/.test(link), `the link carries the pin: ${link}`);
  await page.goto(link);
  const pins = await page.waitFor(`() => { const p = window.ablationPlayground?.value?.pins; return p?.length === 1 && p[0].done && p; }`, null, 30_000, 'the link did not bring the pin back');
  assert(pins[0].step === 200, `the pin is at step 200: ${JSON.stringify(pins[0]).slice(0, 120)}`);
});

test('the keyboard moves the slider and flips the switches', async ({ page, url }) => {
  await page.goto(url('/'));
  await page.waitFor(`() => window.ablationPlayground?.value?.step > 0`, null, 30_000);
  await page.press(inRoot('depth'), 'ArrowRight');
  await page.waitFor(`() => window.ablationPlayground.value.depth === 13`, null, 5000, 'ArrowRight on the slider did not give depth 13');
  await page.press(inRoot('residual'), ' ');
  await page.waitFor(`() => window.ablationPlayground.value.residual === 'off'`, null, 5000, 'Space on the Residual switch did not turn it off');
  await page.press(inRoot('layernorm'), ' ');
  await page.waitFor(`() => window.ablationPlayground.value.norm === 'off'`, null, 5000, 'Space on the LayerNorm switch did not turn it off');
});

test('the element follows a host theme toggled at run time', async ({ page, url }) => {
  TEST_PAGES.set('/__test/smoke-theme.html', () =>
    '<!doctype html><html lang="en" style="background: #fff; color: #111"><head><meta charset="utf-8"><title>theme</title>' +
    '<script type="module" src="/www/ablation-playground.js"></script></head>' +
    '<body><ablation-playground id="w" depth="4" panels="loss"></ablation-playground></body></html>');
  await page.goto(url('/__test/smoke-theme.html'));
  const lightness = `() => {
    const s = document.getElementById('w').shadowRoot?.querySelector('[data-el="status"]');
    if (!s || !s.textContent.includes('layers')) return null;
    const [r, g, b] = getComputedStyle(s).color.match(/[0-9.]+/g).map(Number);
    return (r + g + b) / 3;
  }`;
  const before = await page.waitFor(lightness, null, 30_000, 'the element did not start');
  assert(before < 100, `dark text on the light host: ${before}`);
  await page.evaluate("() => Object.assign(document.documentElement.style, { background: '#111', color: '#eee', colorScheme: 'dark' })");
  await page.waitFor(`() => (${lightness})() > 180`, null, 5000, 'the text did not turn light on the dark host');
});

test("the notebook's module loads from a blob: URL and trains", async ({ page, url }) => {
  const esm = await frontEnd();
  TEST_PAGES.set('/__test/smoke-notebook.html', () => '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>nb</title></head><body><div id="out"></div></body></html>');
  await page.goto(url('/__test/smoke-notebook.html'));
  await page.evaluate(`async ({ esm, schemaUrl }) => {
    const { PARAMS } = await import(schemaUrl);
        const state = { preset: '', pinned: '', controls: null, panels: 'histogram,loss', autoplay: true, value: {} };
    for (const p of PARAMS) state[p.name] = p.switch ? p.default === 'on' : ['int', 'float', 'seed'].includes(p.kind) ? Number(p.default) : p.default;
    Object.assign(state, { depth: 5 });
    const handlers = {};
    const model = { get: (k) => state[k], set: (k, v) => { state[k] = v; }, on: (e, h) => (handlers[e] ??= []).push(h), off: () => {}, save_changes() {}, send() {} };
    const widget = (await import(URL.createObjectURL(new Blob([esm], { type: 'text/javascript' })))).default;
    await widget.render({ model, el: document.getElementById('out') });
  }`, { esm, schemaUrl: url('/www/schema.js') });
  const v = await page.waitFor("() => { const v = document.querySelector('#out ablation-playground')?.value; return v?.step > 3 && v; }", null, 30_000, "the notebook's widget did not train");
  assert(v.depth === 5, `the model's trait set the depth: ${v.depth}`);
});

test('the induction task with its lens panels drawn, and Depth or width starting', async ({ page, url }) => {
  await page.goto(url('/?preset=induction'));
  await page.waitFor(`() => (window.ablationPlayground?.value?.accuracy ?? 0) > 0.9`, null, 60_000, 'the induction preset did not repeat 90%');
  // the panels' canvases hold a drawing: more than one colour in their pixels
  const drawn = await page.evaluate(`() => ['readout', 'attention', 'loss'].map((name) => {
    const c = document.querySelector('[data-ap-root] [data-panel="' + name + '"] canvas');
    if (!c || !c.width) return name + ': no canvas';
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    for (let i = 0; i < d.length; i += 4 * 97) colours.add(d[i] * 65536 + d[i + 1] * 256 + d[i + 2]);
    return colours.size > 3 ? '' : name + ': blank';
  }).filter(Boolean)`);
  assert(!drawn.length, `panels drawn: ${drawn.join(', ')}`);
  await click(page, 'Depth or width');
  await page.waitFor(`() => (window.ablationPlayground.value.depth_width?.runs?.length ?? 0) > 0`, null, 20_000, 'Depth or width did not start');
});

/** One try of test `t` on a new page: `{ error }` (a message, or null) and its seconds. */
/** One try of test `t` on a fresh page of `engine`: null, or the error. */
async function runSmoke(engine, server, t, name) {
  const page = await engine.newPage();
  const ms = t.timeoutMs ?? SMOKE_TIMEOUT_MS;
  let timer;
  try {
    const body = t.fn({ page, server, url: (path) => server.url + path, engine: name });
    body.catch(() => {}); // if the timeout wins, the body's later rejection is expected
    const timeout = new Promise((_, fail) => (timer = setTimeout(() => fail(new AssertionError(`timed out after ${ms / 1000} s`)), ms)));
    await Promise.race([body, timeout]);
    const error = await page.evaluate("() => [...document.querySelectorAll('[data-ap-root] .ap-error:not([hidden])'), ...[...document.querySelectorAll('ablation-playground')].flatMap((e) => [...(e.shadowRoot?.querySelectorAll('.ap-error:not([hidden])') ?? [])])].map((e) => e.textContent).join(' | ')");
    assert(!error, `an error box shows: ${error}`);
    const problems = await page.collectProblems();
    assert(!problems.length, problems.join('; '));
    return null;
  } catch (e) {
    return e;
  } finally {
    clearTimeout(timer);
    await page.close().catch(() => {});
  }
}

async function main() {
  const server = await startServer();
  const counts = noCounts();
  try {
    for (const { name, missing } of available()) {
      if (only.size && !only.has(name)) continue;
      if (missing.length) {
        console.log(`FAIL - ${name}: missing ${missing.join(', ')} (scripts/test.sh installs Debian's firefox-esr, webkit2gtk-driver and xvfb)`);
        counts.failed++;
        continue;
      }
      // (this machine is shared: once, WebKit trained at 4 steps a second here for a minute,
      // starved by something else; the harness's second try tells that from a failure)
      const engine = await launch(name);
      try {
        await runEach(registered(), (t) => runSmoke(engine, server, t, name), counts, { prefix: `${name}: ` });
      } finally {
        await engine.close();
      }
    }
  } finally {
    await server.close();
  }
  finish('smoke', counts);
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
