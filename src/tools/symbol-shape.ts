/** Symbols as the tools show, compare and find them by position. */
import type { SymbolInfo } from '../index/symbols/index.js';
import type { Project } from '../workspace/project.js';
import { codedError } from '../errors.js';

export const SYMBOL_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    kind: { type: 'string' },
    language: { type: 'string' },
    path: { type: 'string' },
    line: { type: 'integer', minimum: 1 },
    column: { type: 'integer', minimum: 1 },
    end_line: { type: 'integer', minimum: 1 },
    end_column: { type: 'integer', minimum: 1 },
    qualified_name: { type: 'string' },
    parent: { type: 'string' },
    signature: { type: 'string' },
  },
  required: ['name', 'kind', 'path', 'line', 'end_line', 'qualified_name', 'signature'],
  additionalProperties: true,
} as const;

/** A symbol as tools show it (snake_case, with its path). */
export function describeSymbol(symbol: SymbolInfo, path: string): Record<string, unknown> {
  const described: Record<string, unknown> = {
    name: symbol.name,
    kind: symbol.kind,
    language: symbol.language,
    path,
    line: symbol.line,
    column: symbol.column,
    end_line: symbol.endLine,
    end_column: symbol.endColumn,
    qualified_name: symbol.qualifiedName,
    signature: symbol.signature,
  };
  if (symbol.parent) described.parent = symbol.parent;
  return described;
}

/** Whether two symbol records are the same definition (records are rebuilt per lookup, so not by identity). */
export function sameSymbol(a: SymbolInfo, b: SymbolInfo): boolean {
  return a.line === b.line && a.column === b.column && a.name === b.name && a.kind === b.kind;
}

/** The indexed symbols of a file, or file_not_found. */
export function fileSymbols(project: Project, path: string): { path: string; symbols: SymbolInfo[] } {
  const symbols = project.symbols()?.symbolsIn(path);
  const file = symbols ? { path, symbols } : undefined;
  if (!file)
    throw codedError(
      'file_not_found',
      `${path === '' ? 'The workspace root' : path} is not an indexed source file of ${project.root}`,
      { path },
      'Use a workspace-relative path as search results list them; only files in a language with symbol support have an outline.',
    );
  return file;
}

/** The innermost symbol whose range holds `line`. */
export function enclosingSymbol(symbols: SymbolInfo[], line: number): SymbolInfo | undefined {
  let best: SymbolInfo | undefined;
  for (const symbol of symbols) {
    if (symbol.line > line || symbol.endLine < line) continue;
    if (!best || symbol.endLine - symbol.line < best.endLine - best.line) best = symbol;
  }
  return best;
}
