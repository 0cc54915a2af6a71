// A minimal Docusaurus 3 site, a real host of the browser tests (tests/e2e/docusaurus-tests.mjs).
// Nothing here reaches the network: no Algolia, no analytics, no remote fonts or scripts.

/** @type {import('@docusaurus/types').Config} */
const config = {
  title: 'A lesson',
  url: 'http://127.0.0.1',
  baseUrl: '/',
  onBrokenLinks: 'throw',
  // the element registered in the browser (src/ablation-playground.js)
  clientModules: ['./src/ablation-playground.js'],
  presets: [
    [
      'classic',
      /** @type {import('@docusaurus/preset-classic').Options} */
      ({
        // the lesson's pages are the docs, served from the site's root
        docs: { routeBasePath: '/' },
        blog: false,
        pages: false,
        sitemap: false,
      }),
    ],
  ],
  themeConfig: {
    navbar: { title: 'A lesson' },
  },
};

export default config;
