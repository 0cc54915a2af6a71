// The live run's loop around a wasm `Session`: it reconciles to the newest desired state the
// page sent (protocol.js) and answers with frames. It runs in the live run's Web Worker
// (worker.js), or on the page's thread when no worker can start. No maths here. It imports
// nothing, so that a bundler may copy it as a file on its own (the worker imports it by URL).

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
/** A burst of Step presses is taken at most this many steps a turn. */
const STEPS_PER_TURN = 100;

/**
 * `post.frame(bytes, timings)` gets every frame; `post.knockout(bytes, generation)` the stack
 * for a knockout job.
 */
export function createEngine(bindings, post, { sliceMs = WORKER_SLICE_MS, onError = () => {} } = {}) {
  const loop = {
    session: null,
    /** The newest desired state, not yet applied (a burst of them applies only the last). */
    wanted: null,
    /** The counters of the last state applied: before the first, those of the state the page
     *  says is done already (none for a widget's first worker; all of the replaced worker's). */
    seen: null,
    playing: false,
    stepsOwed: 0,
    frameDue: false,
    scheduled: false,
    stopped: false,
    lastPost: -Infinity,
    frameMs: FRAME_MS,
  };
  const timings = { restartMs: NaN, stepMs: NaN, tickMs: 0, busy: false };
  // A zero-delay task that lets queued messages run first (setTimeout(0) is clamped to 4 ms).
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    loop.scheduled = false;
    try {
      tick();
    } catch (e) {
      loop.stopped = true;
      onError(e?.message ?? String(e));
    }
  };
  function schedule() {
    if (!loop.scheduled && !loop.stopped) {
      loop.scheduled = true;
      channel.port2.postMessage(0);
    }
  }

  /** Brings the run to the desired state: restart if its configuration or Reset asks, then the
   *  one-shot requests whose counters moved. */
  function reconcile() {
    const state = loop.wanted;
    if (!state) return;
    loop.wanted = null;
    const t0 = performance.now();
    const seen = loop.seen ?? state;
    const restarted = loop.session
      ? loop.session.want(state.config, state.generation, state.restarts !== seen.restarts)
      : Boolean((loop.session = new bindings.Session(state.config, state.generation)));
    if (restarted) timings.restartMs = performance.now() - t0;
    const session = loop.session;
    loop.stepsOwed += Math.max(0, state.steps - seen.steps);
    if (state.extensions !== seen.extensions) session.continueRun();
    if (state.axisRequests !== seen.axisRequests) session[state.fit ? 'rescale' : 'resetScale']();
    if (state.knockouts !== seen.knockouts) post.knockout(session.knockoutJob(), state.generation);
    loop.seen = state;
    loop.playing = state.playing;
    loop.frameDue = true;
  }

  function tick() {
    const tickStart = performance.now();
    reconcile();
    const session = loop.session;
    if (!session) return;
    for (let n = Math.min(loop.stepsOwed, STEPS_PER_TURN); n > 0; n--) session.step();
    if (loop.stepsOwed) {
      loop.stepsOwed = Math.max(0, loop.stepsOwed - STEPS_PER_TURN);
      loop.frameDue = true;
    }
    // a new state is answered at once, before any training: a slider move waits for no slice
    if (loop.frameDue) send();
    if (loop.playing && session.running) {
      const start = performance.now();
      const end = start + sliceMs;
      let steps = 0;
      do steps += session.train(1);
      while (session.running && performance.now() < end);
      timings.stepMs = (performance.now() - start) / Math.max(1, steps);
      // training shows at the display's pace, and its last step as soon as the run stops
      if (performance.now() - loop.lastPost >= loop.frameMs || !session.running) send();
    }
    timings.tickMs = performance.now() - tickStart;
    if (busy()) schedule();
  }

  /** Work is left: training while playing, or Step presses. */
  function busy() {
    return (loop.playing && loop.session.running) || loop.stepsOwed > 0;
  }

  /** Probes, encodes and posts a frame; keeps the probe's share of the time bounded. */
  function send() {
    loop.frameDue = false;
    const t0 = performance.now();
    timings.busy = busy();
    post.frame(loop.session.frame(), timings);
    loop.lastPost = performance.now();
    // a deep or wide stack's probe is expensive: then frames come less often than the display's
    loop.frameMs = Math.max(FRAME_MS, PROBE_SHARE * (loop.lastPost - t0));
  }

  return {
    /** The page's newest desired state (protocol.js). `done`, read with the first state, is
     *  a state whose one-shot requests are done already: none for a widget's first worker,
     *  all of them for a replacement, which does not do again what the one it replaces did. */
    want(state, done = null) {
      if (loop.stopped) return;
      if (done && !loop.session) loop.seen = done;
      loop.wanted = state;
      schedule();
    },
    stop() {
      loop.stopped = true;
      channel.port1.close();
    },
  };
}
