/**
 * Which files the symbol phase does not parse, and why. A parse costs memory many times the
 * file's size (the grammar's tree and the captures; bench/RESULTS.md), so one file may not take
 * the phase past a bound: larger files, and minified bundles (whose names are mangled anyway),
 * are searched as text but get no symbols, and index_status names them.
 */

/** The largest file parsed for symbols (in characters of text). */
const MAX_PARSED_CHARS = 10 * 1024 * 1024;
/** Below this a file is never called minified: a long line or two in a small file is fine. */
const MINIFIED_MIN_CHARS = 32 * 1024;
/** An average line longer than this is minified code, not code written by hand. */
const MINIFIED_AVERAGE_LINE_CHARS = 500;

/** Why a file was not parsed. */
export type Unparsed = 'minified' | 'tooLargeToParse';
export const UNPARSED_REASONS: readonly Unparsed[] = ['minified', 'tooLargeToParse'];
/** Paths kept per reason in the symbols manifest (the first ones; the count goes on). */
export const UNPARSED_KEPT = 1_000;

/** Why `text` is not to be parsed, or undefined when it is. */
export function unparsedReason(text: string): Unparsed | undefined {
  if (text.length > MAX_PARSED_CHARS) return 'tooLargeToParse';
  if (text.length < MINIFIED_MIN_CHARS) return undefined;
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < text.length - 1; at = text.indexOf('\n', at + 1)) lines++;
  return text.length / lines > MINIFIED_AVERAGE_LINE_CHARS ? 'minified' : undefined;
}
