/**
 * Definitions as search candidates. A literal search of a name that matches more lines than
 * search_code ranks (RANKING_POOL) ranks only some of them: a definition outside those was never
 * ranked (`strings.NewReader` among 1,000 uses of NewReader). So the definitions the symbol index
 * has of the name — the exact name, any case unless the search is case-sensitive; up to
 * MAX_SEEDED_DEFINITIONS — join the text matches as matches on their names' lines, wherever they live.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
// By path, not the door: a one-shot search (the CLI) must not load the walk.
import { globToRegExp } from '../files/glob.js';
import { detectLanguage } from '../files/languages.js';
import { ProjectFiles } from '../files/project-file.js';
import { cacheOf, keep, touch } from '../../util/lru.js';
import { addContext } from './matcher.js';
import { lowValuePath, pathDepth } from './path-signals.js';
import { type Match, saysGenerated, type SearchQuery } from './reader.js';
import type { RankingSymbols } from './symbol-rows.js';

/** What seeds a search: its pattern, case, context lines, and the path glob and language it is narrowed to. */
export type SeedQuery = Pick<SearchQuery, 'pattern' | 'caseSensitive' | 'context' | 'path' | 'language'>;

/**
 * The definitions a search ranks beside its text matches; `complete`: every definition of the name
 * is among them; else `leftOut`, where known: the files that hold the others.
 */
export interface Seeds {
  matches: Match[];
  complete: boolean;
  leftOut?: string[];
}

/** A name a literal search may define: one identifier, as the symbol index stores names. */
const NAME = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

/** Lines below a definition's first one where its name may still be (C's return type on a line of its own). */
export const HEADER_LINES = 2;

/**
 * Most definitions of one name that join a search: each costs a file read. A name defined more
 * often (`main`: 843 in Linux) gives the ones a reader would look at first: written as searched,
 * in source, shallower, shorter paths (seedPreference).
 */
export const MAX_SEEDED_DEFINITIONS = 50;

/** Lower first: the exact case, then source over tests and the like, then the shallower and shorter path. */
function seedPreference(query: string): (path: string, name: string) => number {
  return (path, name) => (name === query ? 0 : 1_000_000) + (lowValuePath(path) ? 100_000 : 0) + pathDepth(path) * 1_000 + Math.min(path.length, 999);
}

/** Queries whose seeds are kept, per generation of the symbols. */
const CACHED_SEED_QUERIES = 64;
/**
 * Seeds found before, kept with the symbols they came from and the times their files were
 * modified: a warm query reads no file again unless one changed (a stat each), and a new
 * generation of the symbols (after a sync) starts afresh.
 */
const seedCaches = new WeakMap<object, Map<string, { seeds: Seeds; modified: Map<string, number> }>>();

function modifiedAt(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

/** Seed keys by query: a search across projects asks every project with one query object. */
const seedKeys = new WeakMap<SeedQuery, string>();

function seedKey(query: SeedQuery): string {
  let key = seedKeys.get(query);
  if (key === undefined) {
    key = JSON.stringify([query.pattern, query.caseSensitive === true, query.context ?? 0, query.path ?? '', query.language ?? '']);
    seedKeys.set(query, key);
  }
  return key;
}

/**
 * The definitions of a one-identifier literal, as matches on their names' lines; none for anything
 * else, and then `complete` only if no definition is named like it (Ruby's `save!`, Clojure's
 * `do-thing`, a Makefile's `main.o` are names too).
 */
export function definitionMatches(root: string, symbols: RankingSymbols | undefined, query: SeedQuery): Seeds {
  if (!symbols) return { matches: [], complete: true };
  if (!NAME.test(query.pattern)) return { matches: [], complete: !namedLike(symbols, query) };
  const cache = cacheOf(seedCaches, symbols);
  const key = seedKey(query);
  const kept = touch(cache, key);
  if (kept && [...kept.modified].every(([path, at]) => modifiedAt(join(root, path)) === at)) return kept.seeds;
  const modified = new Map<string, number>();
  const seeds = readSeeds(root, symbols, query, modified);
  keep(cache, key, { seeds, modified }, CACHED_SEED_QUERIES);
  return seeds;
}

/** What a definition's path must be to count for `query`: inside its glob, of its language. */
function keeper(query: SeedQuery): (path: string) => boolean {
  const pathFilter = query.path ? globToRegExp(query.path) : undefined;
  return (path) => (!pathFilter || pathFilter.test(path)) && (!query.language || detectLanguage(path) === query.language);
}

/** Whether some definition the query could find is named like it. */
function namedLike(symbols: RankingSymbols, query: SeedQuery): boolean {
  return !symbols.definitionsNamed(query.pattern, { caseSensitive: query.caseSensitive === true, limit: 0, keep: keeper(query) }).complete;
}

function readSeeds(root: string, symbols: RankingSymbols, query: SeedQuery, modified: Map<string, number>): Seeds {
  const caseSensitive = query.caseSensitive === true;
  const context = Math.max(0, query.context ?? 0);
  // Narrowed before the limit: a glob or a language never leaves the limit filled with files it excludes.
  const { found, complete, leftOut } = symbols.definitionsNamed(query.pattern, {
    caseSensitive,
    limit: MAX_SEEDED_DEFINITIONS,
    prefer: seedPreference(query.pattern),
    keep: keeper(query),
  });
  const matches: Match[] = [];
  let files: ProjectFiles | undefined;
  let lines: string[] | undefined;
  let linesOf = '';
  let generated = false;
  for (const { symbol, path } of found) {
    if (path !== linesOf) {
      linesOf = path;
      // Read only as ProjectFiles allows (a FIFO, a link out, a file grown huge: no line).
      modified.set(path, modifiedAt(join(root, path)));
      const text = (files ??= new ProjectFiles(root)).text(path);
      generated = text !== undefined && saysGenerated(text);
      lines = text?.split('\n');
      // A final newline ends the last line; it does not start another.
      if (lines?.at(-1) === '') lines.pop();
    }
    const place = nameLine(lines, symbol, caseSensitive);
    if (!place) continue; // gone from where it was indexed: the text search will not find it there either
    const match: Match = { path, line: place.index + 1, column: place.at + 1, text: place.text, length: symbol.name.length, word: true, defines: symbol };
    if (generated) match.generated = true;
    if (context > 0) addContext(match, lines!, place.index, context);
    matches.push(match);
  }
  return complete ? { matches, complete } : { matches, complete, leftOut };
}

/** An identifier's character: what may not touch a name on either side for it to be the name. */
const IDENTIFIER_CHAR = /[\p{L}\p{N}_$]/u;

/** Where `needle` stands alone in `haystack` from `from` on (not inside a longer identifier); -1 if nowhere. */
function wholeAt(haystack: string, needle: string, from: number): number {
  for (let at = haystack.indexOf(needle, from); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    if (!IDENTIFIER_CHAR.test(haystack.charAt(at - 1)) && !IDENTIFIER_CHAR.test(haystack.charAt(at + needle.length))) return at;
  }
  return -1;
}

/**
 * Where a definition's name is: written whole on its first line, from the definition's start on
 * (`func (r *Reader) Read`), else anywhere on it, else on one of the next HEADER_LINES lines
 * (`static struct reader_ops *` / `reader(…)` in C); failing those, inside a longer word on its
 * first line. The line's index, its text, and the name's offset in it.
 */
function nameLine(
  lines: string[] | undefined,
  symbol: { name: string; line: number; column: number; endLine: number },
  caseSensitive: boolean,
): { index: number; text: string; at: number } | undefined {
  const needle = caseSensitive ? symbol.name : symbol.name.toLowerCase();
  const last = Math.min(symbol.line - 1 + HEADER_LINES, symbol.endLine - 1);
  let inWord: { index: number; text: string; at: number } | undefined;
  for (let index = symbol.line - 1; index <= last; index++) {
    const raw = lines?.[index];
    if (raw === undefined) break;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const haystack = caseSensitive ? text : text.toLowerCase();
    const first = index === symbol.line - 1;
    let at = first ? wholeAt(haystack, needle, Math.max(0, symbol.column - 1)) : -1;
    if (at < 0) at = wholeAt(haystack, needle, 0);
    if (at >= 0) return { index, text, at };
    if (first) {
      const within = haystack.indexOf(needle, Math.max(0, symbol.column - 1));
      const anywhere = within >= 0 ? within : haystack.indexOf(needle);
      if (anywhere >= 0) inWord = { index, text, at: anywhere };
    }
  }
  return inWord;
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
