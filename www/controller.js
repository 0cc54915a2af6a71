// What the element, the iframe's messages and the page share: the controller of one widget. Each
// command returns a promise that resolves once its effect is drawn. Given before the widget has
// started, play and pause say how it starts (and resolve at once); the others wait for it (a
// widget that is never shown never starts).

import { COMPARISONS, PARAMS, PIN, TEXT_LIMITS } from './schema.js';
import { CONTROLS, PANELS, isOff } from './template.js';
import { listNotice } from './controls.js';

/** The commands a host can give (element methods, the iframe's messages): each a controller
 *  method that returns a promise; `unpin` takes the pin's index. */
export const COMMANDS = Object.freeze(['play', 'pause', 'step', 'reset', 'pin', 'unpin', 'tunedLens', ...COMPARISONS.map((c) => c.method)]);

const DEFAULTS = Object.fromEntries([...PARAMS.map((p) => [p.name, p.default]), [PIN, '']]);

/** The controller of widget `w` (its state `w.state`, read only here, and its parts), over the
 *  widget's own steps (playground.js): every change of state is a message to `dispatch`. */
export function createController(w, widget) {
  const { dispatch, created, drawn, restart, sendPins, startComparison, set, value, listOf, speak } = widget;
  const { show, showSettings, destroy, useText, textFrom, loadWeights, weightsFrom, setPrompt } = widget;
  const { state, parts } = w;
  /** `command`, at once if the widget has started, else once it has (then its promise). */
  const whenCreated = (command) => (...args) =>
    parts.settings ? command(...args) : created.then(() => (state.stopped ? undefined : command(...args)));

  const controller = {
    /** Read-only access for scripts and tests: the settings and the last frame drawn. */
    get playground() {
      const { settings, view, driver, pool, renderer } = parts;
      if (!settings) return null;
      return {
        get step() {
          return view.step;
        },
        get generation() {
          return view.generation;
        },
        get mode() {
          return driver.mode;
        },
        get memory() {
          return { engine: driver.engineMemory, page: w.bindings.memoryBytes(), pool: pool.info.memory };
        },
        get timings() {
          return driver.timings;
        },
        /** The live run's worker (0 on the page's thread or asleep) and the pool's, and the
         *  jobs each ran. */
        get workers() {
          return { live: driver.workerId, asleep: driver.asleep, pool: pool.info, helpers: driver.helperIds };
        },
        /** The frame on screen answers the newest desired state. */
        get settled() {
          return view.generation === state.live.generation && widget.settled() && !renderer.owes;
        },
        get: (name) => settings.get(name),
        query: () => settings.query(),
        stateJson: () => (view.hasFrame ? view.stateJson(false) : 'null'),
        /** For tests: a new live worker, sent the newest desired state. */
        replaceWorker: () => driver.replace(),
        /** For tests: away from the view this long, the live worker goes (HIBERNATE_MS). */
        hibernateAfter: (ms) => dispatch({ kind: 'hibernate-after', ms }),
        /** For tests: at most `n` workers in the comparisons' pool. */
        resizePool: (n) => pool.resize(n),
        /** For tests: a split step uses at most `n` workers, the live one included, on
         *  every step if `always` (else on the steps where they are faster). */
        stepWorkers: (n, always) => driver.stepWorkers(n, always),
        /** For tests: a helper of the live run terminated, as a crash would end it. */
        loseHelper: () => driver.loseHelper(),
      };
    },
    get playing() {
      return state.playing;
    },
    get value() {
      return value();
    },
    set,
    /** Sets a parameter back to its default (`pin`: no pins). */
    unset(name) {
      set(name, DEFAULTS[name] ?? '', { lenient: true });
    },
    /** Sets a presentation option as its attribute or URL parameter reads (`controls`,
     *  `panels`, `autoplay`, `lang`; null: the default); false if `name` is not one. */
    setOption(name, text) {
      // autoplay says how a widget starts: removed later, it leaves the run as it is
      if (name === 'autoplay') text != null && (isOff(text) ? controller.pause() : controller.play());
      else if (name === 'controls') controller.show({ controls: listOf('controls', text, CONTROLS, (p) => w.notice([listNotice(w.say, p)])) });
      else if (name === 'panels') controller.show({ panels: listOf('panels', text, PANELS, (p) => w.notice([listNotice(w.say, p)])) });
      else if (name === 'text-src') text && textFrom(text);
      else if (name === 'weights-src') text && weightsFrom(text);
      else if (name === 'lang') speak(text);
      else return false;
      return true;
    },
    /** Shows only the given controls and panels (Sets of names; null shows all). */
    show({ controls = state.shown.controls, panels = state.shown.panels } = {}) {
      show({ controls, panels });
    },
    play() {
      // a finished run goes on: one desired state, continued and playing
      dispatch({ kind: 'play', finished: Boolean(parts.view?.finished) });
      showSettings();
      return drawn();
    },
    pause() {
      dispatch({ kind: 'pause' });
      showSettings();
      return drawn();
    },
    step: whenCreated(() => {
      dispatch({ kind: 'step' });
      showSettings();
      return drawn();
    }),
    reset: whenCreated(() => {
      restart();
      return drawn();
    }),
    /** Fits a tuned lens to the live run's stack as trained so far (a sequence task's), drawn in
     *  the readout panel beside the logit lens: the live worker sends the stack to the pool. */
    tunedLens: whenCreated(() => {
      dispatch({ kind: 'request', name: 'lenses' });
      return drawn();
    }),
    /** The histogram's axis: fitted to the activations now, or back to −4…4. */
    fitAxis: whenCreated((fit) => {
      dispatch({ kind: 'axis', fit });
      return drawn();
    }),
    drawn,
    /** Pins the live run at its current step (at most three pins). */
    pin: whenCreated(async () => {
      if (!parts.view.hasFrame) await drawn(); // the run's first frame says its step
      try {
        parts.settings.addPin(parts.view.step);
      } catch (e) {
        w.notice([e.message ?? String(e)]);
        return;
      }
      sendPins();
      w.options.onParam?.('pin', parts.settings.get('pin'));
      return drawn();
    }),
    /** Removes pin number `index` (from 0). */
    unpin: whenCreated((index) => {
      parts.settings.removePin(index >>> 0);
      sendPins();
      w.options.onParam?.('pin', parts.settings.get('pin'));
      return drawn();
    }),
    // each comparison's method: compare, sweep, depthWidth, knockout
    ...Object.fromEntries(COMPARISONS.map((c) => [c.method, whenCreated(() => startComparison(c.panel))])),
    /** Trains the text task on `text` (a string, or UTF-8 bytes), as a reader's paste does;
     *  resolves once it is training on it, or once a notice has said why not. */
    trainOn: whenCreated(async (text) => {
      const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : new Uint8Array(text);
      await useText(bytes, (say) => say('source-text-given'));
      return drawn();
    }),
    /** Resolves with what the stack writes after `text` (`chars` characters): the whole
     *  continuation, once it is written (null: back to the text's own prompt). */
    prompt: whenCreated((text, chars = TEXT_LIMITS.sampleChars) => setPrompt(text == null ? null : String(text), chars >>> 0)),
    /** Starts the run again from a weights file's bytes (a safetensors file this playground
     *  wrote), as a reader's Load weights does. */
    loadWeights: whenCreated(async (bytes) => {
      await loadWeights(new Uint8Array(bytes), (say) => say('source-weights-given'));
      return drawn();
    }),
    /** The run as a file: 'weights' (safetensors bytes) or 'report' (the JSON report's text). */
    exportRun: whenCreated((what) => parts.driver.exportRun(what)),
    /** The link that reproduces this state on the playground page. */
    link() {
      const url = new URL(w.options.linkBase ?? location.href);
      url.search = parts.settings ? parts.settings.query() : '';
      return url.href;
    },
    destroy,
  };
  return controller;
}
