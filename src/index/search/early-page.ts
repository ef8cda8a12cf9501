/**
 * The first results of a literal search, read only as far as they need. A source-first search
 * reads its candidate files in ranking's own tie order (sourceFirstKey: class, depth, length),
 * and once every definition named like the query is ranked (definition-seeds.ts, `complete`), no
 * text match can score above TEXT_MATCH_CEILING less its path's penalty. So before each file is
 * read, the best any unread match can rank is known from the file's path alone; once enough
 * matches already read rank before it to fill the page asked for, the page is certain, and the
 * search stops there. A common word (`return`) is then decided by its first files instead of a
 * thousand matches.
 */
import { definitionMatches } from './definition-seeds.js';
import { bestUnread, rankKey, type RankKey, ranksBefore, rankMatches, rankSearch, type Ranked, type RankingSymbols } from './ranking.js';
import type { IndexReader, Match, SearchQuery, SearchResult } from './reader.js';

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

/** Searches `query` until its first `end` results are certain (or to its end, or its limit), and ranks what it read. */
export function searchFirstResults(reader: IndexReader, root: string, symbols: RankingSymbols | undefined, query: SearchQuery, end: number): FirstResults {
  const seeds = definitionMatches(root, symbols, query);
  if (!seeds.complete) {
    // A definition left out of the seeds could be anywhere: nothing is certain before the end.
    const result = reader.search(query);
    return { result, ...rankSearch(root, symbols, query, result.matches) };
  }
  const caseSensitive = query.caseSensitive === true;
  const definitionsKnown = symbols !== undefined;
  const seeded = new Set(seeds.matches.map((match) => `${match.path}\0${match.line}`));
  const read: RankKey[] = rankMatches(symbols, seeds.matches, query.pattern, false, caseSensitive, definitionsKnown).map(rankKey);
  const found = (matches: Match[]): void => {
    const fresh = matches.filter((match) => !seeded.has(`${match.path}\0${match.line}`));
    for (const item of rankMatches(symbols, fresh, query.pattern, false, caseSensitive, definitionsKnown)) read.push(rankKey(item));
  };
  let stoppedAt: RankKey | undefined;
  const stopBefore = (path: string): boolean => {
    if (read.length < end) return false;
    const bound = bestUnread(path);
    let before = 0;
    for (const key of read) if (ranksBefore(key, bound) && ++before >= end) break;
    if (before < end) return false;
    stoppedAt = bound;
    return true;
  };
  const result = reader.search(query, found, (file) => stopBefore(file.path));
  const ranked = rankSearch(root, symbols, query, result.matches);
  if (!stoppedAt) return { result, ...ranked };
  // Ranked in order: the results before the bound are a prefix.
  let certain = 0;
  while (certain < ranked.ranked.length && ranksBefore(rankKey(ranked.ranked[certain]!), stoppedAt)) certain++;
  return { result, ...ranked, certain };
}
