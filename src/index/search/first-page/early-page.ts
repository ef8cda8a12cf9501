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
import { definitionMatches, type Seeds } from '../definition-seeds.js';
import { Pending } from './pending.js';
import type { Pooled, SharedPool } from './shared-pool.js';
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
import { DEFAULT_SEARCH_LIMIT, type IndexReader, type Match, type SearchCursor, type SearchQuery, type SearchResult } from '../reader.js';
import { byPath } from '../../text/segment.js';

/**
 * A search ranked: `certain`, when it stopped early, counts the first results no unread match can
 * rank before. `pooled`, for a project that defines the name past its seeds (it reads until a pool
 * fills): 'own' when it read as it would alone, 'shared' when a pool shared with other projects
 * filled first (shared-pool.ts), so that the answer is this search's alone.
 */
export interface FirstResults {
  result: SearchResult;
  ranked: Ranked[];
  seeds: number;
  certain?: number;
  pooled?: Pooled;
}

/**
 * Whether the first `end` results of `query` may be read early: a literal in a source-first
 * search, within its pool. ASCII only: the seeds find a name by lower-casing, the text search by
 * Unicode case folding, and only for ASCII do the two agree on every spelling.
 */
export function mayStopEarly(query: SearchQuery, end: number): boolean {
  return query.regex !== true && query.sourceFirst === true && end <= (query.limit ?? 0) && /^[\x20-\x7e]+$/.test(query.pattern);
}

/** What a path's place in the reading order says of it: its penalty, depth and length. */
function placeOf(path: string, key: number): { penalty: number; depth: number; length: number } {
  const { penalty, depth } = sourceFirstParts(key);
  return { penalty, depth, length: path.length };
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
 * One project's search for its first results, read a file at a time: the caller asks for the
 * best rank any unread match can have (`bound`) and decides whether to read on. Every match read
 * goes to `onKey` as well, so one tally can count the matches of several projects (readUntilCertain).
 */
export class EarlyReading {
  readonly #scorer: MatchScorer;
  readonly #matches: Scored[] = [];
  readonly #cursor: SearchCursor;
  readonly #unranked: UnrankedDefinitions;
  readonly #seeds: number;
  /**
   * Set when the seeds left definitions out: the reading cannot be certain before its last
   * defining file is read, and mostly ends when its pool is full (its own, or one it shares).
   */
  readonly #pool: { shared: SharedPool | undefined; limit: number } | undefined;
  /** The shared pool filled before this reading's own limit. */
  #cut = false;
  /** The bound of the next file, worked out once per file read. */
  #bound: RankKey | undefined | null = null;
  /** The query's limit, or the room left in the pool it shares, was reached: nothing more is read. */
  #full = false;
  #failed: { error: unknown } | undefined;

  private constructor(
    reader: IndexReader,
    symbols: RankingSymbols | undefined,
    query: SearchQuery,
    seeds: Seeds,
    onKey: (key: RankKey) => void,
    shared: SharedPool | undefined,
  ) {
    // One pool, scored once as it is read, in rankSearch's order: the definitions, then the text
    // matches not on their lines.
    const scorer = new MatchScorer(symbols, query.pattern, false, query.caseSensitive === true, symbols !== undefined && seeds.complete);
    const matches = this.#matches;
    const add = (match: Match): void => {
      const scored = scorer.score(match, matches.length);
      matches.push(scored);
      onKey(rankKey(scored));
    };
    const seeded = new Set(seeds.matches.map((match) => `${match.path}\0${match.line}`));
    this.#cursor = reader.cursor(query, (matches) => {
      for (const match of matches) if (!seeded.has(`${match.path}\0${match.line}`)) add(match);
    });
    // Counted only once the search could start (its candidates read): a project that fails to
    // open adds nothing to a page read together with others.
    seeds.matches.forEach(add);
    // Without every definition among the seeds, a text match is ranked by the symbols on and above
    // its line, and one near any definition of the name may rank as it: seeded files count too.
    const defining = seeds.complete ? [] : [...new Set([...seeds.leftOut!, ...seeds.matches.map((match) => match.path)])];
    this.#unranked = new UnrankedDefinitions(defining, query.caseSensitive === true);
    this.#scorer = scorer;
    this.#seeds = seeds.matches.length;
    if (!seeds.complete) this.#pool = { shared, limit: query.limit ?? DEFAULT_SEARCH_LIMIT };
  }

  /**
   * A reading of `query` in the project at `root`; or, when the definitions cannot bound what is
   * unread (one left out of the seeds could be anywhere), the project searched to its end and ranked.
   * `shared`: the pool this reading shares with the other projects of a batch, should it need one.
   */
  static open(
    reader: IndexReader,
    root: string,
    symbols: RankingSymbols | undefined,
    query: SearchQuery,
    onKey: (key: RankKey) => void,
    shared?: SharedPool,
  ): EarlyReading | FirstResults {
    const seeds = definitionMatches(root, symbols, query);
    if (!seeds.complete && !seeds.leftOut) {
      const result = reader.search(query);
      return { result, ...rankSearch(root, symbols, query, result.matches) };
    }
    return new EarlyReading(reader, symbols, query, seeds, onKey, shared);
  }

  /** Whether a file is left to read. */
  get unread(): boolean {
    return !this.#full && !this.#failed && this.#cursor.next() !== undefined;
  }

  /** The best rank a match not read yet can have; undefined when nothing is left to read. */
  bound(): RankKey | undefined {
    if (this.#bound !== null) return this.#bound;
    const next = this.#full || this.#failed ? undefined : this.#cursor.next();
    return (this.#bound = next && this.#unranked.bestFrom(next.file.path, next.key));
  }

  /** Reads the next file. A failure ends this reading alone (finish throws it), not the others read with it. */
  read(): void {
    this.#bound = null;
    const shared = this.#pool?.shared;
    try {
      if (!shared) {
        this.#full = !this.#cursor.read();
        return;
      }
      const before = this.#cursor.matched();
      const cap = before + shared.room;
      this.#full = !this.#cursor.read(cap);
      shared.take(this.#cursor.matched() - before);
      if (this.#full && cap < this.#pool!.limit) this.#cut = true;
    } catch (error) {
      this.#failed = { error };
    }
  }

  /**
   * The search ranked. `stoppedAt`: the bound where the reading stopped, with unread files left;
   * `before` says which results it makes certain.
   */
  finish(stoppedAt: RankKey | undefined, before: (key: RankKey, bound: RankKey) => boolean): FirstResults {
    if (this.#failed) throw this.#failed.error;
    const unread = this.bound() !== undefined;
    const result = this.#cursor.finish(unread || this.#full);
    // Ranking sorts the pool in place: the results before the bound are a prefix of it.
    const ranked = this.#scorer.rank(this.#matches);
    const first: FirstResults = { result, ranked, seeds: this.#seeds };
    if (this.#pool) first.pooled = this.#cut ? 'shared' : 'own';
    if (!unread || stoppedAt === undefined) return first;
    const matches = this.#matches;
    let certain = 0;
    while (certain < matches.length && before(rankKey(matches[certain]!), stoppedAt)) certain++;
    first.certain = certain;
    return first;
  }
}

/**
 * Reads `readings` in one order, the file whose matches could rank best first, until `end`
 * matches in `pending` (those read, and any the caller put there) rank before everything unread,
 * or nothing is left. Where it stopped: the bound no unread match can rank before; undefined when
 * every reading came to its end.
 */
export function readUntilCertain(readings: EarlyReading[], end: number, tally: PageTally): RankKey | undefined {
  const [only] = readings.length === 1 ? readings : [];
  for (;;) {
    // One project alone, until the page could be full: no bound is worth working out.
    if (only && tally.counted < end) {
      if (!only.unread) return undefined;
      only.read();
      continue;
    }
    let next: EarlyReading | undefined;
    let bound: RankKey | undefined;
    for (const reading of readings) {
      const own = reading.bound();
      if (own && (!bound || strictlyBefore(own, bound))) [next, bound] = [reading, own];
    }
    if (!next || !bound) return undefined;
    if (tally.counted >= end && tally.certainBefore(bound) >= end) return bound;
    next.read();
  }
}

/**
 * The matches a page is counted from: every one read, and any the caller knows already. Once a
 * bound has been asked of it, each later bound must be no better (as reading in order gives).
 */
export class PageTally {
  readonly #pending: Pending;
  #counted = 0;
  #before = 0;

  constructor(before: (key: RankKey, bound: RankKey) => boolean) {
    this.#pending = new Pending(before);
  }

  readonly add = (key: RankKey): void => {
    this.#pending.push(key);
    this.#counted++;
  };

  /** Matches added. */
  get counted(): number {
    return this.#counted;
  }

  /** How many matches added rank before `bound`. */
  certainBefore(bound: RankKey): number {
    return (this.#before += this.#pending.takeBefore(bound));
  }
}

/**
 * Searches `query` until its first `end` results are certain (or to its end, or its limit), and
 * ranks what it read.
 */
export function searchFirstResults(reader: IndexReader, root: string, symbols: RankingSymbols | undefined, query: SearchQuery, end: number): FirstResults {
  const tally = new PageTally(ranksBefore);
  const reading = EarlyReading.open(reader, root, symbols, query, tally.add);
  if (!(reading instanceof EarlyReading)) return reading;
  return reading.finish(readUntilCertain([reading], end, tally), ranksBefore);
}
