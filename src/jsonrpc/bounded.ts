/**
 * Bounds on what an answer may echo of its request. An error often quotes what it refuses (a
 * name, a path, an unknown argument), and the request can be megabytes: the quote is cut, so an
 * error is never larger than the cap of the answer it replaces.
 */

/** The longest error message sent. */
export const MAX_ERROR_MESSAGE_CHARS = 4_000;
/** The longest string inside error data. */
const MAX_ERROR_DATA_STRING_CHARS = 1_000;
/** The most items of an array inside error data. */
const MAX_ERROR_DATA_ITEMS = 50;

/** `text` cut to `max` characters, saying how much was left out. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = `… (${text.length - max} more characters)`;
  return text.slice(0, Math.max(0, max - note.length)) + note;
}

/** `value` with every string and array inside it cut (error data: a model or a program reads it, never megabytes of it). */
export function clipValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return clipText(value, MAX_ERROR_DATA_STRING_CHARS);
  if (typeof value !== 'object' || value === null || depth > 8) return value;
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ERROR_DATA_ITEMS).map((item) => clipValue(item, depth + 1));
    if (value.length > MAX_ERROR_DATA_ITEMS) kept.push(`… ${value.length - MAX_ERROR_DATA_ITEMS} more`);
    return kept;
  }
  const entries = Object.entries(value);
  const kept: Record<string, unknown> = {};
  for (const [key, item] of entries.slice(0, MAX_ERROR_DATA_ITEMS)) kept[clipText(key, MAX_ERROR_DATA_STRING_CHARS)] = clipValue(item, depth + 1);
  return kept;
}
