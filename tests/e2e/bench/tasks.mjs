// The sequence tasks' and the stacks' benchmarks (tests/e2e/bench.mjs, --tasks, --stacks,
// --reader): their steps and frames a second, the encoder-decoder against a decoder-only stack,
// a reader's text.

import { median } from '../lib.mjs';
import { fmt, mib, open, QUICK, TRAIN_SECONDS, window_ } from './common.mjs';

/** The sequence tasks' part of the benchmark (see main). */
export async function tasks(browser, server, row, out, problems) {
  const settings = [
    ['text, defaults (block depth 12, 128 tokens as 4 × 32)', '/?preset=text&steps=1000000'],
    ['teacher, the same stack and tokens', '/?preset=text&task=teacher&steps=1000000'],
    ['copy, defaults (block depth 12, 8 × 16)', '/?preset=copy&steps=1000000'],
    ['text, block depth 96, width 128, 256 tokens as 4 × 64', '/?preset=text&depth=96&width=128&tokens=256&context=64&steps=1000000'],
    ['text, block depth 96, width 128, one sequence of 256', '/?preset=text&depth=96&width=128&tokens=256&context=256&steps=1000000'],
    // the largest attention maps a frame carries (4 heads of 256 × 256) at the fastest steps
    ['text, block depth 2, one sequence of 256', '/?preset=text&depth=2&tokens=256&context=256&steps=1000000'],
  ];
  out.push('| sequence task | steps/s | frames/s | longest main-thread task | writing, share of the worker |', '|---|---:|---:|---:|---:|');
  for (const [label, path] of settings) {
    const p = await open(browser, server, path);
    await p.page.waitForTimeout(3000);
    const w = await window_(p.page, TRAIN_SECONDS);
    const share = await p.page.evaluate(() => window.ablationPlayground.playground.timings?.writeShare ?? NaN);
    problems.push(...p.problems);
    await p.context.close();
    row(label, w.stepsPerSecond.toFixed(1), w.fps.toFixed(1), w.longTasks ? `${fmt(w.longest)} ms (${w.longTasks} over 50 ms)` : 'none over 50 ms', Number.isFinite(share) ? `${(100 * share).toFixed(1)}%` : '–');
  }
  out.push('');
}
/**
 * Lesson 000's two stacks (`--stacks`): the encoder-decoder's pace against the decoder-only
 * stack of as many sublayers on the same reverse batches, taking turns on fresh pages (steps/s
 * over a window, and the wasm step); the preset's time from load to 95% copied; and the frame
 * rate and longest main-thread task while the largest encoder-decoder trains with its
 * cross-attention map shown.
 */
export async function stacksBench(browser, server, row, out, problems) {
  const pace = async (path) => {
    const p = await open(browser, server, path);
    await p.page.waitForTimeout(2000);
    const w = await window_(p.page, TRAIN_SECONDS);
    problems.push(...p.problems);
    await p.context.close();
    return w;
  };
  out.push('| encoder-decoder ÷ decoder-only, same sublayers (pairs in turn) | steps/s, each pair | median ratio of steps/s | median ratio of the wasm step |', '|---|---|---:|---:|');
  for (const [label, query] of [['the preset: 10 sublayers, width 32, 8 × 16 tokens', 'preset=encoder-decoder&steps=1000000'],
    ['95 sublayers, width 64, 16 × 16 tokens', 'preset=encoder-decoder&depth=95&width=64&tokens=256&steps=1000000']]) {
    const pairs = [];
    for (let i = 0; i < 3; i++) {
      const order = i % 2 ? ['decoder', 'encoder-decoder'] : ['encoder-decoder', 'decoder'];
      const got = {};
      for (const stack of order) got[stack] = await pace(`/?${query}&stack=${stack}`);
      pairs.push(got);
    }
    const ratio = (f) => median(pairs.map((g) => f(g['encoder-decoder']) / f(g.decoder)));
    row(label, pairs.map((g) => `${g['encoder-decoder'].stepsPerSecond.toFixed(0)} / ${g.decoder.stepsPerSecond.toFixed(0)}`).join('; '),
      ratio((w) => w.stepsPerSecond).toFixed(2), ratio((w) => w.stepMs).toFixed(2));
  }
  out.push('');
  out.push('| the encoder-decoder preset in Chromium | value |', '|---|---:|');
  for (let i = 0; i < 3; i++) {
    const t0 = Date.now();
    const p = await open(browser, server, '/?preset=encoder-decoder');
    await p.page.waitForFunction(() => (window.ablationPlayground.value?.accuracy ?? 0) >= 0.95, null, { timeout: 120_000, polling: 50 });
    const step = await p.page.evaluate(() => window.ablationPlayground.value.step);
    problems.push(...p.problems);
    await p.context.close();
    row(`load to 95% copied (run ${i + 1})`, `${((Date.now() - t0) / 1000).toFixed(1)} s (step ${step})`);
  }
  for (const [label, query] of [['the preset, the cross-attention map shown', 'preset=encoder-decoder&attention_layer=5&steps=1000000'],
    ['95 sublayers, width 128, 256 tokens as 8 × 32, cross-attention shown', 'preset=encoder-decoder&depth=95&width=128&tokens=256&context=32&attention_layer=93&steps=1000000']]) {
    const w = await pace(`/?${query}`);
    row(`${label}: steps/s; frames/s; longest main-thread task`, `${w.stepsPerSecond.toFixed(1)}; ${w.fps.toFixed(1)}; ${w.longTasks ? `${fmt(w.longest)} ms (${w.longTasks} over 50 ms)` : 'none over 50 ms'}`);
  }
  out.push('');
}
/**
 * What a reader brings and takes away (`--reader`), each timed on the page, median of
 * REPEATS fresh pages: a 5 MB text from its drop to the first step on it (the worker checks it,
 * counts its floors and builds the run); the same for 1 MB (whose floors the sentence shows);
 * the prompt's first character after Enter (the first frame whose writing continues it, at the
 * text's defaults and at depth 96, width 128); and the weights' download at depth 96, width 128
 * (from the click to the file). Also the longest main-thread task in each.
 */
export async function readerBench(browser, server, row, out, problems) {
  const { madeUpText } = await import('../own-text-tests.mjs');
  const repeats = QUICK ? 1 : 3;
  const longest = (page) => page.evaluate(() => Math.max(0, ...window.__long));
  const watchLong = (page) => page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__long.push(e.duration))).observe({ type: 'longtask' });
  });
  out.push('| a reader\'s text, prompt and files | median (each) | longest main-thread task |', '|---|---:|---:|');
  for (const mb of [5, 1]) {
    const text = madeUpText(mb * 1_000_000, mb);
    const times = [];
    let worst = 0;
    for (let i = 0; i < repeats; i++) {
      const p = await open(browser, server, '/?preset=text&steps=1000000');
      const dt = await p.page.evaluateHandle((t) => {
        const d = new DataTransfer();
        d.items.add(new File([t], 'big.txt', { type: 'text/plain' }));
        return d;
      }, text);
      await watchLong(p.page);
      const t0 = await p.page.evaluate(() => performance.now());
      await p.page.locator('[data-ap-root]').dispatchEvent('drop', { dataTransfer: dt });
      await p.page.waitForFunction((n) => (window.ablationPlayground.value?.text_id ?? '').includes(`.${n}.`) && window.ablationPlayground.playground.step > 0, mb * 1_000_000, { timeout: 60_000, polling: 5 });
      times.push((await p.page.evaluate(() => performance.now())) - t0);
      worst = Math.max(worst, await longest(p.page));
      problems.push(...p.problems);
      await p.context.close();
    }
    row(`${mb} MB text: drop → its floors counted and the first step on it`, `${fmt(median(times))} ms (${times.map(fmt).join(', ')})`, `${fmt(worst)} ms`);
  }
  for (const [label, path] of [['text defaults', '/?preset=text&steps=1000000'], ['depth 96, width 128', '/?preset=text&depth=96&width=128&steps=1000000']]) {
    const times = [];
    const firsts = [];
    let worst = 0;
    for (let i = 0; i < repeats; i++) {
      const p = await open(browser, server, path);
      await p.page.waitForTimeout(2000);
      await watchLong(p.page);
      const field = p.page.getByRole('textbox', { name: 'Prompt' });
      const prompt = ['ROMEO.', 'JULIET.', 'HAMLET.'][i % 3];
      await field.fill(prompt);
      const t0 = await p.page.evaluate(() => performance.now());
      await field.press('Enter');
      // the first character after the prompt, then the whole continuation (its announcement)
      await p.page.waitForFunction((prompt) => {
        const heading = document.querySelector('[data-ap-root] [data-el="writes-heading"]').textContent;
        const text = document.querySelector('[data-ap-root] [data-el="writes-text"]').textContent;
        return heading.includes(JSON.stringify(prompt).slice(1, -1)) && text.length > prompt.length;
      }, prompt, { timeout: 120_000, polling: 5 });
      firsts.push((await p.page.evaluate(() => performance.now())) - t0);
      await p.page.waitForFunction(() => document.querySelector('[data-ap-root] [data-el="prompt-said"]').textContent.length > 0, null, { timeout: 180_000, polling: 5 });
      times.push((await p.page.evaluate(() => performance.now())) - t0);
      worst = Math.max(worst, await longest(p.page));
      problems.push(...p.problems);
      await p.context.close();
    }
    row(`prompt, ${label}: Enter → its first character drawn`, `${fmt(median(firsts))} ms (${firsts.map(fmt).join(', ')})`, '');
    row(`prompt, ${label}: Enter → all 200 characters, announced (training waits for it)`, `${fmt(median(times))} ms (${times.map(fmt).join(', ')})`, `${fmt(worst)} ms`);
  }
  {
    const times = [];
    let worst = 0;
    let bytes = 0;
    for (let i = 0; i < repeats; i++) {
      const p = await open(browser, server, '/?preset=text&depth=96&width=128&steps=1000000');
      await p.page.waitForTimeout(2000);
      await watchLong(p.page);
      await p.page.getByText('Download', { exact: true }).click();
      const t0 = await p.page.evaluate(() => performance.now());
      const [download] = await Promise.all([p.page.waitForEvent('download'), p.page.getByRole('button', { name: 'Weights (safetensors)' }).click()]);
      times.push((await p.page.evaluate(() => performance.now())) - t0);
      bytes = (await import('node:fs/promises')).stat(await download.path()).then((s) => s.size);
      bytes = await bytes;
      worst = Math.max(worst, await longest(p.page));
      problems.push(...p.problems);
      await p.context.close();
    }
    row(`weights at depth 96, width 128 (${mib(bytes)}): click → the file`, `${fmt(median(times))} ms (${times.map(fmt).join(', ')})`, `${fmt(worst)} ms`);
  }
  out.push('');
}
