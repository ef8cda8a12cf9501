/**
 * One search in this thread, for a process that runs one and exits (the CLI's `search`): the
 * index is opened lazily (each segment's header and directory, then only the posting lists the
 * query touches) and candidate files are read straight from disk, with no worker threads and no
 * content cache, which would cost more to start and fill than the search itself.
 *
 * A JavaScript regex can backtrack for ever and no timer fires while it runs, so the search runs
 * under `vm`'s execution timeout, which interrupts it; it ends with the search service's
 * PatternTooExpensiveError, as a search through the server would.
 */
import { runInThisContext } from 'node:vm';
import type { IndexStore } from '../store/store.js';
import { DEFAULT_SEARCH_BUDGET_MS, IndexReader, PatternTooExpensiveError, type Match, type SearchQuery, type SearchResult } from './reader.js';

/** Where the search waits for the guarded script to call it (a global only for that call). */
const HANDOFF = '__sextantOneShotSearch';

export function openForOneSearch(store: IndexStore): IndexReader {
  return IndexReader.open(store.root, undefined, { store, lazy: true, cacheBypassCandidates: 0 });
}

/** `found` gets each file's matches as they are found (see IndexReader.search). */
export function searchOnce(reader: IndexReader, query: SearchQuery, found?: (matches: Match[]) => void, budgetMs = DEFAULT_SEARCH_BUDGET_MS): SearchResult {
  const global = globalThis as Record<string, unknown>;
  global[HANDOFF] = () => reader.search(query, found);
  try {
    return runInThisContext(`${HANDOFF}()`, { timeout: budgetMs, displayErrors: false }) as SearchResult;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new PatternTooExpensiveError(budgetMs);
    throw error;
  } finally {
    delete global[HANDOFF];
  }
}
