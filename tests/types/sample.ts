// A plain TypeScript page using the package's declarations as an author would (tsc --strict).
import 'ablation-playground';
import type { AblationPlaygroundElement, AblationPlaygroundValue, PlaygroundUpdateDetail } from 'ablation-playground';

const el = document.querySelector('ablation-playground');
if (el) {
  // HTMLElementTagNameMap: the element's own type, with no cast
  const typed: AblationPlaygroundElement = el;
  el.addEventListener('playground-update', (e) => {
    const detail: PlaygroundUpdateDetail = e.detail;
    const loss: number | null = detail.loss;
    const residual: 'on' | 'off' = detail.residual;
    console.log(loss, residual, detail.pins.length, detail.compare?.runs.length);
  });
  void (async () => {
    await el.play();
    await el.compare();
    await el.depthWidth();
    await el.pin();
    const continuation: string | null = await el.prompt('ROMEO.', 40);
    // pin is the method read, and the attribute set (as React, Vue and Svelte set it)
    typed.pin = 'residual:off@500';
    const weights: Uint8Array = await el.exportRun('weights');
    const report: string = await el.exportRun('report');
    await el.loadWeights(weights);
    await el.loadWeights(await (await fetch('run.safetensors')).arrayBuffer());
    const value: AblationPlaygroundValue | null = typed.value;
    if (value) {
      const depth: number = value.depth;
      const seed: string = value.seed;
      const norm: 'off' | 'pre' | 'post' | 'sandwich' | 'deepnorm' = value.norm;
      console.log(continuation, report.length, depth, seed, norm, value.layers?.readout_loss.final[0]);
    }
  })();
}
// made by script: createElement is typed too
const made = document.createElement('ablation-playground');
made.setAttribute('depth', '6');
document.body.append(made);
