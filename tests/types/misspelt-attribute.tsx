import type {} from 'ablation-playground/jsx';
export const Bad = () => <ablation-playground dept="12" />;
