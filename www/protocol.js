// The one protocol between the page and its workers. Every message is `{ kind, ... }` with a
// kind from this file; numbers travel as the bytes of the core's checked binary codec.
//
// The page → the live run's worker:
//   boot    { role: 'live' | 'jobs' | 'shards', bindings, wasm, engine, jobs, text }  where the code
//           and the text task's text are; `wasm` is the page's compiled WebAssembly.Module
//           (shared, so no worker compiles it again), or its URL if the page has none
//   state   { state, done }  the desired state (below): the worker reconciles its run to
//           the newest one; `done`, sent to a replacement worker, is a state whose one-shot
//           requests the worker it replaces did already
//           { state, done, resume }  to a worker after one that put its run aside: go on
//           from `resume` (`Session.suspend()`'s bytes) rather than from the seed
//   suspend {}          put the run aside (a widget away from the view lets its worker go)
//   pace    { share }   train at this share of a core (the live runs training on one page
//                       leave a core to the page: driver.js)
//   text    { bytes, request }  check a reader's text and hold it for the runs that name it
//                       (sent before any state whose config names it, to every new worker)
//   export  { what, request }   the run as a file: 'weights' (safetensors) or 'report' (JSON)
//   load    { bytes, request }  start the run again from a weights file's weights (the page
//                       has sent the state with the file's configuration first)
//   helpers { ports, relays, wiring, always }   the MessagePorts of the helper workers that share its
//                       split steps (a step split: configShards > 1), replacing any before,
//                       and the helpers' ids, to reach them through the page instead (`relay`);
//                       a helper's shards still owed are run here. The worker times its split
//                       step with them on their ports, through the page, and alone, and trains
//                       the fastest way (`always`, for tests: on their ports)
//   relayed { from, wiring, message }   a helper's message (on its port it would be
//                       `message`) that came through the page, for the helpers' `wiring`
// The page → a helper worker (role 'shards'):
//   boot    as above, role 'shards'
//   port    { port }    the MessagePort to the live worker it answers, replacing any before
//   relayed { wiring, message }   the live worker's message, through the page: answered
//                       through it, naming the same wiring
// The live worker ↔ a helper, on their port:
//   shard-task   { split, bytes, weights, spare }   the shards of split step number `split`
//                       (`Session.shardTask`) and the step's weights (a Float32Array, moved,
//                       or on a SharedArrayBuffer); `spare`, a buffer the last answer gave
//                       back for the gradients (moved; none at first)
//   shard-answer { split, bytes, gradients, weights } | { split, message }   their losses and
//                       their gradients (`ShardHelper.run`, `takeGradients`), and the task's
//                       weights' buffer given back (unless shared), or why not (then the live
//                       worker runs them)
// The page → a worker of the pool:
//   boot    as above, role 'jobs'
//   job     { bytes, text }  run this job (`View.job(id)`), replacing any other; `text`, the
//                       bytes of the reader's text it trains on, the first time this worker needs them
//   cancel  {}          drop the job under way
//   pace    { share }   take this share of a core (less while the live run trains on a
//                       machine with no core to spare)
// A worker → the page:
//   ready | boot-failed { message } | error { message }
//   frame     { bytes, memory, timings }   the live run now (the frame names its generation)
//   knockout  { bytes, generation, purpose } the live run's stack, for a knockout job (purpose
//                                          "knockout") or a tuned lens ("lens")
//   text-failed { message, generation }    the text task's text could not be loaded for that
//                                          state, which the worker did not apply
//   report    { bytes, done, worker }       what a job has given so far (`View.report`)
//   suspended { bytes }                      the live run put aside (null: it cannot be now)
//   text-checked { request, id, facts } | { request, message }   a reader's text held (its
//                                          text_id and what its sentence says), or why not
//   exported  { request, data } | { request, message }           the file asked for, or why not
//   loaded    { request } | { request, message }                 the weights loaded, or why not
//   relay     { to, wiring, message, moved }   from the live worker, a message for helper
//                                          `to`; from a helper, its answer for the live
//                                          worker: the page passes it on (if of the latest
//                                          wiring), its buffers `moved` again. In Firefox
//                                          a MessagePort between two workers copies what it
//                                          carries (a 6.4 MB buffer there and back takes
//                                          ~50 ms; through the page, under 1): BENCHMARKS.md

export const KIND = Object.freeze({
  boot: 'boot',
  state: 'state',
  job: 'job',
  cancel: 'cancel',
  pace: 'pace',
  ready: 'ready',
  bootFailed: 'boot-failed',
  error: 'error',
  frame: 'frame',
  knockout: 'knockout',
  textFailed: 'text-failed',
  report: 'report',
  suspend: 'suspend',
  suspended: 'suspended',
  text: 'text',
  textChecked: 'text-checked',
  export: 'export',
  exported: 'exported',
  load: 'load',
  loaded: 'loaded',
  helpers: 'helpers',
  port: 'port',
  relay: 'relay',
  relayed: 'relayed',
  shardTask: 'shard-task',
  shardAnswer: 'shard-answer',
});

/**
 * The live run the page wants. `generation` numbers every desired state the page sends; a frame
 * says which one it answers. `config` is `Settings.configBytes()`. The one-shot requests are
 * counters, so that a state can be sent again, or to a new worker, without doing anything twice:
 * a worker acts when a counter moves past the value it last saw (and a new worker starts from
 * the counters of the first state it gets).
 */
export function initialState(config) {
  return {
    generation: 1,
    config,
    /** Reset: start again from the seed even with the same configuration. */
    restarts: 0,
    playing: false,
    /** Step presses: one step each, even at the step limit. */
    steps: 0,
    /** Play on a finished run: another `steps` steps each. */
    extensions: 0,
    /** The histogram's axis: `fit` to the data, or back to the default, at each request. */
    axisRequests: 0,
    fit: false,
    /** Knock out layers: the worker sends its stack's weights for a job of the pool. */
    knockouts: 0,
    /** Fit a tuned lens: the same, for the lens's job. */
    lenses: 0,
    /** The reader's prompt: every sample continues `{ text, chars }` (null: the text's own). */
    prompt: null,
  };
}

/** The same bytes (two configurations, or a configuration and what a worker was sent). */
export function sameBytes(a, b) {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
