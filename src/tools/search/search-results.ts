/**
 * How search_code shows a result: its schema, its long lines clipped around the match, and the
 * lines of text that say everything its structure says.
 */
import type { Match } from '../../index/search/index.js';
import { fitCount, MAX_OUTPUT_CHARS } from '../limits.js';
import { RESULT_PROJECT_PROPERTIES } from '../spanning.js';

/**
 * The longest line shown whole; a longer one (a minified bundle's) is shown around its match.
 * Every result then fits a page, so paging always moves on.
 */
const MAX_SHOWN_LINE_CHARS = 1_000;
/** Of a clipped line, how much is shown before the match. */
const CLIPPED_LEAD_CHARS = 200;
export const MATCH_SCHEMA = {
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
    clipped: {
      type: 'boolean',
      description:
        `The line (or a context line) is longer than ${MAX_SHOWN_LINE_CHARS} characters: its text is the part around the match, ` + `cut ends marked with …`,
    },
    rank_notes: { type: 'array', items: { type: 'string' } },
    ...RESULT_PROJECT_PROPERTIES,
  },
  required: ['path', 'line', 'column', 'text'],
  additionalProperties: false,
};

/** `text` cut to MAX_SHOWN_LINE_CHARS around 1-based `column` (the start when there is none); ends cut are marked with …. */
function clipLine(text: string, column = 1): string {
  if (text.length <= MAX_SHOWN_LINE_CHARS) return text;
  const start = Math.max(0, Math.min(column - 1 - CLIPPED_LEAD_CHARS, text.length - MAX_SHOWN_LINE_CHARS));
  const end = start + MAX_SHOWN_LINE_CHARS;
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

/** A result with its long lines clipped (clipLine), said in `clipped`. */
export function clipResult(result: Record<string, unknown>): Record<string, unknown> {
  const text = result.text as string;
  const before = result.before as string[] | undefined;
  const after = result.after as string[] | undefined;
  const long = (line: string): boolean => line.length > MAX_SHOWN_LINE_CHARS;
  if (!long(text) && !before?.some(long) && !after?.some(long)) return result;
  const clipped: Record<string, unknown> = { ...result, text: clipLine(text, result.column as number), clipped: true };
  if (before) clipped.before = before.map((line) => clipLine(line));
  if (after) clipped.after = after.map((line) => clipLine(line));
  return clipped;
}

/**
 * A result as text, everything its structure says: rg-style context lines (`path-N-text`), the
 * match (`path:N:col: text`) and the definition that encloses it.
 */
export function linesOf(item: { match: Match; result: Record<string, unknown> }): string[] {
  const { path, line, column } = item.match;
  const text = item.result.text as string;
  const before = (item.result.before as string[] | undefined) ?? [];
  const after = (item.result.after as string[] | undefined) ?? [];
  const symbol = item.result.symbol as { kind: string; qualified_name: string } | undefined;
  const where = symbol ? `  [in ${symbol.kind} ${symbol.qualified_name}]` : '';
  return [
    ...before.map((context, index) => `${path}-${line - before.length + index}-${context}`),
    `${path}:${line}:${column}: ${text}${where}`,
    ...after.map((context, index) => `${path}-${line + 1 + index}-${context}`),
  ];
}

/** Results that fit the output budget: at least one (a clipped result always fits, and a page that showed none would page for ever). */
export function fitsBudget(page: Array<{ match: Match; result: Record<string, unknown> }>, reserve = 2_000): number {
  return Math.max(
    Math.min(page.length, 1),
    fitCount(page, MAX_OUTPUT_CHARS - reserve, (item) => JSON.stringify(item.result).length + linesOf(item).join('\n').length + 1),
  );
}
