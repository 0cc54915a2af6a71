// Types only (jsx.d.ts): this module is empty, so that `import 'ablation-playground/jsx'` also loads.
export {};
