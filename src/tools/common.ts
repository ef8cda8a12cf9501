/**
 * What the code tools share: the status fields every result carries, the output budget, paths
 * checked against the workspace, and symbols found by position.
 */
import { realpathSync } from 'node:fs';
import { ProjectFiles } from '../index/project-file.js';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { lineStartsOf } from '../index/line-index.js';
import type { SymbolInfo } from '../index/symbols/types.js';
import type { Manifest } from '../index/store.js';
import type { Project } from '../workspace/project.js';
import { toolError } from './error-codes.js';

/**
 * The longest argument of each sort a tool takes: longer is invalid_input at the schema, before
 * any work and without an answer that echoes it. A name or a question this long is not one; a
 * path this long is past what any filesystem resolves (PATH_MAX).
 */
export const MAX_NAME_CHARS = 1_000;
export const MAX_PATH_CHARS = 4_096;
export const MAX_QUESTION_CHARS = 10_000;

/** Characters one tool result may hold (see mcp/tools.ts): lists are cut to it, with a note and, where the tool pages, a cursor. */
export { MAX_OUTPUT_CHARS } from '../mcp/tools.js';

export const STATUS_PROPERTIES = {
  workspace: { type: 'string', description: 'The project root this answer is about' },
  indexing_status: { type: 'string', enum: ['not_indexed', 'indexing', 'ready', 'failed'] },
  result_completeness: { type: 'string', enum: ['complete', 'partial', 'truncated'] },
  updated_at: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'When the index was last updated (freshness)' },
} as const;
export const STATUS_REQUIRED = ['workspace', 'indexing_status', 'result_completeness', 'updated_at'];

/** The fields of an index job as IndexJob.snapshot() gives them (index_repo, sync_repo, index_status). */
export const JOB_PROPERTIES = {
  job_id: { type: 'string' },
  mode: { type: 'string', enum: ['index', 'sync', 'symbols'] },
  status: { type: 'string', enum: ['running', 'completed', 'failed', 'cancelled'] },
  stage: { type: 'string' },
  message: { type: 'string' },
  percent: { type: 'number', minimum: 0, maximum: 100 },
  done: { type: 'integer', minimum: 0 },
  total: { type: 'integer', minimum: 0 },
  files_scanned: { type: 'integer', minimum: 0 },
  symbols: { type: 'integer', minimum: 0 },
  started_at: { type: 'string' },
  duration_ms: { type: 'integer', minimum: 0 },
  error: { type: 'string' },
} as const;

export type Completeness = 'complete' | 'partial' | 'truncated';

export function statusFields(project: Project, manifest: Manifest | undefined, completeness: Completeness): Record<string, unknown> {
  return {
    workspace: project.root,
    indexing_status: project.indexState().status,
    result_completeness: completeness,
    updated_at: manifest?.updatedAt ?? null,
  };
}

export const SYMBOL_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    kind: { type: 'string' },
    language: { type: 'string' },
    path: { type: 'string' },
    line: { type: 'integer', minimum: 1 },
    column: { type: 'integer', minimum: 1 },
    end_line: { type: 'integer', minimum: 1 },
    end_column: { type: 'integer', minimum: 1 },
    qualified_name: { type: 'string' },
    parent: { type: 'string' },
    signature: { type: 'string' },
  },
  required: ['name', 'kind', 'path', 'line', 'end_line', 'qualified_name', 'signature'],
  additionalProperties: true,
} as const;

/** A symbol as tools show it (snake_case, with its path). */
export function describeSymbol(symbol: SymbolInfo, path: string): Record<string, unknown> {
  const described: Record<string, unknown> = {
    name: symbol.name,
    kind: symbol.kind,
    language: symbol.language,
    path,
    line: symbol.line,
    column: symbol.column,
    end_line: symbol.endLine,
    end_column: symbol.endColumn,
    qualified_name: symbol.qualifiedName,
    signature: symbol.signature,
  };
  if (symbol.parent) described.parent = symbol.parent;
  return described;
}

/**
 * Keeps the leading items whose rendering fits `budget` characters (JSON of the item plus its
 * text line). Returns how many fit.
 */
export function fitCount<T>(items: T[], budget: number, size: (item: T) => number): number {
  let used = 0;
  for (let i = 0; i < items.length; i++) {
    used += size(items[i]!);
    if (used > budget) return i;
  }
  return items.length;
}

const PATH_REMEDY = 'Use a path inside the workspace: relative to its root, as search results list them.';

/**
 * A path argument as a workspace-relative path ('/'-separated): relative to the root, or
 * absolute inside it. `..`, other absolute paths and symlinks that lead out are invalid_input;
 * nothing outside the workspace is read.
 */
export function workspacePath(project: Project, value: string): string {
  const absolute = isAbsolute(value) ? value : resolve(project.root, value);
  const inside = (path: string): boolean => path === project.root || path.startsWith(project.root.endsWith(sep) ? project.root : `${project.root}${sep}`);
  if (!inside(absolute)) throw toolError('invalid_input', `Path ${value} is outside the workspace ${project.root}`, { argument: 'path' }, PATH_REMEDY);
  let real = absolute;
  try {
    real = realpathSync(absolute);
  } catch {
    // not on disk: checked against the index below
  }
  if (!inside(real)) throw toolError('invalid_input', `Path ${value} leads outside the workspace ${project.root} (through a symlink)`, { argument: 'path' }, PATH_REMEDY);
  return relative(project.root, real).split(sep).join('/');
}

/** Whether two symbol records are the same definition (records are rebuilt per lookup, so not by identity). */
export function sameSymbol(a: SymbolInfo, b: SymbolInfo): boolean {
  return a.line === b.line && a.column === b.column && a.name === b.name && a.kind === b.kind;
}

/** The indexed symbols of a file, or file_not_found. */
export function fileSymbols(project: Project, path: string): { path: string; symbols: SymbolInfo[] } {
  const symbols = project.symbols()?.symbolsIn(path);
  const file = symbols ? { path, symbols } : undefined;
  if (!file) throw toolError('file_not_found', `${path === '' ? 'The workspace root' : path} is not an indexed source file of ${project.root}`, { path }, 'Use a workspace-relative path as search results list them; only files in a language with symbol support have an outline.');
  return file;
}

/** The innermost symbol whose range holds `line`. */
export function enclosingSymbol(symbols: SymbolInfo[], line: number): SymbolInfo | undefined {
  let best: SymbolInfo | undefined;
  for (const symbol of symbols) {
    if (symbol.line > line || symbol.endLine < line) continue;
    if (!best || symbol.endLine - symbol.line < best.endLine - best.line) best = symbol;
  }
  return best;
}

/** Rough tokens of a text, the way get_code_context and the budgets count them. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Lines `from`-`to` (1-based, inclusive, clamped) of the project's files, for one tool call: each
 * file is read once and kept as its text and line starts, not as a string per line (a ranking
 * may look at a few lines of hundreds of large files). A file ProjectFiles does not read has no lines.
 */
export function projectLines(root: string): (path: string, from: number, to: number) => string[] {
  const files = new Map<string, { text: string; starts: Int32Array }>();
  let reader: ProjectFiles | undefined;
  return (path, from, to) => {
    let file = files.get(path);
    if (!file) {
      const text = (reader ??= new ProjectFiles(root)).text(path) ?? '';
      file = { text, starts: text === '' ? new Int32Array(0) : lineStartsOf(text) };
      files.set(path, file);
    }
    const { text, starts } = file;
    const lines: string[] = [];
    for (let line = Math.max(1, from); line <= Math.min(to, starts.length); line++) {
      lines.push(text.slice(starts[line - 1]!, line < starts.length ? starts[line]! - 1 : text.length));
    }
    return lines;
  };
}
