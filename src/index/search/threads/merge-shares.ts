/** One search's shares, from the workers that each searched part of the candidate files, made one result. */
import { byPath } from '../../text/segment.js';
import { bySourceFirst } from '../path-signals.js';
import type { Match, SearchResult } from '../reader.js';

/**
 * Shares hold disjoint files, each in path order (or in a `sourceFirst` search's order): a stable
 * sort in that order interleaves them and keeps every file's lines in order. Each share stopped at
 * the limit, so the first `limit` merged matches are exactly the first `limit` of a single search.
 */
export function mergeShares(results: SearchResult[], limit: number, sourceFirst = false): SearchResult {
  if (results.length === 1) return results[0]!;
  const all = results.flatMap((result) => result.matches).sort(sourceFirst ? bySourceFirst((match: Match) => match.path, byPath) : byPath);
  return {
    matches: all.slice(0, limit),
    truncated: all.length > limit || results.some((result) => result.truncated),
    stats: {
      files: results[0]!.stats.files,
      candidates: results[0]!.stats.candidates,
      durationMs: Math.max(...results.map((result) => result.stats.durationMs)),
    },
  };
}
