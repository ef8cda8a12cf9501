/**
 * Searching the text index: the query plan, candidates, the matcher, the reader, and a one-shot
 * search for the CLI. The pool of search workers (`service.ts`) is imported by path, not from
 * here: it starts worker threads, and a one-shot search must not load it.
 */

export { addContext } from './matcher.js';
export { openForOneSearch, searchOnce } from './one-shot.js';
export { lowValuePath, pathDepth, pathPenalty } from './path-signals.js';
export {
  DEFAULT_SEARCH_BUDGET_MS,
  IndexReader,
  type Match,
  NotIndexedError,
  PatternTooExpensiveError,
  publicMatch,
  saysGenerated,
  type SearchQuery,
  type SearchResult,
} from './reader.js';
