// One widget's comparisons (docs/using.md, "Comparing"): the pool of workers their jobs run in,
// the live worker's trained stack for the knockout and the tuned lens, the pins, and a
// comparison's start. The view (the wasm's `View`) holds their state; this wires it to the pool
// and to the widget's state (widget.js) through `dispatch`.

import { createPool } from './pool.js';
import { COMPARISONS } from './schema.js';

/** `w` is the widget (playground.js); `dispatch`, `schedule`, `changed`, `present` and `drawn`
 *  are its own. */
export function createComparisons(w, { dispatch, schedule, changed, present, drawn }) {
  const { parts, state: st, notice } = w;

  /** The pins to the comparisons, which compute any new one from the seed. */
  function sendPins() {
    parts.view.setPins(parts.settings);
    parts.pool.sync(parts.view);
    changed();
  }

  /** Starts the comparison of panel `name` (schema.js's COMPARISONS): its jobs in the pool, or
   *  the knockout through the live worker, which holds the stack it measures. */
  function start(name) {
    dispatch({ kind: 'comparison-started', name });
    const { fromLiveStack } = COMPARISONS.find((c) => c.panel === name);
    if (fromLiveStack) dispatch({ kind: 'request', name: 'knockouts' });
    else {
      parts.view.startComparison(name, parts.settings);
      parts.pool.sync(parts.view);
    }
    present();
    changed();
    return drawn();
  }

  return {
    sendPins,
    start,
    /** The pool of the comparisons' workers (pool.js), whose reports the view takes. */
    startPool() {
      parts.pool = createPool(w.bindings, {
        onReport(bytes, done) {
          let taken = 0;
          try {
            taken = parts.view.report(bytes); // 1: a pin's, drawn in the live run's panels
          } catch (e) {
            notice([w.say('notice-damaged-comparison', { why: e.message ?? e })]);
          }
          if (done) parts.pool.sync(parts.view);
          if (taken) schedule.mark({ live: taken === 1, comparisons: true });
        },
        onJobFailed(id, reason) {
          // said once, in its row, pin or table and here; the other jobs go on
          if (parts.view.fail(id, reason)) {
            notice([w.say('notice-comparison-failed', { why: reason })]);
            schedule.mark({ live: true, comparisons: true }); // (the live panels: a pin's label)
          }
        },
        onNotice: (text) => notice([text]),
        onError: (text) => notice([w.say('notice-comparison-failed', { why: text })]),
      });
    },
    /** The live worker's trained stack for the knockout (`purpose` 'knockout') or the tuned
     *  lens ('lens'): the view starts the comparison's jobs from it. */
    knockout(bytes, generation, purpose) {
      if (generation < st.runGeneration) return; // the run it measured was restarted
      try {
        if (purpose === 'lens') parts.view.startTunedLens(bytes);
        else parts.view.startKnockout(bytes);
      } catch (e) {
        notice([`${e.message ?? e}`]);
        return;
      }
      parts.pool.sync(parts.view);
      changed();
    },
  };
}
