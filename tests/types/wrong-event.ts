import 'ablation-playground';
const el = document.querySelector('ablation-playground')!;
el.addEventListener('playground-update', (e) => {
  const s: string = e.detail.step;
  console.log(s);
});
