// The widget's state and its one update: plain data (no DOM, no wasm handle, no timer) that
// only `update` writes, as egui's `App` keeps one state with a `Default` and one `update`.
// playground.js holds one, sends it messages and acts on what changed: the desired live state
// (protocol.js) goes to the live run's worker whenever its generation moves. The handles (the
// wasm `Settings` and `View`, the workers) and the drawing's schedule are playground.js's own.

import { initialState } from './protocol.js';

/** A widget away from the view this long lets its live worker go, its run put aside (a lesson
 *  of twelve would otherwise keep twelve workers' memory); coming back, a new worker goes on
 *  from it bit for bit. */
export const HIBERNATE_MS = 20_000;

/**
 * The state of a widget not yet started: `playing` as it starts (autoplay, reduced motion),
 * `shown` the controls and panels to show (Sets of names, null: all), `comparisons` the
 * comparison panels' names, `pending` the parameters given before the start ([name, value]).
 */
export function initialWidget({ playing = true, shown = { controls: null, panels: null }, comparisons = [], pending = [] } = {}) {
  return {
    /** The reader wants the run to train (Play); false after Pause, Step, or a run that stopped. */
    playing,
    /** The run stopped by itself (its step limit, a divergence), not by the reader's Pause: a
     *  new setting's run trains. */
    stoppedItself: false,
    /** Near the viewport: only then does the live run train and the widget draw. */
    visible: false,
    /** Destroyed or failed: nothing more is drawn or sent. */
    stopped: false,
    shown,
    /** Which comparison panels have something to show. */
    started: Object.fromEntries(comparisons.map((name) => [name, false])),
    /** Parameters given before the start: the last value of each wins. */
    pending: [...pending],
    /** The live run the page wants (protocol.js), null before the start, and the generation of
     *  its last restart: frames from before that are dropped. */
    live: null,
    runGeneration: 0,
    /** The task is a sequence task ("The model writes", the lens's buttons), the text task (its
     *  own-text and prompt controls). */
    sequenceTask: false,
    textTask: false,
    /** A link's reader's text (its text_id) this page does not have yet: the run trains on the
     *  plays until the reader gives that text, and a text with another hash is refused. */
    awaitingText: null,
    /** The reader's text the live worker last checked: { id, words }. */
    textWords: null,
    /** Away from the view this long, the live worker goes (tests shorten it). */
    hibernateMs: HIBERNATE_MS,
  };
}

/** The live run trains: the reader wants it and it is near the view. */
export function training(s) {
  return s.playing && s.visible;
}

/** The reader's Play or Pause (a host's, a text given, weights loaded): the run is no longer one
 *  that stopped by itself. */
function choose(s, playing) {
  s.playing = playing;
  s.stoppedItself = false;
}

/** The one-shot requests a message may count (protocol.js's counters). */
const REQUESTS = new Set(['knockouts', 'lenses']);

/**
 * Applies `message` (`{ kind, ... }`) to state `s`, and says what changed: `live`, the desired
 * live state (rewritten, with a new generation, whenever what the worker should do changes: the
 * caller sends it then), and `playing`, the reader's Play/Pause (the button's words follow).
 */
export function update(s, message) {
  const [generation, playing] = [s.live?.generation, s.playing];
  apply(s, message);
  return { live: s.live?.generation !== generation, playing: s.playing !== playing };
}

function apply(s, m) {
  switch (m.kind) {
    case 'start':
      // the settings were made (`config`: their bytes): the first desired state
      s.pending = [];
      s.live = { ...initialState(m.config), generation: 0 };
      s.runGeneration = 1;
      want(s, {});
      return;
    case 'play':
      choose(s, true);
      // a finished run goes on for another `steps` steps, in the same state as the playing
      want(s, m.finished ? { extensions: s.live.extensions + 1 } : {});
      return;
    case 'pause':
      choose(s, false);
      want(s, {});
      return;
    case 'step':
      choose(s, false);
      want(s, { steps: s.live.steps + 1 });
      return;
    case 'restart':
      // from the seed, with the settings' `config`; a run that had stopped by itself trains again
      if (s.stoppedItself) choose(s, true);
      want(s, { config: m.config, restarts: s.live.restarts + 1 });
      s.runGeneration = s.live.generation;
      return;
    case 'stopped-itself':
      // a frame of `generation` says the run reached its limit or diverged: only the newest
      // state's run stops the widget (an older frame's run has been replaced)
      if (s.playing && m.generation === s.live.generation) {
        s.playing = false;
        s.stoppedItself = true;
        want(s, {});
      }
      return;
    case 'visible':
      s.visible = m.near;
      want(s, {});
      return;
    case 'request':
      // a one-shot request: knock out the stack's layers, fit a tuned lens
      if (!REQUESTS.has(m.name)) throw new Error(`no request ${m.name}`);
      want(s, { [m.name]: s.live[m.name] + 1 }, true);
      return;
    case 'axis':
      want(s, { axisRequests: s.live.axisRequests + 1, fit: Boolean(m.fit) }, true);
      return;
    case 'prompt':
      want(s, { prompt: m.prompt }, true);
      return;
    case 'pending':
      // a parameter before the start: the last value given wins (several pin= make one list)
      s.pending = s.pending.filter(([n]) => n !== m.name);
      s.pending.push([m.name, m.value]);
      return;
    case 'show':
      s.shown = m.shown;
      return;
    case 'comparison-started':
      s.started[m.name] = true;
      return;
    case 'task':
      s.sequenceTask = m.sequenceTask;
      s.textTask = m.textTask;
      return;
    case 'await-text':
      s.awaitingText = m.id;
      return;
    case 'text-checked':
      s.awaitingText = null;
      s.textWords = m.words;
      // "Train on …" trains, even after a run that had finished
      choose(s, true);
      want(s, {});
      return;
    case 'plays':
      s.awaitingText = null;
      return;
    case 'weights-loaded':
      // measured at step 0 and paused: Play trains on from them
      choose(s, false);
      want(s, {});
      return;
    case 'hibernate-after':
      s.hibernateMs = m.ms;
      return;
    case 'stop':
      s.stopped = true;
      return;
    default:
      throw new Error(`the widget has no message ${m.kind}`);
  }
}

/** A new desired live state: the current one with `changes`, training as `s` says. Before the
 *  start there is none (the start's state has the counters' first values). Sent whether or not
 *  anything changed when `always` (a request is itself the change), else only on a change. */
function want(s, changes, always = false) {
  if (!s.live) return;
  const next = { ...s.live, ...changes, playing: training(s) };
  if (!always && s.live.generation > 0 && Object.keys(next).every((k) => next[k] === s.live[k])) return;
  s.live = { ...next, generation: s.live.generation + 1 };
}
