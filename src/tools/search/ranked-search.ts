/**
 * One search in search_code's order, for the CLI's `search --rank`: the same pool (the first
 * RANKING_POOL text matches, and the definitions of the name from the symbol index), the same
 * ranking (ranking.ts), the first `limit` kept. What a user sees at the shell is what an agent sees.
 */
import { type IndexReader, rankSearch, searchOnce, type SearchQuery, type SearchResult } from '../../index/search/index.js';
import { IndexStore } from '../../index/store/index.js';
import { SymbolIndex } from '../../index/symbols/index.js';
import { RANKING_POOL } from './answers.js';

/** The first `limit` of the ranked pool; `ranked`: how many the pool held. */
export function rankedSearch(root: string, reader: IndexReader, query: SearchQuery, limit: number): SearchResult & { ranked: number } {
  let symbols: SymbolIndex | undefined;
  try {
    symbols = SymbolIndex.open(new IndexStore(root));
  } catch {
    symbols = undefined; // no symbols (yet): ranked by text alone, as search_code does
  }
  try {
    const result = searchOnce(reader, { ...query, limit: RANKING_POOL, sourceFirst: true });
    const { ranked } = rankSearch(root, symbols, query, result.matches);
    return { ...result, matches: ranked.slice(0, limit).map((item) => item.match), ranked: ranked.length };
  } finally {
    symbols?.close();
  }
}
