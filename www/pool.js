// The comparisons' workers: pins, All four, the sweep and the knockout are jobs (`View.wanted`,
// `View.job`) that run in a pool of Web Workers of their own, never in the live run's. The pool
// grows only while jobs wait, up to one worker fewer than the reader's cores (at most
// MAX_WORKERS), and lets an idle worker go after IDLE_MS. Every job starts from the seed, so
// its numbers are the same bits whichever worker runs it. Without workers, the jobs run on the
// page's thread, one at a time.

import { assets } from './assets.js';
import { cores } from './cores.js';
import { textLoader, turnTaker } from './engine.js';
import { createJobLoop, PAGE_JOB_SLICE_MS } from './jobs.js';
import { KIND } from './protocol.js';
import { textBytes } from './texts.js';
import { startWorker } from './workers.js';

/** Each worker holds one run's memory (docs/using.md, "Workers and memory"): this bounds the pool's. */
export const MAX_WORKERS = 4;
/** An idle worker is let go after this long. */
const IDLE_MS = 30_000;
/** While the live run trains, the jobs together take the cores left after the live run's and
 *  the page's (its drawing and the compositor take most of one), and at least this many, so
 *  that the reader's live run keeps its pace; otherwise each takes a whole core. */
const MIN_SHARE = 0.5;
/** Workers that fail to start one after another, none having started meanwhile, before the
 *  jobs move to the page's thread: a slow or failed start is otherwise replaced on its own. */
const START_TRIES = 3;

/** The pool's size on this machine: a worker per core, at most MAX_WORKERS. While the live
 *  run trains they share what it leaves (`setPace`); when it is paused or done they have it all. */
export function defaultPoolSize() {
  return Math.max(1, Math.min(MAX_WORKERS, cores()));
}

/**
 * `onReport(bytes, done)` gets every job's report, for `View.report`, then calls `sync` again;
 * `onJobFailed(id, reason)` a job that failed in its worker, for `View.fail` (its worker is
 * replaced, and the other jobs go on); `onNotice(text)` says when the jobs fall back to the
 * page's thread; `onError(text)` an error outside any job.
 * Returns { sync(view), stop(), info, size }.
 */
export function createPool(bindings, { onReport, onJobFailed, onNotice, onError, size: startSize = defaultPoolSize() }) {
  let size = startSize;
  const pool = {
    /** { id, handle, job (its id, or 0), timer, jobs (how many it ran) } */
    workers: [],
    local: null,
    view: null,
    stopped: false,
    memory: new Map(),
    liveTraining: false,
    /** The share of a core each job takes now. */
    pace: 1,
    /** Workers that failed to start since one last reported. */
    startFailures: 0,
  };

  /** Each job's share of a core: while the live run trains, the busy jobs share the cores it
   *  and the page leave (at least MIN_SHARE of one); otherwise a whole core each. */
  function setPace() {
    const busy = Math.max(1, pool.workers.filter((w) => w.job).length);
    const pace = pool.liveTraining ? Math.min(1, Math.max(MIN_SHARE, cores() - 2) / busy) : 1;
    if (pace === pool.pace) return;
    pool.pace = pace;
    for (const w of pool.workers) w.handle.post({ kind: KIND.pace, share: pace });
  }

  function received(worker, m) {
    if (m.kind !== KIND.report) return;
    pool.startFailures = 0;
    pool.memory.set(worker.id, m.memory ?? 0);
    if (m.done && worker.job === m.id) {
      worker.job = 0;
      worker.jobs++;
    }
    onReport(m.bytes, m.done);
  }

  /** Lets `worker` go now, whatever it was doing. */
  function retire(worker) {
    clearTimeout(worker.timer);
    worker.handle?.terminate();
    pool.workers = pool.workers.filter((w) => w !== worker);
    pool.memory.delete(worker.id);
  }

  /** An error in `worker`: its job failed, once, with this reason. A worker's wasm may be
   *  unusable after an error (a Rust panic poisons it), so it is replaced; on the page's
   *  thread the loop goes on with the next job. */
  function failed(worker, reason) {
    const id = worker.job;
    if (!id) return onError(reason);
    worker.job = 0;
    if (!pool.local) retire(worker);
    onJobFailed(id, reason);
    if (pool.view) sync(pool.view);
  }

  /** `worker` did not start (too slow, or its script or wasm failed): another takes its place
   *  and its job; the page's thread only once START_TRIES in a row have failed. */
  function startFailed(worker, reason) {
    retire(worker);
    worker.job = 0;
    if (++pool.startFailures >= START_TRIES && !pool.workers.some((w) => w.handle.booted)) return fallBack(reason);
    onNotice(`A comparisons' worker did not start (${reason}); another takes its place.`);
    // (not from within the failed start, which may be inside sync's own loop)
    setTimeout(() => pool.view && !pool.stopped && sync(pool.view), 0);
  }

  function fallBack(reason) {
    if (pool.local || pool.stopped) return;
    for (const w of pool.workers) w.handle?.terminate();
    onNotice(`The comparisons run on the page's thread (slower): ${reason}`);
    const worker = { id: 0, job: 0, jobs: 0, timer: 0, handle: null };
    const loop = createJobLoop(bindings, (bytes, done, id) => received(worker, { kind: KIND.report, bytes, done, id }), {
      turnTaker,
      sliceMs: PAGE_JOB_SLICE_MS,
      onError: (reason) => failed(worker, reason),
      ensureText: textLoader(bindings, assets.text),
    });
    worker.handle = {
      post(m) {
        if (m.kind === KIND.job) loop.run(m.bytes, m.text);
        else if (m.kind === KIND.cancel) loop.cancel();
        else if (m.kind === KIND.pace) loop.pace(m.share);
      },
      terminate: () => loop.stop(),
    };
    pool.workers = [worker];
    pool.local = loop;
    if (pool.view) sync(pool.view);
  }

  function spawn() {
    const worker = { id: 0, job: 0, jobs: 0, timer: 0, handle: null };
    const handle = startWorker('jobs', {
      onMessage: (m) => received(worker, m),
      onFailed: (reason) => startFailed(worker, reason),
      onError: (reason) => failed(worker, reason),
    });
    if (!handle) return null;
    worker.id = handle.id;
    worker.handle = handle;
    pool.workers.push(worker);
    if (pool.pace !== 1) handle.post({ kind: KIND.pace, share: pool.pace });
    return worker;
  }

  function assign(worker, id, view) {
    const bytes = view.job(id);
    if (!bytes.length) return;
    clearTimeout(worker.timer);
    worker.timer = 0;
    worker.job = id;
    // a job on a reader's text: its bytes go with the first of its jobs each worker gets
    const textId = bindings.missingText(bytes, true);
    const text = textId && textId !== 'plays' && worker.text !== textId ? textBytes(textId) : undefined;
    if (text) worker.text = textId;
    worker.handle.post({ kind: KIND.job, bytes, text }, [bytes.buffer]);
  }

  function idle(worker) {
    if (worker.timer || pool.local) return;
    worker.timer = setTimeout(() => {
      worker.handle.terminate();
      pool.workers = pool.workers.filter((w) => w !== worker);
      pool.memory.delete(worker.id);
    }, IDLE_MS);
  }

  /** Hands the view's wanted jobs to the workers: drops jobs no longer wanted, gives each idle
   *  worker the next one, and starts workers while jobs wait and the pool has room. */
  function sync(view) {
    if (pool.stopped) return;
    pool.view = view;
    const wanted = [...view.wanted()];
    for (const w of pool.workers) {
      if (w.job && !wanted.includes(w.job)) {
        w.handle.post({ kind: KIND.cancel });
        w.job = 0;
      }
    }
    const running = new Set(pool.workers.map((w) => w.job).filter(Boolean));
    const waiting = wanted.filter((id) => !running.has(id));
    // while the live run trains, only as many jobs at once as the cores it and the page leave
    const limit = pool.liveTraining ? Math.min(size, Math.max(1, cores() - 2)) : size;
    let busy = running.size;
    for (const w of pool.workers) {
      if (!w.job && waiting.length && busy < limit) {
        assign(w, waiting.shift(), view);
        busy++;
      }
    }
    const room = pool.local ? 0 : size - pool.workers.length;
    for (let i = 0; i < room && waiting.length && busy < limit; i++) {
      const w = spawn();
      if (!w) break;
      assign(w, waiting.shift(), view);
      busy++;
    }
    for (const w of pool.workers) if (!w.job) idle(w);
    setPace();
  }

  function stop() {
    pool.stopped = true;
    for (const w of pool.workers) {
      clearTimeout(w.timer);
      w.handle.terminate();
    }
    pool.workers = [];
  }

  if (typeof Worker === 'undefined') fallBack('this browser has no Web Workers');
  return {
    sync,
    stop,
    /** Whether the live run is training now (the page says so as its frames come). */
    liveTrains(training) {
      if (training === pool.liveTraining) return;
      pool.liveTraining = training;
      if (pool.view) sync(pool.view); // more jobs at once when it stops, and each one's pace
    },
    /** Jobs are sharing the cores with the live run (there are none to spare): the page should
     *  draw less often, to leave them time. */
    get crowded() {
      return pool.pace < 1;
    },
    /** For tests: at most `n` workers from now on (those over it go when idle). */
    resize(n) {
      size = Math.max(1, n >>> 0);
      for (const w of pool.workers.filter((x) => !x.job).slice(size)) {
        clearTimeout(w.timer);
        w.handle.terminate();
        pool.workers = pool.workers.filter((x) => x !== w);
      }
    },
    /** For tests and the benchmark: the workers, the jobs each ran, their wasm memory. */
    get info() {
      return {
        size,
        mode: pool.local ? 'page' : 'worker',
        workers: pool.workers.map((w) => ({ id: w.id, job: w.job, jobs: w.jobs })),
        pace: pool.pace,
        memory: [...pool.memory.values()].reduce((a, b) => a + b, 0),
      };
    },
  };
}
