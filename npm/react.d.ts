// The React component's types (react.js).

import type { HTMLAttributes, ReactNode, Ref } from 'react';
import type {
  AblationPlaygroundElement,
  AblationPlaygroundOptionProps,
  AblationPlaygroundParamAttributes,
  AblationPlaygroundValue,
  PlaygroundUpdateDetail,
} from './index.js';
import './jsx.js';

/** An on/off parameter may also be given as a boolean. */
type Prop<T> = 'on' extends T ? ('off' extends T ? T | boolean : T) : T;

export type AblationPlaygroundProps = { [K in keyof AblationPlaygroundParamAttributes]?: Prop<AblationPlaygroundParamAttributes[K]> } & AblationPlaygroundOptionProps & {
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
