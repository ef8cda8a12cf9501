/**
 * What a search thread does for a request: a search of one open project, or a batch, the same
 * query in several projects (a search across projects), whose first page is read as one index
 * would read it: always the file whose matches could rank best next, in whichever project, until
 * the page is certain (first-page/early-page.ts, readUntilCertain).
 */
import { EarlyReading, mayStopEarly, PageTally, readUntilCertain, searchFirstResults, SharedPool, type FirstResults } from '../first-page/index.js';
import { rankedKey, rankSearch, strictlyBefore, type RankKey } from '../ranking.js';
import { type HowRanked, movedBuffers, pack, packRanked, type PackedResult } from '../wire.js';
import type { OpenProject, OpenProjects } from './open-projects.js';
import type { BatchItem, BatchRequest, Reply, SearchRequest, SearchStamps } from './search-worker.js';
import { DEFAULT_SEARCH_LIMIT, type SearchQuery } from '../reader.js';

/** A failure as the pool reads it back: its stable code, and its message. */
export function threadError(error: unknown): { code: string; message: string } {
  const code = (error as { code?: unknown }).code;
  return { code: typeof code === 'string' ? code : 'SEXTANT_ERR_SEARCH', message: error instanceof Error ? error.message : String(error) };
}

/**
 * A search of the index, ranked when asked (the pool in ranked order, and the ranking beside it);
 * read only as far as the page asked for needs, where that can be known (first-page/early-page.ts).
 */
export function searchIndex(project: OpenProject, request: SearchRequest & { stamps?: SearchStamps }): PackedResult {
  const { query, rank, pageEnd, root, stamps } = request;
  const reader = project.reader(stamps?.manifest);
  if (rank && pageEnd !== undefined && mayStopEarly(query, pageEnd)) {
    const started = performance.now();
    const symbols = project.symbols(stamps?.symbols);
    const first = searchFirstResults(reader, root, symbols, query, pageEnd);
    // Ranking as it read is the search's time; the ranking of what it read, after, is ranking's.
    return packFirst(first, Math.max(0, performance.now() - started - first.result.stats.durationMs));
  }
  const result = reader.search(query);
  if (!rank) return pack(result);
  const started = performance.now();
  const { ranked, seeds } = rankSearch(root, project.symbols(stamps?.symbols), query, result.matches);
  return packRanked(result, ranked, { seeds, rankingMs: performance.now() - started });
}

/** Every field of a query, named: one added to SearchQuery and not here fails to compile. */
const QUERY_FIELDS = Object.keys({
  pattern: true,
  regex: true,
  caseSensitive: true,
  path: true,
  language: true,
  limit: true,
  context: true,
  shard: true,
  sourceFirst: true,
} satisfies Record<keyof SearchQuery, true>) as Array<keyof SearchQuery>;

/**
 * What searches read together must share: the page, and every field of the query (a batch has
 * one query per project, each with its own path glob). Field by field: an array of plain values
 * is quicker to write out than the object.
 */
function sharedKey(pageEnd: number, query: SearchQuery): string {
  return JSON.stringify([pageEnd, ...QUERY_FIELDS.map((field) => query[field])]);
}

type Outcome = { result: PackedResult } | { error: { code: string; message: string } };

function attempt(search: () => PackedResult): Outcome {
  try {
    return { result: search() };
  } catch (error) {
    return { error: threadError(error) };
  }
}

/** A project's first results as the batch sends them back. */
function packFirst({ result, ranked, seeds, certain, pooled }: FirstResults, rankingMs: number): PackedResult {
  const how: HowRanked = { seeds, rankingMs };
  if (certain !== undefined) how.certain = certain;
  if (pooled !== undefined) how.pooled = pooled;
  return packRanked(result, ranked, how);
}

/**
 * Each search of a batch, ranked; a failure is that search's own. The searches that may stop
 * early and share a query and page are read together (readTogether); the others each alone.
 */
export function searchBatch(projects: OpenProjects, { id, batch, known = [] }: BatchRequest): { reply: Reply; moved: ArrayBuffer[] } {
  const results = new Array<Outcome>(batch.length);
  const together = new Map<string, number[]>();
  batch.forEach(({ root, query, pageEnd, stamps }, at) => {
    if (pageEnd !== undefined && mayStopEarly(query, pageEnd)) {
      const shared = sharedKey(pageEnd, query);
      together.set(shared, [...(together.get(shared) ?? []), at]);
      return;
    }
    results[at] = attempt(() => searchIndex(projects.get(root), { id, root, query, rank: true, ...(stamps && { stamps }) }));
    // Within the budget of open files as the batch goes, not only after it.
    projects.trim();
  });
  const knownKeys = known.map((match) => match.key);
  for (const ats of together.values()) readTogether(projects, batch, ats, knownKeys, results);
  const moved = results.flatMap((outcome) => ('result' in outcome ? movedBuffers(outcome.result) : []));
  return { reply: { id, results }, moved };
}

/**
 * The searches `ats` of `batch` (one query, one page end), read in one order across their
 * projects, as many projects at a time as the thread's open files allow. `known`: how matches
 * found elsewhere rank (projects not searched here), counted toward the page like those read.
 * Every count is strict: a tie between two projects goes to neither by reading order.
 *
 * The projects that read until a pool fills (`sharesPool`, first in the batch) share one of the
 * query's limit (first-page/shared-pool.ts), all in the first group whatever their open files, so
 * that what they read never depends on the projects after them. For a page that ends at the
 * pool's end (the caller asks that of a page past it too), their group ends with them and reads
 * the pool whole: it never stops for being certain, so what it reads does not depend on the
 * matches known from elsewhere either. The projects after them read until the page is certain.
 */
function readTogether(projects: OpenProjects, batch: BatchItem[], ats: number[], known: RankKey[], results: Outcome[]): void {
  const end = batch[ats[0]!]!.pageEnd!;
  // Searches read together ask one query (sharedKey): one object for all, so what is kept by query is found again.
  const { query } = batch[ats[0]!]!;
  const limit = query.limit ?? DEFAULT_SEARCH_LIMIT;
  const fillsPool = end >= limit;
  const shared = new SharedPool(limit);
  /** The best `end` matches found so far, here or elsewhere: each next group counts them. */
  let carried = [...known];
  const carry = (first: FirstResults): void => {
    carried.push(...first.ranked.slice(0, end).map(rankedKey));
  };
  let group: Array<{ at: number; reading: EarlyReading }> = [];
  let files = 0;
  let tally = new PageTally(strictlyBefore);
  carried.forEach(tally.add);
  /** Reads the group: `whole`, until every reading ends (the shared pool read whole), else until the page is certain. */
  const read = (whole = false): void => {
    const stoppedAt = readUntilCertain(
      group.map(({ reading }) => reading),
      whole ? Infinity : end,
      tally,
    );
    for (const { at, reading } of group) {
      results[at] = attempt(() => {
        const started = performance.now();
        const first = reading.finish(stoppedAt, strictlyBefore);
        carry(first);
        return packFirst(first, performance.now() - started);
      });
    }
    carried = carried.sort((a, b) => (strictlyBefore(a, b) ? -1 : strictlyBefore(b, a) ? 1 : 0)).slice(0, end);
    group = [];
    files = 0;
    tally = new PageTally(strictlyBefore);
    carried.forEach(tally.add);
    projects.trim();
  };
  for (const [index, at] of ats.entries()) {
    const { root, stamps, sharesPool } = batch[at]!;
    try {
      const project = projects.get(root);
      const symbols = project.symbols(stamps?.symbols);
      // The caller says which projects share the pool (it found them by their definitions): any other fills one of its own.
      const reading = EarlyReading.open(project.reader(stamps?.manifest), root, symbols, query, tally.add, sharesPool ? shared : undefined);
      if (reading instanceof EarlyReading) {
        group.push({ at, reading });
        files += project.openFiles;
      } else {
        // Searched to its end: every match of it is known, and counts toward the page, here and in the groups after.
        results[at] = { result: packFirst(reading, 0) };
        for (const key of reading.ranked.slice(0, end).map(rankedKey)) {
          carried.push(key);
          tally.add(key);
        }
      }
    } catch (error) {
      results[at] = { error: threadError(error) };
    }
    const nextShares = index + 1 < ats.length && batch[ats[index + 1]!]!.sharesPool === true;
    if (sharesPool && fillsPool && !nextShares) read(true);
    else if (files >= projects.maxFiles && !nextShares) read();
  }
  if (group.length > 0) read();
}
