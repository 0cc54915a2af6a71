import { launchBrowser, openPage, startServer, loadPlayground } from './lib.mjs';
const { server, url } = await startServer().then((s) => ({ server: s.server ?? s, url: s.url ?? s.baseUrl }));
