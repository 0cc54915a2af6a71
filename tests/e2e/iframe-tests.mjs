// End-to-end tests of the iframe's postMessage protocol, its origin allowlist and malformed messages (docs/embedding.md).
//
// Registered into run.mjs's runner, so every test here also fails on any console error,
// uncaught exception, failed request or visible error box.

import { diff, inside, main, sameJson, value, warnings } from './embedding.mjs';
import { assert, AssertionError, test, waitFor } from './harness.mjs';
import { frames, startServer, state } from './lib.mjs';

export default function registerIframeTests() {
  test('iframe on another origin: obeys set from an allowed parent, posts update and height; others ignore it', async ({ page, baseUrl }) => {
    // The host page lives on a second server: another port is another origin.
    const host = await startServer();
    const warned = warnings(page);
    try {
      const child = (extra) => `${baseUrl}/index.html?embed=1&panels=loss${extra}`;
      const srcs = [child(`&allow=${host.url}`), child('&allow=http://example.org'), child('')];
      await page.goto(`${host.url}/__test/host.html?${srcs.map((s) => `f=${encodeURIComponent(s)}`).join('&')}`);
      const kids = [];
      for (let i = 0; i < srcs.length; i++) {
        const f = await (await page.locator(`#f${i}`).elementHandle()).contentFrame();
        await waitFor(f, () => window.ablationPlayground?.playground && document.querySelector('[data-el="status"]').textContent !== 'Loading…', null, `iframe ${i} did not start`, 30_000);
        assert(new URL(f.url()).origin === baseUrl && baseUrl !== host.url, `iframe ${i} should be on ${baseUrl}, the host on ${host.url}`);
        kids.push(f);
      }
      const get = (f, name) => f.evaluate((n) => window.ablationPlayground.playground.get(n), name);
      assert(await kids[0].evaluate(() => document.body.classList.contains('ap-embed')), 'embed=1 should mark the body ap-embed');

      // The allowed host drives the first iframe.
      const SET = { type: 'ablation-playground:set', depth: 33, norm: 'post' };
      await page.evaluate(([m, origin]) => document.getElementById('f0').contentWindow.postMessage(m, origin), [SET, baseUrl]);
      await waitFor(kids[0], () => /^33 layers · Residual ON · LayerNorm ON \(post\) · /.test(document.querySelector('[data-el="status"]').textContent), null,
        async () => `the allowed iframe did not obey: ${await kids[0].locator('[data-el="status"]').textContent()}`);
      assert((await get(kids[0], 'depth')) === '33' && (await get(kids[0], 'norm')) === 'post', 'the allowed iframe should now have depth 33, norm post');
      await waitFor(page, (o) => window.received.some((r) => r.frame === 0 && r.origin === o && r.data?.type === 'ablation-playground:update' && r.data.depth === 33 && r.data.norm === 'post'), baseUrl,
        'the host received no ablation-playground:update with depth 33, norm post from the iframe');
      const update = await page.evaluate(() => window.received.findLast((r) => r.frame === 0 && r.data?.type === 'ablation-playground:update').data);
      for (const k of ['depth', 'residual', 'norm', 'step', 'loss', 'act_std', 'diverged_at']) assert(k in update, `the update message lacks ${k}: ${JSON.stringify(update)}`);
      // A reader's click inside the iframe reaches the host as :input and :change.
      await page.frameLocator('#f0').getByRole('switch', { name: 'Residual' }).click();
      for (const type of ['input', 'change']) {
        await waitFor(page, (t) => window.received.some((r) => r.frame === 0 && r.data?.type === t && r.data.residual === 'off' && r.data.depth === 33), `ablation-playground:${type}`,
          `the host received no ablation-playground:${type} with residual off after a click on the iframe's Residual switch`);
      }
      // Height: the last message for each iframe says its content's current height, also when
      // the iframe is taller than its content (a host that follows the messages can shrink it).
      await page.evaluate(() => Object.assign(document.getElementById('f2').style, { width: '600px', height: '4000px' }));
      // The content settles (charts and text laid out as frames arrive): the content's height is
      // read afresh each time the last message is, until the two agree.
      const contentHeight = (f) => f.evaluate(() => Math.ceil(document.querySelector('main').getBoundingClientRect().bottom + scrollY));
      const lastHeight = (i) => page.evaluate((i) => window.received.findLast((r) => r.frame === i && r.data?.type === 'ablation-playground:height')?.data.height, i);
      for (let i = 0; i < kids.length; i++) {
        const seen = [];
        for (const deadline = Date.now() + 10_000; ;) {
          const [h, last] = [await contentHeight(kids[i]), await lastHeight(i)];
          seen.push(`${last}/${h}`);
          if (h === last) {
            if (i === 2) assert(h < 4000, `iframe 2's content is ${h} px tall`);
            break;
          }
          if (Date.now() > deadline) throw new AssertionError(`iframe ${i}: the last height message never matched the content's height (message/content, every 100 ms: ${seen.slice(-12).join(', ')})`);
          await page.waitForTimeout(100);
        }
      }

      // A set message also takes the presentation options.
      await page.evaluate(([origin]) => document.getElementById('f0').contentWindow.postMessage({ type: 'ablation-playground:set', panels: 'histogram', controls: 'depth' }, origin), [baseUrl]);
      await waitFor(kids[0], () => [...document.querySelectorAll('[data-panel]')].filter((p) => !p.hidden).map((p) => p.dataset.panel).join() === 'histogram'
        && [...document.querySelectorAll('[data-control]')].filter((c) => !c.hidden).map((c) => c.dataset.control).join() === 'depth', null,
        async () => `set panels/controls: shown ${await kids[0].evaluate(() => [...document.querySelectorAll('[data-panel],[data-control]')].filter((p) => !p.hidden).map((p) => p.dataset.panel ?? p.dataset.control))}`);
      await page.evaluate(([origin]) => document.getElementById('f0').contentWindow.postMessage({ type: 'ablation-playground:set', panels: 'loss', controls: '' }, origin), [baseUrl]);

      // A preset in a message applies first, even after the fields that adjust it.
      const PRESET = { type: 'ablation-playground:set', depth: 20, preset: 'explode' };
      await page.evaluate(([m, origin]) => document.getElementById('f0').contentWindow.postMessage(m, origin), [PRESET, baseUrl]);
      await waitFor(kids[0], () => /^20 layers · Residual OFF · LayerNorm OFF · /.test(document.querySelector('[data-el="status"]').textContent), null,
        async () => `the preset message was not applied first: ${await kids[0].locator('[data-el="status"]').textContent()}`);
      assert((await get(kids[0], 'optimizer')) === 'sgd', 'the preset set the optimiser');
      // A comparison triggered by a message, reported in the update messages.
      await page.evaluate(([origin]) => document.getElementById('f0').contentWindow.postMessage({ type: 'ablation-playground:knockout' }, origin), [baseUrl]);
      await waitFor(page, () => window.received.some((r) => r.frame === 0 && r.data?.type === 'ablation-playground:update' && r.data.knockout?.loss.length === 20), null,
        async () => `the host received no update with the knockout of the 20 layers; the last: ${JSON.stringify(await page.evaluate(() => {
          const u = window.received.findLast((r) => r.frame === 0 && r.data?.type === 'ablation-playground:update')?.data;
          return u && { step: u.step, depth: u.depth, knockout: u.knockout, diverged_at: u.diverged_at };
        }))}; in the iframe: ${JSON.stringify(await kids[0].evaluate(() => ({ k: window.ablationPlayground.value.knockout, t: window.ablationPlayground.playground.timings, settled: window.ablationPlayground.playground.settled })))}`);

      // The same command to an iframe that allows another origin, and to one without allow=:
      // ignored, each with a console warning (an error would fail the test in the runner).
      for (const i of [1, 2]) {
        const before = { depth: await get(kids[i], 'depth'), norm: await get(kids[i], 'norm') };
        // The warning is logged when the message is handled, so once it is there the
        // iframe's state is final.
        const warning = page.waitForEvent('console', {
          predicate: (m) => m.type() === 'warning' && m.text().includes(`ignored a message from ${host.url}`),
          timeout: 5000,
        });
        await page.evaluate(([i, m, origin]) => document.getElementById(`f${i}`).contentWindow.postMessage(m, origin), [i, SET, baseUrl]);
        await warning.catch(() => {
          throw new AssertionError(`iframe ${i} logged no warning for a message from an origin it does not allow; warnings: ${JSON.stringify(warned)}`);
        });
        const after = { depth: await get(kids[i], 'depth'), norm: await get(kids[i], 'norm') };
        assert(sameJson(before, after), `iframe ${i} (${srcs[i]}) obeyed a message from ${host.url}: ${diff(before, after)}`);
        const text = (await kids[i].locator('[data-el="status"]').textContent()).trim();
        assert(/^12 layers · Residual ON · LayerNorm ON \(pre\) · /.test(text), `iframe ${i}'s status line changed: ${text}`);
      }
    } finally {
      await host.close();
    }
  }, { viewport: { width: 1400, height: 900 } });

  // =======================================================================================
  // 6. Malformed input

  test('malformed messages from an allowed origin are ignored; the widget keeps working', async ({ page, load, baseUrl }) => {
    // The page allows its own origin, so window.postMessage from the page itself is a
    // message from an allowed origin.
    await load(`/?allow=${encodeURIComponent(baseUrl)}`);
    const warned = warnings(page);
    const before = (await state(page)).config;
    const sent = await page.evaluate(() => {
      const P = 'ablation-playground:';
      // Not a command, or a command with a value that is not a short string or number:
      // ignored, each with a console warning.
      const ignored = [
        null,
        'ablation-playground:set',
        42,
        [1, 2],
        { type: 5 },
        { type: `${P}set`, depth: {} },
        { type: `${P}set`, depth: [33] },
        { type: `${P}set`, depth: null },
        { type: `${P}frobnicate` },
        { type: P },
        { type: `${P}set`, depth: 'x'.repeat(10_000) },
        { type: `${P}${'x'.repeat(10_000)}` },
      ];
      // Well-formed commands with bad parameters: validated like URL parameters, so the
      // widget shows a notice (a bad depth falls back to the default, which it already has).
      const lenient = [
        { type: `${P}set`, ['x'.repeat(10_000)]: 1 },
        { type: `${P}set`, depth: 'abc' },
        { type: `${P}set`, toString: 1, constructor: 'x' },
        // the newer parameters: a task, a placement, the attention panel's layer, Adam's β₂
        { type: `${P}set`, task: 'poetry' },
        { type: `${P}set`, norm: 'sideways' },
        { type: `${P}set`, attention_layer: 500 },
        { type: `${P}set`, beta2: 2 },
      ];
      for (const m of [...ignored, ...lenient]) window.postMessage(m, '*');
      return { ignored: ignored.length };
    });
    // Messages from one source arrive in order: once this one is obeyed, all of the above
    // have been handled.
    await page.evaluate(() => window.postMessage({ type: 'ablation-playground:set', depth: 33, norm: 'post' }, '*'));
    await waitFor(page, () => window.ablationPlayground.playground.get('depth') === '33', null, 'a valid message after the malformed ones was not obeyed');
    const after = (await state(page)).config;
    // (a number out of range falls back to the nearest valid one, as in a URL: β₂ 2 → 0.99999,
    // the attention panel's layer 500 → 95; a bad word to the default)
    const changed = diff({ ...before, depth: 33, norm: 'post', beta2: 0.99999, attention_layer: 95 }, after);
    assert(!changed, `malformed messages changed the state: ${changed}`);
    const ours = warned.filter((w) => w.startsWith('ablation-playground: ignored'));
    assert(ours.length === sent.ignored, `expected a console warning for each of the ${sent.ignored} ignored messages, got ${ours.length}: ${JSON.stringify(ours.map((w) => w.slice(0, 80)))}`);
    const notice = (await main(page, 'notice').textContent()).trim();
    for (const name of ['"xxxxxxxxxx', 'depth', 'toString', 'constructor', 'task', 'norm', 'attention_layer', 'beta2']) assert(notice.includes(name), `the notice does not name ${name}: ${notice}`);
    assert(notice.length < 2000, `the notice is ${notice.length} characters long`);
    // Status line still updates, training runs, and the other commands still work.
    await waitFor(page, () => /^33 layers · Residual ON · LayerNorm ON \(post\) · /.test(document.querySelector('main [data-el="status"]').textContent), null,
      async () => `status line after the valid message: ${await main(page, 'status').textContent()}`);
    await waitFor(page, () => window.ablationPlayground.playground.step > 3, null, 'training stopped');
    await page.evaluate(() => window.postMessage({ type: 'ablation-playground:pause' }, '*'));
    await waitFor(page, () => !window.ablationPlayground.playing, null, 'pause command not obeyed');
    await frames(page, 2);
    const step = (await state(page)).step;
    await page.evaluate(() => window.postMessage({ type: 'ablation-playground:step' }, '*'));
    await waitFor(page, (s) => window.ablationPlayground.playground.step === s + 1, step, 'step command not obeyed');
    await page.evaluate(() => window.postMessage({ type: 'ablation-playground:reset' }, '*'));
    await waitFor(page, () => window.ablationPlayground.playground.step === 0, null, 'reset command not obeyed');
  });

  // =======================================================================================
  // 7. Lazy start
}
