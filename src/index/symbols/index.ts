/**
 * Symbols: definitions and references parsed by tree-sitter (and a C skeleton), stored in symbol
 * segments (`symbols-*.sxs`) and looked up by SymbolIndex. The builder (`build.ts`) and the
 * extractor (`extract.ts`) load the parser; they are imported by path, lazily, and not from here,
 * so that a reader of symbols never loads web-tree-sitter.
 */

export type { SymbolsSummary } from './build.js';
export { indexSizes } from './index-sizes.js';
export { type BriefSymbol, SymbolIndex } from './symbol-index.js';
export { readSymbolsManifest, type SymbolsManifest, symbolsStamp } from './symbol-manifest.js';
export { SYMBOL_KINDS, type SymbolInfo } from './types.js';
