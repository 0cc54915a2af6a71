// A React 19 app in TSX: the element in JSX with typed attributes, and the component.
import { useRef } from 'react';
import type {} from 'ablation-playground/jsx';
import type { AblationPlaygroundElement } from 'ablation-playground';
import { AblationPlayground } from 'ablation-playground/react';

export function Lesson() {
  const ref = useRef<AblationPlaygroundElement>(null);
  return (
    <>
      <ablation-playground id="p" depth="12" residual="off" norm="post" panels="histogram,loss" autoplay="off" />
      <ablation-playground depth={6} seed="18446744073709551615" preset="break-and-heal" pin="residual:off@500" text-src="poem.txt" />
      <AblationPlayground
        ref={ref}
        depth={24}
        residual={false}
        norm="pre"
        task="copy"
        textSrc="poem.txt"
        onUpdate={(d) => console.log(d.step, d.loss)}
        onChange={(v) => console.log(v?.depth)}
        aria-describedby="lesson-text"
        className="wide"
      />
      <button type="button" onClick={() => ref.current?.compare()}>
        All four
      </button>
    </>
  );
}
