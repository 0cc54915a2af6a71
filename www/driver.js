// Where training runs: a dedicated Web Worker when one starts, else the page's own thread (as
// before the worker existed), with a notice. Either way the widget sends engine commands and
// receives encoded frames; nothing else differs.

import { assets, trusted } from './assets.js';
import { createEngine, PAGE_SLICE_MS } from './engine.js';

/** A worker that has not booted by then is given up for the page's thread. */
const BOOT_TIMEOUT_MS = 15_000;
/** A worker silent this long while training is inside one long step, or whose turns take this
 *  long (a step, a knockout pass or a comparison's step at a large setting): a restart then
 *  replaces the worker instead of waiting for the turn to end. */
const BUSY_MS = 250;

/** A module worker for `url`. A Worker's script must be same-origin, so a widget served from
 *  another origin starts a same-origin blob: script that imports the real one. */
function spawn(url) {
  const scriptUrl = (u) => trusted()?.createScriptURL(u) ?? u;
  if (new URL(url).origin === location.origin) return new Worker(scriptUrl(url), { type: 'module' });
  const trampoline = URL.createObjectURL(
    new Blob([`import ${JSON.stringify(url)};`], { type: 'text/javascript' }),
  );
  const worker = new Worker(scriptUrl(trampoline), { type: 'module' });
  setTimeout(() => URL.revokeObjectURL(trampoline), 60_000);
  return worker;
}

/**
 * Starts the engine. `onFrame(bytes, seq)` gets every frame and the number of the last command
 * applied before it; `onNotice(text)` says when training falls back to the page's thread;
 * `onError(text)` reports a broken engine.
 * Returns { send(command), mode: 'worker' | 'page', stop(), seq (of the last command sent) }.
 */
export function startDriver(bindings, { onFrame, onNotice, onError, onLab = () => {} }) {
  let worker = null;
  let local = null;
  let lastHeard = 0;
  let booted = false;
  let playing = false;
  let lastRestart = null;
  let bootTimer = 0;
  let stopped = false;
  // the comparisons' latest commands, sent again to a replacement engine
  const lab = new Map();
  let seq = 0; // numbers the commands; frames say which they reflect
  const driver = {
    mode: 'worker',
    /** Bytes of the engine's wasm memory, as last reported (for the benchmark). */
    engineMemory: 0,
    /** The engine's last restart and mean step, in ms (for the benchmark). */
    timings: {},
    send,
    stop,
    get seq() {
      return seq;
    },
  };

  /** A frame from either engine, with its engine's memory and timings. */
  function received(bytes, frameSeq, memory, timings) {
    driver.engineMemory = memory;
    driver.timings = timings;
    onFrame(bytes, frameSeq);
  }

  function fallBack(reason) {
    if (local || stopped) return;
    worker?.terminate();
    worker = null;
    driver.mode = 'page';
    onNotice(`Training runs on the page's thread (slower; the page may stutter at large settings): ${reason}`);
    const post = (bytes, s, timings) => received(bytes, s, bindings.memoryBytes(), { ...timings });
    const postLab = (bytes, timings) => {
      driver.timings = { ...timings };
      onLab(bytes);
    };
    local = createEngine(bindings, post, { sliceMs: PAGE_SLICE_MS, onError, postLab });
    // the whole state is the last restart, whether to play, and the comparisons asked for
    if (lastRestart) local.command({ ...lastRestart, seq });
    for (const c of lab.values()) local.command({ ...c, seq });
    local.command({ type: playing ? 'play' : 'pause', seq });
  }

  function startWorker() {
    booted = false;
    driver.timings = {}; // a new worker has taken no turn yet
    let w;
    try {
      w = spawn(assets.worker);
    } catch (e) {
      fallBack(`no worker could be started (${e?.message ?? e})`);
      return;
    }
    worker = w;
    clearTimeout(bootTimer);
    bootTimer = setTimeout(() => !booted && fallBack('the worker did not start in time'), BOOT_TIMEOUT_MS);
    w.onmessage = (e) => {
      if (w !== worker) return;
      lastHeard = performance.now();
      const m = e.data;
      if (m.type === 'frame') received(m.bytes, m.seq, m.memory, m.timings);
      else if (m.type === 'lab') {
        driver.timings = m.timings;
        onLab(m.bytes);
      }
      else if (m.type === 'ready') {
        booted = true;
        clearTimeout(bootTimer);
      } else if (m.type === 'boot-failed') {
        clearTimeout(bootTimer);
        fallBack(`the worker could not load the WebAssembly module (${m.message})`);
      } else if (m.type === 'error') onError(m.message);
    };
    w.onerror = (e) => {
      if (w !== worker) return;
      e.preventDefault?.();
      clearTimeout(bootTimer);
      if (!booted) fallBack(`the worker script did not load (${e.message || 'blocked or missing'})`);
      else onError(e.message || 'the worker failed');
    };
    w.postMessage({ type: 'boot', bindings: assets.bindings, wasm: assets.wasm, engine: assets.engine });
    lastHeard = performance.now();
  }

  function send(command) {
    command.seq = ++seq;
    if (command.type === 'restart') lastRestart = command;
    if (['pins', 'compare', 'sweep'].includes(command.type)) lab.set(command.type, command);
    if (command.type === 'play') playing = true;
    if (command.type === 'pause' || command.type === 'step') playing = false;
    if (local) return local.command(command);
    if (!worker) return;
    // Inside one long step the worker cannot read its inbox: start afresh rather than wait.
    const silent = playing && performance.now() - lastHeard > BUSY_MS;
    const slowTurns = driver.timings.busy && driver.timings.tickMs > BUSY_MS;
    if (command.type === 'restart' && booted && (silent || slowTurns)) {
      worker.terminate();
      startWorker();
      worker.postMessage(command);
      for (const c of lab.values()) worker.postMessage(c);
      worker.postMessage({ type: playing ? 'play' : 'pause' });
      return;
    }
    worker.postMessage(command);
  }

  function stop() {
    stopped = true;
    clearTimeout(bootTimer);
    worker?.terminate();
    worker = null;
    local?.stop();
  }

  if (typeof Worker === 'undefined') fallBack('this browser has no Web Workers');
  else startWorker();
  return driver;
}
