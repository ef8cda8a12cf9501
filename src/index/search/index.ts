/**
 * Searching the text index: the query plan, candidates, the matcher, the reader, a one-shot
 * search for the CLI, and the ranking of what a search found, with the definitions of the name.
 * The pool of search workers (`service.ts`) is imported by path, not from here: it starts worker
 * threads, and a one-shot search must not load it.
 */

export { definitionMatches, MAX_SEEDED_DEFINITIONS } from './definition-seeds.js';
export { type Certainty, definitionsFirst, firstPagePlan, type FirstPageWay, mayStopEarly, type Pooled, serves } from './first-page/index.js';
export { openForOneSearch, searchOnce } from './one-shot.js';
export { lowValuePath } from './path-signals.js';
export { type KnownMatch, knownMatch, rankedFrom, rankMatches, rankOrder, rankSearch, type Ranked } from './ranking.js';
export {
  DEFAULT_SEARCH_BUDGET_MS,
  IndexReader,
  type Match,
  NotIndexedError,
  PatternTooExpensiveError,
  publicMatch,
  type SearchQuery,
  type SearchResult,
} from './reader.js';
export { BadPatternError } from './query-plan.js';
