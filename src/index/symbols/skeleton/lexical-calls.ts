/**
 * Calls in the parts a skeleton cut (brace-skeleton.ts, indent-skeleton.ts), found lexically: a
 * name followed by `(`, which is what each language's tag query captures as a call in a parse of
 * the whole file, by the language's rules (skeleton-rules.ts): not a keyword, not a definition
 * (`function f(`, `new F(`), and a member's name (`a.f(`) only where the query counts one.
 */
import { isSpace, isWordChar, literalOrCommentEnd, stopsOf, templateEnd } from './lexical.js';
import type { SkeletonRules } from './skeleton-rules.js';

const OPEN_PARENTHESIS = 40;
const DOT = 46;
const COLON = 58;
const GREATER = 62;
const MINUS = 45;
const QUESTION = 63;
const BACKTICK = 96;
const OPEN_BRACE = 123;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;

/** Whether the quote at `at` opens an f-string: an `f` (or `rf`, `fr`) right before it, itself not the end of a name. */
function isFormatString(source: string, at: number): boolean {
  let prefix = at;
  while (prefix > 0 && prefix > at - 2 && /[fFrRbB]/.test(source[prefix - 1]!)) prefix--;
  if (prefix > 0 && isWordChar(source.charCodeAt(prefix - 1))) return false;
  return /[fF]/.test(source.slice(prefix, at));
}

/** The `{…}` fields of the f-string in [from, to) (`{{` is a brace, not a field): `field(start, end)` for each. */
function formatFields(source: string, from: number, to: number, field: (start: number, end: number) => void): void {
  for (let at = source.indexOf('{', from); at >= 0 && at < to; at = source.indexOf('{', at)) {
    if (source.charCodeAt(at + 1) === 123) {
      at += 2;
      continue;
    }
    let depth = 0;
    let close = at;
    for (; close < to; close++) {
      const c = source.charCodeAt(close);
      if (c === 123) depth++;
      else if (c === 125 && --depth === 0) break;
    }
    field(at + 1, close);
    at = close + 1;
  }
}
const LESS = 60;
/** What type arguments hold: names, paths, blanks, commas, brackets, `|`, `&`, `?`, `:`, `*` (`Map<string, A.B[]>`). */
const IN_TYPE_ARGUMENTS = /[\w$\s,.[\]|&?:*'"]/;

/** The index of the `<` that opens the type arguments closing at the `>` at `close`, or -1 when what is there is not one. */
function typeArgumentsStart(source: string, close: number, start: number): number {
  let depth = 0;
  for (let at = close; at >= start && close - at < 200; at--) {
    const c = source.charCodeAt(at);
    if (c === GREATER) depth++;
    else if (c === LESS) {
      if (--depth === 0) return at;
    } else if (!IN_TYPE_ARGUMENTS.test(source[at]!)) return -1;
  }
  return -1;
}

const stopsByRules = new WeakMap<SkeletonRules, RegExp>();

/** Calls in each range [bodies[i], bodies[i + 1]): `found(name, index)` in order. */
export function scanLexicalCalls(source: string, bodies: Int32Array, rules: SkeletonRules, found: (name: string, index: number) => void): void {
  let stops = stopsByRules.get(rules);
  if (!stops) {
    stops = stopsOf(rules, rules.callsWithoutParentheses ? '({' : '(');
    stopsByRules.set(rules, stops);
  }
  for (let i = 0; i < bodies.length; i += 2) scanRange(source, bodies[i]!, bodies[i + 1]!, rules, stops, found);
}

function scanRange(source: string, start: number, end: number, rules: SkeletonRules, stops: RegExp, found: (name: string, index: number) => void): void {
  let at = start;
  let commentStart = -1;
  let commentEnd = -1;
  /** The call whose arguments open at `open`, if a name stands before them. */
  const callBefore = (open: number): void => {
    let nameEnd = open;
    while (nameEnd > start && isSpace(source.charCodeAt(nameEnd - 1)) && source.charCodeAt(nameEnd - 1) !== 10) nameEnd--;
    // `f?.(x)`: an optional call of f.
    if (source.charCodeAt(nameEnd - 1) === DOT && source.charCodeAt(nameEnd - 2) === QUESTION) nameEnd -= 2;
    // `f<T>(x)`, `f::<T>(x)`: the name is before the type arguments.
    if (rules.genericCalls && source.charCodeAt(nameEnd - 1) === GREATER) {
      const typeArguments = typeArgumentsStart(source, nameEnd - 1, start);
      if (typeArguments < 0) return;
      nameEnd = typeArguments;
      if (source.charCodeAt(nameEnd - 1) === COLON && source.charCodeAt(nameEnd - 2) === COLON) nameEnd -= 2;
    }
    let nameStart = nameEnd;
    while (nameStart > start && isWordChar(source.charCodeAt(nameStart - 1))) nameStart--;
    if (nameStart === nameEnd) return;
    const first = source.charCodeAt(nameStart);
    if (first >= 48 && first <= 57) return; // a number
    const name = source.slice(nameStart, nameEnd);
    let before = previousSignificant(source, nameStart, start);
    // What a comment ends with (`it.`, `new`) says nothing of the call after it.
    if (before >= commentStart && before < commentEnd) before = start - 1;
    // A member may be named like a keyword (`p.catch(`, `map.delete(`).
    if (isMemberAccess(source, before) || (rules.colonMembers && source.charCodeAt(before) === COLON)) {
      if (rules.memberCalls) found(name, nameStart);
    } else if (!rules.notCalls.has(name) && !rules.notAfter.has(wordEndingAt(source, before, start))) found(name, nameStart);
  };
  while (at < end) {
    stops.lastIndex = at;
    const stop = stops.exec(source);
    if (!stop || stop.index >= end) return;
    at = stop.index;
    const c = source.charCodeAt(at);
    if (c === OPEN_PARENTHESIS) {
      callBefore(at);
      at++;
      continue;
    }
    if (c === BACKTICK && rules.backtick === 'template') {
      // A tagged template (sql`…`) is a call of its tag; its `${…}` expressions are code.
      const tag = wordEndingAt(source, at - 1, start);
      if (tag !== '' && !rules.notCalls.has(tag) && !/^\d/.test(tag)) found(tag, at - tag.length);
      at = templateEnd(source, at, end, rules, (from, to) => scanRange(source, from, to, rules, stops, found));
      continue;
    }
    if ((c === DOUBLE_QUOTE || c === SINGLE_QUOTE) && rules.formatStrings && isFormatString(source, at)) {
      // A Python f-string's `{…}` fields are code.
      const literalEnd = literalOrCommentEnd(source, at, end, rules);
      formatFields(source, at, literalEnd, (from, to) => scanRange(source, from, to, rules, stops, found));
      at = literalEnd;
      continue;
    }
    const skipped = literalOrCommentEnd(source, at, end, rules);
    const comment = c === 47 /* / */ || c === 35 /* # */ || c === 45; /* - */
    // Lua calls a function with one table or string and no parentheses: `f{…}`, `f "s"`, `f [[s]]`.
    if (
      rules.callsWithoutParentheses &&
      (c === OPEN_BRACE || (skipped >= 0 && !comment)) &&
      isWordChar(source.charCodeAt(previousSignificant(source, at, start)))
    )
      callBefore(at);
    if (skipped >= 0 && comment) {
      commentStart = at;
      commentEnd = skipped;
    }
    at = skipped >= 0 ? skipped : at + 1;
  }
}

/** The index of the last character before `at` that is not a blank, or start - 1. */
function previousSignificant(source: string, at: number, start: number): number {
  let before = at - 1;
  while (before >= start && isSpace(source.charCodeAt(before))) before--;
  return before;
}

/** Whether the character at `before` ends a member access: `.`, `?.`, `->`, `::`. */
function isMemberAccess(source: string, before: number): boolean {
  const c = source.charCodeAt(before);
  if (c === DOT) return true;
  if (c === GREATER) return source.charCodeAt(before - 1) === MINUS;
  if (c === COLON) return source.charCodeAt(before - 1) === COLON;
  return c === QUESTION && source.charCodeAt(before + 1) === DOT;
}

/** The word that ends at `before` (inclusive), or '' when no word does. */
function wordEndingAt(source: string, before: number, start: number): string {
  if (before < start || !isWordChar(source.charCodeAt(before))) return '';
  let wordStart = before;
  while (wordStart > start && isWordChar(source.charCodeAt(wordStart - 1))) wordStart--;
  return source.slice(wordStart, before + 1);
}
