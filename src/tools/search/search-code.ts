/**
 * `search_code`: exact text and regex search over a project's index, ranked for a reader:
 * definitions of the name first (from the symbol index, not only those among the first matches:
 * index/search/definition-seeds.ts), then the signals of index/search/ranking.ts; each result with the symbol that encloses it;
 * pages through `nextCursor` over one stable ranked order. Over several projects at once, their
 * answers are merged by the same order (across.ts).
 */
import { MAX_SEEDED_DEFINITIONS } from '../../index/search/index.js';
import { unsearchedFiles } from '../../index/store/index.js';
import type { ToolDefinition } from '../../mcp/index.js';
import type { ProjectService } from '../../workspace/projects.js';
import { MAX_PATH_CHARS, pageCursor, pageOffset } from '../limits.js';
import { statusFields, STATUS_PROPERTIES, STATUS_REQUIRED, type Completeness } from '../status.js';
import { clipText } from '../../jsonrpc/index.js';
import { projectTool } from '../project-tool.js';
import { clipResult, fitsBudget, linesOf, MATCH_SCHEMA } from './search-results.js';
import { DEFAULT_SEARCH_RESULTS, MAX_CONTEXT_LINES, MAX_ECHO_CHARS, MAX_SEARCH_RESULTS, searchQueryOf } from './arguments.js';
import { RANKING_POOL, SearchAnswers } from './answers.js';
import { searchAcross } from './across.js';

export function createSearchCodeTool(projects: ProjectService, env: NodeJS.ProcessEnv = process.env): ToolDefinition {
  const answers = new SearchAnswers(env);
  return projectTool(projects, {
    name: 'search_code',
    title: 'Search code',
    description:
      'Searches the project (or several at once: projects) for a literal string (case-insensitive unless case_sensitive) or a JavaScript ' +
      'regular expression (regex: true). ' +
      'Results are ranked: the definitions of the name searched for first, wherever they live, then whole-identifier matches; exact case, ' +
      'exported definitions and source files before the rest; ' +
      'tests, then test data, vendored and generated files last; each has path, line, column, ' +
      'the line text, the enclosing symbol, and optional context lines. Filter with a path glob (e.g. "src/**/*.ts") or a language. ' +
      `Returns at most limit results (default ${DEFAULT_SEARCH_RESULTS}, max ${MAX_SEARCH_RESULTS}); pass nextCursor back as cursor for more. ` +
      'Across several projects, results are ranked together and each names its project (and commit); projects that could not answer are listed.',
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
            `searched for, per project (with definitions_only, the definitions alone; with certain_results, the matches read before the search ` +
            `stopped; over several projects, those that define the name more than ${MAX_SEEDED_DEFINITIONS} times share one pool of ${RANKING_POOL})`,
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
    runMany: (members, args) => searchAcross(members, args, answers, projects.searchPool, projects.autoIndex, projects.fence),
    async run(project, _resolved, args) {
      const query = searchQueryOf(args, project);
      const offset = pageOffset(args.cursor, args, 'search');
      const limit = (args.limit as number | undefined) ?? DEFAULT_SEARCH_RESULTS;
      const state = project.indexState();
      let manifest = state.manifest;
      let direct = false;
      if (!manifest && projects.autoIndex && !state.incompatible) {
        if (!project.job) project.startJob('index');
        direct = true; // meanwhile: a direct scan, marked partial
      } else manifest = project.requireIndex(state);
      const end = offset + limit;
      // The same question of the same index generation is answered once (answers.ts).
      const { value, cached } = await answers.answer(project, query, end, direct);
      const { result, ranked, seeds, rankingMs: firstRankingMs, certainty } = value;
      const pageStarted = performance.now();
      const page = ranked.slice(offset, offset + limit).map((item) => ({ match: item.match, result: clipResult(item.describe()) }));
      const rankingMs = (cached ? 0 : firstRankingMs) + performance.now() - pageStarted;
      const fits = fitsBudget(page);
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
      const body = (query.context ?? 0) > 0 ? groups.flatMap((lines, index) => (index === 0 ? lines : ['--', ...lines])) : groups.flat();
      const text = [header, ...body, ...notes].join('\n');
      return { content: [{ type: 'text', text }], structuredContent: structured };
    },
  });
}
