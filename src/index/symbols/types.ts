/** What a symbol and a reference are: shared by the extractor, the store and the tools (no parser needed to read them). */
/**
 * Each kind's place here is what a symbol segment stores, in 4 bits (segment/packed.ts): new
 * kinds go at the end, and this list is full at 16.
 */
export const SYMBOL_KINDS = [
  'function',
  'method',
  'class',
  'interface',
  'type',
  'enum',
  'variable',
  'constant',
  'module',
  'struct',
  'union',
  'record',
  'annotation',
  'macro',
  'field',
  'enum_member',
] as const;
export type SymbolKind = (typeof SYMBOL_KINDS)[number];

export interface SymbolInfo {
  name: string;
  kind: SymbolKind;
  language: string;
  /** 1-based lines and columns, end inclusive of the definition's last line. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  parent?: string;
  qualifiedName: string;
  signature: string;
}

export interface ReferenceInfo {
  name: string;
  kind: 'call' | 'import';
  line: number;
  column: number;
}
