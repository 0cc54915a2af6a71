import { AblationPlayground } from 'ablation-playground/react';
export const Bad = () => <AblationPlayground depht={12} />;
