// The first trained step as a reader on a phone meets it (tests/e2e/bench.mjs --phone [--vs DIR]):
// a fresh browser context each time (empty caches), 390 × 844 CSS pixels at 3× density, the
// network at 9 Mbit/s with 85 ms of latency and the CPU slowed 4× (Chromium's DevTools protocol:
// Network.emulateNetworkConditions, Emulation.setCPUThrottlingRate), served twice: without
// compression, as a plain static server sends it, and gzipped, as real hosts do.
//
// Chromium slows the page's thread alone: its workers, where the run trains, keep their speed
// (a depth-24 run made 7016 steps in 4 s with the page slowed 4×, 7876 without; a worker's own
// target, sent the same throttling, kept its speed too). So the figures are the page's share of
// a phone's wait, the worker's at desktop speed.
//
// With --vs DIR the other build (for instance 62ab068's, before the words, the tuner and the
// shards) is measured in the same rounds, alternately, so that each round gives a paired ratio.

import { DIST, median, startServer } from '../lib.mjs';
import { QUICK } from './common.mjs';

const NETWORK = { offline: false, latency: 85, downloadThroughput: 9e6 / 8, uploadThroughput: 9e6 / 8 };
const CPU_SLOWDOWN = 4;
const VIEWPORT = { width: 390, height: 844 };

/**
 * One fresh page of `url` on the phone's profile: the milliseconds from the navigation's start to
 * the first frame on screen that shows a trained step (`playground.step` ≥ 1, read in the page,
 * whose clock starts at the navigation) and the bytes fetched over the wire (the page's requests,
 * as the protocol counts them: the workers' few scripts aside).
 */
async function firstStep(browser, url, problems) {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`${url}: ${e.message}`));
    const session = await context.newCDPSession(page);
    let bytes = 0;
    const urls = new Map();
    const files = [];
    session.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
    session.on('Network.loadingFinished', (e) => {
      bytes += e.encodedDataLength;
      files.push([urls.get(e.requestId)?.split('/').pop(), e.encodedDataLength]);
    });
    await session.send('Network.enable');
    await session.send('Network.emulateNetworkConditions', NETWORK);
    await session.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(`${url}/`, { waitUntil: 'commit', timeout: 120_000 });
    await page.waitForFunction(() => (window.ablationPlayground?.playground?.step ?? 0) >= 1, null, { timeout: 180_000, polling: 50 });
    const ms = await page.evaluate(() => performance.now());
    // PHONE_FILES=1 lists what each page fetched, file by file
    if (process.env.PHONE_FILES) console.log(files.map(([f, n]) => `${f} ${n}`).join('\n'));
    return { ms, bytes };
  } finally {
    await context.close();
  }
}

export async function phoneBench(browser, server, row, out, problems) {
  const vsAt = process.argv.indexOf('--vs');
  const builds = [{ name: 'this build', dir: DIST }];
  if (vsAt > 0) builds.push({ name: `base (${process.argv[vsAt + 1]})`, dir: process.argv[vsAt + 1] });
  const ways = [
    { name: 'plain', gzip: false },
    { name: 'gzip', gzip: true },
  ];
  for (const b of builds) {
    b.servers = {};
    for (const w of ways) b.servers[w.name] = await startServer(b.dir, { gzip: w.gzip });
    b.results = Object.fromEntries(ways.map((w) => [w.name, []]));
  }
  const rounds = QUICK ? 1 : 3;
  try {
    for (let r = 0; r < rounds; r++) {
      // alternately first, so that neither build always meets the machine warmer
      const order = r % 2 ? [...builds].reverse() : builds;
      for (const w of ways) for (const b of order) b.results[w.name].push(await firstStep(browser, b.servers[w.name].url, problems));
    }
  } finally {
    for (const b of builds) for (const s of Object.values(b.servers)) await s.close();
  }
  out.push(
    `The first trained step on a phone's profile (${VIEWPORT.width} × ${VIEWPORT.height} px at 3×, ${NETWORK.downloadThroughput * 8 / 1e6} Mbit/s, ${NETWORK.latency} ms, the page's thread ${CPU_SLOWDOWN}× slower, empty caches), ${rounds} rounds, builds alternating:`,
    '',
    '| build | served | first trained step, s (each round) | median | fetched, MB |',
    '|---|---|---|---:|---:|',
  );
  for (const w of ways) {
    for (const b of builds) {
      const rs = b.results[w.name];
      row(b.name, w.name, rs.map((x) => (x.ms / 1000).toFixed(2)).join(', '), (median(rs.map((x) => x.ms)) / 1000).toFixed(2), (median(rs.map((x) => x.bytes)) / 1e6).toFixed(2));
    }
    if (builds.length > 1) {
      const ratios = builds[0].results[w.name].map((x, i) => x.ms / builds[1].results[w.name][i].ms);
      row('this ÷ base', w.name, ratios.map((x) => x.toFixed(2)).join(', '), median(ratios).toFixed(2), '');
    }
  }
  out.push('');
}
