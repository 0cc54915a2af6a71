// Starting the widget's Web Workers, for the live run and its helpers (driver.js) and for the
// comparisons' pool (pool.js): one script (worker.js) with three roles, booted with the
// locations of the code.

import { assets, trusted, wasmModule } from './assets.js';
import { KIND } from './protocol.js';

/** A worker that has not booted by then is given up. */
const BOOT_TIMEOUT_MS = 15_000;
let started = 0;

/** A module worker for `url`. A Worker's script must be same-origin, so a widget served from
 *  another origin starts a same-origin blob: script that imports the real one. */
function spawn(url, name) {
  const scriptUrl = (u) => trusted()?.createScriptURL(u) ?? u;
  if (new URL(url).origin === location.origin) return new Worker(scriptUrl(url), { type: 'module', name });
  const trampoline = URL.createObjectURL(new Blob([`import ${JSON.stringify(url)};`], { type: 'text/javascript' }));
  const worker = new Worker(scriptUrl(trampoline), { type: 'module', name });
  setTimeout(() => URL.revokeObjectURL(trampoline), 60_000);
  return worker;
}

/**
 * Starts a worker in `role` ('live', 'jobs' or 'shards'). `onMessage(m)` gets its messages once
 * it has booted (messages sent before are queued by the worker itself), `onReady()` says it
 * has; `onFailed(reason)` says it could not start (then it is gone); `onError(text)` reports a
 * failure after the start.
 * Returns { id, post(message, transfer), terminate(), booted } or null if none could be made.
 */
export function startWorker(role, { onMessage, onFailed, onError, onReady = () => {} }) {
  const id = ++started;
  let w;
  try {
    w = spawn(assets.worker, `ablation-playground ${role} ${id}`);
  } catch (e) {
    onFailed(`no worker could be started (${e?.message ?? e})`);
    return null;
  }
  const handle = {
    id,
    booted: false,
    alive: true,
    post: (m, transfer = []) => handle.alive && w.postMessage(m, transfer),
    terminate() {
      handle.alive = false;
      clearTimeout(timer);
      w.terminate();
    },
  };
  const fail = (reason) => {
    if (!handle.alive) return;
    handle.terminate();
    onFailed(reason);
  };
  const timer = setTimeout(() => !handle.booted && fail('the worker did not start in time'), BOOT_TIMEOUT_MS);
  w.onmessage = (e) => {
    if (!handle.alive) return;
    const m = e.data;
    if (m.kind === KIND.ready) {
      handle.booted = true;
      clearTimeout(timer);
      onReady();
    } else if (m.kind === KIND.bootFailed) {
      fail(`the worker could not load the WebAssembly module (${m.message})`);
    } else if (m.kind === KIND.error) {
      onError(m.message);
    } else onMessage(m);
  };
  w.onerror = (e) => {
    if (!handle.alive) return;
    e.preventDefault?.();
    if (!handle.booted) fail(`the worker script did not load (${e.message || 'blocked or missing'})`);
    else onError(e.message || 'the worker failed');
  };
  const { bindings, engine, jobs, text } = assets;
  // the worker answers in the protocol's kinds, which it is sent (it imports nothing itself);
  // its wasm is the page's compiled module (wasmModule), or the file if that cannot be had
  const boot = (wasm) => handle.alive && w.postMessage({ kind: KIND.boot, role, bindings, wasm, engine, jobs, text, kinds: KIND });
  wasmModule().then(boot, () => boot(assets.wasm));
  return handle;
}
