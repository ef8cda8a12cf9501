/**
 * `search_code`: exact text and regex search over the project's index, ranked for a reader:
 * definitions of the name first (from the symbol index, not only those among the first matches:
 * index/search/definition-seeds.ts), then the signals of index/search/ranking.ts; each result with the symbol that encloses it;
 * pages through `nextCursor` over one stable ranked order.
 */
import { BadGlobError, KNOWN_LANGUAGES, workspaceGlob } from '../index/files/index.js';
import {
  BadPatternError,
  type Certainty,
  DEFAULT_SEARCH_BUDGET_MS,
  definitionsFirst,
  firstPagePlan,
  type FirstPageWay,
  MAX_SEEDED_DEFINITIONS,
  PatternTooExpensiveError,
  publicMatch,
  rankedFrom,
  rankSearch,
  type Ranked,
  type SearchQuery,
  type SearchResult,
  serves,
} from '../index/search/index.js';
import type { WorkerResult } from '../index/search/service.js';
import { unsearchedFiles } from '../index/store/index.js';
import type { ToolDefinition } from '../mcp/index.js';
import type { Project, ProjectSymbols } from '../workspace/project.js';
import type { ProjectService } from '../workspace/projects.js';
import { fitCount, MAX_OUTPUT_CHARS, MAX_PATH_CHARS, pageCursor, pageOffset } from './limits.js';
import { statusFields, STATUS_PROPERTIES, STATUS_REQUIRED, type Completeness } from './status.js';
import { clipText } from '../jsonrpc/index.js';
import { codedError } from '../errors.js';
import { projectTool } from './project-tool.js';
import { AnswerCache, type Computed } from './answer-cache.js';
import { clipResult, linesOf, MATCH_SCHEMA } from './search-results.js';

const DEFAULT_SEARCH_RESULTS = 20;
const MAX_SEARCH_RESULTS = 200;
const MAX_CONTEXT_LINES = 10;
/** Matches gathered and ranked per query; pages are cut from this pool. */
export const RANKING_POOL = 1_000;
/** Of the query, how much an answer quotes back (a 2 MB literal is searched, not echoed). */
const MAX_ECHO_CHARS = 200;

/** The project's symbols where they exist: a search never fails for want of them. */
function symbolsOf(project: Project): ProjectSymbols | undefined {
  try {
    return project.symbols();
  } catch {
    return undefined;
  }
}

function cachedAnswers(env: NodeJS.ProcessEnv): number {
  const value = env.SEXTANT_ANSWER_CACHE;
  const count = value === undefined || value.trim() === '' ? CACHED_ANSWERS : Number(value);
  return Number.isInteger(count) && count >= 0 ? count : CACHED_ANSWERS;
}

/** A search's answer before paging: the matches found, ranked, and what ranking took. */
interface Answer {
  result: SearchResult & { partial?: boolean };
  ranked: Ranked[];
  seeds: number;
  rankingMs: number;
  /** Set when not every match was read: why the first results are known to lead (index/search/first-page/). */
  certainty?: Certainty;
}

/** The definitions of the name alone, ranked (index/search/first-page/definitions-only.ts); the text search is not run. */
function definitionsAnswer(project: Project, query: SearchQuery): Computed<Answer> {
  const started = performance.now();
  const { ranked, certain } = definitionsFirst(project.root, symbolsOf(project), query);
  const durationMs = Math.round(performance.now() - started);
  const result = { matches: [], truncated: true, stats: { files: 0, candidates: 0, durationMs } };
  return {
    value: { result, ranked, seeds: ranked.length, rankingMs: 0, certainty: { by: 'definitions-only', results: certain } },
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
): { ranked: Ranked[]; seeds: number; rankingMs: number; certain?: number } {
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
    const ranked = rankedFrom(symbolsOf(project), result.matches, ranking.scores, ranking.facts);
    return { ranked, seeds: ranking.seeds, rankingMs: ranking.rankingMs + performance.now() - started, certain: ranking.certain };
  }
  // The definitions of the name are candidates wherever their paths sort; text matches fill in after them.
  const { ranked, seeds } = rankSearch(project.root, symbolsOf(project), query, result.matches);
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
    if (error instanceof PatternTooExpensiveError)
      throw codedError('pattern_too_expensive', `The search ran over its ${DEFAULT_SEARCH_BUDGET_MS} ms budget and was stopped`);
    if (error instanceof BadGlobError) throw codedError('invalid_input', error.message, { argument: 'path' }, 'Fix the glob, or leave path out.');
    if (error instanceof BadPatternError) {
      throw codedError(
        'invalid_input',
        error.message,
        { argument: 'query' },
        'Fix the regular expression (JavaScript syntax), or search for the literal text with regex: false.',
      );
    }
    throw error;
  }
  const { ranked, seeds, rankingMs, certain } = rankingOf(project, query, result, direct);
  const value: Answer = { result, ranked, seeds, rankingMs, ...(certain !== undefined ? { certainty: { by: 'early-page', results: certain } } : {}) };
  return { value, weight: ranked.length, keep: !direct && result.partial !== true };
}

/**
 * Answers kept: at most this many (SEXTANT_ANSWER_CACHE: another count, 0 for none), holding at
 * most this many matches between them (a full answer holds about 1,000).
 */
const CACHED_ANSWERS = 256;
const CACHED_MATCHES = 50_000;

export function createSearchCodeTool(projects: ProjectService, env: NodeJS.ProcessEnv = process.env): ToolDefinition {
  const answers = new AnswerCache<Answer>({ maxEntries: cachedAnswers(env), maxWeight: CACHED_MATCHES });
  return projectTool(projects, {
    name: 'search_code',
    title: 'Search code',
    description:
      'Searches the project for a literal string (case-insensitive unless case_sensitive) or a JavaScript regular expression (regex: true). ' +
      'Results are ranked: the definitions of the name searched for first, wherever they live, then whole-identifier matches; exact case, ' +
      'exported definitions and source files before the rest; ' +
      'tests, then test data, vendored and generated files last; each has path, line, column, ' +
      'the line text, the enclosing symbol, and optional context lines. Filter with a path glob (e.g. "src/**/*.ts") or a language. ' +
      `Returns at most limit results (default ${DEFAULT_SEARCH_RESULTS}, max ${MAX_SEARCH_RESULTS}); pass nextCursor back as cursor for more.`,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, description: 'Text to find, or a regex with regex: true' },
        regex: { type: 'boolean', default: false },
        case_sensitive: { type: 'boolean', default: false },
        path: { type: 'string', maxLength: MAX_PATH_CHARS, description: 'Glob over workspace-relative paths' },
        language: { type: 'string', description: 'Only files of this language (e.g. typescript, python, c)' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_RESULTS, default: DEFAULT_SEARCH_RESULTS },
        context_lines: { type: 'integer', minimum: 0, maximum: MAX_CONTEXT_LINES, default: 0 },
        cursor: { type: 'string', description: 'nextCursor of a previous call with the same arguments' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        ...STATUS_PROPERTIES,
        results: { type: 'array', items: MATCH_SCHEMA },
        total_matches: {
          type: 'integer',
          minimum: 0,
          description:
            `Matches ranked: at most ${RANKING_POOL} text matches, and up to ${MAX_SEEDED_DEFINITIONS} definitions of the name ` +
            `searched for (with definitions_only, the definitions alone; with certain_results, the matches read before the search stopped)`,
        },
        nextCursor: { type: 'string' },
        note: { type: 'string' },
        unsearched_files: {
          type: 'object',
          description: 'Files the index left out as too large or unreadable: a match there would be missing (result_completeness is partial)',
          properties: { count: { type: 'integer', minimum: 1 }, examples: { type: 'array', items: { type: 'string' } } },
          required: ['count', 'examples'],
          additionalProperties: false,
        },
        candidates: { type: 'integer', minimum: 0 },
        duration_ms: { type: 'number', minimum: 0, description: 'Time the search itself took' },
        ranking_ms: { type: 'number', minimum: 0, description: 'Time ranking took: the definitions of the name read, the matches ordered, the page described' },
        definitions_only: {
          type: 'boolean',
          description:
            'Only the definitions of the name were ranked: they fill this page and no other match can rank above any result on it, so the ' +
            'text search was not run (total_matches counts the definitions); the cursor continues with every match',
        },
        certain_results: {
          type: 'integer',
          minimum: 1,
          description:
            'The search stopped reading once this many first results were certain: no match in a file it did not read can rank above any of ' +
            'them (result_completeness is truncated); the cursor continues',
        },
        cached: {
          type: 'boolean',
          description: "The answer was computed for an earlier call with the same arguments on the same index generation (duration_ms is that search's)",
        },
      },
      required: [...STATUS_REQUIRED, 'results', 'total_matches'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run(project, _resolved, args) {
      if (typeof args.language === 'string' && !KNOWN_LANGUAGES.includes(args.language)) {
        throw codedError('invalid_input', `Unknown language ${JSON.stringify(args.language)}; known: ${KNOWN_LANGUAGES.join(', ')}`, { argument: 'language' });
      }
      let pathGlob: string | undefined;
      if (typeof args.path === 'string') {
        try {
          pathGlob = workspaceGlob(args.path, project.root);
        } catch (error) {
          if (error instanceof BadGlobError) throw codedError('invalid_input', error.message, { argument: 'path' });
          throw error;
        }
      }
      const offset = pageOffset(args.cursor, args, 'search');
      const limit = (args.limit as number | undefined) ?? DEFAULT_SEARCH_RESULTS;
      const query = {
        pattern: args.query as string,
        regex: args.regex === true,
        caseSensitive: args.case_sensitive === true,
        limit: RANKING_POOL,
        // More matches than the pool holds: source fills it before tests, docs, vendored and generated code.
        sourceFirst: true,
        context: (args.context_lines as number | undefined) ?? 0,
        ...(pathGlob !== undefined ? { path: pathGlob } : {}),
        language: typeof args.language === 'string' ? args.language : undefined,
      };
      const state = project.indexState();
      let manifest = state.manifest;
      let direct = false;
      if (!manifest && projects.autoIndex && !state.incompatible) {
        if (!project.job) project.startJob('index');
        direct = true; // meanwhile: a direct scan, marked partial
      } else manifest = project.requireIndex(state);
      const key = direct ? '' : JSON.stringify([project.root, project.generation(), query]);
      const end = offset + limit;
      // The same question of the same index generation is answered once (answer-cache.ts): a whole
      // answer kept already serves every page; else the plan's ways, cheapest first. A direct scan is never kept.
      const whole = direct ? undefined : answers.peek(key);
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
      let ready: { value: Answer; cached: boolean } | undefined = whole ? { value: whole, cached: true } : undefined;
      for (const way of ready ? [] : firstPagePlan(query, end, !direct)) {
        const candidate = await found(way);
        if (serves(candidate.value.certainty, end)) {
          ready = candidate;
          break;
        }
      }
      const { value, cached } = ready!;
      const { result, ranked, seeds, rankingMs: firstRankingMs, certainty } = value;
      const pageStarted = performance.now();
      const page = ranked.slice(offset, offset + limit).map((item) => ({ match: item.match, result: clipResult(item.describe()) }));
      const rankingMs = (cached ? 0 : firstRankingMs) + performance.now() - pageStarted;
      // At least one: a clipped result always fits, and a page that showed none would page for ever.
      const fits = Math.max(
        Math.min(page.length, 1),
        fitCount(page, MAX_OUTPUT_CHARS - 2_000, (item) => JSON.stringify(item.result).length + linesOf(item).join('\n').length + 1),
      );
      const shown = page.slice(0, fits);
      const next = offset + shown.length;
      let completeness: Completeness = direct || result.partial ? 'partial' : 'complete';
      const notes: string[] = [];
      if (direct)
        notes.push(
          `No index yet: indexing started (${project.job?.id ?? 'done'}); these results come from a direct ` +
            `scan${result.partial ? ' that stopped at its time limit' : ''}.`,
        );
      if (fits < page.length) notes.push(`Cut to ${fits} results to stay within the output budget; continue with the cursor.`);
      if (certainty?.by === 'definitions-only') {
        completeness = 'truncated';
        notes.push(
          `Only the definitions of ${clipText(JSON.stringify(query.pattern), MAX_ECHO_CHARS)} were ranked (${ranked.length}): they fill this ` +
            `page, and no other match can rank above any result on it, so the other matches were not searched; the cursor continues with every match.`,
        );
      } else if (certainty) {
        completeness = completeness === 'complete' ? 'truncated' : completeness;
        notes.push(
          `The search stopped reading once the first ${certainty.results} results were certain: no match in a file it did not read can rank ` +
            `above any of them (files are read source first, shallower and shorter paths first). ${ranked.length} matches were read and ` +
            `ranked; the cursor continues.`,
        );
      } else if (result.truncated) {
        completeness = completeness === 'complete' ? 'truncated' : completeness;
        const firstSeeds = seeds === MAX_SEEDED_DEFINITIONS ? ', the first by case, path and depth' : '';
        notes.push(
          `More than ${RANKING_POOL} matches: ${RANKING_POOL} text matches (source first, then tests, docs, vendored and generated code, ` +
            `each shallower and shorter paths first)${seeds > 0 ? ` and the definitions of the name (${seeds}${firstSeeds})` : ''} ` +
            `were ranked; narrow the query or the path.`,
        );
      }
      const unsearched = manifest ? unsearchedFiles(manifest) : undefined;
      if (unsearched) {
        completeness = 'partial';
        notes.push(
          `${unsearched.count} file${unsearched.count === 1 ? ' was' : 's were'} not indexed (too large or unreadable), so not searched: ` +
            `${unsearched.examples.join(', ')}${unsearched.count > unsearched.examples.length ? ', …' : ''}.`,
        );
      }
      const structured: Record<string, unknown> = {
        // The state the answer came from; a direct scan has just started the index job: read again.
        ...statusFields(project, manifest, completeness, direct ? undefined : state.status),
        results: shown.map((item) => item.result),
        total_matches: ranked.length,
        ...(certainty?.by === 'definitions-only' ? { definitions_only: true } : { candidates: result.stats.candidates }),
        ...(certainty?.by === 'early-page' ? { certain_results: certainty.results } : {}),
        duration_ms: result.stats.durationMs,
        ranking_ms: Math.round((rankingMs + Number.EPSILON) * 100) / 100,
      };
      if (unsearched) structured.unsearched_files = unsearched;
      if (cached) structured.cached = true;
      const cursor = next < ranked.length || certainty ? pageCursor(next, args) : undefined;
      if (cursor) structured.nextCursor = cursor;
      if (notes.length > 0) structured.note = notes.join(' ');
      // The cursor in the text too: a client that shows the model only the text still pages.
      if (cursor) notes.push(`Next page: call again with the same arguments and cursor "${cursor}".`);
      const header =
        certainty?.by === 'definitions-only'
          ? `${ranked.length} ${ranked.length === 1 ? 'definition' : 'definitions'} of the name ranked (other matches not searched yet: none ` +
            `can rank above this page); showing ${offset + 1}-${next} (more with the cursor):`
          : ranked.length === 0
            ? `No matches for ${clipText(JSON.stringify(query.pattern), MAX_ECHO_CHARS)}.`
            : `${ranked.length}${result.truncated ? '+' : ''} ${ranked.length === 1 ? 'match' : 'matches'}; showing ` +
              `${offset + 1}-${next}${next < ranked.length ? ' (more with the cursor)' : ''}:`;
      // With context, groups are set apart by `--`, as rg does.
      const groups = shown.map(linesOf);
      const body = query.context > 0 ? groups.flatMap((lines, index) => (index === 0 ? lines : ['--', ...lines])) : groups.flat();
      const text = [header, ...body, ...notes].join('\n');
      return { content: [{ type: 'text', text }], structuredContent: structured };
    },
  });
}
