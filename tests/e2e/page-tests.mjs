// The playground page (index.html) as a reader drives it: locators by role and accessible
// name, the keyboard, clicks. The wasm handle (window.ablationPlayground.playground) is only
// *read*, through stateJson(), to check that what the page says matches what it computed:
// the first frame, the slider and the switches, the CLI's numbers bit for bit, the histogram,
// the presets, the axis buttons, the dark scheme. Screenshots go to tests/e2e/artifacts/.
//
// Registered into run.mjs's runner, so every test here also fails on any console error,
// uncaught exception, failed request or visible error box.

import { existsSync } from 'node:fs';
import { assert, test } from './harness.mjs';
import { ABLATE, ablate, canvasColours, canvasHash, frames, state } from './lib.mjs';
import { el, pause, play, ratio, status, stds, waitStatus } from './page.mjs';

export default function registerPageTests() {
  test('loads without console errors; status, caption and three drawn canvases', async ({ page, load, shot }) => {
    await load('/');
    const s = await status(page);
    assert(s.depth === 12 && s.residual && s.norm === 'pre', `defaults should be 12 layers, residual on, pre-norm: ${s.text}`);
    assert(Number.isFinite(s.std) && Number.isFinite(s.loss), `status numbers should be finite: ${s.text}`);
    const caption = (await el(page, 'caption').textContent()).trim();
    assert(caption.length > 20, `caption should be a sentence, got ${JSON.stringify(caption)}`);
    for (const name of ['histogram', 'loss', 'depthplot']) {
      const c = await canvasColours(page, name);
      assert(c.width > 50 && c.height > 50, `${name} canvas too small: ${c.width}×${c.height}`);
      assert(c.colours > 2, `${name} canvas looks blank (${c.colours} colours)`);
    }
    for (const name of ['histogram-summary', 'loss-summary', 'depth-summary']) {
      const text = (await el(page, name).textContent()).trim();
      assert(text.length > 10, `figcaption ${name} is empty`);
    }
    assert(await el(page, 'notice').isHidden(), 'no notice expected on a clean URL');
    await shot('default');
  });

  test('moving the depth slider redraws the histogram and updates the status', async ({ page, load }) => {
    await load('/?depth=12');
    await pause(page);
    const before = await canvasHash(page, 'histogram');
    const stepBefore = (await state(page)).step;
    await frames(page, 3);
    assert((await canvasHash(page, 'histogram')) === before, 'the histogram changed while paused');
    assert((await state(page)).step === stepBefore, 'training went on while paused');

    await page.getByRole('slider', { name: 'Depth' }).fill('96');
    const s = await waitStatus(page, /^96 layers · /);
    assert(s.depth === 96, s.text);
    assert((await el(page, 'depth-value').textContent()).trim() === '96', 'the depth readout next to the slider should say 96');
    assert((await page.getByRole('slider', { name: 'Depth' }).getAttribute('aria-valuetext')) === '96 layers', 'aria-valuetext should be "96 layers"');
    await frames(page, 2);
    assert((await canvasHash(page, 'histogram')) !== before, 'the histogram canvas did not change after the slider moved');
    assert((await state(page)).config.depth === 96, 'stateJson().config.depth should be 96');
  });

  test('depth 12: both switches off gives an act. std ≥10× away from both on; residual alone > 10', async ({ page, load, shot }) => {
    await load('/?depth=12');
    // Paused and reset: every reading below is at step 0 (each switch restarts from the seed
    // and nothing trains while paused), so the numbers are the initialisation's and do not
    // drift with training while they are read.
    await pause(page);
    await page.getByRole('button', { name: 'Reset' }).click();
    await waitStatus(page, /· loss \S+$/);
    const residual = page.getByRole('switch', { name: 'Residual' });
    const layernorm = page.getByRole('switch', { name: 'LayerNorm' });
    assert((await residual.isChecked()) && (await layernorm.isChecked()), 'both switches start on');
    const bothOn = await stds(page);

    await residual.click();
    await layernorm.click();
    assert(!(await residual.isChecked()) && !(await layernorm.isChecked()), 'both switches should now be off');
    await waitStatus(page, /^12 layers · Residual OFF · LayerNorm OFF · /);
    const bothOff = await stds(page);
    assert(
      ratio(bothOn.status, bothOff.status) >= 10,
      `status line: both on ${bothOn.status}, both off ${bothOff.status}: less than 10× apart`,
    );
    assert(
      ratio(bothOn.json, bothOff.json) >= 10,
      `stateJson: both on ${bothOn.json}, both off ${bothOff.json}: less than 10× apart`,
    );
    await play(page);
    await page.waitForTimeout(1500);
    await shot('depth12-both-off');

    await pause(page);
    await residual.click();
    await waitStatus(page, /^12 layers · Residual ON · LayerNorm OFF · /);
    const residualAlone = await stds(page);
    assert(residualAlone.status > 10 && residualAlone.json > 10, `residual alone at depth 12: act. std ${residualAlone.json} (status ${residualAlone.status}), expected > 10`);
    await play(page);
    await page.waitForTimeout(1500);
    await shot('depth12-residual-alone');

    await pause(page);
    await layernorm.click();
    await waitStatus(page, /^12 layers · Residual ON · LayerNorm ON \(pre\) · /);
    assert(Object.is((await stds(page)).json, bothOn.json), 'switching back to both on should reproduce the same act. std (same seed)');
    await play(page);
    await page.waitForTimeout(1500);
    await shot('depth12-both-on-pre');
  });

  // Post-norm's std is 0.99998 (LayerNorm's ε keeps it just under 1): it reads "1.00", as the
  // README and the lesson's form promise, when short() picks its decimals from the rounded
  // value, and "1.000" from the unrounded one.
  test('LayerNorm post reports act. std = 1.00 with the residual on and off', async ({ page, load, shot }) => {
    await load('/?depth=12');
    // Paused, so the numbers are the initialisation's: training moves LayerNorm's γ and β.
    await pause(page);
    await page.getByRole('radio', { name: 'post' }).click();
    const both = await waitStatus(page, /^12 layers · Residual ON · LayerNorm ON \(post\) · /);
    const bothJson = (await state(page)).act_std;
    await page.getByRole('switch', { name: 'Residual' }).click();
    const alone = await waitStatus(page, /^12 layers · Residual OFF · LayerNorm ON \(post\) · /);
    const aloneJson = (await state(page)).act_std;
    await play(page);
    await page.waitForTimeout(1500);
    await shot('depth12-layernorm-alone-post');
    assert(Math.abs(bothJson - 1) < 0.005 && Math.abs(aloneJson - 1) < 0.005, `stateJson().act_std should be 1.00: ${bothJson}, ${aloneJson}`);
    const wrong = [both, alone].filter((s) => !/· act\. std = 1\.00 ·/.test(s.text)).map((s) => s.text);
    assert(!wrong.length, `expected "act. std = 1.00" (stateJson: ${bothJson}, ${aloneJson}), got: ${wrong.join(' | ')}`);
  });

  test('the loss readout changes while training', async ({ page, load }) => {
    await load('/');
    const a = await status(page);
    const ja = await state(page);
    await page.waitForTimeout(1500);
    const b = await status(page);
    const jb = await state(page);
    assert(b.loss !== a.loss, `loss did not change in 1.5 s: ${a.text} → ${b.text}`);
    assert(b.step !== null && (a.step === null || b.step > a.step), `step did not advance: ${a.text} → ${b.text}`);
    assert(jb.step > ja.step && jb.loss !== ja.loss, `stateJson step/loss did not change: ${ja.step}/${ja.loss} → ${jb.step}/${jb.loss}`);
  });

  test('after 5 Steps in the worker the frame equals the native CLI run bit for bit', async ({ page, load }) => {
    assert(existsSync(ABLATE), `${ABLATE} is missing: run \`cargo build --release --bin ablate\` first`);
    const args = ['--depth', '6', '--sublayer', 'block', '--norm', 'post', '--steps', '5', '--seed', '7', '--tokens', '16', '--width', '16'];
    const cli = await ablate(args, { timeout: 30_000 });
    await load('/?depth=6&sublayer=block&norm=post&seed=7&tokens=16&width=16&autoplay=off');
    await pause(page);
    await page.getByRole('button', { name: 'Reset' }).click();
    for (let k = 0; k < 5; k++) await page.getByRole('button', { name: 'Step' }).click();
    const web = await state(page);
    assert(web.step === 5, `after 5 Steps the frame is at step ${web.step}`);
    for (const key of ['act_std', 'readout_std', 'grad_norm', 'weight_grad_norm', 'probe_loss']) {
      for (const [when, c, w] of [['init', cli.init, web.init], ['now', cli.final, web.now]]) {
        assert(JSON.stringify(c[key]) === JSON.stringify(w[key]), `${when}.${key} differs: CLI ${JSON.stringify(c[key])}, page ${JSON.stringify(w[key])}`);
      }
    }
    const losses = web.loss_history.buckets.map((b) => b[2]);
    assert(JSON.stringify(losses) === JSON.stringify(cli.loss.slice(0, 5)), `losses differ: page ${losses}, CLI ${cli.loss.slice(0, 5)}`);
    assert(JSON.stringify(web.histogram) === JSON.stringify(cli.histogram), 'the histogram differs');
  });

  test('the page reproduces the native CLI bit for bit (init act. std and gradient norms)', async ({ page, load }) => {
    assert(existsSync(ABLATE), `${ABLATE} is missing: run \`cargo build --release --bin ablate\` first`);
    // post-norm without residual, and the default pre-norm with its final norm
    for (const query of ['depth=12&residual=off&norm=post&seed=3', 'depth=12&seed=3']) {
      const args = [...new URLSearchParams(query)].flatMap(([k, v]) => [`--${k}`, v]).concat(['--steps', '0']);
      const cli = await ablate(args, { timeout: 30_000 });
      await load(`/?${query}`);
      const web = await state(page);
      for (const key of ['act_std', 'grad_norm']) {
        const [a, b] = [cli.init[key], web.init[key]];
        assert(Array.isArray(a) && Array.isArray(b), `${query}: init.${key} missing (CLI ${typeof a}, page ${typeof b})`);
        assert(a.length === 13 && b.length === 13, `${query}: init.${key} should have 13 entries: CLI ${a.length}, page ${b.length}`);
        const i = a.findIndex((x, k) => !Object.is(x, b[k]));
        assert(i === -1, `${query}: init.${key}[${i}] differs: CLI ${a[i]}, page ${b[i]}`);
      }
      assert(Object.is(cli.init.readout_std, web.init.readout_std), `${query}: readout_std CLI ${cli.init.readout_std}, page ${web.init.readout_std}`);
    }
  });

  test('the default looks healthy: act. std = 1.00 at init and the histogram stays inside its axis', async ({ page, load }) => {
    await load('/?steps=300&autoplay=off');
    const s = await waitStatus(page, /^12 layers · Residual ON · LayerNorm ON \(pre\) · act\. std = 1\.00 · /);
    assert(s.loss > 0.3 && s.loss < 5, `the initial loss is of order 1: ${s.text}`);
    await play(page);
    await waitStatus(page, /· finished$/, 30_000);
    const j = await state(page);
    const h = j.histogram;
    const total = h.counts.reduce((a, b) => a + b, 0) + h.below + h.above + h.nan;
    assert((h.below + h.above) / total <= 0.05, `after ${j.step} steps ${h.below + h.above} of ${total} values lie beyond the axis`);
    const summary = await el(page, 'histogram-summary').textContent();
    assert(/values the readout reads, the final LayerNorm of the stream's top x_L/.test(summary), `the histogram's summary says what it shows: ${summary}`);
    assert(j.now.act_std[12] > 1.5, `the stream itself grows with depth: ${j.now.act_std[12]}`);
  });

  test('after training, the histogram keeps the initialisation as an outline and says why act. std left 1.00', async ({ page, load }) => {
    await load('/?steps=3000');
    const s = await waitStatus(page, /· finished$/, 60_000);
    const [std] = s.text.match(/act\. std = ([0-9.]+)/).slice(1);
    assert(Number(std) < 0.9, `the default page's act. std after 3000 steps: ${s.text}`);
    const summary = await el(page, 'histogram-summary').textContent();
    assert(new RegExp(`At initialisation \\(the outline\\) its std was 1\\.00; now it is ${std.replace('.', '\\.')}: before its learned scale γ and shift β the norm's output still has std 1\\.00`).test(summary), `the histogram says why: ${summary}`);
    assert((await el(page, 'histogram').getAttribute('aria-label')) === summary, 'the canvas is named by it');
    const caption = await el(page, 'caption').textContent();
    assert(caption.includes(`act. std has gone from 1.00 at initialisation to ${std}: the norm's learned γ and β.`), `the caption under the status line says it too: ${caption}`);
  });

  test('the Preset menu sets every parameter; a preset in the URL applies first', async ({ page, load }) => {
    await load('/?depth=24&preset=explode&autoplay=off');
    const s = await waitStatus(page, /^24 layers · Residual OFF · LayerNorm OFF · /);
    assert(s.std > 20, `explode blows up: ${s.text}`);
    assert((await page.locator('main[data-ap-root] [data-el="preset"]').inputValue()) === 'custom', 'depth 24 is no preset');
    await page.getByText('More').click();
    await page.getByLabel('Preset').selectOption('default');
    await waitStatus(page, /^12 layers · Residual ON · LayerNorm ON \(pre\) · act\. std = 1\.00 · /);
    assert((await page.getByLabel('Optimiser').inputValue()) === 'adam', 'the preset set the optimiser too');
    await page.getByLabel('Preset').selectOption('explode');
    await waitStatus(page, /^12 layers · Residual OFF · LayerNorm OFF · /);
    await page.getByRole('button', { name: 'Step' }).click();
    await page.getByRole('button', { name: 'Step' }).click();
    await page.getByRole('button', { name: 'Step' }).click();
    await waitStatus(page, /· diverged at step [0-9]$/);
    await page.waitForFunction(() => !location.search.includes('preset') && location.search.includes('optimizer=sgd'), null, { timeout: 3000 })
      .catch(async () => assert(false, `the address should carry every parameter and no preset: ${await page.evaluate(() => location.search)}`));
  });

  test('the histogram axis buttons fit the axis to the data and back to −4…4', async ({ page, load }) => {
    // Both off at depth 12: the activations are tiny, so on the default axis they fill one bin.
    await load('/?depth=12&residual=off&norm=off');
    await pause(page);
    await page.getByRole('button', { name: 'Reset' }).click();
    await frames(page, 2);
    let h = (await state(page)).histogram;
    assert(h.lo === -4 && h.hi === 4, `default axis should be −4…4, is ${h.lo}…${h.hi}`);
    const before = await canvasHash(page, 'histogram');
    // At a reader's pace: the text readouts are refreshed at most every 250 ms and (the same
    // page bug as the Pause test) a click sooner than that after the last refresh is never
    // reflected in the histogram summary while paused.
    await page.waitForTimeout(300);
    await page.getByRole('button', { name: 'Fit axis to data' }).click();
    await frames(page, 2);
    h = (await state(page)).histogram;
    assert(h.hi < 1 && h.lo === -h.hi && h.below === 0 && h.above === 0, `fitted axis ${h.lo}…${h.hi} (below ${h.below}, above ${h.above})`);
    assert((await canvasHash(page, 'histogram')) !== before, 'the histogram was not redrawn on the fitted axis');
    assert(/from -0\.\d+ to 0\.\d+/.test(await el(page, 'histogram-summary').textContent()), 'the histogram summary should name the fitted axis');
    await page.getByRole('button', { name: 'Axis −4…4' }).click();
    await frames(page, 2);
    h = (await state(page)).histogram;
    assert(h.lo === -4 && h.hi === 4, `axis should be back to −4…4, is ${h.lo}…${h.hi}`);
    assert((await canvasHash(page, 'histogram')) === before, 'back on −4…4 the histogram should look as before');
  });

  test('dark colour scheme: charts drawn on a dark background', async ({ page, load, shot }) => {
    await load('/');
    for (const name of ['histogram', 'loss', 'depthplot']) {
      const [r, g, b] = await page.evaluate(
        (n) => [...document.querySelector(`[data-el="${n}"]`).getContext('2d').getImageData(2, 2, 1, 1).data],
        name,
      );
      assert(r < 80 && g < 80 && b < 80, `${name} canvas background is rgb(${r}, ${g}, ${b}) in dark mode`);
      assert((await canvasColours(page, name)).colours > 2, `${name} canvas looks blank in dark mode`);
    }
    await shot('dark');
  }, { colorScheme: 'dark' });
}
