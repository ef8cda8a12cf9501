/**
 * The skeleton of an indentation language (Python): each function's body cut after its first
 * statement (a docstring, often), so that tree-sitter parses what defines things and little of
 * what runs; calls in the cut part are found lexically (lexical-calls.ts).
 *
 * The source is read in logical lines (brackets, triple-quoted strings and backslashes join
 * physical ones). A `def` whose line ends with `:` owns the logical lines after it that are
 * indented deeper. Its first statement stays, so that the `def` still has a body; the rest is
 * cut, unless it defines something a user would look up (SkeletonRules.nested: a nested `def` or
 * `class`), in which case it stays and is read on, its own functions cut in turn. A definition
 * that ends where a cut starts ends, in the source, where the cut ends (`endsAfterCut`).
 */
import { literalOrCommentEnd } from './lexical.js';
import { build, Cuts, type Skeleton } from './skeleton-map.js';
import type { SkeletonRules } from './skeleton-rules.js';

/** Cuts shorter than this save tree-sitter little, and each is a step of the index map. */
const MIN_CUT = 24;
const TAB_WIDTH = 8;
const DEF = /(?:async[ \t]+)?def[ \t]/y;
const TRY = /try[ \t]*:/y;
/** What a logical line's scan must look at. */
const LINE_STOPS = /[()[\]{}"'#\n\\]/g;

interface LogicalLine {
  /** Where its first physical line starts, and its first non-blank character. */
  start: number;
  content: number;
  /** After its last character that is not a comment or a blank; -1 for a blank or comment-only line. */
  significantEnd: number;
  /** Where the next logical line starts. */
  next: number;
  indent: number;
  /** Its last significant character is `:` (it opens a block on the lines after it). */
  opensBlock: boolean;
}

/** A closed triple-quoted string without an f prefix (its fields would be code) at [at, end). */
function isDocString(source: string, at: number, end: number): boolean {
  const quote = source.charCodeAt(at);
  if (source.charCodeAt(at + 1) !== quote || source.charCodeAt(at + 2) !== quote) return false;
  if (source.charCodeAt(end - 1) !== quote || source.charCodeAt(end - 2) !== quote || source.charCodeAt(end - 3) !== quote) return false;
  for (let prefix = at - 1; prefix >= 0 && prefix >= at - 2; prefix--) {
    const c = source.charCodeAt(prefix) | 32;
    if (c === 102 /* f */) return false;
    if (c !== 114 /* r */ && c !== 98 /* b */ && c !== 117 /* u */) break;
  }
  return true;
}

function indentOf(source: string, start: number, content: number): number {
  let width = 0;
  for (let at = start; at < content; at++) width = source.charCodeAt(at) === 9 ? (Math.floor(width / TAB_WIDTH) + 1) * TAB_WIDTH : width + 1;
  return width;
}

/**
 * Reads the logical line at `start`. `cut`, when given, is told of the insides of its comments
 * and of its triple-quoted strings that are not f-strings (docstrings, mostly): what tree-sitter
 * need not read, since `#` and `""""""` parse alike whatever they held.
 */
function readLine(source: string, start: number, rules: SkeletonRules, cut?: (from: number, to: number) => void): LogicalLine | undefined {
  const length = source.length;
  let content = start;
  while (content < length && (source.charCodeAt(content) === 32 || source.charCodeAt(content) === 9 || source.charCodeAt(content) === 12)) content++;
  let depth = 0;
  let significantEnd = -1;
  let last = 0;
  let at = content;
  for (;;) {
    LINE_STOPS.lastIndex = at;
    const stop = LINE_STOPS.exec(source);
    const stopAt = stop ? stop.index : length;
    // What stands between the last stop and this one is code: significant unless only blanks.
    for (let i = stopAt - 1; i >= at; i--) {
      const c = source.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 13 && c !== 12) {
        significantEnd = i + 1;
        last = c;
        break;
      }
    }
    if (!stop) return { start, content, significantEnd, next: length, indent: indentOf(source, start, content), opensBlock: last === 58 };
    at = stopAt;
    const c = source.charCodeAt(at);
    if (c === 10) {
      if (depth === 0) return { start, content, significantEnd, next: at + 1, indent: indentOf(source, start, content), opensBlock: last === 58 };
      at++;
    } else if (c === 92 /* \ */) {
      at += 2; // a continuation, or an escape outside a literal
    } else if (c === 40 || c === 91 || c === 123) {
      depth++;
      significantEnd = at + 1;
      last = c;
      at++;
    } else if (c === 41 || c === 93 || c === 125) {
      if (depth > 0) depth--;
      significantEnd = at + 1;
      last = c;
      at++;
    } else {
      const end = literalOrCommentEnd(source, at, length, rules);
      if (end < 0) return undefined;
      if (c !== 35 /* # */) {
        significantEnd = end;
        last = 0;
        if (cut && end - at >= MIN_CUT && isDocString(source, at, end)) cut(at + 3, end - 3);
      } else if (cut && end - at >= MIN_CUT) cut(at + 1, source.charCodeAt(end - 1) === 13 ? end - 1 : end);
      at = end;
    }
  }
}

/**
 * The statement a cut body keeps, so that what is left still parses: the first one, or, when it
 * opens a block (`if x:`), the first of that block, and so on down. Undefined when the chain
 * holds a `try:` (which would be left without its `except`), or a block has nothing after it.
 */
function firstSimpleStatement(source: string, first: LogicalLine, rules: SkeletonRules): LogicalLine | undefined {
  let kept = first;
  while (kept.opensBlock) {
    TRY.lastIndex = kept.content;
    if (TRY.test(source)) return undefined;
    let next = readLine(source, kept.next, rules);
    while (next && next.significantEnd < 0 && next.next < source.length) next = readLine(source, next.next, rules);
    if (!next || next.significantEnd < 0 || next.indent <= kept.indent) return undefined;
    kept = next;
  }
  return kept;
}

export function indentSkeleton(source: string, rules: SkeletonRules): Skeleton | undefined {
  const cuts = new Cuts();
  const cutInside = (from: number, to: number): void => cuts.cut(from, to);
  const length = source.length;
  let at = 0;
  while (at < length) {
    const line = readLine(source, at, rules, cutInside);
    if (!line) return undefined;
    at = line.next;
    DEF.lastIndex = line.content;
    if (!line.opensBlock || !DEF.test(source)) continue;
    // The body: the logical lines after it that are deeper; blank and comment lines go with it.
    let first: LogicalLine | undefined;
    let bodyEnd = -1;
    let after = at;
    while (after < length) {
      const next = readLine(source, after, rules);
      if (!next) return undefined;
      if (next.significantEnd >= 0) {
        if (next.indent <= line.indent) break;
        first ??= next;
        bodyEnd = next.significantEnd;
      }
      after = next.next;
    }
    if (!first) continue;
    const kept = firstSimpleStatement(source, first, rules);
    if (!kept || bodyEnd - kept.significantEnd < MIN_CUT) continue;
    if (rules.nested.test(source.slice(first.content, bodyEnd))) continue; // read on: its own functions are cut in turn
    // What stays of the body (its first statement, down through `if x:`) loses its docstring's insides too.
    for (let from = first.start; from < kept.significantEnd;) {
      const keptLine = readLine(source, from, rules, (start, end) => end <= kept.significantEnd && cuts.cut(start, end));
      if (!keptLine) break;
      from = keptLine.next;
    }
    cuts.body(kept.significantEnd, bodyEnd);
    at = after;
  }
  return build(source, cuts, true);
}
