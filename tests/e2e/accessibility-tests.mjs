// The page by keyboard alone, on a phone, with reduced motion, and under axe-core (WCAG 2.2 AA).
//
// Registered into run.mjs's runner, so every test here also fails on any console error,
// uncaught exception, failed request or visible error box.

import { PARAMS } from '../../www/schema.js';
import { assert, AssertionError, test, waitFor } from './harness.mjs';
import { axeViolations, frames, state } from './lib.mjs';
import { el, pause, play, status, waitStatus } from './page.mjs';

export default function registerAccessibilityTests() {
  test('keyboard alone reaches and operates every control, with a visible focus ring', async ({ page, load }) => {
    await load('/?depth=12');
    const focused = () =>
      page.evaluate(() => {
        const a = document.activeElement;
        const style = getComputedStyle(a);
        return {
          id: a.dataset.el ?? a.dataset.param ?? (a.type === 'radio' ? `radio:${a.value}` : a.tagName.toLowerCase()),
          inside: Boolean(a.closest('main[data-ap-root]')),
          focusVisible: a.matches(':focus-visible'),
          outline: `${style.outlineStyle} ${style.outlineWidth}`,
        };
      });
    // Focusable things the walk may pass on the way: anything before the widget (the page's
    // header links) and widget controls beyond this test's list (the Copy link button).
    const PASSABLE = new Set(['copy', 'link']);
    const tab = async (expected) => {
      for (let extra = 0; ; extra++) {
        await page.keyboard.press('Tab');
        const f = await focused();
        if (f.id !== expected && extra < 5 && (!f.inside || PASSABLE.has(f.id))) {
          if (f.inside) assert(f.focusVisible && !f.outline.startsWith('none'), `${f.id} has no visible focus outline (${f.outline})`);
          continue;
        }
        assert(f.id === expected, `Tab should reach ${expected}, reached ${f.id}`);
        assert(f.focusVisible, `${expected} is focused without :focus-visible`);
        assert(!f.outline.startsWith('none') && !f.outline.endsWith(' 0px'), `${expected} has no visible focus outline (${f.outline})`);
        return;
      }
    };

    // The slider: arrows, PageUp, Home, End.
    await tab('depth');
    const depthNow = async () => Number(await page.getByRole('slider', { name: 'Depth' }).inputValue());
    const expectDepth = async (d) => {
      assert((await depthNow()) === d, `slider value ${await depthNow()}, expected ${d}`);
      await waitStatus(page, new RegExp(`^${d} (layer|layers) · `));
    };
    await page.keyboard.press('ArrowRight');
    await expectDepth(13);
    await page.keyboard.press('PageUp');
    await expectDepth(23);
    await page.keyboard.press('PageDown');
    await expectDepth(13);
    await page.keyboard.press('PageDown');
    await expectDepth(3);
    await page.keyboard.press('PageDown');
    await expectDepth(1);
    await page.keyboard.press('Home');
    await expectDepth(1);
    await page.keyboard.press('End');
    await expectDepth(96);
    await page.keyboard.press('ArrowLeft');
    await expectDepth(95);

    // The switches: Space toggles them.
    await tab('residual');
    const residual = page.getByRole('switch', { name: 'Residual' });
    await page.keyboard.press('Space');
    assert(!(await residual.isChecked()), 'Space should switch the residual off');
    await waitStatus(page, /· Residual OFF · LayerNorm ON \(pre\) ·/);
    await page.keyboard.press('Space');
    assert(await residual.isChecked(), 'Space should switch the residual back on');
    await waitStatus(page, /· Residual ON · LayerNorm ON \(pre\) ·/);

    await tab('layernorm');
    const layernorm = page.getByRole('switch', { name: 'LayerNorm' });
    await page.keyboard.press('Space');
    assert(!(await layernorm.isChecked()), 'Space should switch LayerNorm off');
    await waitStatus(page, /· Residual ON · LayerNorm OFF ·/);
    assert(await el(page, 'placement').isHidden(), 'the placement radios should hide with LayerNorm off');
    await page.keyboard.press('Space');
    assert(await layernorm.isChecked(), 'Space should switch LayerNorm back on');
    await waitStatus(page, /· LayerNorm ON \(pre\) ·/);
    assert(await el(page, 'placement').isVisible(), 'the placement radios should show again');

    // The placement radios: Tab reaches the checked one, arrows choose.
    await tab('radio:pre');
    await page.keyboard.press('ArrowRight');
    assert(await page.getByRole('radio', { name: 'post' }).isChecked(), 'ArrowRight should select post');
    await waitStatus(page, /· LayerNorm ON \(post\) ·/);
    await page.keyboard.press('ArrowLeft');
    await waitStatus(page, /· LayerNorm ON \(pre\) ·/);

    // The Task menu, next to the switches (choosing from it is the task tests' business).
    await tab('task');

    // Play/Pause, Step, Reset.
    await tab('play');
    await page.keyboard.press('Space');
    assert((await el(page, 'play').textContent()) === 'Play', 'Space on Pause should pause');
    await frames(page, 2);
    await tab('step');
    const before = (await state(page)).step;
    await page.keyboard.press('Enter');
    assert((await state(page)).step === before + 1, 'Enter on Step should take exactly one step');
    await tab('reset');
    await page.keyboard.press('Enter');
    assert((await state(page)).step === 0, 'Enter on Reset should restart at step 0');

    // More: Enter opens it; its controls follow in the tab order.
    // The comparisons' buttons follow.
    for (const name of ['pin', 'run-compare', 'run-sweep', 'run-depth-width', 'run-knockout']) await tab(name);
    // Download: Enter opens its menu, and again closes it
    await tab('summary');
    await page.keyboard.press('Enter');
    assert(await page.locator('[data-ap-root] details[data-control="download"]').evaluate((d) => d.open), 'Enter on Download should open it');
    await page.keyboard.press('Enter');
    await tab('summary');
    await page.keyboard.press('Enter');
    assert(await page.locator('details[data-control="more"]').evaluate((d) => d.open), 'Enter on More should open it');
    // the More panel's fields, in the parameter table's order (the schema the panel is built from)
    // (the task has its menu beside the switches, the temperature its field in "The model writes",
    // the attention panel's layer and the per-layer panel's view their menus in those panels)
    const more = PARAMS.map((p) => p.name).filter((n) => !['depth', 'residual', 'norm', 'task', 'temperature', 'attention_layer', 'layer_view', 'steps'].includes(n));
    // the seed, Steps, then the comparisons' seeds and tuning (the table's order)
    const seedAt = more.indexOf('seed');
    assert(more.slice(seedAt).join() === 'seed,seeds,tune,tune_grid,choose_seeds,halving,until', `the seed is the last field before Steps, the comparisons' after it: ${more}`);
    for (const param of ['preset', ...more.slice(0, seedAt + 1)]) await tab(param);

    // A control inside More, operated from the keyboard: the seed.
    await page.keyboard.press('ArrowUp'); // number input: 1 → 2
    await page.keyboard.press('Enter'); // commits (change event)
    await page.waitForFunction(() => window.ablationPlayground.playground.get('seed') === '2', null, { timeout: 3000 }).catch(() => {
      throw new AssertionError('ArrowUp + Enter in the Seed field should set seed 2');
    });
    await tab('steps');
    for (const param of more.slice(seedAt + 1)) await tab(param);
    await tab('rescale');
    await tab('reset-scale');
  });

  test('phone layout (320 px): no horizontal overflow, panels stacked, switches a full touch target', async ({ page, load, shot }) => {
    await load('/');
    await frames(page, 2);
    const check = async (what) => {
      const widths = await page.evaluate(() => ({
        doc: document.documentElement.scrollWidth,
        body: document.body.scrollWidth,
        inner: innerWidth,
      }));
      assert(widths.inner === 320, `viewport should be 320 px wide, is ${widths.inner}`);
      assert(widths.doc <= 320 && widths.body <= 320, `${what}: page is ${widths.doc} px wide (body ${widths.body}) at a 320 px viewport`);
    };
    await check('closed');
    const boxes = [];
    for (const panel of ['histogram', 'loss', 'depth']) {
      const box = await page.locator(`[data-panel="${panel}"]`).boundingBox();
      assert(box, `panel ${panel} is not rendered`);
      assert(box.x >= 0 && box.x + box.width <= 320, `panel ${panel} sticks out: x ${box.x}, width ${box.width}`);
      boxes.push({ panel, ...box });
    }
    for (let i = 1; i < boxes.length; i++) {
      const [a, b] = [boxes[i - 1], boxes[i]];
      assert(b.y >= a.y + a.height - 0.5, `panels ${a.panel} and ${b.panel} are not stacked (y ${a.y}+${a.height} vs ${b.y})`);
    }
    for (const name of ['Residual', 'LayerNorm']) {
      const label = await page.getByRole('switch', { name }).evaluate((input) => input.closest('label').getBoundingClientRect().height);
      assert(label >= 24, `the ${name} switch's label, its touch target, is ${label} px tall`);
    }
    await shot('phone-320', { fullPage: true });
    await page.getByRole('button', { name: 'Copy link' }).click();
    await frames(page, 2);
    await check('with the copied link shown');
    await page.getByText('More', { exact: true }).click();
    await frames(page, 2);
    await check('with More open');
    await shot('phone-320-more', { fullPage: true });
  }, { viewport: { width: 320, height: 640 } });

  test('with reduced motion the page starts paused and trains only on request', async ({ page, load }) => {
    await load('/');
    const button = page.getByRole('button', { name: 'Play' });
    assert((await button.count()) === 1, 'the button should read Play');
    await page.waitForTimeout(500);
    assert((await state(page)).step === 0, 'no training should happen before the reader presses Play');
    await play(page);
    await page.waitForTimeout(500);
    assert((await state(page)).step > 0, 'Play should start training');
  }, { reducedMotion: 'reduce' });

  test('axe-core finds no WCAG 2.2 AA violation in the example lesson (ten elements), the comparison panels and a sequence task\'s panels', async ({ page, baseUrl }) => {
    await page.goto(`${baseUrl}/www/lesson.html`);
    await waitFor(page, () => [...document.querySelectorAll('ablation-playground')].every((e) => e.shadowRoot?.querySelector('[data-el="status"]')), null,
      'the lesson\'s elements were not mounted', 30_000);
    await waitFor(page, () => document.querySelector('ablation-playground').value?.step > 0, null, 'the first element did not start');
    const lesson = await axeViolations(page);
    assert(lesson.length === 0, `the lesson: ${lesson.join('; ')}`);
    await page.goto(`${baseUrl}/?depth=3&width=8&tokens=8&panels=compare,knockout,loss`);
    await waitFor(page, () => window.ablationPlayground?.value?.compare?.runs.every((r) => r.done), null, 'All four did not finish', 30_000);
    await page.getByRole('button', { name: 'Knock out each layer' }).click();
    await waitFor(page, () => window.ablationPlayground.value.knockout?.loss?.length === 3, null, 'the knockout did not finish');
    const panels = await axeViolations(page);
    assert(panels.length === 0, `the comparison panels: ${panels.join('; ')}`);
    // the copy task: the Task menu, "The model writes" with its marked mistakes, the temperature
    await page.goto(`${baseUrl}/?preset=copy&steps=5&depth=2`);
    await waitFor(page, () => document.querySelector('[data-ap-root] [data-el="writes-text"]')?.textContent.includes('|'), null, 'the copy examples did not show');
    const task = await axeViolations(page);
    assert(task.length === 0, `the copy task's panels: ${task.join('; ')}`);
  });
}
