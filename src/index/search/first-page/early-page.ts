/**
 * The first results of a literal search, read only as far as they need. A source-first search
 * reads its candidate files in ranking's own tie order (sourceFirstKey: class, depth, length).
 * With every definition named like the query ranked (definition-seeds.ts), no text match can
 * score above TEXT_MATCH_CEILING less its path's penalty; a file holding a definition the seeds
 * left out (a name defined more than MAX_SEEDED_DEFINITIONS times) can hold one ranked as that
 * definition, and the symbol index says which files those are. So before each file is read, the
 * best any unread match can rank is known from paths alone; once enough matches already read rank
 * before it to fill the page asked for, the page is certain, and the search stops there. A common
 * word (`return`) is then decided by its first files instead of a whole pool of matches.
 */
import { definitionMatches } from '../definition-seeds.js';
import {
  bestUnread,
  MatchScorer,
  rankKey,
  type RankKey,
  ranksBefore,
  rankSearch,
  strictlyBefore,
  type Ranked,
  type RankingSymbols,
  type Scored,
} from '../ranking.js';
import { sourceFirstKey, sourceFirstParts } from '../path-signals.js';
import type { IndexReader, Match, SearchQuery, SearchResult } from '../reader.js';
import { byPath } from '../../text/segment.js';

/** A search ranked: `certain`, when it stopped early, counts the first results no unread match can rank before. */
export interface FirstResults {
  result: SearchResult;
  ranked: Ranked[];
  seeds: number;
  certain?: number;
}

/**
 * Whether the first `end` results of `query` may be read early: a literal in a source-first
 * search, within its pool. ASCII only: the seeds find a name by lower-casing, the text search by
 * Unicode case folding, and only for ASCII do the two agree on every spelling.
 */
export function mayStopEarly(query: SearchQuery, end: number): boolean {
  return query.regex !== true && query.sourceFirst === true && end <= (query.limit ?? 0) && /^[\x20-\x7e]+$/.test(query.pattern);
}

/**
 * The pool's matches not yet known to rank before the files still unread, best first: a binary
 * heap. The best unread file can only get worse as the search goes on (files are read in
 * sourceFirstKey's order), so a match once before it stays before it, and only the heap's top
 * needs asking.
 */
class Pending {
  readonly #items: RankKey[] = [];

  static #better(a: RankKey, b: RankKey): boolean {
    return a.score !== b.score ? a.score > b.score : a.depth !== b.depth ? a.depth < b.depth : a.length < b.length;
  }

  push(key: RankKey): void {
    const items = this.#items;
    let at = items.push(key) - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!Pending.#better(items[at]!, items[parent]!)) break;
      [items[at], items[parent]] = [items[parent]!, items[at]!];
      at = parent;
    }
  }

  /** Takes out every key that ranks before `bound`; how many there were. */
  takeBefore(bound: RankKey): number {
    const items = this.#items;
    let taken = 0;
    while (items.length > 0 && ranksBefore(items[0]!, bound)) {
      const last = items.pop()!;
      taken++;
      if (items.length === 0) break;
      items[0] = last;
      for (let at = 0; ;) {
        const left = 2 * at + 1;
        const right = left + 1;
        let best = at;
        if (left < items.length && Pending.#better(items[left]!, items[best]!)) best = left;
        if (right < items.length && Pending.#better(items[right]!, items[best]!)) best = right;
        if (best === at) break;
        [items[at], items[best]] = [items[best]!, items[at]!];
        at = best;
      }
    }
    return taken;
  }
}

/** What a path's place in the reading order says of it: its penalty, depth and length. */
function placeOf(path: string, key: number): { penalty: number; depth: number; length: number } {
  return { ...sourceFirstParts(key), length: path.length };
}

/**
 * The files that hold a definition of the name, when the seeds could not take them all (past
 * MAX_SEEDED_DEFINITIONS), in the order a source-first search reads them: an unread one may hold
 * a match ranked as a definition, so the best an unread file can do is the better of the next
 * file's text-match bound and the next such file's definition bound.
 */
class UnrankedDefinitions {
  readonly #files: Array<{ path: string; key: number }>;
  readonly #caseSensitive: boolean;
  #next = 0;

  constructor(paths: string[], caseSensitive: boolean) {
    this.#caseSensitive = caseSensitive;
    this.#files = paths.map((path) => ({ path, key: sourceFirstKey(path) })).sort((a, b) => a.key - b.key || byPath(a, b));
  }

  /** The best rank a match can have in `path` (its sourceFirstKey: `key`), read next, or in any file after it. */
  bestFrom(path: string, key: number): RankKey {
    const text = bestUnread(placeOf(path, key), false, this.#caseSensitive);
    const files = this.#files;
    while (this.#next < files.length && (files[this.#next]!.key - key || byPath(files[this.#next]!, { path })) < 0) this.#next++;
    if (this.#next === files.length) return text;
    const next = files[this.#next]!;
    const definition = bestUnread(placeOf(next.path, next.key), true, this.#caseSensitive);
    return ranksBefore(definition, text) ? definition : text;
  }
}

/**
 * Searches `query` until its first `end` results are certain (or to its end, or its limit), and
 * ranks what it read. `beyond`, in a search across projects: `end` matches found elsewhere rank at
 * least this well, so none ranked after it can be on the page; the search also stops once no
 * unread file can hold a match that ranks before it, with `certain` then counting the results
 * before that point, which may be fewer than `end`.
 */
export function searchFirstResults(
  reader: IndexReader,
  root: string,
  symbols: RankingSymbols | undefined,
  query: SearchQuery,
  end: number,
  beyond?: RankKey,
): FirstResults {
  const seeds = definitionMatches(root, symbols, query);
  if (!seeds.complete && !seeds.leftOut) {
    // A definition left out of the seeds could be anywhere: nothing is certain before the end.
    const result = reader.search(query);
    return { result, ...rankSearch(root, symbols, query, result.matches) };
  }
  // One pool, scored once as it is read, in rankSearch's order: the definitions, then the text
  // matches not on their lines.
  const scorer = new MatchScorer(symbols, query.pattern, false, query.caseSensitive === true, symbols !== undefined && seeds.complete);
  const pool: Scored[] = [];
  const pending = new Pending();
  const add = (match: Match): void => {
    const scored = scorer.score(match, pool.length);
    pool.push(scored);
    pending.push(rankKey(scored));
  };
  seeds.matches.forEach(add);
  const seeded = new Set(seeds.matches.map((match) => `${match.path}\0${match.line}`));
  const found = (matches: Match[]): void => {
    for (const match of matches) if (!seeded.has(`${match.path}\0${match.line}`)) add(match);
  };
  let before = 0;
  let stoppedAt: RankKey | undefined;
  // Without every definition among the seeds, a text match is ranked by the symbols on and above
  // its line, and one near any definition of the name may rank as it: seeded files count too.
  const defining = seeds.complete ? [] : [...new Set([...seeds.leftOut!, ...seeds.matches.map((match) => match.path)])];
  const unranked = new UnrankedDefinitions(defining, query.caseSensitive === true);
  const stopBefore = (path: string, key: number): boolean => {
    if (pool.length < end && beyond === undefined) return false;
    const bound = unranked.bestFrom(path, key);
    before += pending.takeBefore(bound);
    // Either the page is full of certain results, or nothing unread can reach a page that other projects fill.
    if (before < end && !(beyond !== undefined && strictlyBefore(beyond, bound))) return false;
    stoppedAt = bound;
    return true;
  };
  const result = reader.search(query, found, (file, key) => stopBefore(file.path, key));
  // Ranking sorts the pool in place: the results before the bound are a prefix of it.
  const ranked = scorer.rank(pool);
  if (!stoppedAt) return { result, ranked, seeds: seeds.matches.length };
  let certain = 0;
  while (certain < pool.length && ranksBefore(rankKey(pool[certain]!), stoppedAt)) certain++;
  return { result, ranked, seeds: seeds.matches.length, certain };
}
