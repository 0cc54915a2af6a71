// When one widget draws, tells its host, and lets its worker go: at most one drawing per
// animation frame and only near the view; the newest frame's bytes until then; which panels are
// stale; the promises waiting for a frame that answers a state; the host's updates throttled;
// the hibernation timer. This module owns that schedule; playground.js says what a frame does.

/** playground-update events for the host: often enough, not a flood. */
const UPDATE_EVERY_MS = 250;
/** While comparisons share the machine's cores with the live run, its training is drawn at
 *  most this often (20 a second), leaving the drawing's time to the training and the jobs; a
 *  frame that answers the reader (a new generation: a slider, a switch) is drawn at once. */
const CROWDED_DRAW_MS = 50;

/**
 * The schedule of a widget: `awake()` says whether it may draw (near the view, not stopped),
 * `stopped()` whether it is gone; `onFrame(now)` is an animation frame's work; `onUpdate()`
 * tells the host the state; `onHibernate()` lets the worker go.
 */
export function createSchedule({ awake, stopped, onFrame, onUpdate, onHibernate }) {
  let requested = false;
  /** The newest frame's bytes, not yet loaded. */
  let incoming = null;
  /** What to draw again: the live run's panels (a new frame, a command), the comparisons'
   *  panels (a report), or both (resize, theme, panels, pins). */
  let stale = { live: false, comparisons: false };
  /** When the panels were last drawn, and the generation then drawn. */
  let drawnAt = -Infinity;
  let drawnGeneration = -1;
  /** [generation, resolve]: promises waiting for a frame that answers that state. */
  const waiting = [];
  let updateDue = 0;
  let updateTimer = 0;
  let hibernateTimer = 0;

  function tick(now) {
    requested = false;
    if (awake()) onFrame(now);
  }

  const schedule = {
    /** An animation frame, if none is asked for and the widget may draw. */
    wake() {
      if (!requested && awake()) {
        requested = true;
        requestAnimationFrame(tick);
      }
    },
    /** A frame from the worker: the newest replaces one not yet drawn. */
    receive(bytes) {
      incoming = bytes;
      schedule.wake();
    },
    /** The newest frame's bytes, once. */
    take() {
      const bytes = incoming;
      incoming = null;
      return bytes;
    },
    /** The live run's panels, the comparisons', or both are to be drawn again. */
    mark({ live = false, comparisons = false }) {
      stale = { live: stale.live || live, comparisons: stale.comparisons || comparisons };
      schedule.wake();
    },
    /** Everything to draw again, and the host told at the next drawing. */
    changed() {
      stale = { live: true, comparisons: true };
      updateDue = 0;
      schedule.wake();
    },
    /** The host is told at the next drawing, however recently it was. */
    hurry() {
      updateDue = 0;
    },
    /** Every frame received and every change since is drawn. */
    settled() {
      return !incoming && !stale.live && !stale.comparisons;
    },
    /**
     * What to draw now of a frame of `generation` (null: nothing). While the machine is
     * `crowded`, the live run's panels alone wait until CROWDED_DRAW_MS after the last drawing
     * of the same generation; `owes` (panels a frame's budget left) draws too.
     */
    due(now, { generation, crowded, owes }) {
      const held = stale.live && !stale.comparisons && crowded && generation === drawnGeneration && now - drawnAt < CROWDED_DRAW_MS;
      if (held) {
        schedule.wake();
        return null;
      }
      if (!stale.live && !stale.comparisons && !owes) return null;
      drawnAt = now;
      drawnGeneration = generation;
      const taken = stale;
      stale = { live: false, comparisons: false };
      return taken;
    },
    /** Resolves once a frame answering `generation` (or a newer one) is drawn. */
    drawn(generation) {
      return new Promise((resolve) => waiting.push([generation, resolve]));
    },
    /** A frame of `generation` is on screen: the promises it answers resolve. */
    answered(generation) {
      for (let i = waiting.length - 1; i >= 0; i--) if (waiting[i][0] <= generation) waiting.splice(i, 1)[0][1]();
    },
    /** Nothing more will be drawn: every promise resolves. */
    resolveAll() {
      for (const [, resolve] of waiting.splice(0)) resolve();
    },
    /** The host hears the state at most every UPDATE_EVERY_MS, and the last one always. */
    tellHost(now) {
      if (now >= updateDue) {
        clearTimeout(updateTimer);
        updateTimer = 0;
        updateDue = now + UPDATE_EVERY_MS;
        onUpdate();
      } else if (!updateTimer) {
        // throttled, but the host still hears the last state (a run that stops, a knockout
        // that lands right after an update): one trailing update when the interval is over
        updateTimer = setTimeout(() => {
          updateTimer = 0;
          if (stopped()) return;
          updateDue = performance.now() + UPDATE_EVERY_MS;
          onUpdate();
        }, updateDue - now);
      }
    },
    /** Away from the view, the worker goes in `ms` from now; in view (`away` false), it stays. */
    hibernateLater(away, ms) {
      clearTimeout(hibernateTimer);
      if (away) hibernateTimer = setTimeout(onHibernate, ms);
    },
    stop() {
      schedule.resolveAll();
      clearTimeout(updateTimer);
      clearTimeout(hibernateTimer);
    },
  };
  return schedule;
}
