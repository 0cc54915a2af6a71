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
/** What the model writes is made again at most this often while training... */
const WRITE_MS = 400;
/** ...and at most once per this many times its own cost: it takes at most a tenth of the time. */
const WRITE_SHARE = 10;
/** A sample is written this long at a time, between training slices (a whole one takes
 *  seconds at depth 96 and width 128), so that the inbox is read as often as training allows. */
const WRITE_SLICE_MS = 4;
/** While training, writing takes at most this share of the worker's time since the run began. */
const WRITE_SHARE_MAX = 0.09;
/** A helper that has not answered a split step's shards by this many times the step's usual
 *  time (and at least HELPER_WAIT_MS) is given up: its shards run here, and it is not asked
 *  again until the page sends helpers anew. */
const HELPER_PATIENCE = 20;
const HELPER_WAIT_MS = 2000;
/** A split step's ways, with the helpers (on their ports or through the page) or alone (the
 *  live worker running every shard), give the same bits; each is timed as training goes (its
 *  steps over the wall time, turns and messages included, frames not: a frame's probe falls
 *  in one way's window and not another's, and in a helped step it overlaps the helpers' work)
 *  for at least this many steps and this long, again every RETIME_MS, and the fastest trains
 *  meanwhile: a small step loses to its messages (BENCHMARKS.md). */
const TIMED_STEPS = 3;
const TIMED_MS = 250;
const RETIME_MS = 5000;
/** A loop's next turn is a zero-delay timer this many times in a row, then a task of another
 *  kind (`turnTaker`). */
const TIMER_TURNS = 4;
/** Each way's turns are timed over TIMED_TURNS turns, again after KEPT_TURNS more (twice as
 *  many after each try the digest lost, up to KEPT_TURNS_MAX: a loaded machine can make
 *  Chromium's channel late, and each try there costs clamped timers). */
const TIMED_TURNS = 100;
const KEPT_TURNS = 2000;
const KEPT_TURNS_MAX = 32_000;
/** A channel's turns this late on average (ms) are worth trying the digest's (WebKit's came
 *  2-4 ms late while its page drew, Chromium's 0.02-0.3), which is kept unless its turns come
 *  later by WORSE_BY_MS: a digest that clamps the timers after it costs about 3 ms a turn. */
const SLOW_TURN_MS = 0.5;
const WORSE_BY_MS = 0.1;

/**
 * The next turns of a loop that works in slices (the live run's here, the comparisons' jobs in
 * jobs.js): `next()` has `turn` run as a zero-delay task, so that the messages queued meanwhile
 * (a new state, a cancel) run first. Timers run on the worker's own loop, but nested ones are
 * clamped to 4 ms after five levels, so every (TIMER_TURNS + 1)-th turn is a task of another
 * kind, which starts the nesting again: a message on a channel of its own, or, where the
 * channel's turns come late, the reply of a one-byte `crypto.subtle.digest`. In WebKit a
 * worker's channel message passes through the page's thread and waits while the page draws
 * (the live worker slept 6-7% of the time), while the digest's reply is a task of the worker's
 * own loop; in Chromium it is part of the task that asked, so the timers after it would be
 * clamped: hence the timing (BENCHMARKS.md, "WebKit's turns"). The timers between are tasks in
 * every engine, so the inbox is read at least every turn but one either way.
 * (`subtle` and `slowMs` are for tests.)
 */
export function turnTaker(turn, { subtle = globalThis.crypto?.subtle, slowMs = SLOW_TURN_MS } = {}) {
  const channel = new MessageChannel();
  const tiny = new Uint8Array(1);
  // phase: 'channel' or 'digest' while that way is timed, 'kept' between; late: the lateness
  // summed over this phase's turns
  const state = { timerTurns: 0, timer: 0, closed: false, asked: 0, way: 'channel', phase: 'channel', late: 0, turns: 0, kept: KEPT_TURNS, channelLate: NaN, digestLate: NaN };
  const run = () => {
    if (state.closed) return;
    state.late += performance.now() - state.asked;
    state.turns++;
    if (state.turns === (state.phase === 'kept' ? state.kept : TIMED_TURNS)) weigh(state.late / state.turns);
    turn();
  };
  /** At the end of a phase: after the channel's, try the digest's turns if the channel's came
   *  late; after the digest's, keep the sooner; after a while kept, time the channel again. */
  function weigh(late) {
    state.late = 0;
    state.turns = 0;
    if (state.phase === 'channel') {
      state.channelLate = late;
      state.phase = late > slowMs && subtle ? 'digest' : 'kept';
      state.way = state.phase === 'digest' ? 'digest' : 'channel';
    } else if (state.phase === 'digest') {
      state.digestLate = late;
      state.phase = 'kept';
      const lost = late > state.channelLate + WORSE_BY_MS;
      if (lost) state.way = 'channel';
      state.kept = lost ? Math.min(2 * state.kept, KEPT_TURNS_MAX) : KEPT_TURNS;
    } else {
      state.phase = 'channel';
      state.way = 'channel';
    }
  }
  channel.port1.onmessage = run;
  // a digest that fails is not tried again
  const failed = () => {
    subtle = null;
    state.way = 'channel';
    if (state.phase === 'digest') state.phase = 'kept';
    run();
  };
  return {
    next() {
      if (state.closed) return;
      state.asked = performance.now();
      if (state.timerTurns++ < TIMER_TURNS) state.timer = setTimeout(run, 0);
      else {
        state.timerTurns = 0;
        if (state.way === 'digest') subtle.digest('SHA-1', tiny).then(run, failed);
        else channel.port2.postMessage(0);
      }
    },
    /** How the loop turns now: 'channel' or 'digest' (for the timings). */
    get way() {
      return state.way;
    },
    /** Each way's turns' lateness when last timed, ms on average (NaN if not timed). */
    get late() {
      return { channel: state.channelLate, digest: state.digestLate };
    },
    /** No turn after this one: the pending timer cleared, the channel's ports closed. */
    close() {
      state.closed = true;
      clearTimeout(state.timer);
      channel.port1.onmessage = null;
      channel.port1.close();
      channel.port2.close();
    },
  };
}

/** A reason as the page says it in the reader's words (`Words.sayReason`): message `said`
 *  with its `args`, as JSON (`refusal` in texts.js makes the same on the page's side). */
const saidJson = (said, args = {}) => JSON.stringify({ said, args });

/**
 * `ensureText()` for a worker (or the page): a promise that the text task's text, fetched from
 * `url` at the first call, is in `bindings`' wasm (its length and hash checked there). Fetched
 * once and kept across task switches; a failure is not kept, so a later choice tries again.
 */
export function textLoader(bindings, url) {
  let loading = null;
  return function ensureText() {
    if (bindings.textInstalled()) return Promise.resolve();
    loading ??= (async () => {
      // (a failure as its message, said in the reader's words on the page)
      const refusal = (said, args) => new Error(saidJson(said, args));
      let response;
      try {
        response = await fetch(url);
      } catch (e) {
        throw refusal('text-fetch-failed', { detail: String(e?.message ?? e) });
      }
      if (!response.ok) throw refusal('text-fetch-status', { status: String(response.status), url });
      bindings.installText(new Uint8Array(await response.arrayBuffer()));
    })().catch((e) => {
      loading = null;
      throw e;
    });
    return loading;
  };
}

/**
 * `post.frame(bytes, timings)` gets every frame; `post.knockout(bytes, generation, purpose)` the
 * stack as trained so far, for a knockout job or a tuned lens (`purpose`: 'knockout' or 'lens').
 * `kinds`, the protocol's message kinds, for a worker whose split steps helpers share.
 */
export function createEngine(bindings, post, { sliceMs = WORKER_SLICE_MS, onError = () => {}, ensureText = null, kinds = null } = {}) {
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
    /** What the model writes is made again no sooner than this. */
    writeDue: 0,
    /** A sample is under way; its cost so far; characters per call, sized to WRITE_SLICE_MS. */
    writing: false,
    writeCost: 0,
    charsPerCall: 1,
    /** The text is being fetched for the desired state waiting in `wanted`. */
    fetching: false,
    /** A run another worker put aside (`Session.suspend()`), to go on from instead of the seed. */
    resume: null,
    /** The share of a core training takes (driver.js: the live runs training on one page
     *  leave a core to the page); below 1, a rest follows each slice. */
    pace: 1,
    rest: 0,
    /** A reader's prompt is being continued: writing is not held to its share of the time. */
    prompting: false,
    /** A weights file to start from once the desired state is applied: { bytes, reply }. */
    load: null,
    /** The session the reader's prompt was given to, and which prompt (as JSON). */
    prompted: null,
    prompt: 'null',
    /** The helper workers' ports (`helpers`): a split step's shards are shared with them. */
    helpers: [],
    /** The split step under way: { id, owed: Map(port → its shards), start, watchdog }. */
    split: null,
    /** A split step's usual time, for the helpers' patience. */
    splitMs: 0,
    /** The last frame's cost here (its probe of the whole stack, then encoding), and one
     *  shard's here in the last helped split step, ms. */
    sendMs: 0,
    shardMs: 0,
    /** The split steps' weights for every helper, on a cross-origin isolated page
     *  (`sharedWeights`). */
    shared: null,
    /** Elsewhere, the buffers each helper gave back with its last answer, port → { weights,
     *  gradients }: its next task's weights are copied into the one and its gradients into
     *  the other, instead of into new buffers of megabytes allocated every step. */
    spares: new Map(),
    /** The same helpers reached through the page (worker.js, `relayPorts`), in the same
     *  order: where a port between two workers copies what it carries (Firefox). */
    relays: [],
    /** The split step's ways timed: { helped (on the helpers' ports), relayed (through the
     *  page), alone }, ms a step (null: not yet), when all were, and the way being timed now
     *  { way, start, steps }; `always`: the helpers take every split step, on their ports, or
     *  through the page if 'relayed' (for tests). */
    ways: { helped: null, relayed: null, alone: null },
    timedAt: 0,
    trial: null,
    always: false,
  };
  // (writeMs: the time spent writing samples since the run started again, and writeShare that
  // over the time since: for the benchmark's "at most a tenth of the worker's time")
  // (helpers: the helper workers the split steps share; helped: the shards they answered;
  // reclaimed: the shards run here that a helper lost or replaced owed; shared: the steps'
  // weights went to the helpers in one SharedArrayBuffer, on a cross-origin isolated page;
  // reused: the tasks whose weights went in a buffer their helper gave back; relayed: the
  // shards helpers answered through the page)
  // (way: which of a split step's ways trains, once both are timed)
  // (parts: where a helped split step's time goes here, ms a step, averaged: send, the tasks
  // and weights copied out and posted; own, this worker's shards; wait, from then to the last
  // answer; receive, the answers' gradients copied in and summed; finish, the update; probe,
  // a frame's probe made here while the helpers ran every shard of a step, `probed` such steps)
  // (turns: the kind of task every fifth turn is, 'channel' or 'digest', and turnLate each
  // way's turns' lateness when last timed: `turnTaker`)
  const timings = { restartMs: NaN, stepMs: NaN, tickMs: 0, busy: false, writeMs: 0, writeShare: 0, pace: 1, helpers: 0, helped: 0, reclaimed: 0, shared: false, way: null, parts: null, probed: 0, reused: 0, relayed: 0, turns: 'channel' };
  /** `timings.parts[name]` moved towards `ms` (a running average). */
  const part = (name, ms) => {
    timings.parts ??= { send: 0, own: 0, wait: 0, receive: 0, finish: 0, probe: 0 };
    timings.parts[name] = timings.parts[name] ? 0.8 * timings.parts[name] + 0.2 * ms : ms;
  };
  let since = performance.now();
  const turns = turnTaker(() => {
    loop.scheduled = false;
    if (loop.stopped) return; // a timer set before the stop
    try {
      tick();
    } catch (e) {
      loop.stopped = true;
      onError(e?.message ?? String(e));
    }
  });
  function schedule() {
    if (!loop.scheduled && !loop.stopped) {
      loop.scheduled = true;
      turns.next();
    }
  }

  /** Brings the run to the desired state: restart if its configuration or Reset asks, then the
   *  one-shot requests whose counters moved. */
  function reconcile() {
    const state = loop.wanted;
    if (!state || loop.fetching) return;
    // the text task's text first, fetched only when a state asks for it; a state that cannot
    // have it is not applied, and the page hears why (a reader's text comes from the page,
    // before the state: `checkText`)
    const missing = bindings.missingText(state.config, false);
    if (missing !== undefined && missing !== 'plays') {
      loop.wanted = null;
      post.textFailed?.(saidJson('text-not-here'), state.generation);
      return;
    }
    if (missing !== undefined) {
      loop.fetching = true;
      (ensureText ? ensureText() : Promise.reject(new Error('no text loader')))
        .catch((e) => {
          if (loop.wanted === state) loop.wanted = null;
          post.textFailed?.(e?.message ?? String(e), state.generation);
        })
        .finally(() => {
          loop.fetching = false;
          schedule();
        });
      return;
    }
    loop.wanted = null;
    const t0 = performance.now();
    const seen = loop.seen ?? state;
    if (!loop.session && loop.resume) loop.session = resumed(loop.resume, state.generation);
    loop.resume = null;
    const restarted = loop.session
      ? loop.session.want(state.config, state.generation, state.restarts !== seen.restarts)
      : Boolean((loop.session = new bindings.Session(state.config, state.generation)));
    if (restarted) {
      timings.restartMs = performance.now() - t0;
      timings.writeMs = 0;
      since = performance.now();
      loop.writeCost = 0;
      loop.charsPerCall = 1; // a new stack's characters may cost far more: measure again
    }
    const session = loop.session;
    loop.stepsOwed += Math.max(0, state.steps - seen.steps);
    if (state.extensions !== seen.extensions) session.continueRun();
    if (state.axisRequests !== seen.axisRequests) {
      if (state.fit) session.rescale();
      else session.resetScale();
    }
    if (state.knockouts !== seen.knockouts) post.knockout(session.knockoutJob(), state.generation, 'knockout');
    if (state.lenses !== seen.lenses) post.knockout(session.knockoutJob(), state.generation, 'lens');
    // the reader's prompt, on this session (a new one starts without it)
    const prompt = JSON.stringify(state.prompt ?? null);
    if (loop.prompted !== session || loop.prompt !== prompt) {
      try {
        session.setPrompt(state.prompt?.text, state.prompt?.chars ?? 0);
      } catch (e) {
        onError(e?.message ?? String(e));
      }
      loop.prompted = session;
      loop.prompt = prompt;
      loop.writing = false;
      loop.writeDue = 0; // the stack continues it at the next turn, training or not
      // ...and until it is written, training waits, and it shows as it goes
      loop.prompting = state.prompt != null;
    }
    loop.seen = state;
    loop.playing = state.playing;
    loop.frameDue = true;
  }

  /** The run put aside, or none (then the run starts from the seed, as a new widget's). */
  function resumed(bytes, generation) {
    try {
      return bindings.Session.resumed(bytes, generation);
    } catch {
      return null;
    }
  }

  function tick() {
    // a split step under way ends first (its last answer, or the helpers' patience, goes on)
    if (loop.split) return;
    const tickStart = performance.now();
    reconcile();
    const session = loop.session;
    if (!session) return;
    // weights to start from, once the state with their configuration is applied
    if (loop.load && !loop.wanted && !loop.fetching) {
      const { bytes, reply } = loop.load;
      loop.load = null;
      try {
        session.loadWeights(bytes);
        loop.writing = false;
        loop.frameDue = true;
        reply();
      } catch (e) {
        reply(String(e?.message ?? e));
      }
    }
    for (let n = Math.min(loop.stepsOwed, STEPS_PER_TURN); n > 0; n--) session.step();
    if (loop.stepsOwed) {
      loop.stepsOwed = Math.max(0, loop.stepsOwed - STEPS_PER_TURN);
      loop.frameDue = true;
    }
    // a new state is answered at once, before any training: a slider move waits for no slice
    if (loop.frameDue) send();
    // (a reader's prompt is written first: training waits the few seconds it takes at most)
    const split = loop.helpers.length > 0 && session.shards > 1;
    const trains = loop.playing && session.running && !loop.prompting;
    const way = trains && split ? wayNow() : null;
    if (loop.trial?.way !== way) loop.trial = way && { way, start: performance.now(), steps: 0 };
    if (way === 'helped' || way === 'relayed') {
      // a step split among the helpers and this worker: it ends when their answers are in
      beginSplit(session, way === 'relayed' ? loop.relays : loop.helpers);
    } else if (trains) {
      const start = performance.now();
      const end = start + sliceMs;
      let steps = 0;
      do steps += session.train(1);
      while (session.running && performance.now() < end);
      timings.stepMs = (performance.now() - start) / Math.max(1, steps);
      if (way) timed(steps);
      // training shows at the display's pace, and its last step as soon as the run stops
      if (performance.now() - loop.lastPost >= loop.frameMs || !session.running) send();
    }
    // after a divergence, the run is replayed from the seed to its last finite state, in
    // slices as training is, and the frame that shows it is sent at once
    if (session.recovering) {
      const end = performance.now() + sliceMs;
      do session.recover(1);
      while (session.recovering && performance.now() < end);
      if (!session.recovering) send();
    }
    // the matrices' view's measure over batches at initialisation (on a stack of its own), in
    // slices as training is, once the run is not training; its frame shows how far it got
    if (session.measuring && !trains) {
      const end = performance.now() + sliceMs;
      do session.measure(1);
      while (session.measuring && performance.now() < end);
      if (performance.now() - loop.lastPost >= loop.frameMs || !session.measuring) send();
    }
    // what the model writes: a few times a second at most while training, and at once for
    // weights that have stopped changing; a slice of a sample per turn, and while training
    // only as long as writing has taken under a tenth of the time since the run began (one
    // character at depth 96 with a context of 256 costs a third of a second)
    const training = trainingLeft();
    const withinShare = timings.writeMs <= (WRITE_SHARE_MAX * (performance.now() - since));
    const due = loop.writing || (session.writingStale && (performance.now() >= loop.writeDue || !training));
    // a reader's prompt waits for no training
    if (due && (!training || withinShare || loop.prompting)) {
      const t0 = performance.now();
      loop.writing = session.writeSome(loop.charsPerCall);
      const t1 = performance.now();
      const perChar = (t1 - t0) / loop.charsPerCall;
      loop.charsPerCall = Math.max(1, Math.min(200, Math.round(WRITE_SLICE_MS / Math.max(perChar, 1e-3))));
      loop.writeCost += t1 - t0;
      timings.writeMs += t1 - t0;
      timings.writeShare = timings.writeMs / Math.max(1, t1 - since);
      if (!loop.writing) {
        loop.writeDue = t1 + Math.max(WRITE_MS, WRITE_SHARE * loop.writeCost);
        loop.writeCost = 0;
        if (!busy() || loop.prompting) send();
        loop.prompting = false;
      } else if (loop.prompting && t1 - loop.lastPost >= loop.frameMs) send(); // the characters so far
    }
    timings.tickMs = performance.now() - tickStart;
    if (!loop.split) goOn();
  }

  /** The loop's next turn while work is left: at once, or after a rest at a pace below 1. */
  function goOn() {
    if (!busy()) return;
    // at a pace below 1, training rests after each slice for that share of a core (a new state
    // does not wait for the rest: `want` schedules a turn at once)
    if (loop.pace < 1 && trainingLeft()) {
      clearTimeout(loop.rest);
      loop.rest = setTimeout(() => {
        loop.rest = 0;
        schedule();
      }, (sliceMs * (1 - loop.pace)) / loop.pace);
    } else schedule();
  }

  /** The ways a split step can go now: with the helpers on their ports or through the page,
   *  or alone. */
  function waysNow() {
    return loop.relays.length ? ['helped', 'relayed', 'alone'] : ['helped', 'alone'];
  }

  /** Which way the next split step goes: each is timed (again every RETIME_MS), then the
   *  fastest trains. */
  function wayNow() {
    const w = loop.ways;
    if (loop.always) return loop.always === 'relayed' && loop.relays.length ? 'relayed' : 'helped';
    const ways = waysNow();
    if (ways.every((k) => w[k] !== null) && performance.now() - loop.timedAt > RETIME_MS) ways.forEach((k) => (w[k] = null));
    return ways.find((k) => w[k] === null) ?? fastest();
  }

  /** The fastest of the ways timed. */
  function fastest() {
    return waysNow().reduce((a, b) => (loop.ways[b] < loop.ways[a] ? b : a));
  }

  /** `steps` more steps of the way being timed: once it has enough, its time a step is kept. */
  function timed(steps) {
    const trial = loop.trial;
    if (!trial) return;
    trial.steps += steps;
    const ms = performance.now() - trial.start;
    if (loop.ways[trial.way] !== null || trial.steps < TIMED_STEPS || ms < TIMED_MS) return;
    loop.ways[trial.way] = ms / trial.steps;
    loop.trial = null;
    if (waysNow().every((k) => loop.ways[k] !== null)) {
      loop.timedAt = performance.now();
      timings.way = fastest();
    }
  }

  /** Begins a split step: each helper is sent its shards (helper h of H takes h, h + H + 1,
   *  …), this worker runs the rest (0, H + 1, …), and the step ends with the last answer.
   *  When a frame is due and its probe costs more than a shard, the helpers take every shard
   *  and this worker probes meanwhile (the weights are still the last step's, as the frame
   *  shows them): otherwise the helpers would wait idle while it probed between two steps. */
  function beginSplit(session, ports) {
    const id = session.beginSplitStep();
    if (!id) return;
    const count = session.shards;
    const probing = frameDue() && probePays();
    const here = probing ? 0 : 1; // executors in this worker
    const executors = Math.min(ports.length + here, count);
    const split = { id, owed: new Map(), start: performance.now(), watchdog: 0, ownDone: 0, receive: 0, receivedBefore: 0, lastAnswer: 0, probing };
    loop.split = split;
    const shared = executors > here ? sharedWeights(session) : null;
    for (let h = here; h < executors; h++) {
      const shards = [];
      for (let k = h; k < count; k += executors) shards.push(k);
      const port = ports[h - here];
      const bytes = session.shardTask(Uint32Array.from(shards));
      const spare = loop.spares.get(port);
      loop.spares.delete(port);
      const weights = shared ?? givenBack(session, spare?.weights) ?? session.shardWeights();
      const moved = [bytes.buffer, ...(shared ? [] : [weights.buffer]), ...(spare?.gradients ? [spare.gradients.buffer] : [])];
      split.owed.set(port, shards);
      port.postMessage({ kind: kinds.shardTask, split: id, bytes, weights, spare: spare?.gradients }, moved);
    }
    const sent = performance.now();
    if (probing) send();
    else for (let k = 0; k < count; k += executors) session.runShard(k);
    split.ownDone = performance.now();
    if (probing) {
      part('probe', split.ownDone - sent);
      timings.probed++;
    } else if (executors > 1) {
      part('send', sent - split.start);
      part('own', split.ownDone - sent);
      loop.shardMs = (split.ownDone - sent) / Math.ceil(count / executors);
    }
    const patience = Math.max(HELPER_WAIT_MS, HELPER_PATIENCE * loop.splitMs);
    split.watchdog = setTimeout(() => {
      // helpers that have not answered: their shards here, and they are not asked again
      for (const port of [...split.owed.keys()]) giveUp(port);
      endSplit();
    }, patience);
    endSplit();
  }

  /** On a cross-origin isolated page, the begun step's weights in one `SharedArrayBuffer` every
   *  helper reads: copied out of this wasm once a step instead of once a helper, and never
   *  transferred. Written only when a step begins, after every helper answered the last or
   *  was given up (a late reader's answer is dropped). Elsewhere null: a copy a helper. */
  function sharedWeights(session) {
    if (!globalThis.crossOriginIsolated || typeof SharedArrayBuffer !== 'function') return null;
    const n = session.shardWeightCount();
    if (loop.shared?.length !== n) loop.shared = new Float32Array(new SharedArrayBuffer(n * 4));
    session.shardWeightsInto(loop.shared);
    timings.shared = true;
    return loop.shared;
  }

  /** The begun step's weights in `buffer`, a helper's given back, if it holds as many. */
  function givenBack(session, buffer) {
    if (!buffer || buffer.length !== session.shardWeightCount()) return null;
    session.shardWeightsInto(buffer);
    timings.reused++;
    return buffer;
  }

  /** A helper's answer to the split step under way (a late one, or one to an earlier step,
   *  is dropped); a helper that could not answer has its shards run here. */
  function answered(port, m) {
    const split = loop.split;
    if (!split || m?.split !== split.id || !split.owed.has(port)) return;
    try {
      if (m.message !== undefined) throw new Error(m.message);
      const at = performance.now();
      split.lastAnswer = Math.max(at, split.ownDone);
      split.receivedBefore = split.receive; // (the answers taken in while still waiting)
      loop.session.putShardAnswer(m.bytes, m.gradients);
      // (its buffers, for its next task)
      const whole = (a) => (a?.buffer instanceof ArrayBuffer ? new Float32Array(a.buffer) : null);
      loop.spares.set(port, { weights: whole(m.weights), gradients: whole(m.gradients) });
      split.receive += performance.now() - at;
      timings.helped += split.owed.get(port).length;
      if (loop.relays.includes(port)) timings.relayed += split.owed.get(port).length;
      split.owed.delete(port);
    } catch {
      giveUp(port); // (the step's bits do not depend on who ran its shards)
    }
    endSplit();
  }

  /** A helper no longer asked: its owed shards of the step under way run here. */
  function giveUp(port) {
    const i = Math.max(loop.helpers.indexOf(port), loop.relays.indexOf(port));
    for (const p of [loop.helpers[i], loop.relays[i]]) loop.spares.delete(p);
    if (i >= 0) {
      loop.helpers.splice(i, 1);
      loop.relays.splice(i, 1);
    }
    timings.helpers = loop.helpers.length;
    const owed = loop.split?.owed.get(port);
    if (!owed) return;
    loop.split.owed.delete(port);
    for (const k of owed) loop.session.runShard(k);
    timings.reclaimed += owed.length;
  }

  /** Ends the split step under way once nothing is owed, as `train(1)` would have. */
  function endSplit() {
    const split = loop.split;
    if (!split || split.owed.size > 0) return;
    clearTimeout(split.watchdog);
    loop.split = null;
    const finishing = performance.now();
    try {
      loop.session.finishSplitStep();
      if (split.lastAnswer) {
        part('wait', Math.max(0, split.lastAnswer - split.ownDone - split.receivedBefore));
        part('receive', split.receive);
        part('finish', performance.now() - finishing);
      }
    } catch (e) {
      loop.stopped = true;
      onError(e?.message ?? String(e));
      return;
    }
    const ms = performance.now() - split.start;
    if (split.probing) {
      // (a step whose frame was probed meanwhile is not timed: its way's window moves past it)
      if (loop.trial) loop.trial.start += ms;
    } else {
      loop.splitMs = loop.splitMs ? 0.8 * loop.splitMs + 0.2 * ms : ms;
      timings.stepMs = ms;
      timed(1);
    }
    // a frame due now is probed during the next split step if one follows at once
    const follows = loop.playing && !loop.wanted && !loop.load && loop.pace >= 1 && loop.helpers.length > 0 && !loop.prompting;
    if (!loop.session.running || (frameDue() && !(follows && probePays()))) send();
    // a desired state that came meanwhile is applied at the next turn, training or not
    if ((loop.wanted && !loop.fetching) || loop.load) schedule();
    else goOn();
  }

  /** The split step under way, ended here at once: every helper's owed shards run here (a
   *  run put aside, or helpers replaced, does not wait for them). */
  function settleSplit() {
    if (!loop.split) return;
    for (const [port, owed] of [...loop.split.owed]) {
      loop.split.owed.delete(port);
      for (const k of owed) loop.session.runShard(k);
      timings.reclaimed += owed.length;
    }
    endSplit();
  }

  /** A frame is due by the clock (a new state's is sent at once, `loop.frameDue`). */
  function frameDue() {
    return performance.now() - loop.lastPost >= loop.frameMs;
  }

  /** A frame's probe costs more than a shard here (as last measured, in a helped split
   *  step): it pays to probe while the helpers run every shard of one, rather than between
   *  two steps while they wait. */
  function probePays() {
    return loop.shardMs > 0 && loop.sendMs > loop.shardMs;
  }

  /** Work is left: training, or a sample under way. */
  function busy() {
    return trainingLeft() || loop.writing || loop.session.recovering || loop.session.measuring;
  }

  /** Training is left: while playing, or Step presses. */
  function trainingLeft() {
    return (loop.playing && loop.session.running) || loop.stepsOwed > 0;
  }

  /** Probes, encodes and posts a frame; keeps the probe's share of the time bounded. */
  function send() {
    loop.frameDue = false;
    timings.turns = turns.way;
    timings.turnLate = turns.late;
    const t0 = performance.now();
    timings.busy = busy();
    post.frame(loop.session.frame(), timings);
    loop.lastPost = performance.now();
    loop.sendMs = loop.lastPost - t0;
    // (a way being timed is timed without its frames; one probed during a split step is
    // left out with the whole step, in endSplit)
    if (loop.trial && !loop.split) loop.trial.start += loop.sendMs;
    // a deep or wide stack's probe is expensive: then frames come less often than the display's
    loop.frameMs = Math.max(FRAME_MS, PROBE_SHARE * loop.sendMs);
  }

  return {
    /** The page's newest desired state (protocol.js). `done`, read with the first state, is
     *  a state whose one-shot requests are done already: none for a widget's first worker,
     *  all of them for a replacement, which does not do again what the one it replaces did. */
    want(state, done = null, resume = null) {
      if (loop.stopped) return;
      if (done && !loop.session) loop.seen = done;
      if (resume && !loop.session) loop.resume = resume;
      loop.wanted = state;
      clearTimeout(loop.rest);
      loop.rest = 0;
      schedule();
    },
    /** Checks a reader's text and holds it (`installOwnText`): `{ id, facts }` (what the
     *  sentence about it says, said on the page in its language), or throws the reason in words. */
    checkText(bytes) {
      const [id, facts] = bindings.installOwnText(bytes);
      return { id, facts };
    },
    /** The run as a file: 'weights' (safetensors bytes) or 'report' (the JSON report's text). */
    exportRun(what) {
      const session = loop.session;
      if (!session) throw new Error('the run has not started yet');
      if (what === 'weights') return session.weightsFile();
      if (what === 'report') return session.reportJson();
      throw new Error(`no export named ${what}`);
    },
    /** Starts the run again from a weights file once the state with its configuration (sent
     *  before) is applied; `reply()` then, or `reply(reason)` if it cannot. */
    loadWeights(bytes, reply) {
      loop.load = { bytes, reply };
      schedule();
    },
    /** The share of a core training takes from now on (1: all of it). */
    pace(share) {
      loop.pace = timings.pace = Math.min(1, Math.max(0.05, Number(share) || 1));
      if (loop.pace === 1 && loop.rest) {
        clearTimeout(loop.rest);
        loop.rest = 0;
        schedule();
      }
    },
    /** Puts the run aside for another worker (`post.suspended(bytes)`) and stops; or, while it
     *  cannot be (a text still loading, Step presses owed, a replay under way), posts null
     *  and goes on. */
    suspend() {
      if (loop.stopped) return;
      settleSplit();
      if (!loop.fetching) reconcile();
      const bytes = loop.fetching || loop.stepsOwed > 0 || loop.resume || loop.load ? null : (loop.session?.suspend() ?? null);
      post.suspended?.(bytes);
      if (bytes) {
        loop.stopped = true;
        clearTimeout(loop.rest);
        turns.close();
      }
    },
    /** The helper workers' ports from now on (none: every shard here), and the same helpers
     *  reached through the page (`relays`, in the same order, or none). A helper's shards
     *  owed to the step under way run here; the next step shares with these. */
    helpers(ports, always = false, relays = []) {
      for (const port of loop.helpers) if (!ports.includes(port)) port.close();
      settleSplit();
      loop.helpers = [...ports];
      loop.relays = relays.length === ports.length ? [...relays] : [];
      loop.spares.clear();
      if (!ports.length) loop.shared = null; // (no helper reads it)
      loop.always = always;
      // other helpers, other times: every way timed again
      loop.ways = { helped: null, relayed: null, alone: null };
      loop.trial = null;
      timings.helpers = loop.helpers.length;
      for (const port of [...loop.helpers, ...loop.relays]) port.onmessage = (e) => answered(port, e.data);
      if (!loop.stopped) schedule();
    },
    stop() {
      loop.stopped = true;
      clearTimeout(loop.rest);
      if (loop.split) clearTimeout(loop.split.watchdog);
      loop.split = null;
      for (const port of loop.helpers) port.close();
      turns.close();
    },
  };
}
