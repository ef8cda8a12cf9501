/**
 * `search_code`: exact text and regex search over the project's index, ranked for a reader:
 * definitions of the name first (every one the symbol index has, not only those among the first
 * matches: search-seeds.ts), whole identifiers, exact case, exported definitions, source before
 * tests before test data, vendored and generated files, then the shallower path; each result with
 * the symbol that encloses it; pages through `nextCursor` over one stable ranked order.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_SEARCH_BUDGET_MS, PatternTooExpensiveError } from '../index/search-service.js';
import { BadGlobError, workspaceGlob } from '../index/glob.js';
import { detectLanguage, KNOWN_LANGUAGES } from '../index/languages.js';
import { publicMatch, type Match, type SearchResult } from '../index/search.js';
import type { BriefSymbol } from '../index/symbols/symbol-index.js';
import type { SymbolInfo } from '../index/symbols/types.js';
import { unsearchedFiles } from '../index/manifest.js';
import type { ToolDefinition } from '../mcp/tools.js';
import type { Project, ProjectSymbols } from '../workspace/project.js';
import type { ProjectService } from '../workspace/projects.js';
import { fitCount, MAX_OUTPUT_CHARS, statusFields, STATUS_PROPERTIES, STATUS_REQUIRED, type Completeness } from './common.js';
import { toolError } from './error-codes.js';
import { projectTool } from './project-tool.js';
import { definitionMatches, withDefinitions } from './search-seeds.js';

export const DEFAULT_SEARCH_RESULTS = 20;
export const MAX_SEARCH_RESULTS = 200;
export const MAX_CONTEXT_LINES = 10;
/** Matches gathered and ranked per query; pages are cut from this pool. */
export const RANKING_POOL = 1_000;


/** Source over tests; tests over test data, fixtures, vendored and generated files. */
const LOW_VALUE_PATHS: Array<[RegExp, number, string]> = [
  [/(^|\/)(node_modules|vendor|third_party|external)\//, 50, 'vendored'],
  [/(\.min\.(js|css)$|(^|\/)(dist|build|generated|gen)\/|\.generated\.|_pb2?\.|\.pb\.go$)/, 50, 'generated'],
  [/(^|\/)(testdata|fixtures|__fixtures__|test-data)\//, 50, 'test data'],
  [/((^|\/)(tests?|__tests__|spec)\/|[._-](test|spec)\.[a-z]+$|_test\.go$|(^|\/)test_[^/]*\.py$)/, 30, 'test'],
];

/** Where the language says: a public (exported) definition, a private one, or nothing said. */
function visibility(symbol: SymbolInfo, language: string | undefined): 'public' | 'private' | undefined {
  const { name, signature } = symbol;
  switch (language) {
    case 'go':
      return /^\p{Lu}/u.test(name) ? 'public' : 'private';
    case 'python':
      return name.startsWith('_') && !name.endsWith('__') ? 'private' : 'public';
    case 'rust':
      return /^\s*pub\b/.test(signature) ? 'public' : 'private';
    case 'c':
    case 'cpp':
      return /^\s*static\b/.test(signature) ? 'private' : undefined;
    case 'typescript':
    case 'tsx':
    case 'javascript':
      return /^\s*export\b/.test(signature) ? 'public' : undefined;
    case 'java':
    case 'csharp':
    case 'kotlin':
    case 'scala':
    case 'swift':
    case 'php':
      return /\b(private|protected|internal|fileprivate)\b/.test(signature) ? 'private' : /\bpublic\b/.test(signature) ? 'public' : undefined;
    default:
      return undefined;
  }
}

/** At a tie, the shallower path, then the shorter. */
function pathDepth(path: string): number {
  let depth = 0;
  for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1)) depth++;
  return depth;
}

const MATCH_SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    line: { type: 'integer', minimum: 1 },
    column: { type: 'integer', minimum: 1 },
    text: { type: 'string' },
    before: { type: 'array', items: { type: 'string' } },
    after: { type: 'array', items: { type: 'string' } },
    symbol: {
      type: 'object',
      description: 'The innermost definition enclosing the match',
      properties: { name: { type: 'string' }, kind: { type: 'string' }, qualified_name: { type: 'string' }, line: { type: 'integer' } },
      required: ['name', 'kind', 'qualified_name', 'line'],
      additionalProperties: false,
    },
    definition: { type: 'boolean', description: 'The match is on the line that defines a symbol named like the query' },
    rank_notes: { type: 'array', items: { type: 'string' } },
  },
  required: ['path', 'line', 'column', 'text'],
  additionalProperties: false,
};

interface Ranked {
  match: Match;
  score: number;
  order: number;
  result: Record<string, unknown>;
  depth?: number;
}

/**
 * Orders matches for a reader. The caller's pattern never runs here: a regex can backtrack for
 * ever and this is the server's main thread. Every signal comes from the search worker's own
 * verified match (its length, whether it is a whole identifier, a regex's matched text) or from
 * plain string comparison.
 */
/** The project's symbols where they exist: a search never fails for want of them. */
function symbolsOf(project: Project): ProjectSymbols | undefined {
  try {
    return project.symbols();
  } catch {
    return undefined;
  }
}

function rank(project: Project, matches: Match[], query: string, regex: boolean, caseSensitive: boolean): Ranked[] {
  const loaded = symbolsOf(project);
  // Per file, its definitions' rows and lines, read from the records without decoding a string:
  // a match needs only the definitions on its line and the one enclosing it, decoded once each.
  const perFile = new Map<string, { place: BriefSymbol | undefined; lines: Int32Array }>();
  const decoded = new Map<string, SymbolInfo>();
  const rowsOf = (path: string): { place: BriefSymbol | undefined; lines: Int32Array } => {
    let known = perFile.get(path);
    if (!known) {
      const triples: number[] = [];
      let place: BriefSymbol | undefined;
      loaded?.visitBriefs(path, (brief) => {
        place ??= { ...brief };
        triples.push(brief.row, brief.line, brief.endLine);
      });
      known = { place, lines: Int32Array.from(triples) };
      perFile.set(path, known);
    }
    return known;
  };
  const symbolAt = (path: string, place: BriefSymbol, row: number): SymbolInfo => {
    const key = `${path}\0${row}`;
    let symbol = decoded.get(key);
    if (!symbol) {
      symbol = loaded!.symbolOf({ ...place, row });
      decoded.set(key, symbol);
    }
    return symbol;
  };
  const fold = (text: string): string => (caseSensitive ? text : text.toLowerCase());
  const needle = fold(query);
  return matches.map((match, order) => {
    const result = { ...publicMatch(match) } as Record<string, unknown>;
    const notes: string[] = [];
    let score = 0;
    const { place, lines } = rowsOf(match.path);
    // A definition of exactly the name searched for (for a regex: the regex matched exactly the name on its defining line) ranks first; one whose name only contains the literal, less.
    const target = regex ? (match.matched ?? '') : needle;
    const named = (symbol: SymbolInfo): number => {
      const name = regex ? symbol.name : fold(symbol.name);
      if (target === '') return 0;
      if (regex) return name === target ? 100 : 0;
      return name === target ? 100 : name.includes(target) ? 30 : 0;
    };
    let defined: { symbol: SymbolInfo; weight: number } | undefined;
    // The innermost definition around the line: the first of the shortest spans, in source order.
    let enclosingRow = -1;
    let enclosingSpan = Infinity;
    for (let at = 0; at < lines.length; at += 3) {
      const row = lines[at]!;
      const line = lines[at + 1]!;
      const endLine = lines[at + 2]!;
      if (line === match.line) {
        const symbol = symbolAt(match.path, place!, row);
        const weight = named(symbol);
        if (!defined || weight > defined.weight) defined = { symbol, weight };
      }
      if (line <= match.line && endLine >= match.line && endLine - line < enclosingSpan) {
        enclosingRow = row;
        enclosingSpan = endLine - line;
      }
    }
    if (defined && defined.weight > 0) {
      score += defined.weight;
      if (defined.weight === 100) result.definition = true;
      notes.push(`defines ${defined.symbol.kind} ${defined.symbol.qualifiedName}`);
      const seen = visibility(defined.symbol, detectLanguage(match.path));
      if (seen) {
        score += seen === 'public' ? 10 : -10;
        notes.push(seen === 'public' ? 'exported' : 'private');
      }
    }
    if (!regex && match.word) {
      score += 50;
      notes.push('whole identifier');
    }
    // Written as searched, where the search ignored case.
    // Worth more than the swing between exported and private (±10): case comes first.
    if (!regex && !caseSensitive && match.text.startsWith(query, match.column - 1)) {
      score += 25;
      notes.push('exact case');
    }
    let lowValue = false;
    for (const [pattern, penalty, why] of LOW_VALUE_PATHS) {
      if (pattern.test(match.path)) {
        score -= penalty;
        notes.push(`${why} path`);
        lowValue = true;
      }
    }
    // A file that says it is generated, where its path did not already say so.
    if (match.generated && !lowValue) {
      score -= 50;
      notes.push('generated file');
    }
    const enclosing = enclosingRow >= 0 ? symbolAt(match.path, place!, enclosingRow) : undefined;
    if (enclosing) result.symbol = { name: enclosing.name, kind: enclosing.kind, qualified_name: enclosing.qualifiedName, line: enclosing.line };
    if (notes.length > 0) result.rank_notes = notes;
    return { match, score, order, result, depth: pathDepth(match.path) };
  }).sort((a, b) => b.score - a.score || a.depth - b.depth || a.match.path.length - b.match.path.length || a.order - b.order);
}

function fingerprint(args: Record<string, unknown>): string {
  const { cursor: _cursor, limit: _limit, ...rest } = args;
  return createHash('sha256').update(JSON.stringify(rest, Object.keys(rest).sort())).digest('base64url').slice(0, 12);
}

function readCursor(cursor: unknown, args: Record<string, unknown>): number {
  if (cursor === undefined) return 0;
  try {
    const decoded = JSON.parse(Buffer.from(String(cursor), 'base64url').toString('utf8')) as { o?: unknown; h?: unknown };
    if (typeof decoded.o === 'number' && Number.isInteger(decoded.o) && decoded.o >= 0 && decoded.h === fingerprint(args)) return decoded.o;
  } catch {
    // below
  }
  throw toolError('invalid_input', 'The cursor is not one this search returned (or the query changed): start again without it', { argument: 'cursor' });
}

export function createSearchCodeTool(projects: ProjectService): ToolDefinition {
  return projectTool(projects, {
    name: 'search_code',
    title: 'Search code',
    description:
      'Searches the project for a literal string (case-insensitive unless case_sensitive) or a JavaScript regular expression (regex: true). ' +
      'Results are ranked: every definition of the name searched for first, wherever it lives, then whole-identifier matches; exact case, exported definitions and source files before the rest; ' +
      'tests, then test data, vendored and generated files last; each has path, line, column, ' +
      'the line text, the enclosing symbol, and optional context lines. Filter with a path glob (e.g. "src/**/*.ts") or a language. ' +
      `Returns at most limit results (default ${DEFAULT_SEARCH_RESULTS}, max ${MAX_SEARCH_RESULTS}); pass nextCursor back as cursor for more.`,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, description: 'Text to find, or a regex with regex: true' },
        regex: { type: 'boolean', default: false },
        case_sensitive: { type: 'boolean', default: false },
        path: { type: 'string', description: 'Glob over workspace-relative paths' },
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
        total_matches: { type: 'integer', minimum: 0, description: `Matches ranked: at most ${RANKING_POOL} text matches, and every definition of the name searched for` },
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
        duration_ms: { type: 'number', minimum: 0 },
      },
      required: [...STATUS_REQUIRED, 'results', 'total_matches'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run(project, _resolved, args) {
      if (typeof args.language === 'string' && !KNOWN_LANGUAGES.includes(args.language)) {
        throw toolError('invalid_input', `Unknown language ${JSON.stringify(args.language)}; known: ${KNOWN_LANGUAGES.join(', ')}`, { argument: 'language' });
      }
      let pathGlob: string | undefined;
      if (typeof args.path === 'string') {
        try {
          pathGlob = workspaceGlob(args.path, project.root);
        } catch (error) {
          if (error instanceof BadGlobError) throw toolError('invalid_input', error.message, { argument: 'path' });
          throw error;
        }
      }
      const offset = readCursor(args.cursor, args);
      const limit = (args.limit as number | undefined) ?? DEFAULT_SEARCH_RESULTS;
      const query = {
        pattern: args.query as string,
        regex: args.regex === true,
        caseSensitive: args.case_sensitive === true,
        limit: RANKING_POOL,
        context: (args.context_lines as number | undefined) ?? 0,
        ...(pathGlob !== undefined ? { path: pathGlob } : {}),
        ...(typeof args.language === 'string' ? { language: args.language } : {}),
      };
      const state = project.indexState();
      let manifest = state.manifest;
      let direct = false;
      if (!manifest && projects.autoIndex && !state.incompatible) {
        if (!project.job) project.startJob('index');
        direct = true; // meanwhile: a direct scan, marked partial
      } else manifest = project.requireIndex();
      let result: SearchResult & { partial?: boolean };
      try {
        result = direct ? await project.search.directSearch(query) : await project.search.search(query);
      } catch (error) {
        if (error instanceof PatternTooExpensiveError) throw toolError('pattern_too_expensive', `The search ran over its ${DEFAULT_SEARCH_BUDGET_MS} ms budget and was stopped`);
        const code = (error as { code?: unknown }).code;
        if (code === 'SEXTANT_ERR_BAD_GLOB') throw toolError('invalid_input', (error as Error).message, { argument: 'path' });
        if (code === 'SEXTANT_ERR_BAD_PATTERN') throw toolError('invalid_input', (error as Error).message, { argument: 'query' });
        throw error;
      }
      // Every definition of the name is a candidate, wherever its path sorts; text matches fill in after them.
      const seeds = direct || query.regex ? [] : definitionMatches(project.root, symbolsOf(project), query);
      const pool = withDefinitions(seeds, result.matches);
      const ranked = direct ? pool.map((match, order) => ({ match, score: 0, order, result: { ...publicMatch(match) } as Record<string, unknown> })) : rank(project, pool, query.pattern, query.regex, query.caseSensitive);
      const page = ranked.slice(offset, offset + limit);
      const lineOf = (item: Ranked): string => `${item.match.path}:${item.match.line}:${item.match.column}: ${item.match.text}`;
      const fits = fitCount(page, MAX_OUTPUT_CHARS - 2_000, (item) => JSON.stringify(item.result).length + lineOf(item).length + 1);
      const shown = page.slice(0, fits);
      const next = offset + shown.length;
      let completeness: Completeness = direct || result.partial ? 'partial' : 'complete';
      const notes: string[] = [];
      if (direct) notes.push(`No index yet: indexing started (${project.job?.id ?? 'done'}); these results come from a direct scan${result.partial ? ' that stopped at its time limit' : ''}.`);
      if (fits < page.length) notes.push(`Cut to ${fits} results to stay within the output budget; continue with the cursor.`);
      if (result.truncated) {
        completeness = completeness === 'complete' ? 'truncated' : completeness;
        notes.push(`More than ${RANKING_POOL} matches: the first ${RANKING_POOL} text matches (in path order)${seeds.length > 0 ? ` and every definition of the name (${seeds.length})` : ''} were ranked; narrow the query or the path.`);
      }
      const unsearched = manifest ? unsearchedFiles(manifest) : undefined;
      if (unsearched) {
        completeness = 'partial';
        notes.push(`${unsearched.count} file${unsearched.count === 1 ? ' was' : 's were'} not indexed (too large or unreadable), so not searched: ${unsearched.examples.join(', ')}${unsearched.count > unsearched.examples.length ? ', …' : ''}.`);
      }
      const structured: Record<string, unknown> = {
        ...statusFields(project, manifest, completeness),
        results: shown.map((item) => item.result),
        total_matches: ranked.length,
        candidates: result.stats.candidates,
        duration_ms: result.stats.durationMs,
      };
      if (unsearched) structured.unsearched_files = unsearched;
      if (next < ranked.length) structured.nextCursor = Buffer.from(JSON.stringify({ o: next, h: fingerprint(args) })).toString('base64url');
      if (notes.length > 0) structured.note = notes.join(' ');
      const header =
        ranked.length === 0
          ? `No matches for ${JSON.stringify(query.pattern)}.`
          : `${ranked.length}${result.truncated ? '+' : ''} matches; showing ${offset + 1}-${next}${next < ranked.length ? ' (more with the cursor)' : ''}:`;
      const text = [header, ...shown.map(lineOf), ...notes].join('\n');
      return { content: [{ type: 'text', text }], structuredContent: structured };
    },
  });
}
