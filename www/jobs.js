// A worker of the comparisons' pool: runs one job at a time (a wasm `Job`, from `View.job`) in
// slices and reports what it has so far. In a worker of the pool (worker.js), or on the page's
// thread when no worker can start. No maths here. It imports nothing, so that a bundler may
// copy it as a file on its own (the worker imports it by URL); the caller hands it engine.js's
// `turnTaker`, which yields between slices as the live run's loop does.

/** Work this long between looks at the inbox (a cancel, a new job). */
export const JOB_SLICE_MS = 20;
/** On the page's thread, leave room for drawing. */
export const PAGE_JOB_SLICE_MS = 4;
/** What a job has given so far, at most this often (and its end at once). */
const REPORT_MS = 200;
/** ...and at most one report per this many times the report's own cost. */
const REPORT_SHARE = 6;

/** `report(bytes, done, id)` gets every report of job `id`; `turnTaker` is engine.js's. */
export function createJobLoop(bindings, report, { turnTaker, sliceMs = JOB_SLICE_MS, onError = () => {}, ensureText = null } = {}) {
  const loop = { job: null, scheduled: false, stopped: false, lastReport: -Infinity, reportMs: REPORT_MS, pace: 1, rest: 0, runs: 0 };
  const turns = turnTaker(() => {
    loop.scheduled = false;
    try {
      tick();
    } catch (e) {
      loop.job = null;
      onError(e?.message ?? String(e));
    }
  });
  function schedule() {
    if (!loop.scheduled && !loop.rest && !loop.stopped && loop.job) {
      loop.scheduled = true;
      turns.next();
    }
  }

  function tick() {
    const job = loop.job;
    if (!job) return;
    const end = performance.now() + sliceMs;
    let done = false;
    do done = job.advance(1);
    while (!done && performance.now() < end);
    // a job whose partial results show nothing (a sweep's run) reports only its end
    if (done || (job.progressive && performance.now() - loop.lastReport >= loop.reportMs)) {
      const t0 = performance.now();
      report(job.report(), done, job.id);
      loop.lastReport = performance.now();
      loop.reportMs = Math.max(REPORT_MS, REPORT_SHARE * (loop.lastReport - t0));
    }
    if (done) {
      job.free();
      loop.job = null;
    }
    // at a pace below 1, rest after each slice so that the job takes that share of a core
    if (loop.pace < 1 && loop.job) {
      loop.rest = setTimeout(() => {
        loop.rest = 0;
        schedule();
      }, (sliceMs * (1 - loop.pace)) / loop.pace);
    } else schedule();
  }

  /** A failure's reason in English, as a job's failure is kept in .value (a refusal is its
   *  message: `Words.sayReason`). */
  function inEnglish(e) {
    const reason = e?.message ?? String(e);
    const english = bindings.Words.english();
    const said = english.sayReason(reason);
    english.free();
    return said ?? reason;
  }

  return {
    /** Starts the job these bytes describe, dropping any other; `text`, the reader's text it
     *  trains on, if the page sent it with the job. */
    run(bytes, text) {
      if (loop.stopped) return;
      loop.job?.free();
      loop.job = null;
      const run = ++loop.runs;
      const start = () => {
        if (loop.stopped || run !== loop.runs) return; // cancelled, or another job came
        try {
          loop.job = new bindings.Job(bytes);
        } catch (e) {
          return onError(e?.message ?? String(e));
        }
        loop.lastReport = performance.now(); // the first report after a slice or two
        schedule();
      };
      if (text) {
        try {
          bindings.installOwnText(text);
        } catch (e) {
          return onError(inEnglish(e));
        }
      }
      // a job on the text task fetches the shipped text first (once per worker); a reader's
      // text comes with the job
      const missing = bindings.missingText(bytes, true);
      if (missing === undefined) start();
      else if (missing !== 'plays') onError('the reader\'s text this job trains on was not sent to its worker');
      else if (!ensureText) onError('the text task needs its text, and this worker cannot fetch it');
      else ensureText().then(start, (e) => run === loop.runs && onError(inEnglish(e)));
    },
    cancel() {
      loop.runs++;
      loop.job?.free();
      loop.job = null;
    },
    /** The share of a core the jobs take from now on (1: all of it). */
    pace(share) {
      loop.pace = Math.min(1, Math.max(0.05, Number(share) || 1));
      if (loop.pace === 1 && loop.rest) {
        clearTimeout(loop.rest);
        loop.rest = 0;
        schedule();
      }
    },
    stop() {
      loop.stopped = true;
      loop.job?.free();
      loop.job = null;
      turns.close();
    },
  };
}
