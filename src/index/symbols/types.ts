/** What a symbol and a reference are: shared by the extractor, the store and the tools (no parser needed to read them). */
export const SYMBOL_KINDS = ['function', 'method', 'class', 'interface', 'type', 'enum', 'variable', 'constant', 'module'] as const;
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
