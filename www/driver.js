// Where the live run trains: a Web Worker of its own when one starts, else the page's thread
// (with a notice). Either way the page sends its desired state (protocol.js) and receives
// frames; a replacement worker is sent the newest desired state, never a replay of commands.

import { assets } from './assets.js';
import { createEngine, PAGE_SLICE_MS, textLoader } from './engine.js';
import { cores, setTraining } from './cores.js';
import { KIND, initialState, sameBytes } from './protocol.js';
import { textBytes } from './texts.js';
import { startWorker } from './workers.js';

/** A worker silent this long while training is inside one long step, or whose turns take this
 *  long (a step at a large setting): a restart then replaces the worker instead of waiting. */
const BUSY_MS = 250;

/** A live run's helpers that failed to start or broke, this many times: no more are started
 *  (its split steps then run on its own worker, with the same bits). */
const HELPER_FAILURES_MAX = 3;

/**
 * `onFrame(bytes)` gets every frame, `onKnockout(bytes, generation, purpose)` the stack for a knockout
 * (`purpose` 'knockout') or a tuned lens ('lens')
 * job, `onTextFailed(message, generation)` that a state asking for the text task could not
 * have its text; `onNotice(text)` says when training falls back to the page's thread; `onError(text)`
 * reports a broken engine. Returns the driver: { want(state), replace(), hibernate(), stop(),
 * mode, asleep, workerId, engineMemory, timings }.
 */
export function startDriver(bindings, { onFrame, onKnockout, onTextFailed, onNotice, onError }) {
  const run = {
    worker: null,
    local: null,
    /** The newest desired state, and when the worker was last heard from. */
    state: null,
    /** What a new worker need not do: nothing for the first, everything the state asked when
     *  a replacement was started. */
    done: initialState(null),
    lastHeard: 0,
    stopped: false,
    /** The run put aside when the worker was let go (`hibernate`): the next worker goes on
     *  from it. Kept until that worker's first frame. */
    resume: null,
    /** A `suspend` is on its way to the worker; a desired state has come since. */
    suspending: false,
    wantedSince: false,
    /** The reader's text the current worker holds (sent before the first state naming it). */
    sentText: null,
    /** Requests to the worker (a text to check, a file to export) waiting for its answer. */
    requests: new Map(),
    lastRequest: 0,
    /** The helper workers that share a split step's shards with the live worker (a
     *  configuration with shards > 1), and how many failed. */
    helpers: [],
    helperFailures: 0,
    /** For tests: the workers a split step may use, the live one included (null: the cores),
     *  and whether the helpers take every split step (else the faster way trains). */
    stepWorkers: null,
    alwaysHelped: false,
    /** The helpers' wirings so far: a message through the page names its own, and one of an
     *  earlier wiring is not passed on. */
    wiring: 0,
  };
  const driver = {
    mode: 'worker',
    /** The live worker's number (0 on the page's thread): the pool's workers have others. */
    workerId: 0,
    /** Bytes of the engine's wasm memory, as last reported (for the benchmark). */
    engineMemory: 0,
    /** The engine's last restart and mean step, in ms, its last turn (for the benchmark). */
    timings: {},
    /** The worker was let go, its run put aside: the next desired state starts another. */
    asleep: false,
    /** The share of a core this run trains at (`cores.js`). */
    share: 1,
    want,
    replace,
    hibernate,
    stop,
    checkText,
    exportRun,
    loadWeights,
    stepWorkers,
    loseHelper,
    /** The helper workers' numbers (booted or not). */
    get helperIds() {
      return run.helpers.map((h) => h.id);
    },
  };

  function received(m) {
    run.lastHeard = performance.now();
    if (m.kind === KIND.frame) {
      run.resume = null;
      driver.engineMemory = m.memory;
      driver.timings = m.timings;
      onFrame(m.bytes);
    } else if (m.kind === KIND.knockout) onKnockout(m.bytes, m.generation, m.purpose);
    else if (m.kind === KIND.textFailed) onTextFailed(m.message, m.generation);
    else if (m.kind === KIND.suspended) suspended(m.bytes);
    else if (m.kind === KIND.textChecked || m.kind === KIND.exported || m.kind === KIND.loaded) answered(m);
    // (a split step's task for a helper, through the page)
    else if (m.kind === KIND.relay && m.wiring === run.wiring) run.helpers.find((h) => h.id === m.to && h.alive)?.post({ kind: KIND.relayed, wiring: m.wiring, message: m.message }, m.moved);
  }

  /** Asks the worker (or the engine on this thread) and resolves with its answer. */
  function ask(message, local) {
    if (run.stopped) return Promise.reject(new Error('the playground has stopped'));
    if (run.local) {
      try {
        return Promise.resolve(local(run.local));
      } catch (e) {
        return Promise.reject(e);
      }
    }
    if (!run.worker) start(); // asleep: a worker to answer
    const request = ++run.lastRequest;
    return new Promise((resolve, reject) => {
      // (`local`: how the engine on this thread answers it, should the worker fall back)
      run.requests.set(request, { resolve, reject, local, message: { ...message, request } });
      run.worker?.post({ ...message, request });
    });
  }

  function answered(m) {
    const waiting = run.requests.get(m.request);
    if (!waiting) return;
    run.requests.delete(m.request);
    if (m.message !== undefined) waiting.reject(new Error(m.message));
    else waiting.resolve(m.kind === KIND.exported ? m.data : m.kind === KIND.loaded ? undefined : { id: m.id, facts: m.facts });
  }

  /** Checks a reader's text in the worker and has it hold it: `{ id, facts }`, or rejects
   *  with the reason in words. */
  function checkText(bytes) {
    return ask({ kind: KIND.text, bytes }, (engine) => engine.checkText(bytes)).then((checked) => {
      run.sentText = checked.id;
      return checked;
    });
  }

  /** The run as a file from the worker: 'weights' (bytes) or 'report' (JSON text). */
  function exportRun(what) {
    return ask({ kind: KIND.export, what }, (engine) => engine.exportRun(what));
  }

  /** Starts the run again from a weights file's weights (sent after the state that takes
   *  the file's configuration). */
  function loadWeights(bytes) {
    return ask({ kind: KIND.load, bytes }, (engine) => loadLocally(engine, bytes));
  }

  /** `loadWeights` on the engine on this thread, as a promise. */
  function loadLocally(engine, bytes) {
    return new Promise((resolve, reject) => engine.loadWeights(bytes, (message) => (message === undefined ? resolve() : reject(new Error(message)))));
  }

  /** A state whose configuration names a reader's text the worker may not hold: the text's
   *  bytes go first (a new worker, one after hibernation, a text chosen again). */
  function sendText(state) {
    const id = bindings.missingText(state.config, false);
    if (!id || id === 'plays' || run.sentText === id) return;
    const bytes = textBytes(id);
    if (!bytes) return; // the engine says the text is missing, and the widget hears it
    run.sentText = id;
    if (run.local) {
      try {
        run.local.checkText(bytes);
      } catch {
        // the engine says so when the state arrives
      }
    } else run.worker?.post({ kind: KIND.text, bytes, request: 0 });
  }

  /** Lets the worker go, its run put aside, until the next desired state (a widget away from
   *  the view: its memory goes back to the system). Nothing happens while it cannot be. */
  function hibernate() {
    if (run.local || run.stopped || run.suspending || !run.worker?.booted) return;
    run.suspending = true;
    run.wantedSince = false;
    run.worker.post({ kind: KIND.suspend });
  }

  function suspended(bytes) {
    run.suspending = false;
    if (!bytes || run.stopped) return; // (the worker goes on)
    run.worker.terminate();
    run.worker = null;
    run.resume = bytes;
    run.done = run.state;
    driver.asleep = true;
    driver.workerId = 0;
    driver.engineMemory = 0;
    syncHelpers(); // (none asleep)
    // a state that came while the worker was putting its run aside is not lost
    if (run.wantedSince) start();
  }

  /** The helpers a split step of the desired state can use: one fewer than its shards or
   *  the workers allowed (the cores), none on the page's thread or asleep. */
  function helpersWanted() {
    if (run.local || run.stopped || driver.asleep || !run.state || run.helperFailures >= HELPER_FAILURES_MAX) return 0;
    const shards = bindings.configShards(run.state.config);
    return Math.max(0, Math.min(shards, run.stepWorkers ?? cores()) - 1);
  }

  /** Starts or lets go helpers until there are as many as wanted, and tells the live worker
   *  of any change. */
  function syncHelpers() {
    const want = helpersWanted();
    let changed = false;
    while (run.helpers.length > want) {
      run.helpers.pop().terminate();
      changed = true;
    }
    while (run.helpers.length < want) {
      const helper = startWorker('shards', {
        // (a helper's answer through the page: passed on to the live worker)
        onMessage: (m) => m.kind === KIND.relay && m.wiring === run.wiring && run.worker?.post({ kind: KIND.relayed, from: helper.id, wiring: m.wiring, message: m.message }, m.moved),
        onReady: wireHelpers,
        onFailed: () => helperLost(helper),
        onError: () => helperLost(helper),
      });
      if (!helper) {
        run.helperFailures = HELPER_FAILURES_MAX;
        break;
      }
      run.helpers.push(helper);
    }
    if (changed) wireHelpers();
  }

  /** A helper that broke or could not start (`failed`; else a test ended it): let go,
   *  replaced (up to HELPER_FAILURES_MAX failures). */
  function helperLost(helper, failed = true) {
    helper?.terminate();
    run.helpers = run.helpers.filter((h) => h !== helper);
    if (failed) run.helperFailures++;
    wireHelpers(); // its shards owed now run on the live worker
    syncHelpers();
  }

  /** New channels between the live worker and every booted helper: the worker runs here
   *  what a helper owed on an old one. */
  function wireHelpers() {
    if (!run.worker || run.stopped) return;
    const ports = [];
    const relays = [];
    for (const helper of run.helpers.filter((h) => h.booted && h.alive)) {
      const channel = new MessageChannel();
      helper.post({ kind: KIND.port, port: channel.port2 }, [channel.port2]);
      ports.push(channel.port1);
      relays.push(helper.id);
    }
    run.wiring++;
    run.worker.post({ kind: KIND.helpers, ports, relays, wiring: run.wiring, always: run.alwaysHelped }, ports);
  }

  /** For tests: a split step uses at most `n` workers, the live one included (null: the
   *  cores), with the helpers on every step if `always` (through the page if 'relayed'). */
  function stepWorkers(n, always = false) {
    run.stepWorkers = n;
    run.alwaysHelped = always;
    syncHelpers();
    wireHelpers();
  }

  /** For tests: a helper terminated as a crash would end it, and replaced. */
  function loseHelper() {
    const helper = run.helpers[0];
    if (!helper) return false;
    helperLost(helper, false);
    return true;
  }

  function fallBack(reason) {
    if (run.local || run.stopped) return;
    run.worker?.terminate();
    run.worker = null;
    driver.mode = 'page';
    syncHelpers(); // (none on the page's thread)
    driver.workerId = 0;
    onNotice(`Training runs on the page's thread (slower; the page may stutter at large settings): ${reason}`);
    const post = {
      frame: (bytes, timings) => received({ kind: KIND.frame, bytes, memory: bindings.memoryBytes(), timings: { ...timings } }),
      knockout: (bytes, generation, purpose) => received({ kind: KIND.knockout, bytes, generation, purpose }),
      textFailed: (message, generation) => received({ kind: KIND.textFailed, message, generation }),
    };
    const ensureText = textLoader(bindings, assets.text);
    run.local = createEngine(bindings, post, { sliceMs: PAGE_SLICE_MS, onError, ensureText });
    run.sentText = null;
    for (const [request, r] of run.requests) {
      run.requests.delete(request);
      try {
        Promise.resolve(r.local(run.local)).then(r.resolve, r.reject);
      } catch (e) {
        r.reject(e);
      }
    }
    if (run.state) sendText(run.state);
    if (run.state) run.local.want(run.state, run.done, run.resume);
    if (driver.share < 1) run.local.pace(driver.share);
  }

  function start() {
    driver.timings = {}; // a new worker has taken no turn yet
    driver.asleep = false;
    const worker = startWorker('live', { onMessage: received, onFailed: fallBack, onError });
    if (!worker) return;
    run.worker = worker;
    driver.workerId = worker.id;
    run.lastHeard = performance.now();
    run.sentText = null;
    if (run.state) sendText(run.state);
    if (run.state) worker.post({ kind: KIND.state, state: run.state, done: run.done, resume: run.resume });
    // a request the worker before it did not answer goes to this one
    for (const r of run.requests.values()) worker.post(r.message);
    if (driver.share < 1) worker.post({ kind: KIND.pace, share: driver.share });
    syncHelpers();
    wireHelpers();
  }

  /** Replaces the live worker by a new one, which is sent the newest desired state. */
  function replace() {
    if (run.local || run.stopped) return;
    run.worker?.terminate();
    run.done = run.state;
    run.resume = null;
    run.suspending = false;
    start();
  }

  /** Trains at `share` of a core from now on. */
  function pace(share) {
    if (share === driver.share) return;
    driver.share = share;
    run.local?.pace(share);
    run.worker?.post({ kind: KIND.pace, share });
  }

  function want(state) {
    const before = run.state;
    run.state = state;
    if (setTraining(paced, state.playing) && !state.playing) pace(1);
    if (run.local) {
      sendText(state);
      return run.local.want(state, run.done);
    }
    if (run.suspending) run.wantedSince = true;
    if (driver.asleep) return start();
    const worker = run.worker;
    if (!worker) return;
    // Inside one long step the worker cannot read its inbox: start afresh rather than wait.
    const restarts = !before || state.restarts !== before.restarts || !sameBytes(state.config, before.config);
    const silent = before?.playing && performance.now() - run.lastHeard > BUSY_MS;
    const slowTurns = driver.timings.busy && driver.timings.tickMs > BUSY_MS;
    if (restarts && worker.booted && (silent || slowTurns)) return replace();
    sendText(state);
    worker.post({ kind: KIND.state, state, done: run.done });
    syncHelpers();
  }

  function stop() {
    run.stopped = true;
    for (const r of run.requests.values()) r.reject(new Error('the playground has stopped'));
    run.requests.clear();
    setTraining(paced, false);
    run.worker?.terminate();
    run.worker = null;
    syncHelpers(); // (none once stopped)
    run.local?.stop();
  }

  const paced = {
    pace,
    get share() {
      return driver.share;
    },
    get engine() {
      return driver.timings.pace;
    },
  };
  if (typeof Worker === 'undefined') fallBack('this browser has no Web Workers');
  else start();
  return driver;
}
