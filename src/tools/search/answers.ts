/**
 * One project's ranked answer to a search, found the cheapest way that holds the page asked for
 * (index/search/first-page/) and kept per index generation (answer-cache.ts). search_code pages
 * through it for one project, and merges several of them for a search across projects (across.ts).
 */
import {
  type Certainty,
  definitionsFirst,
  firstPagePlan,
  type FirstPageWay,
  type KnownMatch,
  knownMatch,
  mayStopEarly,
  type Pooled,
  publicMatch,
  rankedFrom,
  rankSearch,
  type Ranked,
  type SearchQuery,
  type SearchResult,
  serves,
} from '../../index/search/index.js';
import type { SearchPool, WorkerResult } from '../../index/search/threads/index.js';
import type { IndexStamps, Project, ProjectSymbols } from '../../workspace/project.js';
import { toolError } from './search-errors.js';
import { AnswerCache, type Computed } from './answer-cache.js';

/** Matches gathered and ranked per query; pages are cut from this pool. */
export const RANKING_POOL = 1_000;

/**
 * Answers kept: at most this many (SEXTANT_ANSWER_CACHE: another count, 0 for none), holding at
 * most this many matches between them (a full answer holds about 1,000).
 */
const CACHED_ANSWERS = 256;
const CACHED_MATCHES = 50_000;

/** A search's answer before paging: the matches found, ranked, and what ranking took. */
export interface Answer {
  result: SearchResult & { partial?: boolean };
  ranked: Ranked[];
  seeds: number;
  rankingMs: number;
  /** Set when not every match was read: why the first results are known to lead (index/search/first-page/). */
  certainty?: Certainty;
  /**
   * definitions-only: every definition named like the query is ranked, so any other match of the
   * project is a text match (TEXT_MATCH_CEILING at most), and ranks after every certain definition.
   */
  definitionsComplete?: boolean;
  /**
   * definitions-only: the project defines the name past its seeds, so a search of it reads until a
   * pool of matches fills; over several projects, a pool shared by every such project.
   */
  definedPastSeeds?: boolean;
  /**
   * Set when the project defines the name past its seeds, so that its reading ends only when a
   * pool of matches fills (index/search/first-page/shared-pool.ts): 'own' when it read as it
   * would alone, 'shared' when a search across projects filled the pool it shared first.
   */
  pooled?: Pooled;
}

/** The project's symbols where they exist: a search never fails for want of them. */
function symbolsOf(project: Project, at?: IndexStamps): ProjectSymbols | undefined {
  try {
    return project.symbols(at);
  } catch {
    return undefined;
  }
}

function cachedAnswers(env: NodeJS.ProcessEnv): number {
  const value = env.SEXTANT_ANSWER_CACHE;
  const count = value === undefined || value.trim() === '' ? CACHED_ANSWERS : Number(value);
  return Number.isInteger(count) && count >= 0 ? count : CACHED_ANSWERS;
}

/** The definitions of the name alone, ranked (index/search/first-page/definitions-only.ts); the text search is not run. */
function definitionsAnswer(project: Project, query: SearchQuery, at?: IndexStamps): Computed<Answer> {
  const started = performance.now();
  const { ranked, certain, complete, pastSeeds } = definitionsFirst(project.root, symbolsOf(project, at), query);
  const durationMs = Math.round(performance.now() - started);
  const result = { matches: [], truncated: true, stats: { files: 0, candidates: 0, durationMs } };
  return {
    value: {
      result,
      ranked,
      seeds: ranked.length,
      rankingMs: 0,
      certainty: { by: 'definitions-only', results: certain },
      ...(complete && { definitionsComplete: true }),
      ...(pastSeeds && { definedPastSeeds: true }),
    },
    weight: ranked.length,
    keep: true,
  };
}

/** What a direct scan's match shows: no symbols to rank by, so its matches stay in path order. */
const UNRANKED = { weight: 0, word: false, exactCase: false, generated: false };

/**
 * Ranks what a search found: in the search worker when the search went whole to one (its time
 * comes back with it), else here, after the merge. A direct scan (no index yet) is not ranked.
 */
function rankingOf(
  project: Project,
  query: SearchQuery,
  result: WorkerResult,
  direct: boolean,
  at?: IndexStamps,
): { ranked: Ranked[]; seeds: number; rankingMs: number; certain?: number; pooled?: Pooled } {
  const started = performance.now();
  if (direct) {
    const ranked = result.matches.map((match): Ranked => ({
      match,
      score: 0,
      facts: UNRANKED,
      describe: () => publicMatch(match) as unknown as Record<string, unknown>,
    }));
    return { ranked, seeds: 0, rankingMs: performance.now() - started };
  }
  const { ranking } = result;
  if (ranking) {
    const ranked = rankedFrom(symbolsOf(project, at), result.matches, ranking.scores, ranking.facts);
    return {
      ranked,
      seeds: ranking.seeds,
      rankingMs: ranking.rankingMs + performance.now() - started,
      certain: ranking.certain,
      pooled: ranking.pooled,
    };
  }
  // The definitions of the name are candidates wherever their paths sort; text matches fill in after them.
  const { ranked, seeds } = rankSearch(project.root, symbolsOf(project, at), query, result.matches);
  return { ranked, seeds, rankingMs: performance.now() - started };
}

/**
 * Searches and ranks: the answer, its weight (matches held) and whether it may be kept (a partial
 * one may not). `pageEnd`: only the results up to there are needed, and the search may stop once
 * they are certain.
 */
async function searchAndRank(project: Project, query: SearchQuery, direct: boolean, pageEnd?: number): Promise<Computed<Answer>> {
  let result: WorkerResult & { partial?: boolean };
  try {
    result = direct ? await project.search.directSearch(query) : await project.search.search(query, { rank: true, pageEnd });
  } catch (error) {
    throw toolError(error);
  }
  const value = answerOf(result, rankingOf(project, query, result, direct));
  return { value, weight: value.ranked.length, keep: !direct && result.partial !== true };
}

/** An answer from a search's result and its ranking. */
function answerOf(result: WorkerResult & { partial?: boolean }, ranking: ReturnType<typeof rankingOf>): Answer {
  const { ranked, seeds, rankingMs, certain, pooled } = ranking;
  const value: Answer = { result, ranked, seeds, rankingMs };
  if (certain !== undefined) value.certainty = { by: 'early-page', results: certain };
  if (pooled !== undefined) value.pooled = pooled;
  return value;
}

/**
 * A ranked search's answer from what its thread sent back (answers kept: may it be, and how much
 * it holds). One cut short by the pool it shared with other projects is this search's alone.
 */
function answerFrom(project: Project, query: SearchQuery, result: WorkerResult & { partial?: boolean }, at?: IndexStamps): Computed<Answer> {
  const value = answerOf(result, rankingOf(project, query, result, false, at));
  return { value, weight: value.ranked.length, keep: result.partial !== true && value.pooled !== 'shared' };
}

/**
 * One project's search in a search across projects: where its answer goes, its cache key, its
 * page, how many definitions it has, and whether it shares the call's pool of matches.
 */
interface Search {
  at: number;
  key: string;
  pageEnd?: number;
  definitions: number;
  sharesPool?: true;
}

/**
 * Which answer a key names: a query (written as JSON) of one project's index generation. Neither
 * the query's JSON nor the generation holds a newline, so the key reads back from its end, even
 * for a root that holds one.
 */
function answerKey(project: Project, at: IndexStamps | undefined, query: string): string {
  return `${project.root}\n${project.generation(at)}\n${query}`;
}

/** The answers of every project a search_code tool serves, kept together (one budget for all of them). */
export class SearchAnswers {
  readonly #answers: AnswerCache<Answer>;

  constructor(env: NodeJS.ProcessEnv) {
    this.#answers = new AnswerCache<Answer>({ maxEntries: cachedAnswers(env), maxWeight: CACHED_MATCHES });
  }

  /**
   * `project`'s answer to `query` whose first `end` results are certain: a whole answer kept
   * already, else the plan's ways, cheapest first. `direct`: the project has no index yet, and is
   * scanned on disk (never kept). `cached`: the answer was kept from an earlier call.
   */
  async answer(project: Project, query: SearchQuery, end: number, direct: boolean): Promise<{ value: Answer; cached: boolean }> {
    const answers = this.#answers;
    const key = direct ? '' : answerKey(project, undefined, JSON.stringify(query));
    const whole = direct ? undefined : answers.peek(key);
    if (whole) return { value: whole, cached: true };
    const found = async (way: FirstPageWay): Promise<{ value: Answer; cached: boolean }> => {
      switch (way) {
        case 'direct-scan':
          return { value: (await searchAndRank(project, query, true)).value, cached: false };
        case 'definitions-only':
          return answers.get(`${key}|definitions`, () => Promise.resolve(definitionsAnswer(project, query)));
        case 'early-page': {
          const early = await answers.get(`${key}|first:${end}`, () => searchAndRank(project, query, false, end));
          // An early page that read everything is the whole answer, and kept as that too.
          const { value } = early;
          if (!value.certainty && value.result.partial !== true)
            await answers.get(key, () => Promise.resolve({ value, weight: value.ranked.length, keep: true }));
          return early;
        }
        case 'whole':
          return answers.get(key, () => searchAndRank(project, query, false));
      }
    };
    const ways = firstPagePlan(query, end, !direct);
    for (const way of ways) {
      const candidate = await found(way);
      if (serves(candidate.value.certainty, end) || way === ways.at(-1)) return candidate;
    }
    throw new Error('the first-page plan named no way');
  }

  /**
   * The answers of several projects to their queries, each as `answer` would give it, but the
   * searches that must go to a thread go together: one message per thread for all of them
   * (SearchPool.searchMany). Each answer, or the tool error of its project's search.
   *
   * The definitions of the name are looked up beside the index first, in every project. Those no
   * text match can outrank (the certain ones) lead the merged page wherever they are: when there
   * are `end` of them across the projects, they are the page, and a project whose every definition
   * is known is answered by its definitions alone, unsearched, as one project would be by its own.
   * Every match known here counts toward the page the searches read for (threads/project-search.ts).
   */
  async answerMany(
    pool: SearchPool,
    asked: Array<{ project: Project; query: SearchQuery; at?: IndexStamps }>,
    end: number,
  ): Promise<Array<{ value: Answer; cached: boolean } | Error>> {
    const answers = this.#answers;
    const out = new Array<{ value: Answer; cached: boolean } | Error>(asked.length);
    // The projects of a search across them mostly share one query object: written out once.
    const written = new Map<SearchQuery, string>();
    const queryText = (query: SearchQuery): string => {
      let text = written.get(query);
      if (text === undefined) written.set(query, (text = JSON.stringify(query)));
      return text;
    };
    // What unsearched projects answer: exactly what the merge will show of them, so it bounds the searches.
    const known: KnownMatch[] = [];
    const open: Array<{ at: number; key: string; early?: string; definitions?: { value: Answer; cached: boolean }; sharedPoolEnd?: number }> = [];
    for (const [at, { project, query, at: stamps }] of asked.entries()) {
      const key = answerKey(project, stamps, queryText(query));
      const ways = firstPagePlan(query, end, true);
      const early = ways.includes('early-page') ? `${key}|first:${end}` : undefined;
      // A project that reads until a pool fills shares the pool of these projects (first-page/
      // shared-pool.ts), a page past the pool too: read together as far as the pool goes. Its
      // definitions say which it is (and may decide the page); its answer kept from another call
      // is then not its answer here, whatever way it was found.
      const poolEnd = Math.min(end, query.limit ?? RANKING_POOL);
      const mayShare = asked.length > 1 && mayStopEarly(query, poolEnd);
      const definitions = early === undefined && !mayShare ? undefined : answers.getNow(`${key}|definitions`, () => definitionsAnswer(project, query, stamps));
      const sharesPool = mayShare && definitions?.value.definedPastSeeds === true;
      const kept = sharesPool ? undefined : (answers.peek(key) ?? (early === undefined ? undefined : answers.peek(early)));
      if (kept) {
        out[at] = { value: kept, cached: true };
        known.push(...kept.ranked.slice(0, end).map((item) => knownMatch(project.root, item)));
        continue;
      }
      open.push({
        at,
        key,
        ...(early !== undefined && { early }),
        ...(definitions && ways.includes('definitions-only') && { definitions }),
        ...(sharesPool && { sharedPoolEnd: poolEnd }),
      });
    }
    const certainOf = (entry: (typeof open)[number]): number => entry.definitions?.value.certainty?.results ?? 0;
    const certainDefinitions = open.reduce((sum, entry) => sum + certainOf(entry), 0);
    const searches: Search[] = [];
    /** Answered by their definitions only because all projects' certain definitions fill the page together. */
    const byRule: Array<(typeof open)[number]> = [];
    for (const entry of open) {
      const { at, key, early, definitions } = entry;
      const value = definitions?.value;
      const own = value !== undefined && serves(value.certainty, end);
      if (value && (own || (certainDefinitions >= end && value.definitionsComplete === true))) {
        out[at] = definitions!;
        if (!own) byRule.push(entry);
        known.push(...value.ranked.slice(0, end).map((item) => knownMatch(asked[at]!.project.root, item)));
        continue;
      }
      const { sharedPoolEnd } = entry;
      searches.push({
        at,
        key,
        definitions: value?.ranked.length ?? 0,
        ...(sharedPoolEnd !== undefined ? { pageEnd: sharedPoolEnd, sharesPool: true as const } : early !== undefined && { pageEnd: end }),
      });
    }
    if (searches.length === 0) return out;
    // The projects that share the pool first, each time in the order they were asked: they are
    // then read in the same order whichever other projects are searched with them. Then those
    // that define the name most: their matches rank best, and bound the others soonest.
    searches.sort((a, b) => Number(b.sharesPool === true) - Number(a.sharesPool === true) || (a.sharesPool ? 0 : b.definitions - a.definitions));
    await this.#searched(pool, asked, searches, known, out);
    // A searched project that failed took its certain definitions out of the page: if the rest no
    // longer fill it, the projects answered by the rule are searched after all.
    const failed = open.filter(({ at }) => out[at] instanceof Error).reduce((sum, entry) => sum + certainOf(entry), 0);
    if (byRule.length > 0 && failed > 0 && certainDefinitions - failed < end) {
      const ruled = new Set(byRule.map(({ at }) => asked[at]!.project.root));
      const again = byRule.map(({ at, key, early, definitions }) => ({
        at,
        key,
        definitions: definitions!.value.ranked.length,
        ...(early !== undefined && { pageEnd: end }),
      }));
      await this.#searched(
        pool,
        asked,
        again,
        known.filter((match) => !ruled.has(match.root)),
        out,
      );
    }
    return out;
  }

  /** Runs `searches` together (SearchPool.searchMany) and sets each one's answer, or its tool error, in `out`. */
  async #searched(
    pool: SearchPool,
    asked: Array<{ project: Project; query: SearchQuery; at?: IndexStamps }>,
    searches: Search[],
    known: KnownMatch[],
    out: Array<{ value: Answer; cached: boolean } | Error>,
  ): Promise<void> {
    const answers = this.#answers;
    const results = await pool.searchMany(
      searches.map(({ at, pageEnd, sharesPool }) => {
        const { project, query, at: stamps } = asked[at]!;
        return {
          root: project.root,
          query,
          ...(pageEnd !== undefined && { pageEnd }),
          ...(sharesPool && { sharesPool }),
          ...(stamps && { stamps: { manifest: stamps.manifest, symbols: stamps.symbols } }),
        };
      }),
      known.length > 0 ? known : undefined,
    );
    for (const [index, { at, key, pageEnd }] of searches.entries()) {
      const result = results[index]!;
      if (result instanceof Error) {
        out[at] = toolError(result) as Error;
        continue;
      }
      const { project, query, at: stamps } = asked[at]!;
      const computed = answerFrom(project, query, result, stamps);
      const { value } = computed;
      // Kept as `answer` keeps it: an early page under its own key, and as the whole answer when it
      // read everything. One cut short by what other projects found (fewer certain results than the
      // page, or a shared pool filled) is this search's alone.
      const ownPage = value.certainty === undefined || (pageEnd !== undefined && value.certainty.results >= pageEnd);
      if (pageEnd !== undefined && ownPage) answers.keep(`${key}|first:${pageEnd}`, computed);
      if (pageEnd === undefined || (!value.certainty && value.result.partial !== true)) answers.keep(key, computed);
      out[at] = { value, cached: false };
    }
  }
}
