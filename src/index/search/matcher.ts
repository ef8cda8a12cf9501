/**
 * Matching a query against text: the line matcher and seeker a query compiles to, and the
 * matching lines of one file's text. The index only narrows which files (or blocks) are read;
 * what is reported is decided here, line by line, so it is exactly what a scan finds.
 */
import type { ByteWindow } from './block-windows.js';
import { foldedLiteral, LONG_LITERAL_CHARS } from './folded-literal.js';
import { literalQuery, planRegex, type TrigramQuery } from './query-plan.js';
import type { Match, SearchQuery } from './search-query.js';

/** Longest line text returned in a match; longer lines are cut around the match. */
const MAX_MATCH_TEXT = 400;
/** Longest matched text kept as a ranking signal. */
const MAX_MATCHED_TEXT = 200;
/** Lines longer than this in a script or stylesheet mark a minified file (search_code ranks it with generated code). */
const MINIFIED_LINE_CHARS = 1_000;
const MINIFIABLE = /\.(m?js|cjs|css)$/;

/** Finds the first match in a line: its 0-based column, or -1. */
type LineMatcher = (line: string) => number;

/**
 * Finds where a match could start in a whole file, at or after `from` (-1: nowhere). Used to
 * jump to candidate lines instead of splitting every file; each such line is then checked with
 * the line matcher, so the answer stays exactly the line-by-line one.
 */
type Seeker = (text: string, from: number) => number;

export interface CompiledQuery {
  matcher: LineMatcher;
  plan: TrigramQuery;
  seek?: Seeker;
  /** The length (code units) of what the last successful `matcher` call matched. */
  lastLength(): number;
  regex: boolean;
  /** Text every match contains, case and all: a file whose bytes lack it need not be decoded. */
  required?: string;
}

/** The query compiled last in this thread: a search across projects compiles the same one for each project of a batch, in a row. */
let lastCompiled: { key: string; compiled: CompiledQuery } | undefined;

/**
 * compileMatcher, giving the same compiled query to the same question asked again in a row. It
 * can be shared: its state (a regex's lastIndex, the length of the last match) is set and read
 * within one synchronous match, and the projects of a batch are read one file at a time.
 */
export function compiledMatcher(query: SearchQuery): CompiledQuery {
  const key = `${query.regex === true ? 'regex' : 'literal'} ${query.caseSensitive === true ? 'case' : 'nocase'} ${query.pattern}`;
  if (lastCompiled?.key !== key) lastCompiled = { key, compiled: compileMatcher(query) };
  return lastCompiled.compiled;
}

export function compileMatcher(query: SearchQuery): CompiledQuery {
  const caseInsensitive = !query.caseSensitive;
  const regexQuery = query.regex === true;
  let length = 0;
  const lastLength = (): number => length;
  if (!regexQuery && !caseInsensitive) {
    const needle = query.pattern;
    length = needle.length;
    return {
      matcher: (line) => line.indexOf(needle),
      plan: literalQuery(needle, false),
      seek: (text, from) => text.indexOf(needle, from),
      lastLength,
      regex: false,
      required: needle,
    };
  }
  if (!regexQuery && query.pattern.length > LONG_LITERAL_CHARS) {
    // No regex of the whole text: see folded-literal.ts.
    const folded = foldedLiteral(query.pattern);
    const matcher: LineMatcher = (line) => {
      const found = folded.find(line, 0);
      if (!found) return -1;
      length = found.length;
      return found.index;
    };
    const seek: Seeker = (text, from) => {
      folded.head.lastIndex = from;
      return folded.head.exec(text)?.index ?? -1;
    };
    return { matcher, plan: literalQuery(query.pattern, true), seek, lastLength, regex: false };
  }
  const source = regexQuery ? query.pattern : query.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const {
    query: plan,
    unicode,
    literal,
  } = regexQuery ? planRegex(source, caseInsensitive) : { query: literalQuery(query.pattern, true), unicode: true, literal: undefined };
  const flags = `${unicode ? 'u' : ''}${caseInsensitive ? 'i' : ''}`;
  const regex = new RegExp(source, flags);
  const matcher: LineMatcher = (line) => {
    const found = regex.exec(line);
    if (!found) return -1;
    length = found[0].length;
    return found.index;
  };
  const compiled = { matcher, plan, lastLength, regex: regexQuery };
  // A literal every match contains: jump between its occurrences; the line matcher decides.
  if (literal && !caseInsensitive) return { ...compiled, seek: (text, from) => text.indexOf(literal, from), required: literal };
  // Over a whole file with the m flag, a match on a line is a match in the text at the same
  // place, except where lookaround can see past the line's end: then scan line by line.
  if (/\(\?<?[=!]|\(\?</.test(source)) return compiled;
  const whole = new RegExp(source, `${flags}gm`);
  const seek: Seeker = (text, from) => {
    whole.lastIndex = from;
    const found = whole.exec(text);
    return found ? found.index : -1;
  };
  return { ...compiled, seek };
}

const IDENTIFIER_CHAR = /[\w$]/;
/** Occurrences of a literal on one line looked at for a whole-identifier one. */
const MAX_WORD_PROBES = 16;

/**
 * Whether the literal occurs on the line as a whole identifier (no identifier character on
 * either side), from the first verified match on, with the worker's own matcher.
 */
function wholeIdentifier(line: string, column: number, compiled: CompiledQuery): boolean {
  let start = column;
  let length = compiled.lastLength();
  for (let probe = 0; probe < MAX_WORD_PROBES; probe++) {
    const before = start > 0 ? line[start - 1]! : '';
    const after = line[start + length] ?? '';
    if (!IDENTIFIER_CHAR.test(before) && !IDENTIFIER_CHAR.test(after)) return true;
    const next = compiled.matcher(line.slice(start + 1));
    if (next < 0) return false;
    start += 1 + next;
    length = compiled.lastLength();
  }
  return false;
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf('\n', from); at >= 0 && at < to; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/**
 * Adds the matching lines of one file's text to `matches`, up to `limit`; false when it stopped
 * at the limit with more to find. `lineOf` (cached line starts) saves counting newlines.
 */
export function matchText(
  path: string,
  text: string,
  compiled: CompiledQuery,
  context: number,
  matches: Match[],
  limit: number,
  lineOf?: (offset: number) => number,
  /** With `lineOf`: only these [start, end) ranges of the text (each starting at a line start) need be searched. */
  windows?: Array<[number, number]>,
): boolean {
  const { matcher, seek } = compiled;
  let truncated = false;
  const emit = (lineIndex: number, column: number, line: string, lines?: string[]): boolean => {
    if (matches.length === limit) {
      truncated = true;
      return false;
    }
    const match = lineMatch(path, lineIndex, column, line, compiled);
    if (context > 0 && lines) addContext(match, lines, lineIndex, context);
    matches.push(match);
    return true;
  };
  if (seek && context === 0) {
    let lineIndex = 0;
    let counted = 0;
    // A window is searched as a slice of its own (V8 slices without copying), so that seeking
    // never runs on into text no block needs.
    for (const [windowStart, windowEnd] of lineOf && windows ? windows : [[0, text.length] as [number, number]]) {
      const part = windowStart === 0 && windowEnd === text.length ? text : text.slice(windowStart, windowEnd);
      // Lines end at '\n'; a final '\n' ends the last line, it does not start another (as in rg).
      for (let from = 0; from < part.length;) {
        const hit = seek(part, from);
        if (hit < 0 || (hit === part.length && part.endsWith('\n'))) break;
        const lineStart = hit === 0 ? 0 : part.lastIndexOf('\n', hit - 1) + 1;
        let lineEnd = part.indexOf('\n', hit);
        if (lineEnd < 0) lineEnd = part.length;
        if (lineOf) lineIndex = lineOf(windowStart + lineStart);
        else {
          lineIndex += countNewlines(part, counted, lineStart);
          counted = lineStart;
        }
        const raw = part.slice(lineStart, lineEnd);
        const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        const column = matcher(line);
        if (column >= 0 && !emit(lineIndex, column, line)) return false;
        from = lineEnd + 1;
      }
    }
  } else {
    const lines = text.split('\n');
    if (text.endsWith('\n') || text === '') lines.pop();
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
      const column = matcher(line);
      if (column >= 0 && !emit(i, column, line, lines)) break;
    }
  }
  return !truncated;
}

/** `context` lines before and after the 0-based `lineIndex` of a file's `lines`, without their `\r`. */
export function addContext(match: Match, lines: string[], lineIndex: number, context: number): void {
  match.before = lines.slice(Math.max(0, lineIndex - context), lineIndex).map((line) => line.replace(/\r$/, ''));
  match.after = lines.slice(lineIndex + 1, lineIndex + 1 + context).map((line) => line.replace(/\r$/, ''));
}

/** The match the line matcher just found at `column` of a line (0-based `lineIndex`). */
function lineMatch(path: string, lineIndex: number, column: number, line: string, compiled: CompiledQuery): Match {
  const match: Match = { path, line: lineIndex + 1, column: column + 1, text: clip(line, column) };
  const length = compiled.lastLength();
  match.length = length;
  if (compiled.regex) match.matched = line.slice(column, column + Math.min(length, MAX_MATCHED_TEXT));
  else match.word = wholeIdentifier(line, column, compiled);
  // A line this long in a script or a stylesheet is a minified one: made by a tool, not written (a ranking signal).
  if (line.length > MINIFIED_LINE_CHARS && MINIFIABLE.test(path)) match.generated = true;
  return match;
}

const NEWLINE = 0x0a;

/**
 * matchText (without context) over a file's bytes, for a query whose matches all contain
 * `required` (its UTF-8 bytes): only the lines holding them are decoded. The same matches as
 * decoding the whole file: a valid UTF-8 sequence is found in the bytes exactly where its text is
 * in the decoded text, and decoding a line alone gives what the whole file's decoding has there.
 */
export function matchBytes(
  path: string,
  bytes: Buffer,
  required: Buffer,
  compiled: CompiledQuery,
  matches: Match[],
  limit: number,
  window?: ByteWindow,
): boolean {
  let lineIndex = window?.line ?? 0;
  let counted = window?.start ?? 0;
  const to = window?.end ?? bytes.length;
  for (let from = counted; from < to;) {
    const hit = bytes.indexOf(required, from);
    if (hit < 0 || hit >= to) break;
    const lineStart = hit === 0 ? 0 : bytes.lastIndexOf(NEWLINE, hit - 1) + 1;
    let lineEnd = bytes.indexOf(NEWLINE, hit);
    if (lineEnd < 0) lineEnd = bytes.length;
    for (let at = bytes.indexOf(NEWLINE, counted); at >= 0 && at < lineStart; at = bytes.indexOf(NEWLINE, at + 1)) lineIndex++;
    counted = lineStart;
    const raw = bytes.toString('utf8', lineStart, lineEnd);
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const column = compiled.matcher(line);
    if (column >= 0) {
      if (matches.length === limit) return false;
      matches.push(lineMatch(path, lineIndex, column, line, compiled));
    }
    from = lineEnd + 1;
  }
  return true;
}

/**
 * The matches of the byte windows of a file (block-windows.ts) without context: each window is
 * decoded and searched alone (it holds whole lines, so its lines decode as the file's do), with
 * `required`'s bytes through matchBytes when the query has them.
 */
export function matchWindows(
  path: string,
  bytes: Buffer,
  windows: ByteWindow[],
  required: Buffer | undefined,
  compiled: CompiledQuery,
  matches: Match[],
  limit: number,
): boolean {
  for (const window of windows) {
    if (required) {
      if (!matchBytes(path, bytes, required, compiled, matches, limit, window)) return false;
      continue;
    }
    const before = matches.length;
    const more = matchText(path, bytes.toString('utf8', window.start, window.end), compiled, 0, matches, limit);
    for (let at = before; at < matches.length; at++) matches[at]!.line += window.line;
    if (!more) return false;
  }
  return true;
}

function clip(line: string, column: number): string {
  if (line.length <= MAX_MATCH_TEXT) return line;
  const start = Math.max(0, Math.min(column - 100, line.length - MAX_MATCH_TEXT));
  return `${start > 0 ? '…' : ''}${line.slice(start, start + MAX_MATCH_TEXT)}…`;
}
