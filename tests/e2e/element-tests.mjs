// End-to-end tests of the <ablation-playground> element: attributes both ways, events, several instances, moving, pixel density, and the lazy start (docs/embedding.md).
//
// Registered into run.mjs's runner, so every test here also fails on any console error,
// uncaught exception, failed request or visible error box.

import { attrs, diff, elStatus, inside, PARAMS, paramsOf, READOUTS, sameJson, value, waitElStatus, waitTraining } from './embedding.mjs';
import { assert, parseStatus, test, waitFor } from './harness.mjs';
import { frames, state } from './lib.mjs';

export default function registerElementTests() {
  test('element: two instances on one page are independent, and both train', async ({ page, baseUrl }) => {
    await page.goto(`${baseUrl}/__test/two.html`);
    await waitTraining(page, 'a');
    await waitTraining(page, 'b');

    /** Everything about one instance that a change of the other must not touch. */
    const snapshot = async (id) => {
      const v = await value(page, id);
      return {
        attrs: await attrs(page, id),
        params: paramsOf(v),
        step: v.step,
        slider: await inside(page, id, 'depth').inputValue(),
        residual: await inside(page, id, 'residual').isChecked(),
        radios: await page.evaluate((id) => [...document.getElementById(id).shadowRoot.querySelectorAll('[data-el="placement"] input')].map((r) => r.checked), id),
        status: await elStatus(page, id),
      };
    };
    /** Pauses `id` and returns its snapshot once its readouts have caught up. */
    const pauseAndSnapshot = async (id) => {
      await page.evaluate((id) => document.getElementById(id).pause(), id);
      await frames(page, 3);
      return snapshot(id);
    };

    // Change a every way a page or a reader can; b (paused, so its step is stable) must not move.
    const b0 = await pauseAndSnapshot('b');
    assert(b0.params.depth === 20 && b0.params.residual === 'off' && b0.params.norm === 'post' && b0.params.seed === '5', `b starts from its attributes: ${JSON.stringify(b0.params)}`);
    await page.evaluate(() => document.getElementById('a').setAttribute('depth', '40'));
    await waitElStatus(page, 'a', /^40 layers · /);
    await inside(page, 'a', 'depth').fill('50');
    await inside(page, 'a', 'residual').click();
    // Radios of the two instances must not be one group: checking a's "post" would uncheck b's.
    await page.locator('#a').getByRole('radio', { name: 'post' }).click();
    await waitElStatus(page, 'a', /^50 layers · Residual OFF · LayerNorm ON \(post\) · /);
    const a1 = await value(page, 'a');
    assert(a1.depth === 50 && a1.residual === 'off' && a1.norm === 'post', `a after the changes: ${JSON.stringify(paramsOf(a1))}`);
    const b1 = await snapshot('b');
    assert(sameJson(b0, b1), `changing a changed b: ${diff(b0, b1)}`);

    // And the other way round.
    const a2 = await pauseAndSnapshot('a');
    await page.evaluate(() => document.getElementById('b').setAttribute('residual', 'on'));
    await inside(page, 'b', 'depth').fill('7');
    await page.locator('#b').getByRole('radio', { name: 'pre' }).click();
    await waitElStatus(page, 'b', /^7 layers · Residual ON · LayerNorm ON \(pre\) · /);
    const a3 = await snapshot('a');
    assert(sameJson(a2, a3), `changing b changed a: ${diff(a2, a3)}`);

    // Both train again, each from its own state.
    await page.evaluate(() => ['a', 'b'].forEach((id) => document.getElementById(id).play()));
    await waitTraining(page, 'a', a3.step + 5);
    await waitTraining(page, 'b', 5);
    const [va, vb] = [await value(page, 'a'), await value(page, 'b')];
    assert(va.depth === 50 && vb.depth === 7, `depths while training: a ${va.depth}, b ${vb.depth}`);
  }, { viewport: { width: 1280, height: 1200 } });

  // =======================================================================================
  // 4. Attributes ↔ widget, events, .value

  test('element: attributes drive the widget and its controls write back the attributes', async ({ page, baseUrl }) => {
    await page.goto(`${baseUrl}/__test/one.html`);
    await waitTraining(page, 'p');
    const slider = inside(page, 'p', 'depth');

    await page.evaluate(() => document.getElementById('p').setAttribute('depth', '40'));
    await waitElStatus(page, 'p', /^40 layers · /);
    assert((await slider.inputValue()) === '40', `setAttribute depth 40: the slider shows ${await slider.inputValue()}`);
    assert((await value(page, 'p')).depth === 40, 'setAttribute depth 40: value.depth should be 40');

    await page.evaluate(() => document.getElementById('p').setAttribute('norm', 'post'));
    await waitElStatus(page, 'p', /· LayerNorm ON \(post\) · /);
    assert(await page.locator('#p').getByRole('radio', { name: 'post' }).isChecked(), 'setAttribute norm post: the post radio should be checked');
    assert((await value(page, 'p')).norm === 'post', 'setAttribute norm post: value.norm should be post');

    await slider.fill('50');
    assert((await page.getAttribute('#p', 'depth')) === '50', `slider to 50: the depth attribute is ${await page.getAttribute('#p', 'depth')}`);
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    assert((await page.getAttribute('#p', 'depth')) === '51', `ArrowRight: the depth attribute is ${await page.getAttribute('#p', 'depth')}`);
    await inside(page, 'p', 'residual').click();
    assert((await page.getAttribute('#p', 'residual')) === 'off', 'the Residual switch should set residual="off"');
    await inside(page, 'p', 'layernorm').click();
    assert((await page.getAttribute('#p', 'norm')) === 'off', 'the LayerNorm switch should set norm="off"');
    await waitElStatus(page, 'p', /^51 layers · Residual OFF · LayerNorm OFF · /);

    // .value: every parameter (as the attributes now say) and the readouts, current.
    await page.evaluate(() => document.getElementById('p').pause());
    await frames(page, 3);
    const v = await value(page, 'p');
    for (const k of [...PARAMS, ...READOUTS]) assert(k in v, `.value lacks ${k}: ${JSON.stringify(v)}`);
    const a = await attrs(page, 'p');
    for (const k of ['depth', 'residual', 'norm']) assert(String(v[k]) === a[k], `.value.${k} = ${v[k]} but the attribute says ${a[k]}`);
    const s = parseStatus(await elStatus(page, 'p'));
    assert(s.step === v.step || (v.step === 0 && s.step === null), `status line names step ${s.step}, .value.step is ${v.step}`);
    assert(Math.abs(s.loss - v.loss) <= 0.01 * Math.abs(v.loss) + 1e-3, `status loss ${s.loss}, .value.loss ${v.loss}`);
    assert(Math.abs(s.std - v.act_std) <= 0.1 * Math.abs(v.act_std), `status act. std ${s.std}, .value.act_std ${v.act_std}`);
    await page.evaluate(() => document.getElementById('p').step());
    assert((await value(page, 'p')).step === v.step + 1, '.step() should train exactly one step');

    // A removed attribute means its default (and stays removed).
    await page.evaluate(() => ['depth', 'residual'].forEach((n) => document.getElementById('p').removeAttribute(n)));
    await waitElStatus(page, 'p', /^12 layers · Residual ON · LayerNorm OFF · /);
    const gone = await page.evaluate(() => ['depth', 'residual'].filter((n) => document.getElementById('p').hasAttribute(n)));
    assert(gone.length === 0, `removed attributes came back: ${gone}`);
    // autoplay only says how a widget starts: removing it later leaves the run paused
    await page.evaluate(() => document.getElementById('p').pause());
    const pausedAt = (await value(page, 'p')).step;
    await page.evaluate(() => {
      const p = document.getElementById('p');
      p.setAttribute('autoplay', 'off');
      p.removeAttribute('autoplay');
    });
    await frames(page, 20);
    assert((await value(page, 'p')).step === pausedAt, 'removing autoplay started the paused run');
    // A preset set from a script rewrites the attributes it changes, as a control does.
    await page.evaluate(() => document.getElementById('p').setAttribute('preset', 'explode'));
    await waitElStatus(page, 'p', /^12 layers · Residual OFF · LayerNorm OFF · /);
    const after = await attrs(page, 'p');
    assert(after.residual === 'off' && after.optimizer === 'sgd' && after.gain === '2' && after.lr === '0.1',
      `after preset="explode" the attributes say ${JSON.stringify(after)}`);
    // A command given while an element is still loading waits for it.
    const early = await page.evaluate(async () => {
      const e = Object.assign(document.createElement('ablation-playground'), { id: 'early' });
      e.setAttribute('autoplay', 'off');
      e.setAttribute('depth', '3');
      document.body.prepend(e);
      const p = e.step();
      await p;
      const v = { promise: p instanceof Promise, step: e.value?.step, depth: e.value?.depth };
      e.remove();
      return v;
    });
    assert(early.promise && early.step === 1 && early.depth === 3, `step() on a loading element: ${JSON.stringify(early)}`);
    // pause() on an element that is never shown resolves (it only says how it will start)
    const hidden = await page.evaluate(async () => {
      const box = Object.assign(document.createElement('div'), { hidden: true });
      const e = document.createElement('ablation-playground');
      box.append(e);
      document.body.append(box);
      const answer = await Promise.race([e.pause().then(() => 'resolved'), new Promise((r) => setTimeout(() => r('still waiting after 3 s'), 3000))]);
      box.remove();
      return answer;
    });
    assert(hidden === 'resolved', `pause() on a hidden element: ${hidden}`);
  });

  test('element: moved within the page it trains on where it was; removed, it stops its worker', async ({ page, baseUrl }) => {
    await page.addInitScript(() => {
      window.__terminated = 0;
      const terminate = Worker.prototype.terminate;
      Worker.prototype.terminate = function () {
        window.__terminated++;
        return terminate.call(this);
      };
    });
    await page.goto(`${baseUrl}/__test/one.html`);
    await page.evaluate(() => {
      window.steps = [];
      document.getElementById('p').addEventListener('playground-update', (e) => window.steps.push(e.detail.step));
    });
    const before = await waitTraining(page, 'p', 20);
    await page.evaluate(() => {
      const box = document.createElement('div');
      document.body.prepend(box);
      box.append(document.getElementById('p'));
    });
    await waitTraining(page, 'p', before + 50);
    const steps = await page.evaluate(() => window.steps);
    const back = steps.findIndex((s, i) => i > 0 && s < steps[i - 1]);
    assert(back < 0, `after the move the run started again: steps ${steps.slice(Math.max(0, back - 3), back + 2)}`);
    assert((await page.evaluate(() => window.__terminated)) === 0, 'the move stopped a worker');
    await page.evaluate(() => document.getElementById('p').remove());
    await waitFor(page, () => window.__terminated === 1, null, 'the removed element did not stop its worker');
  });

  test('element: charts are drawn at the screen\'s pixel density, and again when it changes', async ({ page, baseUrl, context }) => {
    // A browser tells a page that it moved to a screen of another density through a 'change'
    // event of a `(resolution: …)` media query. CDP's emulation below changes the density but
    // sends no such event, so the test keeps the queries the page makes and sends it.
    await page.addInitScript(() => {
      const matchMedia = window.matchMedia.bind(window);
      window.__resolutionQueries = [];
      window.matchMedia = (query) => {
        const list = matchMedia(query);
        if (query.includes('resolution')) window.__resolutionQueries.push(list);
        return list;
      };
    });
    await page.goto(`${baseUrl}/__test/one.html`);
    await waitTraining(page, 'p');
    await page.evaluate(() => document.getElementById('p').pause());
    const density = () =>
      page.evaluate(() => {
        const c = document.getElementById('p').shadowRoot.querySelector('[data-el="loss"]');
        return c.width / c.getBoundingClientRect().width;
      });
    const one = await density();
    assert(Math.abs(one - 1) < 0.01, `at devicePixelRatio 1 the loss canvas has ${one} pixels per CSS pixel`);
    // a move to a denser screen, while paused (no new frame comes to redraw it)
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 900, deviceScaleFactor: 2, mobile: false });
    await waitFor(page, () => devicePixelRatio === 2, null, 'the emulated density did not apply');
    const told = await page.evaluate(() => {
      const changed = window.__resolutionQueries.filter((q) => !q.matches);
      for (const q of changed) q.dispatchEvent(new Event('change'));
      return changed.length;
    });
    assert(told === 1, `the widget watches ${told} resolution queries that no longer match`);
    await waitFor(page, () => {
      const c = document.getElementById('p').shadowRoot.querySelector('[data-el="loss"]');
      return Math.abs(c.width / c.getBoundingClientRect().width - 2) < 0.01;
    }, null, async () => `at devicePixelRatio 2 the paused loss canvas still has ${await density()} pixels per CSS pixel`);
  });

  test('element events: input while dragging, change on commit, one each per action; playground-update detail', async ({ page, baseUrl }) => {
    await page.goto(`${baseUrl}/__test/one.html`);
    await waitTraining(page, 'p');
    // Record what a host page sees on the element, and (separately) how many times the inner
    // slider itself fired, so that the element's events can be counted against the actions.
    await page.evaluate(() => {
      const p = document.getElementById('p');
      window.seen = [];
      window.updates = [];
      window.sliderInputs = 0;
      p.shadowRoot.querySelector('[data-el="depth"]').addEventListener('input', () => sliderInputs++);
      for (const type of ['input', 'change']) {
        p.addEventListener(type, (e) => seen.push({ type, fromElement: e.target === p, depth: p.getAttribute('depth') }));
      }
      p.addEventListener('playground-update', (e) => updates.push({ keys: Object.keys(e.detail).sort(), detail: e.detail, value: p.value }));
    });
    const seen = () => page.evaluate(() => window.seen);
    const count = (list, type) => list.filter((e) => e.type === type).length;
    const slider = inside(page, 'p', 'depth');

    // A real drag with the mouse: `input` while moving, no `change` until the button is released.
    const box = await slider.boundingBox();
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + 4, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, y, { steps: 6 });
    const during = await seen();
    const sliderInputs = await page.evaluate(() => window.sliderInputs);
    assert(during.some((e) => e.type === 'input'), 'no input event on the element while dragging');
    assert(!during.some((e) => e.type === 'change'), 'a change event fired before the drag was committed');
    await page.mouse.up();
    const afterDrag = await seen();
    const dragDepth = await page.getAttribute('#p', 'depth');
    assert(Number(dragDepth) > 30 && Number(dragDepth) < 70, `after dragging to the middle the depth attribute is ${dragDepth}`);
    assert(afterDrag.some((e) => e.type === 'change'), 'no change event on the element when the drag was committed');

    // The Residual switch: a commit.
    await page.evaluate(() => (window.seen = []));
    await inside(page, 'p', 'residual').click();
    const toggled = await seen();
    assert((await page.getAttribute('#p', 'residual')) === 'off', 'the Residual switch should set residual="off"');
    assert(toggled.some((e) => e.type === 'change'), 'no change event on the element for the Residual switch');

    // Page Up from the keyboard: ten layers, one input and one change.
    await page.evaluate(() => (window.seen = []));
    const before = Number(await page.getAttribute('#p', 'depth'));
    await slider.focus();
    await page.keyboard.press('PageUp');
    const paged = await seen();
    assert((await page.getAttribute('#p', 'depth')) === String(before + 10), `PageUp from ${before}: depth ${await page.getAttribute('#p', 'depth')}`);
    assert(count(paged, 'input') === 1 && count(paged, 'change') === 1 && paged.every((e) => e.fromElement), `PageUp fired ${JSON.stringify(paged)}`);

    // playground-update: detail has exactly the documented keys, and agrees with .value.
    await waitFor(page, () => window.updates.some((u) => u.detail.residual === 'off'), null, 'no playground-update after the Residual switch');
    const updates = await page.evaluate(() => window.updates);
    const KEYS = ['act_std', 'compare', 'depth', 'depth_width', 'diverged_at', 'knockout', 'loss', 'norm', 'pins', 'residual', 'step', 'sweep'];
    for (const u of updates) {
      assert(sameJson(u.keys, KEYS), `playground-update detail keys ${u.keys.join(',')}, expected exactly ${KEYS.join(',')}`);
      for (const k of KEYS) assert(sameJson(u.detail[k], u.value[k]), `playground-update detail.${k} = ${u.detail[k]} but .value.${k} = ${u.value[k]}`);
    }

    // One event per action: a host counting `input`/`change` on the element must not see the
    // inner controls' own events bubbling out as well.
    const problems = [];
    const dragInputs = count(during, 'input');
    if (dragInputs !== sliderInputs) problems.push(`${dragInputs} input events on the element for ${sliderInputs} slider movements`);
    if (count(afterDrag, 'change') !== 1) problems.push(`${count(afterDrag, 'change')} change events for one committed drag`);
    if (count(toggled, 'change') !== 1) problems.push(`${count(toggled, 'change')} change events for one click on Residual`);
    const foreign = [...afterDrag, ...toggled].filter((e) => !e.fromElement).length;
    if (foreign) problems.push(`${foreign} of them have an inner <input> as target (its own events bubbling out of the element)`);
    assert(!problems.length, problems.join('; '));
  });

  // =======================================================================================
  // 5. iframe: messages and the origin allowlist

  test('element: an off-screen instance does not train; it starts when scrolled into view and pauses when scrolled away', async ({ page, baseUrl }) => {
    await page.goto(`${baseUrl}/__test/offscreen.html`);
    await waitTraining(page, 'top');
    await waitFor(page, () => document.getElementById('below').shadowRoot?.querySelector('[data-ap-root]'), null, '#below was never mounted');
    // 90 animation frames (≈1.5 s) in which the on-screen instance trains: frames are what an
    // instance computes in, so the off-screen one had every chance to start.
    const top0 = (await value(page, 'top')).step;
    await frames(page, 90);
    assert((await value(page, 'top')).step > top0, 'the on-screen instance should keep training');
    const below0 = await value(page, 'below');
    assert(below0 === null || below0.step === 0, `the off-screen instance computed: ${JSON.stringify(below0)}`);

    // Attributes changed before it starts: the last value of each counts, a removed pin is gone.
    await page.evaluate(() => {
      const below = document.getElementById('below');
      below.setAttribute('depth', '7');
      below.setAttribute('depth', '8');
      below.setAttribute('pin', '@5');
      below.removeAttribute('pin');
    });

    // Into view: it starts; the one now far above stops.
    await page.locator('#below').scrollIntoViewIfNeeded();
    await waitTraining(page, 'below');
    const started = await value(page, 'below');
    assert(started.depth === 8 && started.pins.length === 0 && started.pin === '', `#below started with ${JSON.stringify({ depth: started.depth, pin: started.pin })}`);
    await frames(page, 1);
    const topPaused = (await value(page, 'top')).step;
    await frames(page, 30);
    assert((await value(page, 'top')).step === topPaused, 'the instance scrolled out of view kept training');

    // Back up: the top one resumes, the bottom one pauses.
    await page.evaluate(() => scrollTo(0, 0));
    await waitTraining(page, 'top', topPaused);
    await frames(page, 1);
    const belowPaused = (await value(page, 'below')).step;
    await frames(page, 30);
    const below2 = (await value(page, 'below')).step;
    assert(below2 === belowPaused, `the instance scrolled away kept training: step ${belowPaused} → ${below2}`);
  });

  // =======================================================================================
  // 8. The example lesson
}
