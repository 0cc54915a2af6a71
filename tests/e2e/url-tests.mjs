// End-to-end tests of the page's URL state: every parameter in the URL, the address bar and Copy link, and malformed URLs (docs/embedding.md).
//
// Registered into run.mjs's runner, so every test here also fails on any console error,
// uncaught exception, failed request or visible error box.

import { diff, FULL, FULL_CONFIG, main, mainStatus, otherValue, pageControls, PARAMS, paramsOf, sameJson, TABLE, value, waitTraining } from './embedding.mjs';
import { assert, test, waitFor } from './harness.mjs';
import { loadPlayground, openPage, state } from './lib.mjs';

export default function registerUrlTests() {
  test('URL state: every parameter sets its control; Copy link reproduces the run exactly in a fresh page', async ({ page, load, baseUrl, context }) => {
    await load(`/?${FULL}`);
    const config = (await state(page)).config;
    assert(sameJson(paramsOf(config), FULL_CONFIG), `stateJson().config differs from the URL: ${diff(paramsOf(config), FULL_CONFIG)}`);
    const c = await pageControls(page);
    const expected = {
      depth: '30', depthReadout: '30', residual: false, layernorm: true, placementShown: true, placement: ['post'],
      sublayer: 'attention', norm_kind: 'rmsnorm', optimizer: 'sgd', lr: '0.05', warmup: '7', gain: '1.5', width: '16', seed: '9',
    };
    assert(sameJson(Object.fromEntries(Object.keys(expected).map((k) => [k, c[k]])), expected), `controls do not show the URL's state: ${diff(c, expected)}`);
    const s = await mainStatus(page);
    assert(s.depth === 30 && !s.residual && s.norm === 'post' && /RMSNorm ON \(post\)/.test(s.text), `status line: ${s.text}`);
    assert(await main(page, 'notice').isHidden(), `no notice expected for a valid URL: ${await main(page, 'notice').textContent()}`);

    // Copy link. Headless Chromium denies the clipboard unless granted; grant it so the
    // clipboard path is exercised too. The link is shown in the readonly input either way.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    await page.getByRole('button', { name: 'Copy link' }).click();
    await waitFor(page, () => document.querySelector('[data-el="copy"]').textContent !== 'Copy link', null, 'the Copy link button never reported anything');
    const link = await page.getByRole('textbox', { name: 'Link to this state' }).inputValue();
    assert(await main(page, 'link').isVisible(), 'the link input should be shown after Copy link');
    assert((await main(page, 'copy').textContent()) === 'Link copied', `with the clipboard granted the button says ${await main(page, 'copy').textContent()}`);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert(copied === link, `clipboard holds ${JSON.stringify(copied)}, the input shows ${JSON.stringify(link)}`);
    const u = new URL(link);
    assert(u.origin === baseUrl && u.pathname === '/', `the link should point at this page (${baseUrl}/): ${link}`);
    for (const [k, v] of new URLSearchParams(FULL)) assert(u.searchParams.get(k) === v, `the link has ${k}=${u.searchParams.get(k)}, expected ${v}: ${link}`);

    // The same run, twice, paused at step 0: this page from the original URL, a fresh
    // browser context from the copied link. Bit-identical initialisation and first steps.
    await load(`/?${FULL}&autoplay=0`);
    const fresh = await openPage(context.browser());
    try {
      await loadPlayground(fresh.page, '', `${link}&autoplay=0`);
      const [a, b] = [await state(page), await state(fresh.page)];
      assert(a.step === 0 && b.step === 0, `both should be paused at step 0 with autoplay=0: ${a.step}, ${b.step}`);
      assert(sameJson(a.config, b.config), `configs differ: ${diff(a.config, b.config)}`);
      assert(sameJson(a.init, b.init), `stateJson().init differs between the URL and the copied link: ${diff(a.init, b.init)}`);
      for (const p of [page, fresh.page]) for (let k = 0; k < 3; k++) await p.getByRole('button', { name: 'Step' }).click();
      const [a3, b3] = [await state(page), await state(fresh.page)];
      assert(a3.step === 3 && b3.step === 3, `3 Step clicks: steps ${a3.step}, ${b3.step}`);
      assert(sameJson(a3.loss_history, b3.loss_history), `first losses differ: ${JSON.stringify(a3.loss_history)} vs ${JSON.stringify(b3.loss_history)}`);
      assert(sameJson(a3.now, b3.now), `state after 3 steps differs: ${diff(a3.now, b3.now)}`);
      assert(!fresh.problems.length, `the copied link's page: ${fresh.problems.join('; ')}`);
    } finally {
      await fresh.context.close();
    }
  });

  // =======================================================================================
  // 2. The address bar follows the controls

  test('every parameter of the table reaches the URL, the address bar and the element\'s attributes and .value', async ({ page, load, baseUrl }) => {
    // an encoder-decoder needs a task with a source, blocks and a depth of whole layers: the
    // stack is checked below with those, every other parameter here all at once
    const table = TABLE.filter((p) => p.name !== 'stack');
    const wanted = Object.fromEntries(table.map((p) => [p.name, otherValue(p)]));
    // the URL: all at once (each value valid on its own and together)
    await load(`/?${new URLSearchParams(wanted)}`);
    const config = (await state(page)).config;
    const lost = table.filter((p) => String(config[p.name]) !== wanted[p.name]).map((p) => `${p.name}: asked ${wanted[p.name]}, got ${config[p.name]}`);
    assert(lost.length === 0, `the URL did not set ${lost.join('; ')}`);
    const bar = Object.fromEntries(new URL(page.url()).searchParams);
    const missing = PARAMS.filter((k) => k !== 'stack').filter((k) => bar[k] !== wanted[k]).map((k) => `${k}=${bar[k]} (wanted ${wanted[k]})`);
    assert(missing.length === 0, `the address bar lost ${missing.join(', ')}: ${page.url()}`);
    // the element: each attribute in turn, on a running element, read back through .value
    await page.goto(`${baseUrl}/__test/one.html`, { waitUntil: 'load' });
    await waitTraining(page, 'p');
    for (const p of table) {
      const was = await value(page, 'p');
      await page.evaluate(([n, v]) => document.getElementById('p').setAttribute(n, v), [p.name, wanted[p.name]]);
      await waitFor(
        page,
        ([n, v]) => String(document.getElementById('p').value[n]) === v,
        [p.name, wanted[p.name]],
        async () => `attribute ${p.name}="${wanted[p.name]}": .value.${p.name} stayed ${JSON.stringify((await value(page, 'p'))[p.name])} (was ${JSON.stringify(was[p.name])})`,
      );
    }
    // the stack, with a task that has a source and a depth of whole layers
    for (const [n, v] of [['task', 'reverse'], ['depth', '10'], ['stack', 'encoder-decoder']]) {
      await page.evaluate(([n, v]) => document.getElementById('p').setAttribute(n, v), [n, v]);
      await waitFor(page, ([n, v]) => String(document.getElementById('p').value[n]) === v, [n, v],
        async () => `attribute ${n}="${v}": .value.${n} is ${JSON.stringify((await value(page, 'p'))[n])}`);
    }
    await page.goto('about:blank');
    await load('/?task=reverse&depth=10&stack=encoder-decoder');
    const stacked = (await state(page)).config;
    assert(stacked.stack === 'encoder-decoder' && stacked.depth === 10, `the URL set the stack: ${stacked.stack} ${stacked.depth}`);
    assert(new URL(page.url()).searchParams.get('stack') === 'encoder-decoder', `the address bar: ${page.url()}`);
  });

  test('changing a control updates the address bar (replaceState), and a reload reproduces it', async ({ page, load }) => {
    await load('/?depth=12&panels=loss,depth');
    const historyLength = await page.evaluate(() => history.length);
    const search = () => page.evaluate(() => Object.fromEntries(new URL(location.href).searchParams));
    const expectUrl = async (k, v) =>
      waitFor(page, ([k, v]) => new URL(location.href).searchParams.get(k) === v, [k, v], async () => `the address bar should have ${k}=${v}: ${page.url()}`, 3000);

    await page.getByRole('slider', { name: 'Depth' }).fill('40');
    await expectUrl('depth', '40');
    await page.getByRole('switch', { name: 'Residual' }).click();
    await expectUrl('residual', 'off');
    await page.getByRole('radio', { name: 'post' }).click();
    await expectUrl('norm', 'post');
    await page.getByText('More', { exact: true }).click();
    await page.getByRole('combobox', { name: 'Sublayer' }).selectOption('ffn');
    await expectUrl('sublayer', 'ffn');
    await page.getByRole('spinbutton', { name: 'Learning rate' }).fill('0.002');
    await page.getByRole('spinbutton', { name: 'Learning rate' }).press('Enter'); // commits (change)
    await expectUrl('lr', '0.002');

    const q = await search();
    assert(q.panels === 'loss,depth', `presentation parameters should stay in the address bar: ${page.url()}`);
    assert(await page.evaluate((n) => history.length === n, historyLength), 'controls should replace the history entry, not push new ones');
    const before = (await state(page)).config;
    for (const k of PARAMS) assert(q[k] === String(before[k]), `address bar ${k}=${q[k]}, the widget has ${before[k]}: ${page.url()}`);

    await page.reload({ waitUntil: 'load' });
    await waitFor(page, () => window.ablationPlayground?.playground && document.querySelector('[data-el="status"]').textContent !== 'Loading…', null, 'the reloaded page did not start', 30_000);
    const after = (await state(page)).config;
    assert(sameJson(before, after), `the reload does not reproduce the state: ${diff(before, after)}`);
    const c = await pageControls(page);
    assert(c.depth === '40' && !c.residual && c.placement[0] === 'post' && c.sublayer === 'ffn' && c.lr === '0.002', `controls after reload: ${JSON.stringify(c)}`);
    assert(await main(page, 'notice').isHidden(), 'the address bar written by the page should not produce a notice');
  });

  // =======================================================================================
  // 3. Two instances on one page

  test('malformed URLs leave a working widget with a notice', async ({ page, load }) => {
    // The notice box shows the last eight notices; each URL here has at most six bad parameters.
    const CASES = [
      // out of range
      { query: 'depth=0&width=200&tokens=999&gain=0&lr=100&warmup=-7', named: ['depth', 'width', 'tokens', 'gain', 'lr', 'warmup'],
        expect: { depth: 1, width: 128, tokens: 256, gain: 0.01, lr: 10, warmup: 0 } },
      // wrong types
      { query: 'depth=abc&residual=7&norm=yes&seed=-1&lr=1,5&width=3.5e1', named: ['depth', 'residual', 'norm', 'seed', 'lr', 'width'],
        expect: { depth: 12, residual: 'on', norm: 'pre', seed: 1, lr: 0.01, width: 36 } },
      { query: 'optimizer=[]&sublayer=&gain=NaN&warmup=1e999&depth=Infinity', named: ['optimizer', 'sublayer', 'gain', 'warmup', 'depth'],
        expect: { optimizer: 'adam', sublayer: 'mlp', gain: 1, warmup: 100_000, depth: 96 } },
      // unknown names (and names that are special in JavaScript), next to a valid one
      { query: 'colour=red&__proto__=x&constructor=1&DEPTH=50&depth=7', named: ['colour', '__proto__', 'constructor', 'DEPTH'], expect: { depth: 7 } },
      // a huge value and a huge name
      { query: `depth=${'9'.repeat(100_000)}&${'n'.repeat(100_000)}=1`, named: ['depth', 'nnnnnnnnnn'], expect: { depth: 96 } },
      // percent-garbage
      { query: 'depth=%&residual=%ZZ&norm=%E0%A4%A&seed=%00%01&lr=%2', named: ['depth', 'residual', 'norm', 'seed', 'lr'], expect: { depth: 12, residual: 'on', norm: 'pre' } },
      { query: '%FF=1&=&&&gain&%%%=%&depth=%33', named: ['\uFFFD', 'gain'], expect: { depth: 3 } },
    ];
    for (const c of CASES) {
      const what = c.query.length > 120 ? `${c.query.slice(0, 60)}…(${c.query.length} chars)` : c.query;
      await load(`/?${c.query}`);
      const notice = main(page, 'notice');
      assert(await notice.isVisible(), `${what}: no visible notice`);
      const text = (await notice.textContent()).trim();
      assert(text.length < 2000, `${what}: the notice is ${text.length} characters long`);
      for (const name of c.named) assert(text.includes(name), `${what}: the notice does not name ${name}: ${text}`);
      const config = (await state(page)).config;
      for (const [k, v] of Object.entries(c.expect)) assert(config[k] === v, `${what}: ${k} is ${config[k]}, expected ${v}`);
      const s = await mainStatus(page);
      assert(s.depth === config.depth, `${what}: status ${s.text} vs depth ${config.depth}`);
      // Still works: a control changes the state and the status line follows.
      const target = config.depth === 5 ? '6' : '5';
      await page.getByRole('slider', { name: 'Depth' }).fill(target);
      await waitFor(page, (t) => document.querySelector('main [data-el="status"]').textContent.startsWith(`${t} layers · `), target,
        async () => `${what}: the status line did not follow the slider: ${await main(page, 'status').textContent()}`, 5000);
    }
  });
}
