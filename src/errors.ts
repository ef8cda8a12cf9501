/**
 * The product's coded failures, below every room that can fail (index, workspace, tools): a
 * failure the caller can act on carries a stable string code from ERROR_CODES and a remedy. Where
 * it becomes an answer is the tool registry's business (mcp/tools.ts): a failed tool result with
 * the code in its text and in `_meta["dev.sextant/error"]`. A code keeps its meaning for ever:
 * codes are only added, never renamed or repurposed (README §Error codes lists them).
 */

/** A failure the model should read: reported as `isError: true`, never as a protocol error. */
export class CodedError extends Error {
  /** A stable code the caller can branch on (ERROR_CODES); none for a failure told in its own words alone. */
  readonly code: ErrorCode | undefined;
  readonly remedy: string | undefined;
  readonly data: Record<string, unknown> | undefined;
  /** Further text blocks for the reader (a one-time hint…), after the error itself. */
  readonly notes: string[] = [];

  constructor(message: string, details: { code?: ErrorCode; remedy?: string; data?: Record<string, unknown> } = {}) {
    super(message);
    this.name = 'CodedError';
    this.code = details.code;
    this.remedy = details.remedy;
    this.data = details.data;
  }
}

/**
 * Work refused because the queue it would wait in is full: the caller should come back after
 * `retryAfterMs`. Not a tool's failure but the server's state, so the tool registry answers it
 * with the protocol's busy error (mcp/errors.ts), and a stateless HTTP request with 503.
 */
export class BusyError extends Error {
  readonly retryAfterMs: number;

  constructor(message: string, retryAfterMs: number) {
    super(message);
    this.name = 'BusyError';
    this.retryAfterMs = retryAfterMs;
  }
}

export const ERROR_CODES = {
  invalid_input: {
    meaning: 'An argument is malformed, or a path points outside the workspace.',
    remedy: 'Fix the argument as the message says.',
  },
  project_not_found: {
    meaning: 'No project could be detected, or the project path given does not exist or is not one this caller may reach.',
    remedy: 'Set SEXTANT_PROJECT or use --project-from-cwd, use a client that shares its roots, or pass an existing absolute `workspace`.',
  },
  workspace_not_registered: {
    meaning: 'The `workspace` argument names a project this server does not know, and auto-workspace is off.',
    remedy: 'Start the server with --workspace PATH, or with --auto-workspace and an --allowed-root above the path.',
  },
  workspace_not_allowed: {
    meaning: 'The `workspace` argument is outside every allowed root and every root the client shared.',
    remedy: 'Use a workspace inside an --allowed-root or inside one of the client roots.',
  },
  workspace_limit_exceeded: {
    meaning: 'The server holds its maximum of auto-discovered workspaces and none can be let go (all are busy).',
    remedy: 'Wait for running index jobs to finish, or raise --max-workspaces.',
  },
  index_not_ready: {
    meaning: 'The project is detected but has no index yet.',
    remedy: 'Run `sextant index PATH` (or the index_repo tool), or start the server with --auto-index.',
  },
  index_in_progress: {
    meaning: 'An index job is already running for this workspace.',
    remedy: 'Follow it with index_status, or wait for it to finish.',
  },
  index_incompatible: {
    meaning: 'The index on disk was written by another index format.',
    remedy: 'Rebuild it: `sextant index --force PATH` (or index_repo with force: true).',
  },
  index_corrupt: {
    meaning: 'The index on disk cannot be read: a torn or overwritten manifest or segment.',
    remedy: 'Rebuild it from nothing: `sextant index --force PATH` (or index_repo with force: true).',
  },
  symbol_not_found: {
    meaning: 'No symbol of that name is in the index.',
    remedy: 'Check the spelling, try locate_symbol for fuzzy matches, or sync the index.',
  },
  ambiguous_symbol: {
    meaning: 'Several symbols have that name.',
    remedy: 'Pass what the message says separates the candidates listed: `path`, a qualified name, or `line`.',
  },
  file_not_found: {
    meaning: 'The file is not in the workspace (or not indexed).',
    remedy: 'Use a path relative to the workspace root, as search results list them.',
  },
  pattern_too_expensive: {
    meaning: 'The search ran over its time budget and was stopped.',
    remedy: 'Simplify the regex, or add a literal the matches must contain.',
  },
  internal_error: {
    meaning: 'Sextant failed in a way the caller cannot fix.',
    remedy: 'Retry; if it persists, report it with the server log.',
  },
} as const satisfies Record<string, { meaning: string; remedy: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Whether `code` is one of the registered codes. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}

/** A failure with its registered code; the remedy comes from the registry unless given. */
export function codedError(code: ErrorCode, message: string, data?: Record<string, unknown>, remedy?: string): CodedError {
  const details: ConstructorParameters<typeof CodedError>[1] = { code, remedy: remedy ?? ERROR_CODES[code].remedy };
  if (data) details.data = data;
  return new CodedError(message, details);
}
