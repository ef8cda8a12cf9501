/**
 * What a search is asked (SearchQuery) and what it finds (Match): the shapes the reader, the
 * matcher and the workers share, apart from any of them.
 */
import type { SymbolInfo } from '../symbols/types.js';

export interface SearchQuery {
  pattern: string;
  regex?: boolean;
  caseSensitive?: boolean;
  /** Glob over workspace-relative paths, e.g. `src/**\/*.ts`. */
  path?: string;
  language?: string;
  limit?: number;
  /** Lines of context before and after each match. */
  context?: number;
  /**
   * Verify only this share of the candidates (files whose path hashes to `index` modulo
   * `count`): several search workers split one query this way, each caching its own files.
   */
  shard?: { index: number; count: number };
  /**
   * Files in source paths first, then tests, test data, docs, vendored and generated ones
   * (path-signals.ts), the shallower and shorter paths first within each: when there are more
   * matches than `limit`, the ones kept are the ones a ranking would put first (search_code), not
   * the first paths. No streaming order.
   */
  sourceFirst?: boolean;
}

export interface Match {
  path: string;
  line: number;
  column: number;
  text: string;
  before?: string[];
  after?: string[];
  /**
   * Ranking signals the search worker computes from its own verified match, so that nobody runs
   * the caller's pattern again outside the worker's budget (see publicMatch):
   * the match's length in code units; for a literal, whether an occurrence on the line is a
   * whole identifier; for a regex, the matched text (at most MAX_MATCHED_TEXT).
   */
  length?: number;
  word?: boolean;
  matched?: string;
  /** The file says it is generated in its first lines (`Code generated … DO NOT EDIT`, `@generated`). */
  generated?: boolean;
  /** The definition this match is the name of, when it came from the symbol index (search_code's seeds). */
  defines?: SymbolInfo;
}
