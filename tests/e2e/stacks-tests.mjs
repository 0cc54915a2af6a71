// End-to-end tests of lesson 000's two stacks: the mask switch on the text, the
// encoder-decoder on the reverse task, its cross-attention map and sentence, operated by keyboard,
// with the native CLI's numbers and no axe violation.
//
// Registered into run.mjs's runner, so every test here also fails on any console error,
// uncaught exception, failed request or visible error box.

import { ablate, axeViolations } from './lib.mjs';
import { assert, test, waitFor } from './harness.mjs';

export default function registerStacksTests() {
  const value = (page) => page.evaluate(() => window.ablationPlayground.value);
  const status = (page) => page.textContent('[data-ap-root] [data-el="status"]');
  const summary = (page, name) => page.textContent(`[data-ap-root] [data-panel="${name}"] figcaption`);

  test('Encoder and decoder: the preset writes strings back reversed, the status line splits the depth, the cross-attention map is chosen by keyboard and names the head that reads the mirrored position, as the CLI computes it', async ({ page, load, note }) => {
    await load('/?preset=encoder-decoder');
    note('training the encoder-decoder on reverse');
    await waitFor(page, () => (window.ablationPlayground.value?.accuracy ?? 0) >= 0.95, null,
      async () => `the preset did not copy 95%: ${JSON.stringify((await value(page))?.accuracy)}`, 60_000);
    const s = await status(page);
    assert(/^10 layers · Residual ON · LayerNorm ON \(pre\) · act\. std = [\d.]+ · loss [\d.e-]+ · 2 encoder \+ 2 decoder layers · held-out [\d.e-]+ · \d+% copied/.test(s), `the status line: ${s}`);
    const depth = await summary(page, 'depth');
    assert(/Sublayers 0–3 are the encoder's .* 4–9 the decoder's/.test(depth), `the per-layer panel names the split: ${depth}`);
    // the attention panel's layer menu names each sublayer; the keyboard reaches the cross-attention
    const select = page.locator('[data-ap-root] [data-panel="attention"] select');
    const options = await select.locator('option').allTextContents();
    assert(options.some((o) => /decoder layer 1, cross-attention/.test(o)) && options.some((o) => /encoder layer 1, self-attention/.test(o)), `the menu names the sublayers: ${options}`);
    await select.focus();
    for (let i = 0; i < 6 && (await value(page)).attention?.kind !== 'cross'; i++) {
      await page.keyboard.press('ArrowDown');
      await page.waitForTimeout(300);
    }
    await waitFor(page, () => window.ablationPlayground.value.attention?.kind === 'cross', null, 'the keyboard did not reach a cross-attention map');
    const v = await value(page);
    assert(v.attention.name === 'decoder layer 1, cross-attention', `the map shown: ${v.attention.name}`);
    const best = Math.max(...v.attention.heads.map((h) => h.answer_share));
    assert(best > 0.5, `a head reads the mirrored source position: ${JSON.stringify(v.attention.heads)}`);
    await waitFor(page, () => /Head \d reads the answer: \d+% of its weight on the mirrored source position/.test(document.querySelector('[data-ap-root] [data-panel="attention"] figcaption').textContent),
      null, async () => `the sentence: ${await summary(page, 'attention')}`);
    const heads = await page.locator('[data-ap-root] [data-el="attention-heads"] li').allTextContents();
    assert(heads.some((h) => /^decoder layer 1, cross-attention, head \d: \d+% of its weight on the mirrored source position$/.test(h)), `a sentence per head: ${heads}`);
    // both read at once: the sentence changes with every frame while the run trains
    const named = await page.evaluate(() => {
      const p = document.querySelector('[data-ap-root] [data-panel="attention"]');
      return { summary: p.querySelector('figcaption').textContent, label: p.querySelector('canvas').getAttribute('aria-label') };
    });
    assert(named.label === named.summary, `the canvas is named by its sentence: ${named.label} / ${named.summary}`);
    // the page's numbers are the native CLI's, bit for bit, once the run has finished
    await waitFor(page, () => window.ablationPlayground.value.finished, null, 'the run did not finish its 1000 steps', 60_000);
    const done = await value(page);
    const cli = await ablate(['--preset', 'encoder-decoder']);
    assert(Object.is(done.val_loss, cli.task.val_loss.at(-1)[1]) && Object.is(done.accuracy, cli.task.accuracy.at(-1)[1]),
      `page ${done.val_loss} ${done.accuracy}, CLI ${JSON.stringify(cli.task.val_loss.at(-1))} ${JSON.stringify(cli.task.accuracy.at(-1))}`);
    const found = await axeViolations(page);
    assert(found.length === 0, found.join('; '));
  });

  test('The mask switch: chosen under More by keyboard, the text stack reads the character it must predict; the status line and the caption give its loss as trained and with the future hidden, and a head looks ahead', async ({ page, load, note }) => {
    note('loading the text preset');
    await load('/?preset=text&depth=2&steps=400');
    note('turning the mask off by keyboard');
    await page.getByText('More', { exact: true }).click();
    const mask = page.getByRole('combobox', { name: 'Mask', exact: true });
    assert((await mask.inputValue()) === 'causal', 'the mask is on by default');
    await mask.focus();
    await page.keyboard.press('ArrowDown');
    await waitFor(page, () => window.ablationPlayground.value?.mask === 'none', null, 'the keyboard did not turn the mask off');
    await waitFor(page, () => new URLSearchParams(location.search).get('mask') === 'none', null, () => `the address did not follow: ${page.url()}`);
    note('training without the mask');
    await waitFor(page, () => window.ablationPlayground.value.finished, null, 'the run did not finish', 60_000);
    const v = await value(page);
    assert(v.loss_future_hidden > 2 * v.val_loss, `the future visible ${v.val_loss}, hidden ${v.loss_future_hidden}`);
    const s = await status(page);
    assert(/ · no mask · held-out [\d.]+ \([\d.]+ future hidden\)/.test(s), `the status line: ${s}`);
    const caption = await page.textContent('[data-ap-root] [data-el="caption"]');
    assert(/Without the mask every position sees the character it must predict\. Held-out loss [\d.]+ as trained \(the future visible\), [\d.]+ with the future hidden/.test(caption), `the caption: ${caption}`);
    assert(v.attention.heads.some((h) => h.offset < 0 && h.share > 0.3), `a head looks ahead: ${JSON.stringify(v.attention.heads)}`);
    const heads = await page.locator('[data-ap-root] [data-el="attention-heads"] li').allTextContents();
    assert(heads.some((h) => /position ahead/.test(h)), `the sentences say it: ${heads}`);
    note('the same run by ablate');
    const cli = await ablate(['--preset', 'text', '--depth', '2', '--steps', '400', '--mask', 'none']);
    assert(Object.is(v.loss_future_hidden, cli.task.loss_future_hidden.at(-1)[1]), `page ${v.loss_future_hidden}, CLI ${JSON.stringify(cli.task.loss_future_hidden.at(-1))}`);
    // (the test's own budget above its waits: its 60 s wait for the run used to race the
    // runner's 60 s for the whole test, which then failed without saying what it waited for)
  }, { timeoutMs: 120_000 });

  test('The Stack control on the regression: by keyboard it brings the reverse task at 10 sublayers, says so in a notice, and trains the encoder-decoder', async ({ page, load }) => {
    await load('/?steps=300');
    await page.getByText('More', { exact: true }).click();
    const stack = page.getByRole('combobox', { name: 'Stack', exact: true });
    await stack.focus();
    await page.keyboard.press('ArrowDown');
    await waitFor(page, () => window.ablationPlayground.value?.stack === 'encoder-decoder', null, 'the keyboard did not choose the encoder-decoder');
    const v = await value(page);
    assert(v.task === 'reverse' && v.depth === 10, `the stack brought its task: ${v.task} at depth ${v.depth}`);
    await waitFor(page, () => /chose the reverse task/.test(document.querySelector('main [data-el="notice"]').textContent), null,
      async () => `no notice: ${await page.textContent('main [data-el="notice"]')}`);
    await waitFor(page, () => / · 2 encoder \+ 2 decoder layers · /.test(document.querySelector('[data-ap-root] [data-el="status"]').textContent), null,
      async () => `the status line: ${await status(page)}`, 20_000);
  });
}
