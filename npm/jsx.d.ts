// `<ablation-playground>` in React 19's JSX (TSX, MDX): every attribute of the table typed, so a
// misspelt attribute or a word the table lacks is a type error (but for hyphenated names, such
// as text-src: TypeScript checks no JSX attribute with a hyphen). Types only (jsx.js is empty);
// bring it in with `import type {} from 'ablation-playground/jsx'` (the React component's
// types bring it too).

import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { AblationPlaygroundAttributes, AblationPlaygroundElement } from './index.js';

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'ablation-playground': DetailedHTMLProps<HTMLAttributes<AblationPlaygroundElement>, AblationPlaygroundElement> &
        AblationPlaygroundAttributes;
    }
  }
}
