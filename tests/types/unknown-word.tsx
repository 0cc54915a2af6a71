import type {} from 'ablation-playground/jsx';
export const Bad = () => <ablation-playground norm="preLN" />;
