/** The bounds of what a tool takes and gives: argument lengths, the output budget, token counts. */

/**
 * The longest argument of each sort a tool takes: longer is invalid_input at the schema, before
 * any work and without an answer that echoes it. A name or a question this long is not one; a
 * path this long is past what any filesystem resolves (PATH_MAX).
 */
export const MAX_NAME_CHARS = 1_000;
export const MAX_PATH_CHARS = 4_096;
export const MAX_QUESTION_CHARS = 10_000;

/** Characters one tool result may hold (see mcp/tools.ts): lists are cut to it, with a note and, where the tool pages, a cursor. */
export { MAX_OUTPUT_CHARS } from '../mcp/index.js';

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

/** Rough tokens of a text, the way get_code_context and the budgets count them. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
