/** `search_code`: exact text and regex search over the project's index. */
import { DEFAULT_SEARCH_BUDGET_MS, PatternTooExpensiveError } from '../index/search-service.js';
import type { Match } from '../index/search.js';
import type { ToolDefinition } from '../mcp/tools.js';
import type { ProjectService } from '../workspace/projects.js';
import { toolError } from './error-codes.js';
import { projectTool } from './project-tool.js';

export const DEFAULT_SEARCH_RESULTS = 20;
export const MAX_SEARCH_RESULTS = 200;
export const MAX_CONTEXT_LINES = 10;

const MATCH_SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    line: { type: 'integer', minimum: 1 },
    column: { type: 'integer', minimum: 1 },
    text: { type: 'string' },
    before: { type: 'array', items: { type: 'string' } },
    after: { type: 'array', items: { type: 'string' } },
  },
  required: ['path', 'line', 'column', 'text'],
  additionalProperties: false,
};

export function createSearchCodeTool(projects: ProjectService): ToolDefinition {
  return projectTool(projects, {
    name: 'search_code',
    title: 'Search code',
    description:
      'Searches the project for a literal string (case-insensitive unless case_sensitive) or a JavaScript regular expression (regex: true). ' +
      'Returns matching lines with path, line, column and text, optionally with context lines. Filter with a path glob (e.g. "src/**/*.ts") or a language.',
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
      },
      required: ['query'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        workspace: { type: 'string' },
        indexing_status: { type: 'string', enum: ['not_indexed', 'indexing', 'ready', 'failed'] },
        result_completeness: { type: 'string', enum: ['complete', 'partial', 'truncated'] },
        updated_at: { type: 'string', description: 'When the index was last updated (freshness)' },
        results: { type: 'array', items: MATCH_SCHEMA },
        candidates: { type: 'integer', minimum: 0 },
        duration_ms: { type: 'number', minimum: 0 },
      },
      required: ['workspace', 'indexing_status', 'result_completeness', 'updated_at', 'results'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run(project, _resolved, args) {
      const manifest = project.requireIndex();
      const query = {
        pattern: args.query as string,
        regex: args.regex === true,
        caseSensitive: args.case_sensitive === true,
        limit: (args.limit as number | undefined) ?? DEFAULT_SEARCH_RESULTS,
        context: (args.context_lines as number | undefined) ?? 0,
        ...(typeof args.path === 'string' ? { path: args.path } : {}),
        ...(typeof args.language === 'string' ? { language: args.language } : {}),
      };
      let result;
      try {
        result = await project.search.search(query);
      } catch (error) {
        if (error instanceof PatternTooExpensiveError) throw toolError('pattern_too_expensive', `The search ran over its ${DEFAULT_SEARCH_BUDGET_MS} ms budget and was stopped`);
        if ((error as { code?: unknown }).code === 'SEXTANT_ERR_BAD_PATTERN') throw toolError('invalid_input', (error as Error).message, { argument: 'query' });
        throw error;
      }
      const lines = result.matches.map((match: Match) => `${match.path}:${match.line}:${match.column}: ${match.text}`);
      const summary = result.matches.length === 0 ? `No matches for ${JSON.stringify(query.pattern)}.` : `${result.matches.length} matches${result.truncated ? ` (stopped at the limit of ${query.limit}; more exist)` : ''}:`;
      return {
        content: [{ type: 'text', text: [summary, ...lines].join('\n') }],
        structuredContent: {
          workspace: project.root,
          indexing_status: 'ready',
          result_completeness: result.truncated ? 'truncated' : 'complete',
          updated_at: manifest.updatedAt,
          results: result.matches as unknown as Record<string, unknown>[],
          candidates: result.stats.candidates,
          duration_ms: result.stats.durationMs,
        },
      };
    },
  });
}
