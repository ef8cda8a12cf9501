/**
 * Looking symbols up by name: exact, case-insensitive, prefix, and fuzzy where the letters of
 * the query appear in order, counting a hit at a word start (camelCase hump, after `_`, `.`, `-`)
 * higher — `gUB` and `get_user` both find `getUserById`.
 */
import { byPath } from '../text/segment.js';
import type { ReferenceInfo, SymbolInfo } from './types.js';

/** One file's symbols as the extractor gives them (what findSymbols scans). */
export interface FileSymbols {
  path: string;
  hash: string;
  symbols: SymbolInfo[];
  references?: ReferenceInfo[];
}

export interface FoundSymbol extends SymbolInfo {
  path: string;
  score: number;
}

function isWordStart(name: string, index: number): boolean {
  if (index === 0) return true;
  const previous = name[index - 1]!;
  const current = name[index]!;
  if ('_.-:$'.includes(previous)) return true;
  return current >= 'A' && current <= 'Z' && !(previous >= 'A' && previous <= 'Z');
}

/** 0 for no match; higher is better. */
export function scoreName(name: string, query: string): number {
  if (name === query) return 100;
  const lowerName = name.toLowerCase();
  const lowerQuery = query.toLowerCase().replace(/[_\-.\s]/g, '');
  if (lowerName === query.toLowerCase()) return 90;
  if (name.startsWith(query)) return 80;
  if (lowerName.startsWith(query.toLowerCase())) return 70;
  // Fuzzy: the query's letters in order (leftmost match); hits on word starts score higher. A
  // query of separators alone has no letters to look for: it matches nothing fuzzily.
  if (lowerQuery === '') return 0;
  let at = 0;
  let score = 0;
  for (const char of lowerQuery) {
    const found = lowerName.indexOf(char, at);
    if (found < 0) return 0;
    score += isWordStart(name, found) ? 3 : found === at ? 2 : 1;
    at = found + 1;
  }
  return Math.min(60, Math.round((10 * score) / Math.max(1, lowerQuery.length)) + 20);
}

/** The meaning of a name lookup, as a scan of every symbol: SymbolIndex.find gives the same answers from its tables. */
export function findSymbols(files: FileSymbols[], query: string, options: { kind?: string; limit?: number } = {}): FoundSymbol[] {
  const found: FoundSymbol[] = [];
  for (const file of files) {
    for (const symbol of file.symbols) {
      if (options.kind && symbol.kind !== options.kind) continue;
      const score = Math.max(scoreName(symbol.name, query), symbol.qualifiedName === query ? 100 : 0);
      if (score > 0) found.push({ ...symbol, path: file.path, score });
    }
  }
  // Best score first; among equals the shorter name (closer to what was typed), then by place.
  found.sort((a, b) => b.score - a.score || a.name.length - b.name.length || byPath(a, b) || a.line - b.line);
  return found.slice(0, options.limit ?? 50);
}
