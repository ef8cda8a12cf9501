/**
 * Cursor pagination for tools/list, prompts/list, resources/list and resources/templates/list. A cursor names the last item of the previous page,
 * so it stays valid while the list is unchanged and points at the right place if items are added.
 */
import { InvalidParamsError } from '../jsonrpc/index.js';

export const DEFAULT_PAGE_SIZE = 50;

interface CursorBody {
  after: string;
}

function encodeCursor(after: string): string {
  return Buffer.from(JSON.stringify({ after } satisfies CursorBody), 'utf8').toString('base64url');
}

function decodeCursor(cursor: unknown): string {
  if (typeof cursor !== 'string' || cursor === '') throw new InvalidParamsError('Invalid cursor: expected a non-empty string');
  try {
    const body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorBody>;
    if (typeof body.after === 'string') return body.after;
  } catch {
    // fall through to the error below: the cursor is ours to define, anything else is invalid
  }
  throw new InvalidParamsError('Invalid cursor: not a cursor this server issued', { cursor });
}

interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** `items` must be in their stable order; `keyOf` gives each its unique key. */
function paginate<T>(items: readonly T[], keyOf: (item: T) => string, cursor: unknown, pageSize = DEFAULT_PAGE_SIZE): Page<T> {
  let start = 0;
  if (cursor !== undefined) {
    const after = decodeCursor(cursor);
    const index = items.findIndex((item) => keyOf(item) === after);
    if (index < 0) throw new InvalidParamsError('Invalid cursor: the item it points after no longer exists', { cursor });
    start = index + 1;
  }
  const page = items.slice(start, start + pageSize);
  const last = page[page.length - 1];
  if (start + pageSize < items.length && last !== undefined) return { items: page, nextCursor: encodeCursor(keyOf(last)) };
  return { items: page };
}

/** One page of a list method's result: `{ [key]: described items, nextCursor? }`. */
export function listResult<T>(
  key: string,
  items: readonly T[],
  keyOf: (item: T) => string,
  cursor: unknown,
  describe: (item: T) => Record<string, unknown>,
): Record<string, unknown> {
  const page = paginate(items, keyOf, cursor);
  const result: Record<string, unknown> = { [key]: page.items.map(describe) };
  if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
  return result;
}
