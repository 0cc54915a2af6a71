// The widget in the reader's language (issue 55): the host page's <html lang>, an element's own
// lang attribute over it, a link's lang=, a change re-wording the widget without restarting its
// run, a language that does not ship, the pseudo-language at a phone's width, and axe.
//
// Registered into run.mjs's runner, so every test here also fails on any console error,
// uncaught exception, failed request or visible error box.

import { ELEMENT_SCRIPT, elStatus, inside, value, waitTraining } from './embedding.mjs';
import { assert, test, waitFor } from './harness.mjs';
import { axeViolations, TEST_PAGES } from './lib.mjs';
import { el } from './page.mjs';

// A Spanish lesson with two widgets: one follows the page, one is told English.
TEST_PAGES.set('/__test/spanish.html', () =>
  `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Una lección</title>${ELEMENT_SCRIPT}</head><body>` +
    '<main><h1>Conexiones residuales</h1><p>Mueve el control de profundidad.</p>' +
    '<ablation-playground id="es" panels="loss"></ablation-playground>' +
    '<ablation-playground id="en" lang="en" panels="loss"></ablation-playground></main></body></html>',
);

/** Waits until element `id`'s status line (or the page's, id null) matches `re`, in any
 *  language (harness's waits read the English form). */
async function waitWords(page, id, re, timeout = 8000) {
  const read = ([id]) => (id ? document.getElementById(id)?.shadowRoot : document)?.querySelector('[data-el="status"]')?.textContent.trim() ?? '';
  await waitFor(
    page,
    ([id, source]) => new RegExp(source).test((id ? document.getElementById(id)?.shadowRoot : document)?.querySelector('[data-el="status"]')?.textContent.trim() ?? ''),
    [id, re.source],
    async () => `${id ?? 'the page'}'s status line never matched ${re}; it reads ${JSON.stringify(await page.evaluate(read, [id]))}`,
    timeout,
  );
}
const waitElStatus = (page, id, re) => waitWords(page, id, re);
const waitStatus = (page, re) => waitWords(page, null, re);

const caption = async (page, id) => (await inside(page, id, 'caption').textContent()).trim();
const rootLang = (page, id) => page.evaluate((id) => document.getElementById(id).shadowRoot.querySelector('[data-ap-root]').lang, id);

export default function registerLanguageTests() {
  test('language: a Spanish host page words the widget in Spanish, a lang attribute overrides it, and a change re-words it without restarting the run', async ({ page, baseUrl }) => {
    await page.goto(`${baseUrl}/__test/spanish.html`);
    await waitTraining(page, 'es');
    await waitTraining(page, 'en');
    await waitElStatus(page, 'es', /^12 capas · Residual SÍ · LayerNorm SÍ \(pre\) · desv\. típ\. act\. = \d+,\d+ · pérdida \d+,\d+ · paso \d+/);
    await waitElStatus(page, 'en', /^12 layers · Residual ON · LayerNorm ON \(pre\) · act\. std = \d+\.\d+ · loss \d+\.\d+ · step \d+/);
    const es = await caption(page, 'es');
    assert(/^Con los dos interruptores encendidos, en la inicialización /.test(es), `the Spanish caption: ${es}`);
    assert((await rootLang(page, 'es')) === 'es' && (await rootLang(page, 'en')) === 'en', `the widgets' roots say their language: ${await rootLang(page, 'es')}, ${await rootLang(page, 'en')}`);
    // the controls' accessible names in each widget's language
    assert((await page.locator('#es').getByRole('slider', { name: 'Profundidad' }).count()) === 1, 'the Spanish widget names its slider Profundidad');
    assert((await page.locator('#es').getByRole('button', { name: 'Pausa' }).count()) === 1, 'the Spanish widget names its Pause button Pausa');
    assert((await page.locator('#en').getByRole('slider', { name: 'Depth' }).count()) === 1, 'the English widget names its slider Depth');
    assert((await page.locator('#en').getByRole('switch', { name: 'Residual' }).count()) === 1, 'the English widget names its switch Residual');
    // the parameter table's words too: a menu's options, a comparison's button
    const tableWords = await page.evaluate(() => {
      const root = document.getElementById('es').shadowRoot;
      return [root.querySelector('[data-el="task"] option[value="text"]').textContent, root.querySelector('[data-el="run-sweep"]').textContent];
    });
    assert(tableWords[0] === 'Texto: siguiente carácter' && tableWords[1] === 'Barrido de profundidad', `the table's words in Spanish: ${tableWords}`);
    assert((await page.locator('#en').getByRole('button', { name: 'Depth sweep' }).count()) === 1, 'the English widget keeps Depth sweep');
    const valueText = await page.evaluate(() => document.getElementById('es').shadowRoot.querySelector('[data-el="depth"]').getAttribute('aria-valuetext'));
    assert(valueText === '12 capas', `the Spanish slider's value text: ${valueText}`);

    // a pin: its label in Spanish on the widget, in English in .value (a file's words)
    await page.evaluate(() => document.getElementById('es').pin());
    await waitFor(page, () => /fijada: los mismos ajustes · paso \d+/.test(document.getElementById('es').shadowRoot.querySelector('[data-el="pins"]')?.textContent ?? ''), [],
      async () => `the pin's label is not in Spanish: ${await page.evaluate(() => document.getElementById('es').shadowRoot.querySelector('[data-el="pins"]')?.textContent)}`);
    const pinned = (await value(page, 'es')).pins?.[0]?.label ?? '';
    assert(/^pinned: same settings · step \d+$/.test(pinned), `.value's pin label stays English: ${pinned}`);
    await page.evaluate(() => document.getElementById('es').unpin(0));
    // Chinese by attribute, while it trains: the run goes on (its step does not go back)
    const before = (await value(page, 'es')).step;
    await page.evaluate(() => document.getElementById('es').setAttribute('lang', 'zh-CN'));
    await waitElStatus(page, 'es', /^12 层 · 残差 开 · LayerNorm 开（前置） · 激活标准差 = \d+\.\d+ · 损失 /);
    const after = (await value(page, 'es')).step;
    assert((await page.locator('#es').getByRole('slider', { name: '深度' }).count()) === 1, 'the Chinese widget names its slider 深度');
    assert(after >= before, `a change of language restarted the run: step ${before} then ${after}`);
    assert((await rootLang(page, 'es')) === 'zh', `root lang after zh-CN: ${await rootLang(page, 'es')}`);

    // its own lang removed: the page's again; the page's changed: both follow but the one told English
    await page.evaluate(() => document.getElementById('es').removeAttribute('lang'));
    await waitElStatus(page, 'es', /^12 capas · /);
    await page.evaluate(() => (document.documentElement.lang = 'en-GB'));
    await waitElStatus(page, 'es', /^12 layers · Residual ON · /);
    await page.evaluate(() => (document.documentElement.lang = 'zh'));
    await waitElStatus(page, 'es', /^12 层 · /);
    assert(/^12 layers · /.test(await elStatus(page, 'en')), `the element told English follows its attribute: ${await elStatus(page, 'en')}`);
    // a host page in a language that does not ship: English, and no notice (the page did not ask the widget)
    await page.evaluate(() => (document.documentElement.lang = 'de'));
    await waitElStatus(page, 'es', /^12 layers · /);
    const notice = (await inside(page, 'es', 'notice').textContent()).trim();
    assert(!(await inside(page, 'es', 'notice').isVisible()), `a host's language that does not ship should not raise a notice: ${notice}`);
  }, { viewport: { width: 1280, height: 1600 } });

  test('language: lang= in a link words the page, a language that does not ship says so and speaks English, numbers stay fixed in the JSON', async ({ page, load }) => {
    await load('/?lang=es&depth=4');
    await waitStatus(page, /^4 capas · Residual SÍ · /);
    // the playground's own page speaks it too: its heading and introduction
    const header = await page.evaluate(() => [document.querySelector('h1').textContent, document.querySelector('.ap-header').lang, document.querySelector('.ap-header a').getAttribute('href')]);
    assert(/^Por qué las conexiones residuales/.test(header[0]) && header[1] === 'es' && header[2] === 'www/lesson.html', `the page's heading: ${header}`);
    const json = await page.evaluate(() => window.ablationPlayground.playground.stateJson());
    assert(/"loss":\d+\.\d+/.test(json) && !/"loss":\d+,\d/.test(json), `the JSON keeps its decimal point: ${json.slice(0, 200)}`);
    const url = await page.evaluate(() => window.ablationPlayground.link());
    assert(!/lang=/.test(new URL(url).search) || /lang=es/.test(url), `the copied link: ${url}`);
    await load('/?lang=tlh&depth=4');
    await waitStatus(page, /^4 layers · Residual ON · /);
    const text = (await el(page, 'notice').textContent()).trim();
    assert(/"tlh"/.test(text) && /English/.test(text), `the notice for a language that does not ship: ${text}`);
  });

  test('language: a Spanish link\'s notices, the controls\' help and a comparison\'s verdict, table and chart are Spanish; .value stays English', async ({ page, load }) => {
    await load('/?lang=es&depth=500&width=30&steps=40');
    await waitStatus(page, /^96 capas · Residual SÍ · /);
    await waitFor(page, () => /«500» no es un entero de 1 a 96; se usa 96/.test(document.querySelector('[data-el="notice"]')?.textContent ?? ''), [],
      async () => `the link's notice is not in Spanish: ${await el(page, 'notice').textContent()}`);
    const notice = (await el(page, 'notice').textContent()).trim();
    assert(/width: «30» no es un múltiplo de 4 de 8 a 128; se usa 32/.test(notice), `the width's notice: ${notice}`);
    // the tooltips: a parameter's help and a preset's, from the table's messages
    const help = await page.evaluate(() => [
      document.querySelector('[data-param="width"]').closest('label').title,
      document.querySelector('[data-el="preset"] option[value="text"]').title,
    ]);
    assert(help[0] === 'rasgos por token d' && /^predicción del siguiente carácter/.test(help[1]), `the help in Spanish: ${help}`);
    // a text refused by the live run's worker: its reason comes as a message, said in Spanish
    await page.evaluate(() => window.ablationPlayground.set('task', 'text'));
    if (!(await el(page, 'text-paste').isVisible())) await page.getByText('Pegar un texto', { exact: true }).click();
    await el(page, 'text-paste').fill('abc abc abc');
    await page.getByRole('button', { name: 'Entrenar con el texto pegado' }).click();
    await waitFor(page, () => /No se entrenó con el texto pegado: el texto tiene 11 caracteres; se necesitan al menos 600/.test(document.querySelector('[data-el="notice"]')?.textContent ?? ''), [],
      async () => `the refused text's notice is not in Spanish: ${await el(page, 'notice').textContent()}`);
    // a weights file refused, and an address that answers with a web page: their reasons too
    await page.evaluate(() => window.ablationPlayground.loadWeights(new Uint8Array([1, 2, 3])));
    await waitFor(page, () => /No fue posible cargar los pesos dados: no es un archivo de pesos de este playground: 3 bytes/.test(document.querySelector('[data-el="notice"]')?.textContent ?? ''), [],
      async () => `the refused weights' notice is not in Spanish: ${await el(page, 'notice').textContent()}`);
    await page.route('**/a-page.txt', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><p>Not found</p>' }));
    await load('/?text-src=/a-page.txt&lang=es&task=text&depth=2');
    await waitFor(page, () => /No se entrenó con text-src: \S*a-page\.txt es una página web \(text\/html\), no un archivo de texto/.test(document.querySelector('[data-el="notice"]')?.textContent ?? ''), [],
      async () => `the refused address's notice is not in Spanish: ${await el(page, 'notice').textContent()}`);
    // All four on a small stack: its sentence, its table's heading and its chart's title
    await load('/?lang=es&depth=2');
    await waitStatus(page, /^2 capas · /);
    await el(page, 'run-compare').click();
    await waitFor(page, () => /Las cuatro combinaciones a profundidad 2 \(4 de 4 entrenadas, \d+ pasos cada una/.test(document.querySelector('[data-el="compare-summary"]')?.textContent ?? ''), [],
      async () => `All four's sentence: ${await el(page, 'compare-summary').textContent()}`, 60_000);
    const summary = (await el(page, 'compare-summary').textContent()).trim();
    assert(/solo residual: pérdida \d+,\d+/.test(summary) && /ambos desactivados: /.test(summary), `each combination's end in Spanish with a decimal comma: ${summary}`);
    const heading = await page.evaluate(() => [...document.querySelectorAll('[data-el="compare-table"] th')].map((th) => th.textContent));
    assert(heading[0] === 'combinación' && heading.some((h) => /^pérdida tras \d+ pasos$/.test(h)), `the table's heading: ${heading}`);
    const chart = await page.evaluate(() => document.querySelector('[data-el="compare"]').getAttribute('aria-label'));
    assert(/^Las cuatro combinaciones/.test(chart ?? ''), `the chart's accessible name: ${chart}`);
    // what programs read stays English
    const value = await page.evaluate(() => JSON.stringify(window.ablationPlayground.value));
    assert(/"residual"/.test(value) && !/combinación|pérdida|capas/.test(value), `.value is English: ${value.slice(0, 300)}`);
  }, { viewport: { width: 1280, height: 1600 } });

  test('language: the pseudo-language at a phone\'s width lengthens the words and nothing runs past the page', async ({ page, load }) => {
    await load('/?lang=en-XA&depth=12');
    await waitFor(page, () => /ȧ|ḗ|ǿ/.test(document.querySelector('[data-el="status"]')?.textContent ?? ''), [], async () => `the status line is not in the pseudo-language: ${await el(page, 'status').textContent()}`, 10_000);
    await page.waitForTimeout(1000);
    const over = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const out = [];
      if (document.documentElement.scrollWidth > width + 1) out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
      for (const e of document.querySelectorAll('[data-el="status"], [data-el="caption"], [data-ap-root] button, [data-ap-root] label, [data-ap-root] summary')) {
        if (e.closest('[hidden]') || !e.getClientRects().length) continue;
        const r = e.getBoundingClientRect();
        if (r.right > width + 1 || e.scrollWidth > e.clientWidth + 1) out.push(`${e.dataset.el ?? e.textContent.trim().slice(0, 30)} runs past its box: right ${r.right}, scrollWidth ${e.scrollWidth} > ${e.clientWidth}`);
      }
      return out;
    });
    assert(over.length === 0, over.join('; '));
  }, { viewport: { width: 360, height: 800 } });

  test('language: axe finds nothing serious in a Spanish lesson', async ({ page, baseUrl }) => {
    await page.goto(`${baseUrl}/__test/spanish.html`);
    await waitTraining(page, 'es');
    await waitElStatus(page, 'es', /^12 capas · /);
    const found = await axeViolations(page);
    assert(found.length === 0, found.join('\n'));
  }, { viewport: { width: 1280, height: 1600 } });
}
