// End-to-end tests of what a reader brings and takes away: a text of their own,
// pasted, dropped, chosen or fetched from text-src, trained on bit for bit as `ablate --text`
// trains on it; every kind of bad text refused in words while the widget trains on; a link
// to a run on a reader's text that asks for that text and refuses another; a prompt the stack
// continues as `ablate --prompt` does; and the downloads (the run as JSON in the CLI's schema,
// the weights byte for byte as `ablate --save-weights` writes them, the loss as CSV, each chart
// as SVG and PNG).

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ablate, ABLATE } from './lib.mjs';
import { assert, test, waitFor } from './harness.mjs';

const run = promisify(execFile);

/** A text of `n` characters of made-up words: a few dozen distinct characters, seeded. */
export function madeUpText(n, seed = 1) {
  const syllables = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'ri', 'po', 'the', 'and', 'ing', 'qu'];
  let x = seed >>> 0 || 1;
  const next = () => ((x = (x * 1103515245 + 12345) >>> 0) >>> 16) % 65536;
  let out = '';
  while (out.length < n) {
    const word = Array.from({ length: 1 + (next() % 3) }, () => syllables[next() % syllables.length]).join('');
    out += word + (next() % 9 === 0 ? '.\n' : next() % 5 === 0 ? ', ' : ' ');
  }
  return out.slice(0, n);
}

export default function registerOwnTextTests() {
  const el = (page, name) => page.locator(`[data-ap-root] [data-el="${name}"]`);
  const value = (page) => page.evaluate(() => window.ablationPlayground.value);
  const notice = (page) => el(page, 'notice').textContent();
  // (settled: the frame on screen answers the newest state, not the run before a restart)
  const finished = (page, what) => waitFor(page, () => window.ablationPlayground.playground?.settled && window.ablationPlayground.value?.finished, null, `${what}: the run did not finish`, 60_000);
  /** Pastes `text` and asks to train on it. */
  async function paste(page, text) {
    if (!(await el(page, 'text-paste').isVisible())) await page.getByText('Paste a text', { exact: true }).click();
    await el(page, 'text-paste').fill(text);
    await page.getByRole('button', { name: 'Train on the pasted text' }).click();
  }
  const ownId = (page) => waitFor(page, () => /^[0-9a-f]{64}\./.test(window.ablationPlayground.value?.text_id ?? ''), null, 'the run is not on a reader\'s text', 20_000);

  test('a pasted text trains bit for bit as ablate --text, and a link to the run asks for that text and refuses another', async ({ page, load, note }) => {
    const dir = await mkdtemp(join(tmpdir(), 'ap-text-'));
    const a = madeUpText(5000, 7);
    await writeFile(join(dir, 'a.txt'), a);
    const cli = await ablate(['--preset', 'text', '--depth', '2', '--steps', '60', '--text', join(dir, 'a.txt')]);
    note('pasted');
    await load('/?preset=text&depth=2&steps=60');
    await paste(page, a);
    await ownId(page);
    await finished(page, 'the pasted text');
    const v = await value(page);
    assert(v.text_id === cli.config.text_id, `the link's text_id is the CLI's: ${v.text_id} vs ${cli.config.text_id}`);
    const heldOut = cli.task.val_loss.at(-1)[1];
    assert(Object.is(v.val_loss, heldOut), `held-out ${v.val_loss} on the page, ${heldOut} from ablate --text`);
    const words = await el(page, 'text-words').textContent();
    assert(words.includes('5,000 characters') && words.includes(`${cli.task.text.vocab} distinct characters`), `the text is described: ${words}`);
    note('the link, opened in a new page');
    const link = await page.evaluate(() => window.ablationPlayground.link());
    assert(link.includes(`text_id=${cli.task.text.sha256}.5000.`), `the link carries the hash and the length: ${link}`);
    await load(`/${new URL(link).search}`);
    await waitFor(page, () => /trained on a reader's text \(a text of 5,000 characters with SHA-256/.test(document.querySelector('[data-ap-root] [data-el="notice"]').textContent), null, 'the page does not ask for the text');
    assert((await value(page)).text_id === 'plays', 'until the text is given, the plays');
    await paste(page, madeUpText(5000, 8));
    await waitFor(page, () => /Not trained on the pasted text: its SHA-256 is [0-9a-f]{12}…, and this link's run trained on [0-9a-f]{12}…/.test(document.querySelector('[data-ap-root] [data-el="notice"]').textContent), null, 'another text is not refused');
    assert((await value(page)).text_id === 'plays', 'the refused text changed nothing');
    await paste(page, a);
    await waitFor(page, (id) => window.ablationPlayground.value?.text_id === id, cli.config.text_id, 'the link\'s own text is not taken');
    // a host naming a text this page has not been given (an attribute, a message): the plays
    // until it is, as for a link
    await page.evaluate(() => window.ablationPlayground.set('text_id', `${'ab'.repeat(32)}.5000.30`));
    await waitFor(page, () => window.ablationPlayground.value?.text_id === 'plays' && /Waiting for a text of 5,000 characters with SHA-256 abababababab…/.test(document.querySelector('[data-ap-root] [data-el="text-words"]').textContent), null, 'a host\'s unknown text_id is not waited for');
  }, { timeoutMs: 120_000 });

  test('a dropped file, a chosen file and text-src each train; each bad text is refused in words and the widget trains on', async ({ page, load, note, problems }) => {
    note('dropped');
    await load('/?preset=text&depth=2&steps=100000');
    const dropped = madeUpText(3000, 3);
    const dataTransfer = await page.evaluateHandle((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'dropped.txt', { type: 'text/plain' }));
      return dt;
    }, dropped);
    await page.locator('[data-ap-root]').dispatchEvent('dragover', { dataTransfer });
    await page.locator('[data-ap-root]').dispatchEvent('drop', { dataTransfer });
    await ownId(page);
    const droppedId = (await value(page)).text_id;
    assert(droppedId.endsWith(`.3000.${droppedId.split('.')[2]}`), `the dropped text's id: ${droppedId}`);
    note('chosen');
    await el(page, 'text-file').setInputFiles({ name: 'chosen.md', mimeType: 'text/markdown', buffer: Buffer.from(madeUpText(4000, 4)) });
    await waitFor(page, (id) => /\.4000\./.test(window.ablationPlayground.value?.text_id) && window.ablationPlayground.value.text_id !== id, droppedId, 'the chosen file is not trained on');
    const chosenId = (await value(page)).text_id;
    note('bad texts');
    const random = Buffer.alloc(5000);
    for (let i = 0; i < random.length; i++) random[i] = (i * 2654435761) >>> 24;
    const bad = [
      ['empty.txt', Buffer.alloc(0), /the text is empty/],
      ['short.txt', Buffer.from('only a few words'), /has 16 characters; at least 600 are needed/],
      ['image.png', random, /not UTF-8 text/],
      ['paper.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), random]), /is a PDF/],
      ['page.html', Buffer.from(`<!DOCTYPE html><html><body>${madeUpText(2000)}</body></html>`), /web page \(HTML\)/],
      ['wide.txt', Buffer.from(madeUpText(2000), 'utf16le'), /NUL characters/],
      ['huge.txt', Buffer.alloc(9 << 20, 97), /at most 8 MB/],
    ];
    for (const [name, buffer, reason] of bad) {
      const before = (await value(page)).step;
      await el(page, 'text-file').setInputFiles({ name, mimeType: 'application/octet-stream', buffer });
      await waitFor(page, ([n, source]) => new RegExp(`Not trained on the file ${n}|the file ${n} has`).test(document.querySelector('[data-ap-root] [data-el="notice"]').textContent) && new RegExp(source).test(document.querySelector('[data-ap-root] [data-el="notice"]').textContent), [name, reason.source], `${name}: no notice saying ${reason}`);
      const v = await value(page);
      assert(v.text_id === chosenId, `${name} changed the text: ${v.text_id}`);
      await waitFor(page, (b) => window.ablationPlayground.value.step > b, before, `${name}: the widget stopped training`);
    }
    note('text-src');
    await page.route('**/lesson-text.txt', (route) => route.fulfill({ status: 200, contentType: 'text/plain; charset=utf-8', body: madeUpText(2500, 9) }));
    await page.route('**/gone.txt', (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.route('**/a-page.txt', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><p>Not found</p>' }));
    // (text-src first: a routed path at the end of the page's own address would answer the page)
    await load('/?text-src=/lesson-text.txt&task=text&depth=2');
    await waitFor(page, () => /\.2500\./.test(window.ablationPlayground.value?.text_id ?? ''), null, 'text-src is not trained on');
    for (const [path, reason] of [['/gone.txt', /HTTP 404/], ['/a-page.txt', /is a web page \(text\/html\)/]]) {
      await load(`/?text-src=${path}&task=text&depth=2`);
      await waitFor(page, (source) => new RegExp(`Not trained on text-src: .*${source}`).test(document.querySelector('[data-ap-root] [data-el="notice"]').textContent), reason.source, `${path}: no notice saying ${reason}`);
      assert((await value(page)).text_id === 'plays', `${path}: the plays go on`);
    }
    // the 404 is the test's own doing
    for (let i = problems.length - 1; i >= 0; i--) if (/gone\.txt|status of 404 \(Not Found\)/.test(problems[i])) problems.splice(i, 1);
  }, { timeoutMs: 120_000 });

  test('the prompt: typed and entered, the stack continues it as ablate --prompt does, names what the text lacks, and says it once', async ({ page, load }) => {
    const prompt = 'ROMEO.\nWhat light€ ';
    const cli = await ablate(['--preset', 'text', '--depth', '2', '--steps', '40', '--prompt', prompt, '--write', '120']);
    await load('/?preset=text&depth=2&steps=40');
    await finished(page, 'the run');
    const field = page.getByRole('textbox', { name: 'Prompt' });
    // typed as a reader types it: Shift+Enter for the prompt's new line, Enter to write
    await page.getByRole('spinbutton', { name: 'Characters' }).fill('120');
    await field.click();
    const [first, second] = prompt.split('\n');
    await page.keyboard.type(first);
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type(second);
    await field.press('Enter');
    await waitFor(page, () => document.querySelector('[data-ap-root] [data-el="prompt-said"]').textContent.length > 0, null, 'the continuation is not announced');
    const said = await el(page, 'prompt-said').textContent();
    assert(said === `It continued your prompt (not in the text, so not read: €): ${cli.writing.continuation}`, `the page said ${JSON.stringify(said)}; ablate wrote ${JSON.stringify(cli.writing.continuation)}`);
    assert(cli.writing.outside_vocab === '€', `ablate names it too: ${cli.writing.outside_vocab}`);
    assert((await el(page, 'prompt-said').getAttribute('aria-live')) === 'polite', 'announced politely');
    const heading = await el(page, 'writes-heading').textContent();
    assert(heading.includes('€'), `the panel's heading names the character left out: ${heading}`);
  }, { timeoutMs: 90_000 });

  test('downloads: the run as JSON in the CLI\'s schema, the weights byte for byte as ablate --save-weights, loaded back (a file, weights-src) to the same loss, the loss as CSV, a chart as SVG and PNG', async ({ page, load }) => {
    const dir = await mkdtemp(join(tmpdir(), 'ap-dl-'));
    const cliWeights = join(dir, 'cli.safetensors');
    const cli = await ablate(['--preset', 'text', '--depth', '2', '--steps', '50', '--save-weights', cliWeights]);
    await load('/?preset=text&depth=2&steps=50');
    await finished(page, 'the run');
    await page.getByText('Download', { exact: true }).click();
    const save = async (name) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).click()]);
      const path = join(dir, download.suggestedFilename());
      await download.saveAs(path);
      return path;
    };
    const json = JSON.parse(await readFile(await save('The run (JSON)'), 'utf8'));
    for (const key of Object.keys(cli)) assert(key in json, `the page's JSON has the report's field ${key}`);
    assert(JSON.stringify(json.config) === JSON.stringify(cli.config), `the same config: ${JSON.stringify(json.config)}`);
    assert(JSON.stringify(json.final) === JSON.stringify(cli.final), 'the same final probe, to the bit');
    assert(JSON.stringify(json.layers) === JSON.stringify(cli.layers), 'the same lens');
    assert(JSON.stringify(json.task.val_loss) === JSON.stringify(cli.task.val_loss), 'every held-out measurement, as the CLI');
    assert(JSON.stringify(json.loss) === JSON.stringify(cli.loss.slice(0, 50)), 'every step\'s loss before its update');
    const weights = await save('Weights (safetensors)');
    assert(Buffer.compare(await readFile(weights), await readFile(cliWeights)) === 0, 'the page\'s weights file is ablate --save-weights\'s, byte for byte');
    const measured = await ablate(['--load-weights', weights, '--steps', '0']);
    assert(Object.is(measured.task.val_loss[0][1], cli.task.val_loss.at(-1)[1]), `loaded back: ${measured.task.val_loss[0][1]} vs ${cli.task.val_loss.at(-1)[1]}`);
    const damaged = join(dir, 'damaged.safetensors');
    await writeFile(damaged, (await readFile(weights)).subarray(0, 5000));
    const refused = await run(ABLATE, ['--load-weights', damaged]).then(() => null, (e) => e);
    assert(refused?.code === 2 && /not a weights file of this playground/.test(refused.stderr), `a damaged file is refused: ${refused?.stderr}`);
    const csv = (await readFile(await save('Loss history (CSV)'), 'utf8')).trim().split('\n');
    assert(csv[0] === 'step,steps,min,max,smooth' && csv.length === 51, `the CSV: ${csv.slice(0, 2)} … ${csv.length} lines`);
    assert(Number(csv[1].split(',')[2]) === cli.loss[0], `its first loss is the CLI's: ${csv[1]}`);
    await page.selectOption('[data-ap-root] [data-el="download-chart"]', 'loss');
    const svgPath = await save('Chart (SVG)');
    const pngPath = await save('Chart (PNG)');
    // the weights loaded back on a fresh page: its settings become the file's, measured at step 0
    await load('/');
    await page.getByText('Download', { exact: true }).click();
    await el(page, 'weights-file').setInputFiles(weights);
    await waitFor(page, () => /Loaded the weights of the file/.test(document.querySelector('[data-ap-root] [data-el="notice"]').textContent), null, 'the weights were not loaded');
    await waitFor(page, () => window.ablationPlayground.value?.task === 'text' && window.ablationPlayground.value.val_loss != null, null, 'the file\'s run is not measured');
    const loaded = await value(page);
    assert(loaded.depth === 2 && loaded.step === 0 && Object.is(loaded.val_loss, cli.task.val_loss.at(-1)[1]), `loaded on the page: step ${loaded.step}, held-out ${loaded.val_loss} vs ${cli.task.val_loss.at(-1)[1]}`);
    await el(page, 'weights-file').setInputFiles(damaged);
    await waitFor(page, () => /Not loaded, the file damaged\.safetensors: not a weights file of this playground/.test(document.querySelector('[data-ap-root] [data-el="notice"]').textContent), null, 'a damaged file is not refused on the page');
    assert((await value(page)).depth === 2, 'the refused file changed nothing');
    // weights-src: an author ships a trained stack with the lesson
    await page.route('**/trained.safetensors', async (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body: await readFile(weights) }));
    await load('/?weights-src=/trained.safetensors&depth=5');
    await waitFor(page, () => window.ablationPlayground.value?.depth === 2 && window.ablationPlayground.value.task === 'text' && window.ablationPlayground.value.val_loss != null, null, 'weights-src did not load');
    assert(Object.is((await value(page)).val_loss, cli.task.val_loss.at(-1)[1]), 'weights-src: the same loss');
    const svg = await readFile(svgPath, 'utf8');
    assert(svg.startsWith('<svg') && svg.includes('</svg>'), `an SVG: ${svg.slice(0, 60)}`);
    const png = await readFile(pngPath);
    assert(png.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])), 'a PNG');
  }, { timeoutMs: 120_000 });
}
