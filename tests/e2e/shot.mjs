// A look at the page as a reader sees it, for a person checking a change by eye (no test runs
// it, but scripts/figures.sh makes the README's picture with it):
// `node tests/e2e/shot.mjs OUT.png 'QUERY' [SECONDS] [WIDTH] [light|dark] [PANEL]` screenshots
// the whole page, only the panel named (`readout`, `attention`, …), or with `screen` the first
// screen of it, after SECONDS of training, and prints every sentence on it.
import { startServer, launchBrowser, openPage, loadPlayground } from './lib.mjs';
const [out, query = '', seconds = '5', width = '1280', scheme = 'light', panel] = process.argv.slice(2);
const server = await startServer();
const { url } = server;
const browser = await launchBrowser();
const { page, problems } = await openPage(browser, { viewport: { width: Number(width), height: 900 }, colorScheme: scheme });
await loadPlayground(page, url, `/?${query}`);
await page.waitForTimeout(Number(seconds) * 1000);
if (panel === 'screen') await page.screenshot({ path: out });
else if (panel) await page.locator(`[data-ap-root] [data-panel="${panel}"]`).screenshot({ path: out });
else await page.screenshot({ path: out, fullPage: true });
const texts = await page.evaluate(() => {
  const root = document.querySelector('[data-ap-root]');
  return [...root.querySelectorAll('figcaption, [data-el="status"], .ap-heads li')].map((e) => e.textContent).filter(Boolean);
});
console.log(texts.join('\n'));
if (problems.length) console.log('PROBLEMS', problems);
await browser.close();
server.close();
