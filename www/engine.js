// The training loop around a wasm `Session`: commands in, encoded frames out. It runs in the
// Web Worker (worker.js), or on the page's thread when no worker can start. No maths here.
//
// Commands: {type: 'restart', query, generation} (coalesced: only the latest pending restart
// is built), 'play', 'pause', 'step', 'continue', 'rescale', 'resetScale', and for the
// comparisons {type: 'pins', text}, {type: 'compare', query}, {type: 'sweep', query},
// 'knockout'. The comparisons (pins, All four, the sweep) share the worker with the live run,
// slice by slice, and their state is posted through `postLab` at most every LAB_MS.
// Every frame is posted as the bytes of `Session.frame()` (tagged inside with its generation)
// and the `seq` of the last command applied before it, so the page knows when it is current,
// with the engine's own timings: the last restart and the mean step (for the benchmark), and
// how long its last turn took and whether it has work left (for the driver: a restart that
// would wait behind a long turn replaces the worker instead).

/** Train this long between looks at the inbox: a slider move waits at most this (plus the
 *  step in progress) before the worker starts on it. */
export const WORKER_SLICE_MS = 5;
/** On the page's thread the slice must leave room for drawing within a 16.7 ms frame. */
export const PAGE_SLICE_MS = 6;
/** While training, a frame (a probe of the whole stack, then encoding) at most this often:
 *  one per display refresh, so the probe's cost does not grow with shorter slices. */
const FRAME_MS = 15;
/** ...and at most one frame per this many times the frame's own cost, so that probing takes at
 *  most about a sixth of the worker's time, leaving the rest to training. */
const PROBE_SHARE = 6;
/** The comparisons' state (pins probed, curves so far) at most this often while they run. */
const LAB_MS = 100;

export function createEngine(bindings, post, { sliceMs = WORKER_SLICE_MS, onError = () => {}, postLab = () => {} } = {}) {
  let session = null;
  let pendingRestart = null;
  let playing = false;
  let frameDue = false;
  let scheduled = false;
  let stopped = false;
  let seq = 0;
  let lastPost = -Infinity;
  let frameMs = FRAME_MS;
  let labDue = false;
  // comparison commands wait for the tick, after any pending restart is built: they must not
  // build a restart that a later one in the inbox replaces (a drag after a worker restart)
  const labCommands = [];
  let lastLabPost = -Infinity;
  let labMs = LAB_MS;
  const timings = { restartMs: NaN, stepMs: NaN, tickMs: 0, busy: false };
  // A zero-delay task that lets queued commands run first (setTimeout(0) is clamped to 4 ms).
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    scheduled = false;
    try {
      tick();
    } catch (e) {
      stopped = true;
      onError(e?.message ?? String(e));
    }
  };
  function schedule() {
    if (!scheduled && !stopped) {
      scheduled = true;
      channel.port2.postMessage(0);
    }
  }

  function applyRestart() {
    if (!pendingRestart) return;
    const { query, generation } = pendingRestart;
    pendingRestart = null;
    const t0 = performance.now();
    if (session) session.restart(query, generation);
    else session = new bindings.Session(query, generation);
    timings.restartMs = performance.now() - t0;
    frameDue = true;
  }

  function tick() {
    const tickStart = performance.now();
    applyRestart();
    if (!session) return;
    for (const m of labCommands.splice(0)) applyLab(m);
    // a command is answered at once, before any training: a slider move waits for no slice
    if (frameDue) send();
    if (session.knocking) {
      // a knockout pauses training: one probe forward pass per layer, a slice at a time
      const end = performance.now() + sliceMs;
      while (!session.advanceKnockout(1) && performance.now() < end);
      if (!session.knocking) send();
    } else if (playing && session.running) {
      const start = performance.now();
      const end = start + sliceMs;
      let steps = 0;
      do steps += session.train(1);
      while (session.running && performance.now() < end);
      timings.stepMs = (performance.now() - start) / Math.max(1, steps);
      // training shows at the display's pace, and its last step as soon as the run stops
      if (performance.now() - lastPost >= frameMs || !session.running) send();
    }
    if (session.labBusy) {
      const end = performance.now() + sliceMs;
      while (session.advanceLab(1) && performance.now() < end);
      if (performance.now() - lastLabPost >= labMs || !session.labBusy) labDue = true;
    }
    if (labDue) sendLab();
    timings.tickMs = performance.now() - tickStart;
    if (busy()) schedule();
  }

  /** Work is left: training while playing, a knockout, or the comparisons. */
  function busy() {
    return (playing && session.running) || session.knocking || session.labBusy;
  }

  function applyLab(m) {
    if (m.type === 'pins') {
      try {
        session.setPins(String(m.text ?? ''));
      } catch (e) {
        onError(e?.message ?? String(e));
      }
    } else {
      session[m.type === 'compare' ? 'startCompare' : 'startSweep'](String(m.query));
    }
    labDue = true;
  }

  function sendLab() {
    labDue = false;
    const t0 = performance.now();
    timings.busy = busy();
    postLab(session.labState(), timings);
    lastLabPost = performance.now();
    // a pin in progress is probed for each state: at large settings, post less often
    labMs = Math.max(LAB_MS, PROBE_SHARE * (lastLabPost - t0));
  }

  /** Probes, encodes and posts a frame; keeps the probe's share of the time bounded. */
  function send() {
    frameDue = false;
    const t0 = performance.now();
    timings.busy = busy();
    post(session.frame(), seq, timings);
    lastPost = performance.now();
    // a deep or wide stack's probe is expensive: then frames come less often than the display's
    frameMs = Math.max(FRAME_MS, PROBE_SHARE * (lastPost - t0));
  }

  return {
    command(m) {
      if (stopped) return;
      if (Number.isInteger(m.seq)) seq = m.seq;
      switch (m.type) {
        case 'restart':
          // built on the next tick, so that a burst of restarts (a fast drag) builds only the last
          pendingRestart = { query: String(m.query), generation: m.generation >>> 0 };
          break;
        case 'play':
          playing = true;
          break;
        case 'pause':
          playing = false;
          break;
        case 'continue':
          applyRestart();
          session?.continueRun();
          break;
        case 'step':
          playing = false;
          applyRestart();
          session?.step();
          break;
        case 'rescale':
        case 'resetScale':
          applyRestart();
          session?.[m.type]();
          break;
        case 'knockout':
          applyRestart();
          session?.startKnockout();
          break;
        case 'pins':
        case 'compare':
        case 'sweep':
          labCommands.push(m);
          break;
        default:
          return;
      }
      frameDue = true; // every command is answered by a frame that reflects it
      schedule();
    },
    stop() {
      stopped = true;
      channel.port1.close();
    },
  };
}
