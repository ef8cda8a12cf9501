/**
 * The one plan for a ranked search's page: which ways of finding it to try, cheapest first. A
 * project with no index yet has only a direct scan. Otherwise a literal's page may be decided by
 * the definitions of the name alone (definitions-only.ts), else by reading candidate files only
 * until it is certain (early-page.ts), else by the whole search. Each way but the last may fall
 * short; `serves` says whether its answer holds the page.
 */
import type { SearchQuery } from '../reader.js';
import { mayDecideByDefinitions } from './definitions-only.js';
import { mayStopEarly } from './early-page.js';

export type FirstPageWay = 'direct-scan' | 'definitions-only' | 'early-page' | 'whole';

/** Why the first results of an answer are known to lead, though not every match was read. */
export interface Certainty {
  /** definitions-only: the definitions alone were ranked; early-page: the search stopped reading. */
  by: 'definitions-only' | 'early-page';
  /** How many first results no unread match can rank before. */
  results: number;
}

/** The ways to try for the page ending at `end` (offset + limit), in order; the last always serves. */
export function firstPagePlan(query: SearchQuery, end: number, indexed: boolean): FirstPageWay[] {
  if (!indexed) return ['direct-scan'];
  const ways: FirstPageWay[] = [];
  if (mayDecideByDefinitions(query, end)) ways.push('definitions-only');
  if (mayStopEarly(query, end)) ways.push('early-page');
  ways.push('whole');
  return ways;
}

/** Whether an answer holds the page ending at `end`: one that read everything always does. */
export function serves(certainty: Certainty | undefined, end: number): boolean {
  return certainty === undefined || certainty.results >= end;
}
