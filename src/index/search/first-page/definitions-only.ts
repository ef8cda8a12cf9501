/**
 * A page of a search that the definitions of the name decide alone. When the symbol index holds
 * every definition named exactly like a literal query (definition-seeds.ts, `complete`), no text
 * match can score above TEXT_MATCH_CEILING, so the definitions that score above it lead the
 * ranking whatever the text search would find. When there are enough of them for the page asked,
 * the page is certain without reading a single candidate file: the text search is not run. A
 * later page that goes past them runs the whole search.
 */
import { definitionMatches, MAX_SEEDED_DEFINITIONS } from '../definition-seeds.js';
import { rankMatches, type Ranked, type RankingSymbols, TEXT_MATCH_CEILING } from '../ranking.js';
import type { SearchQuery } from '../reader.js';
import { mayStopEarly } from './early-page.js';

/** The definitions ranked, and how many of the first of them no text match can come before. */
export interface DefinitionsFirst {
  ranked: Ranked[];
  certain: number;
  /**
   * Every definition named like the query is among `ranked`: any other match of the project is a
   * text match, and scores TEXT_MATCH_CEILING at most (a search across projects relies on it).
   */
  complete: boolean;
  /**
   * The name is defined more often than the seeds take, and the symbol index says where the others
   * are: a search reads until its pool fills, shared with the other such projects of a search
   * across projects (shared-pool.ts).
   */
  pastSeeds: boolean;
}

/**
 * Whether a page ending at `end` (offset + limit) may be decided by the definitions: a page a
 * literal search may stop early for (early-page.ts: ASCII, within the pool) and within reach of
 * the seeds.
 */
export function mayDecideByDefinitions(query: SearchQuery, end: number): boolean {
  return end <= MAX_SEEDED_DEFINITIONS && mayStopEarly(query, end);
}

/** The definitions of the name, ranked as a search ranks them; `certain` counts those no text match can outrank. */
export function definitionsFirst(root: string, symbols: RankingSymbols | undefined, query: SearchQuery): DefinitionsFirst {
  const seeds = definitionMatches(root, symbols, query);
  if (!symbols || !seeds.complete) return { ranked: [], certain: 0, complete: false, pastSeeds: symbols !== undefined && seeds.leftOut !== undefined };
  if (seeds.matches.length === 0) return { ranked: [], certain: 0, complete: true, pastSeeds: false };
  const ranked = rankMatches(symbols, seeds.matches, query.pattern, false, query.caseSensitive === true, true);
  // Ranked by score first: those above the ceiling are the first ones.
  let certain = 0;
  while (certain < ranked.length && ranked[certain]!.score > TEXT_MATCH_CEILING) certain++;
  return { ranked, certain, complete: true, pastSeeds: false };
}
