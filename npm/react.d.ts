// The React component's types (react.js).

import type { HTMLAttributes, ReactNode, Ref } from 'react';
import type {
  AblationPlaygroundElement,
  AblationPlaygroundOptions,
  AblationPlaygroundParamAttributes,
  AblationPlaygroundValue,
  PlaygroundUpdateDetail,
} from './index.js';
import './jsx.js';

/** An on/off parameter may also be given as a boolean. */
type Prop<T> = 'on' extends T ? ('off' extends T ? T | boolean : T) : T;

export type AblationPlaygroundProps = { [K in keyof AblationPlaygroundParamAttributes]?: Prop<AblationPlaygroundParamAttributes[K]> } & {
  controls?: AblationPlaygroundOptions['controls'];
  panels?: AblationPlaygroundOptions['panels'];
  /** false: wait for Play (or a lesson step) instead of training once near the view */
  autoplay?: boolean | AblationPlaygroundOptions['autoplay'];
  /** the `text-src` attribute: the URL of a text to train the text task on */
  textSrc?: string;
  /** the `weights-src` attribute: the URL of a weights file to start from */
  weightsSrc?: string;
  /** a few times a second while training, and after every change */
  onUpdate?: (detail: PlaygroundUpdateDetail, event: CustomEvent<PlaygroundUpdateDetail>) => void;
  /** while a reader drags a control */
  onInput?: (value: AblationPlaygroundValue | null, event: Event) => void;
  /** when a reader commits a control */
  onChange?: (value: AblationPlaygroundValue | null, event: Event) => void;
  /** the element: its methods (play, pin, compare, prompt, …) and `.value` */
  ref?: Ref<AblationPlaygroundElement>;
  /** shown where the element is not defined (a static figure, for print) */
  children?: ReactNode;
} & Omit<HTMLAttributes<AblationPlaygroundElement>, 'onChange' | 'onInput' | 'children'>;

export declare function AblationPlayground(props: AblationPlaygroundProps): ReactNode;
export default AblationPlayground;
