/**
 * Definitions as search candidates. A literal search of a name that matches more lines than
 * search_code ranks (RANKING_POOL) gets its first lines in path order: a definition whose path
 * sorts late was never ranked (`strings.NewReader` among 1,000 uses of NewReader). So every
 * definition the symbol index has of the name — the exact name, any case unless the search is
 * case-sensitive — joins the text matches as a match on its defining line, wherever it lives.
 */
import { join } from 'node:path';
import { globToRegExp } from '../index/glob.js';
import { detectLanguage } from '../index/languages.js';
import { readTextOnce } from '../index/read-text.js';
import { saysGenerated, type Match } from '../index/search.js';
import type { ProjectSymbols } from '../workspace/project.js';

export interface SeedQuery {
  pattern: string;
  caseSensitive: boolean;
  context: number;
  /** A workspace glob (workspaceGlob), as the search worker gets it. */
  path?: string;
  language?: string;
}

/** A name a literal search may define: one identifier, as the symbol index stores names. */
const NAME = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

/** Most definitions of one name that join a search (the text matches are capped the same way). */
export const MAX_SEEDED_DEFINITIONS = 1_000;

export function definitionMatches(root: string, symbols: ProjectSymbols | undefined, query: SeedQuery): Match[] {
  if (!symbols || !NAME.test(query.pattern)) return [];
  const pathFilter = query.path ? globToRegExp(query.path) : undefined;
  const found = symbols
    .definitionsNamed(query.pattern, query.caseSensitive, MAX_SEEDED_DEFINITIONS)
    .filter(({ path }) => (!pathFilter || pathFilter.test(path)) && (!query.language || detectLanguage(path) === query.language));
  const matches: Match[] = [];
  let lines: string[] | undefined;
  let linesOf = '';
  let generated = false;
  for (const { symbol, path } of found) {
    if (path !== linesOf) {
      linesOf = path;
      // Opened without blocking (a FIFO since indexing reads as empty); gone or unreadable: no line.
      const text = readTextOnce(join(root, path));
      generated = text !== undefined && saysGenerated(text);
      lines = text?.split('\n');
      // A final newline ends the last line; it does not start another.
      if (lines?.at(-1) === '') lines.pop();
    }
    const raw = lines?.[symbol.line - 1];
    if (raw === undefined) continue;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    // The name's place on its line: from the definition's start on (`func (r *Reader) Read`), else anywhere.
    const haystack = query.caseSensitive ? text : text.toLowerCase();
    const needle = query.caseSensitive ? symbol.name : symbol.name.toLowerCase();
    let at = haystack.indexOf(needle, Math.max(0, symbol.column - 1));
    if (at < 0) at = haystack.indexOf(needle);
    if (at < 0) continue; // the name is not on the line (a definition spelled across lines): no line to show
    const match: Match = { path, line: symbol.line, column: at + 1, text, length: symbol.name.length, word: true };
    if (generated) match.generated = true;
    if (query.context > 0) {
      const index = symbol.line - 1;
      match.before = lines!.slice(Math.max(0, index - query.context), index).map((line) => line.replace(/\r$/, ''));
      match.after = lines!.slice(index + 1, index + 1 + query.context).map((line) => line.replace(/\r$/, ''));
    }
    matches.push(match);
  }
  return matches;
}

/**
 * The definitions first, then the text matches not already among them (same path and line):
 * one pool in a stable order, whatever the ranking then does with it.
 */
export function withDefinitions(seeds: Match[], matches: Match[]): Match[] {
  if (seeds.length === 0) return matches;
  const seeded = new Set(seeds.map((match) => `${match.path}\0${match.line}`));
  return [...seeds, ...matches.filter((match) => !seeded.has(`${match.path}\0${match.line}`))];
}
