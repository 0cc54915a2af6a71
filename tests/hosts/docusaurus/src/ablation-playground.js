// Registers <ablation-playground>: a client module (docusaurus.config.js). Docusaurus also
// evaluates it in Node when it renders the pages at build time; the package defines nothing
// there (no HTMLElement) and throws nothing, and in the browser it defines the element.
import 'ablation-playground';
