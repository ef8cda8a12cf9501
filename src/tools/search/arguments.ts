/** What search_code's arguments ask: their bounds, and the search they make of one project. */
import { BadGlobError, KNOWN_LANGUAGES, workspaceGlob } from '../../index/files/index.js';
import type { SearchQuery } from '../../index/search/index.js';
import type { JsonObject } from '../../mcp/index.js';
import type { Project } from '../../workspace/project.js';
import { codedError } from '../../errors.js';
import { RANKING_POOL } from './answers.js';

export const DEFAULT_SEARCH_RESULTS = 20;
export const MAX_SEARCH_RESULTS = 200;
export const MAX_CONTEXT_LINES = 10;
/** Of the query, how much an answer quotes back (a 2 MB literal is searched, not echoed). */
export const MAX_ECHO_CHARS = 200;

/** The search the arguments ask of `project` (a path glob is read against its root); invalid_input for a bad language or glob. */
export function searchQueryOf(args: JsonObject, project: Project): SearchQuery {
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
  return {
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
}
