// End-to-end tests of the sequence tasks (docs/tasks.md): choosing Text fetches the
// text once and trains; the floors are drawn and named; "The model writes" fills and changes;
// a missing or damaged text gives a notice and a working widget; the copy task marks its
// mistakes; the text task works from another origin under a strict Content-Security-Policy.
//
// Registered into run.mjs's runner, so every test here also fails on any console error,
// uncaught exception, failed request (the tests that break the text on purpose say so) or
// visible error box.

import { ablate, canvasHash, startServer, strictCsp, TEST_PAGES } from './lib.mjs';
import { assert, test, waitFor } from './harness.mjs';

const TEXT_PATH = '/www/data/shakespeare.txt';

export default function registerTaskTests() {
  const status = (page) => page.textContent('[data-ap-root] [data-el="status"]');
  const writes = (page) => page.textContent('[data-ap-root] [data-el="writes-text"]');
  /** The live run's `.value`, as a script reads it. */
  const value = (page) => page.evaluate(() => window.ablationPlayground.value);

  test('the Task menu and the More panel\'s controls are named by their labels alone, not with their values', async ({ page, load }) => {
    await load('/?task=text');
    const task = page.getByRole('combobox', { name: 'Task', exact: true });
    assert((await task.count()) === 1, 'a combobox named exactly "Task"');
    assert((await task.inputValue()) === 'text', 'it is the Task menu');
    await page.getByText('More', { exact: true }).click();
    for (const [role, name] of [['combobox', 'Optimiser'], ['spinbutton', 'Learning rate'], ['spinbutton', 'Adam β₂'], ['combobox', 'Preset']]) {
      assert((await page.getByRole(role, { name, exact: true }).count()) === 1, `a ${role} named exactly "${name}"`);
    }
  });

  test('the warmup preset in three clicks: post-norm fails without warmup, learns with it, and pre-norm needs none (the CLI\'s numbers)', async ({ page, load, note }) => {
    const cli = await Promise.all([[], ['--warmup', '300'], ['--norm', 'pre']].map((flags) => ablate(['--preset', 'warmup', ...flags])));
    const heldOut = (r) => r.task.val_loss.at(-1)[1];
    /** Waits for the run to finish, then its held-out loss, which must be the CLI's. */
    const finished = async (i, what) => {
      await waitFor(page, () => window.ablationPlayground.value?.finished, null, `${what}: the run did not finish`, 90_000);
      const v = await value(page);
      assert(v.step === 3000, `${what}: 3000 steps, as the preset says (${v.step})`);
      assert(Object.is(v.val_loss, heldOut(cli[i])), `${what}: held-out ${v.val_loss} on the page, ${heldOut(cli[i])} from ablate`);
      return v.val_loss;
    };
    await load('/?preset=warmup');
    let v = await value(page);
    assert(v.task === 'text' && v.norm === 'post' && v.lr === 0.003 && v.warmup === 0, `the preset: ${JSON.stringify(v).slice(0, 200)}`);
    note('1. as it is');
    const plain = await finished(0, 'post-norm, no warmup');
    assert(plain > 3.2, `post-norm without warmup learns only the characters' frequencies: ${plain}`);
    note('2. warmup on, from the More panel');
    await page.getByText('More', { exact: true }).click();
    const warmup = page.getByLabel('Warmup steps');
    await warmup.fill('300');
    await warmup.press('Enter');
    await warmup.dispatchEvent('change');
    await waitFor(page, () => window.ablationPlayground.value?.warmup === 300 && !window.ablationPlayground.value.finished, null, 'warmup 300 did not restart the run');
    // the finished run stopped by itself: the new setting's run trains, with no Play
    const warm = await finished(1, 'post-norm, warmup 300');
    assert(warm < 2.3, `with warmup post-norm learns: ${warm}`);
    note('3. pre-norm, warmup back to 0');
    await warmup.fill('0');
    await warmup.dispatchEvent('change');
    await page.getByRole('radio', { name: 'pre', exact: true }).check();
    await waitFor(page, () => window.ablationPlayground.value?.norm === 'pre' && window.ablationPlayground.value.warmup === 0 && !window.ablationPlayground.value.finished, null, 'pre-norm did not restart the run');
    const pre = await finished(2, 'pre-norm, no warmup');
    assert(pre < warm, `pre-norm without warmup below post-norm with it: ${pre} vs ${warm}`);
    assert(/LayerNorm ON \(pre\)/.test(await status(page)), 'the status line names the placement');
  }, { timeoutMs: 150_000 }); // three runs of 3000 steps on the text task

  test('Text: chosen, it fetches the text once, trains below the bigram line, names the floors and writes', async ({ page, load, note }) => {
    const fetched = [];
    page.on('request', (r) => r.url().endsWith(TEXT_PATH) && fetched.push(r.url()));
    await load('/');
    assert(fetched.length === 0, 'the default page does not fetch the text');
    const region = page.getByRole('region', { name: 'The model writes' });
    assert(!(await region.isVisible()), 'the regression task writes nothing, so the panel is hidden');
    const lossBefore = await canvasHash(page, 'loss');
    note('choosing Text');
    await page.selectOption('[data-ap-root] [data-el="task"]', 'text');
    await waitFor(page, () => /held-out/.test(document.querySelector('[data-ap-root] [data-el="status"]').textContent), null, 'no held-out loss in the status line', 20_000);
    assert(fetched.length === 1, `the text was fetched once: ${fetched.length}`);
    assert(await region.isVisible(), '"The model writes" is shown on the text task');
    const v = await value(page);
    assert(v.task === 'text' && v.sublayer === 'block' && v.tokens === 128 && v.context === 32, `the task's defaults: ${JSON.stringify(v)}`);
    assert(v.depth === 12 && v.residual === 'on' && v.norm === 'pre', 'the switches and the depth are kept');
    assert(v.floors && Math.abs(v.floors.unigram - 3.3) < 0.02 && Math.abs(v.floors.bigram - 2.46) < 0.02, `floors in .value: ${JSON.stringify(v.floors)}`);
    const summary = await page.textContent('[data-ap-root] [data-el="loss-summary"]');
    assert(/unigram 3\.3\d?/.test(summary) && /bigram 2\.46/.test(summary) && /Held-out loss/.test(summary), `the loss summary names the floors: ${summary}`);
    assert((await canvasHash(page, 'loss')) !== lossBefore, 'the loss panel was drawn again');
    note('waiting for the first sample');
    await waitFor(page, () => document.querySelector('[data-ap-root] [data-el="writes-text"]').textContent.startsWith('OTHELLO.\n'), null, 'nothing written from the prompt', 20_000);
    const first = await writes(page);
    assert(first.length >= 150, `about 200 characters: ${first.length}`);
    note('waiting for the held-out loss to cross the bigram line');
    await waitFor(
      page,
      () => {
        const v = window.ablationPlayground.value;
        return v.val_loss !== null && v.val_loss < v.floors.bigram;
      },
      null,
      () => 'the held-out loss never crossed below the bigram line in 60 s',
      60_000,
    );
    const caption = await page.textContent('[data-ap-root] [data-el="caption"]');
    assert(/below the bigram line/.test(caption), `the caption says what the loss means: ${caption}`);
    const later = await writes(page);
    assert(later !== first, 'the sample changes as the weights train');
    note('switching away and back');
    await page.selectOption('[data-ap-root] [data-el="task"]', 'teacher');
    await waitFor(page, () => !/held-out/.test(document.querySelector('[data-ap-root] [data-el="status"]').textContent), null, 'back on the regression task', 10_000);
    assert(!(await region.isVisible()), 'the panel hides again');
    await page.selectOption('[data-ap-root] [data-el="task"]', 'text');
    await waitFor(page, () => /held-out/.test(document.querySelector('[data-ap-root] [data-el="status"]').textContent), null, 'the text task again', 20_000);
    assert(fetched.length === 1, `the text stays cached across task switches: fetched ${fetched.length} times`);
    note('pinning the run (the pin trains in a worker of the pool, which fetches its own copy)');
    await page.click('[data-ap-root] [data-el="pin"]');
    await waitFor(page, () => document.querySelectorAll('[data-ap-root] [data-el="pin-writes"] figure').length === 1, null, 'the pinned run keeps no sample', 60_000);
    const pinned = await page.textContent('[data-ap-root] [data-el="pin-writes"]');
    assert(/^1 .* writes/.test(pinned) && pinned.includes('OTHELLO.'), `the pin's sample, labelled: ${pinned.slice(0, 80)}`);
  });

  test('Text: a missing, damaged or truncated text, or an HTML page served as it, gives a notice, and the widget trains on the regression task', async ({ page, load, problems }) => {
    for (const [what, answer] of [
      ['missing', (route) => route.fulfill({ status: 404, body: 'no' })],
      ['damaged', async (route) => {
        const response = await route.fetch();
        const body = Buffer.from(await response.body());
        body[1000] ^= 1; // one bit: the length is right, the hash is not
        return route.fulfill({ response, body });
      }],
      ['truncated', async (route) => {
        const response = await route.fetch();
        const body = Buffer.from(await response.body());
        return route.fulfill({ response, body: body.subarray(0, body.length >> 1) });
      }],
      // a host's error page served with status 200, as some static hosts do for a missing file
      ['an HTML page', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Not found</title><h1>Not found</h1>' })],
    ]) {
      await page.unroute('**/shakespeare.txt');
      await page.route('**/shakespeare.txt', answer);
      await load('/');
      await page.selectOption('[data-ap-root] [data-el="task"]', 'text');
      await waitFor(page, () => /text task could not start/.test(document.querySelector('[data-ap-root] [data-el="notice"]').textContent), null, `no notice for a ${what} text`, 20_000);
      const notice = await page.textContent('[data-ap-root] [data-el="notice"]');
      assert(what === 'missing' ? /HTTP 404/.test(notice) : /not the one shipped/.test(notice), `the notice says why (${what}): ${notice}`);
      if (what === 'truncated') assert(/\(\d+ bytes, expected \d+/.test(notice), `the notice gives the lengths: ${notice}`);
      await waitFor(page, () => window.ablationPlayground.value.task === 'teacher', null, 'back on the regression task', 10_000);
      const a = (await value(page)).step;
      await page.waitForTimeout(1500);
      const b = (await value(page)).step;
      assert(b > a, `the widget trains on (${what}): step ${a} → ${b}`);
      // the 404 is the test's own doing
      for (let i = problems.length - 1; i >= 0; i--) if (/shakespeare\.txt/.test(problems[i])) problems.splice(i, 1);
    }
  });

  test('Text: a slow text (3 s) keeps the widget answering meanwhile, then the task starts without a notice', async ({ page, load }) => {
    await page.route('**/shakespeare.txt', async (route) => {
      const response = await route.fetch();
      await new Promise((ok) => setTimeout(ok, 3000));
      return route.fulfill({ response });
    });
    await load('/');
    await page.selectOption('[data-ap-root] [data-el="task"]', 'text');
    // meanwhile the page answers: the slider moves the (still regression) run's depth
    await page.waitForTimeout(500);
    await page.evaluate(() => window.ablationPlayground.set('depth', '7'));
    await waitFor(page, () => window.ablationPlayground.value.depth === 7, null, 'the slider did not answer while the text loaded', 2500);
    await waitFor(page, () => window.ablationPlayground.value.task === 'text' && window.ablationPlayground.value.val_loss > 0, null, 'the text task did not start once its text came', 20_000);
    const notice = await page.textContent('[data-ap-root] [data-el="notice"]');
    assert(!/could not start/.test(notice), `no failure notice: ${notice}`);
  });

  test('Copy: the attention stack copies the held-out strings; wrong symbols are marked by colour and by a mark', async ({ page, load }) => {
    await load('/?preset=copy&steps=600');
    const marks = async () =>
      page.evaluate(() => {
        const m = [...document.querySelectorAll('[data-ap-root] [data-el="writes-text"] mark.ap-wrong')];
        return m.map((e) => ({ label: e.getAttribute('aria-label'), after: getComputedStyle(e, '::after').content, colour: getComputedStyle(e).color, line: getComputedStyle(e).textDecorationLine }));
      });
    await waitFor(page, () => document.querySelector('[data-ap-root] [data-el="writes-text"]').textContent.includes('|'), null, 'no copy examples', 15_000);
    const early = await marks();
    assert(early.length > 0, 'an untrained stack gets symbols wrong, and they are marked');
    assert(early.every((m) => /wrong/.test(m.label) && m.after.includes('✗') && m.line.includes('underline')), `every mistake has a mark besides its colour: ${JSON.stringify(early[0])}`);
    await waitFor(page, () => window.ablationPlayground.value.finished, null, 'the copy run did not finish', 60_000);
    const v = await value(page);
    assert(v.accuracy > 0.9 && v.val_loss < 0.5 * v.floors.chance, `block attention copies: accuracy ${v.accuracy}, loss ${v.val_loss}, chance ${v.floors.chance}`);
    const s = await status(page);
    assert(/% copied/.test(s), `the status line says how much is copied: ${s}`);
    // All four: each combination's copies beside the others'
    await page.click('[data-ap-root] [data-el="run-compare"]');
    await waitFor(page, () => document.querySelectorAll('[data-ap-root] [data-el="compare-writes"] figure').length === 4, null, 'All four did not show what each combination writes', 90_000);
    const four = await page.$$eval('[data-ap-root] [data-el="compare-writes"] figcaption', (c) => c.map((e) => e.textContent));
    assert(four.some((c) => /both on/.test(c)) && four.some((c) => /both off/.test(c)), `the combinations are named: ${four}`);
  });

  test('Text works from another origin under a strict Content-Security-Policy (the text is a connect-src fetch)', async ({ page, baseUrl }) => {
    const host = await startServer();
    try {
      const csp = strictCsp(baseUrl);
      TEST_PAGES.set(
        '/__test/csp-text.html',
        () =>
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>text under CSP</title>` +
          `<meta http-equiv="Content-Security-Policy" content="${csp}">` +
          `<script type="module" src="${baseUrl}/www/ablation-playground.js"></script></head>` +
          `<body><ablation-playground id="w" preset="text" panels="loss,writes"></ablation-playground></body></html>`,
      );
      const violations = [];
      page.on('console', (m) => /Content Security Policy|Refused to/i.test(m.text()) && violations.push(m.text()));
      await page.goto(`${host.url}/__test/csp-text.html`);
      await waitFor(page, () => (document.getElementById('w')?.value?.val_loss ?? null) !== null && document.getElementById('w').value.step > 100, null, 'the text task did not train under CSP', 30_000);
      const w = await page.evaluate(() => {
        const s = document.getElementById('w').shadowRoot;
        return { sample: s.querySelector('[data-el="writes-text"]').textContent, notice: s.querySelector('[data-el="notice"]').textContent };
      });
      await waitFor(page, () => document.getElementById('w').shadowRoot.querySelector('[data-el="writes-text"]').textContent.startsWith('OTHELLO.'), null, 'nothing written under CSP', 15_000);
      assert(w.notice === '', `a notice under CSP: ${w.notice}`);
      assert(!violations.length, `CSP violations: ${violations.join(' | ')}`);
    } finally {
      await host.close();
    }
  });
}
