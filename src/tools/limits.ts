/** The bounds of what a tool takes and gives: argument lengths, the output budget, pages, token counts. */
import { createHash } from 'node:crypto';
import { codedError } from '../errors.js';

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

/** The arguments a page belongs to, all but the cursor and the page size: a short digest. */
function fingerprint(args: Record<string, unknown>): string {
  const { cursor: _cursor, limit: _limit, ...rest } = args;
  return createHash('sha256')
    .update(JSON.stringify(rest, Object.keys(rest).sort()))
    .digest('base64url')
    .slice(0, 12);
}

/** The cursor of the page that starts at `offset`, bound to the arguments that made it. */
export function pageCursor(offset: number, args: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ o: offset, h: fingerprint(args) })).toString('base64url');
}

/** Where the page a cursor names starts (0 without one); invalid_input for one these arguments did not make. */
export function pageOffset(cursor: unknown, args: Record<string, unknown>, madeBy: string): number {
  if (cursor === undefined) return 0;
  try {
    const decoded = JSON.parse(Buffer.from(String(cursor), 'base64url').toString('utf8')) as { o?: unknown; h?: unknown };
    if (typeof decoded.o === 'number' && Number.isInteger(decoded.o) && decoded.o >= 0 && decoded.h === fingerprint(args)) return decoded.o;
  } catch {
    // below
  }
  throw codedError('invalid_input', `The cursor is not one this ${madeBy} returned (or its arguments changed): start again without it`, {
    argument: 'cursor',
  });
}

/** Rough tokens of a text, the way get_code_context and the budgets count them. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
