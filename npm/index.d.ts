// The npm package's types: `import 'ablation-playground'` registers <ablation-playground>, and
// these declare it to TypeScript (its attributes, `.value`, its methods and its events). The
// parameters and the element's own attributes are generated from the Rust tables (params.d.ts,
// scripts/schema.sh); what is written here is the shape of the readouts, which
// docs/embedding.md describes field by field.
// tests/types/ compiles samples against them with `tsc --strict`, and the React app test
// compares `.value`'s keys in Chromium with the ones declared here.

import type {
  AblationPlaygroundComparisons,
  AblationPlaygroundOptionProps,
  AblationPlaygroundOptions,
  AblationPlaygroundParamAttributes,
  AblationPlaygroundParams,
  ComparisonField,
  PresetName,
} from './params.js';

export type {
  AblationPlaygroundOptionProps,
  AblationPlaygroundOptions,
  AblationPlaygroundParamAttributes,
  AblationPlaygroundParams,
  ComparisonField,
  PresetName,
};

/** A readout at initialisation and now (the frame on screen), one number per depth ℓ = 0..L. */
export interface InitAndNow {
  init: number[];
  final: number[];
}

/** One pinned run, trained beside the live one. */
export interface PinReadout {
  pin: string;
  label: string;
  step: number | null;
  loss: number | null;
  diverged_at: number | null;
  done: boolean;
  failed: string | null;
  /** each seed's run, with seeds > 1 */
  seeds: Array<{ seed: number; step: number | null; loss: number | null; diverged_at: number | null }>;
}

/** A comparison's runs: rows as `ablate`'s report has them (docs/cli.md). */
export interface ComparisonRuns {
  steps: number;
  runs: Array<Record<string, unknown>>;
  runs_finished: number;
  runs_total: number;
}

/** Everything `.value` holds: the parameters now, the readouts of the frame on screen, and the
 *  comparisons (docs/embedding.md, "Events, value and methods"). */
export interface AblationPlaygroundValue extends AblationPlaygroundParams {
  /** the pins, as the `pin` attribute */
  pin: string;
  step: number;
  loss: number | null;
  act_std: number | null;
  diverged_at: number | null;
  finished: boolean;
  /** a sequence task's last held-out loss (null on the regression) */
  val_loss: number | null;
  /** the copy tasks' share of held-out symbols written right */
  accuracy: number | null;
  /** with mask=none: the same weights' held-out loss with the mask on */
  loss_future_hidden: number | null;
  floors: { unigram: number; bigram: number } | { chance: number } | null;
  /** what the model wrote */
  sample: string | null;
  layers: {
    readout_loss: InitAndNow;
    update_ratio: InitAndNow;
    weight_grad_norm: InitAndNow;
    /** in the matrices' view (layer_view=matrices): each sublayer's Xiong matrix, its gradient at
     *  initialisation averaged over `batches` of `of` batches */
    xiong_grad_norm?: { batches: number; of: number; names: string[]; values: number[] };
  } | null;
  attention: {
    layer: number;
    name: string;
    kind: 'self' | 'cross';
    tokens: string;
    heads: Array<{ offset: number; share: number; answer_share?: number }>;
  } | null;
  pins: PinReadout[];
  compare: (ComparisonRuns & { depth: number }) | null;
  sweep: (ComparisonRuns & { depths: number[] }) | null;
  knockout: ({ step: number } & Record<string, unknown>) | null;
  tuned_lens: {
    step: number;
    done: boolean;
    fit_steps: number;
    readout_loss: number[] | null;
    failed: string | null;
  } | null;
  depth_width: (ComparisonRuns & { done: boolean }) | null;
  /** each comparison that failed, as "what: why" */
  failures: string[];
}

/** The `playground-update` event's detail. */
export type PlaygroundUpdateDetail = Pick<
  AblationPlaygroundValue,
  'depth' | 'residual' | 'norm' | 'step' | 'loss' | 'act_std' | 'diverged_at' | 'pins' | ComparisonField
>;

/** Every attribute of `<ablation-playground>`. */
export type AblationPlaygroundAttributes = AblationPlaygroundParamAttributes & AblationPlaygroundOptions;

/** The `<ablation-playground>` element. Training runs in a worker: each method resolves once its
 *  effect is drawn (and `.value` shows it). */
export interface AblationPlaygroundElement extends HTMLElement, AblationPlaygroundComparisons {
  /** The current state and readouts, or null before the widget has started. */
  readonly value: AblationPlaygroundValue | null;
  play(): Promise<void>;
  pause(): Promise<void>;
  step(): Promise<void>;
  reset(): Promise<void>;
  /** Read: the method that pins the live run (`el.pin()`, trained on beside the next). Set:
   *  the `pin` attribute (as React 19, Vue and Svelte set a custom element's props). */
  get pin(): () => Promise<void>;
  set pin(pins: string | null);
  unpin(index: number): Promise<void>;
  /** Fits a tuned lens to the trained stack (a sequence task's). */
  tunedLens(): Promise<void>;
  /** Trains the text task on `text` (a string, or its UTF-8 bytes). */
  trainOn(text: string | Uint8Array | ArrayBuffer): Promise<void>;
  /** Resolves with what the stack writes after `text` (`chars` characters, 200 by default);
   *  null when a newer prompt or a stop overtakes it, or for `prompt(null)`, which goes back to
   *  the text's own prompt. */
  prompt(text: string | null, chars?: number): Promise<string | null>;
  /** The run as a file: the weights (safetensors bytes) or the report (JSON text). */
  exportRun(what: 'weights'): Promise<Uint8Array>;
  exportRun(what: 'report'): Promise<string>;
  /** Starts the run again from a weights file's bytes (a safetensors file the playground wrote). */
  loadWeights(bytes: Uint8Array | ArrayBuffer): Promise<void>;

  addEventListener<K extends keyof AblationPlaygroundEventMap>(
    type: K,
    listener: (this: AblationPlaygroundElement, ev: AblationPlaygroundEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof AblationPlaygroundEventMap>(
    type: K,
    listener: (this: AblationPlaygroundElement, ev: AblationPlaygroundEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

/** The element's events: `input` while a reader drags, `change` when a control is committed,
 *  `playground-update` a few times a second while training and after every change. */
export interface AblationPlaygroundEventMap extends HTMLElementEventMap {
  'playground-update': CustomEvent<PlaygroundUpdateDetail>;
}

declare global {
  interface HTMLElementTagNameMap {
    'ablation-playground': AblationPlaygroundElement;
  }
  interface HTMLElementEventMap {
    /** fired by <ablation-playground> (and bubbles): its state, readouts and comparisons */
    'playground-update': CustomEvent<PlaygroundUpdateDetail>;
  }
}
