/**
 * The lexical layer the skeletons and the call scan share: where a comment or a literal that
 * starts at an index ends, by a language's rules (skeleton-rules.ts), so that braces, calls and
 * definitions are never looked for inside them.
 */
import type { LiteralRules } from './skeleton-rules.js';

const BACKSLASH = 92;
const NEWLINE = 10;
const SLASH = 47;
const STAR = 42;
const HASH = 35;
const BACKTICK = 96;
const DOLLAR = 36;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const SINGLE_QUOTE = 39;
const DOUBLE_QUOTE = 34;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

export function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === DOLLAR || c > 127;
}

export function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === NEWLINE || c === 13 || c === 12 || c === 11;
}

/** Words after which `/` starts a regular expression, not a division. */
const BEFORE_REGEX = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'yield', 'await', 'instanceof']);
/** Characters after which `/` starts a regular expression. */
const OPERATOR_BEFORE_REGEX = new Set([...'(,=:[!&|?{};+-*%<>~^'].map((c) => c.charCodeAt(0)));

/** Whether a `/` at `at` starts a regular expression literal: what comes before it expects an operand. */
function startsRegex(source: string, at: number): boolean {
  let before = at - 1;
  while (before >= 0 && isSpace(source.charCodeAt(before))) before--;
  if (before < 0) return true;
  const c = source.charCodeAt(before);
  if (OPERATOR_BEFORE_REGEX.has(c)) return true;
  if (!isWordChar(c)) return false;
  let start = before;
  while (start > 0 && isWordChar(source.charCodeAt(start - 1))) start--;
  return BEFORE_REGEX.has(source.slice(start, before + 1));
}

/** A one-line literal's end (after its closing quote; an unterminated one ends at the newline). */
function quotedEnd(source: string, from: number, end: number): number {
  const quote = source.charCodeAt(from);
  let at = from + 1;
  while (at < end) {
    const c = source.charCodeAt(at);
    if (c === BACKSLASH) at += 2;
    else if (c === quote) return at + 1;
    else if (c === NEWLINE) return at;
    else at++;
  }
  return end;
}

function regexEnd(source: string, from: number, end: number): number {
  let at = from + 1;
  let inClass = false;
  while (at < end) {
    const c = source.charCodeAt(at);
    if (c === BACKSLASH) at += 2;
    else if (c === NEWLINE) return at;
    else if (c === SLASH && !inClass) return at + 1;
    else {
      if (c === OPEN_BRACKET) inClass = true;
      else if (c === CLOSE_BRACKET) inClass = false;
      at++;
    }
  }
  return end;
}

/**
 * A template literal's end: its `${…}` expressions are code, with literals of their own;
 * `expression(start, end)` is told of each (the call scan reads them).
 */
export function templateEnd(source: string, from: number, end: number, rules: LiteralRules, expression?: (start: number, end: number) => void): number {
  let at = from + 1;
  while (at < end) {
    const c = source.charCodeAt(at);
    if (c === BACKSLASH) at += 2;
    else if (c === BACKTICK) return at + 1;
    else if (c === DOLLAR && source.charCodeAt(at + 1) === OPEN_BRACE) {
      let depth = 1;
      at += 2;
      const start = at;
      while (at < end && depth > 0) {
        const skipped = literalOrCommentEnd(source, at, end, rules);
        if (skipped >= 0) {
          at = skipped;
          continue;
        }
        const d = source.charCodeAt(at);
        if (d === OPEN_BRACE) depth++;
        else if (d === CLOSE_BRACE) depth--;
        at++;
      }
      expression?.(start, depth === 0 ? at - 1 : at);
    } else at++;
  }
  return end;
}

/**
 * Rust's `r"…"`, `r#"…"#`, `br"…"`, seen from the quote at `quote`: the index after the raw
 * string, or -1 when the quote opens an ordinary string.
 */
function rawStringEnd(source: string, quote: number, end: number): number {
  let r = quote - 1;
  while (r >= 0 && source.charCodeAt(r) === HASH) r--;
  if (r < 0 || source.charCodeAt(r) !== 114 /* r */) return -1;
  const before = r > 0 ? source.charCodeAt(r - 1) : 0;
  if (isWordChar(before) && !(before === 98 /* b */ && (r < 2 || !isWordChar(source.charCodeAt(r - 2))))) return -1;
  const hashes = quote - 1 - r;
  const close = source.indexOf(`"${'#'.repeat(hashes)}`, quote + 1);
  return close < 0 || close >= end ? end : close + 1 + hashes;
}

/** Lua's `[[ … ]]` and `[==[ … ]==]` at `at`: the index after its close, or -1 when none opens there. */
function longBracketEnd(source: string, at: number, end: number): number {
  if (source.charCodeAt(at) !== OPEN_BRACKET) return -1;
  let level = 0;
  while (source.charCodeAt(at + 1 + level) === 61 /* = */) level++;
  if (source.charCodeAt(at + 1 + level) !== OPEN_BRACKET) return -1;
  const close = source.indexOf(`]${'='.repeat(level)}]`, at + 2 + level);
  return close < 0 || close + level + 2 > end ? end : close + level + 2;
}

/**
 * Where the comment or literal starting at `at` ends (an unterminated one runs to its line's or
 * the range's end), or -1 when none starts there.
 */
export function literalOrCommentEnd(source: string, at: number, end: number, rules: LiteralRules): number {
  const c = source.charCodeAt(at);
  if (c === SLASH && rules.slashComments) {
    const next = source.charCodeAt(at + 1);
    if (next === STAR) {
      const close = source.indexOf('*/', at + 2);
      return close < 0 || close + 2 > end ? end : close + 2;
    }
    if (next === SLASH) {
      const newline = source.indexOf('\n', at);
      return newline < 0 || newline > end ? end : newline;
    }
    if (rules.regexLiterals && startsRegex(source, at)) return regexEnd(source, at, end);
    return -1;
  }
  if (c === 45 /* - */ && rules.dashComments && source.charCodeAt(at + 1) === 45) {
    const long = rules.longBrackets ? longBracketEnd(source, at + 2, end) : -1;
    if (long >= 0) return long;
    const newline = source.indexOf('\n', at);
    return newline < 0 || newline > end ? end : newline;
  }
  if (c === OPEN_BRACKET && rules.longBrackets) return longBracketEnd(source, at, end);
  if (c === HASH && rules.hashComments) {
    const newline = source.indexOf('\n', at);
    return newline < 0 || newline > end ? end : newline;
  }
  if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
    if (rules.quotes.indexOf(source[at]!) < 0) return -1;
    if (c === DOUBLE_QUOTE && rules.rawPrefix) {
      const raw = rawStringEnd(source, at, end);
      if (raw >= 0) return raw;
    }
    if (rules.tripleQuotes && source.charCodeAt(at + 1) === c && source.charCodeAt(at + 2) === c) {
      const close = source.indexOf(source.slice(at, at + 3), at + 3);
      return close < 0 || close + 3 > end ? end : close + 3;
    }
    // Rust: `'a` is a lifetime (or a label) unless a quote closes it (`'a'`, `'\n'`).
    if (c === SINGLE_QUOTE && rules.lifetimes && source.charCodeAt(at + 1) !== BACKSLASH && source.charCodeAt(at + 2) !== SINGLE_QUOTE) return -1;
    return quotedEnd(source, at, end);
  }
  if (c === BACKTICK && rules.backtick) {
    if (rules.backtick === 'template') return templateEnd(source, at, end, rules);
    const close = source.indexOf('`', at + 1);
    return close < 0 || close + 1 > end ? end : close + 1;
  }
  return -1;
}

/** The stops a scan over code must look at: braces, and the characters that may open a literal or a comment. */
export function stopsOf(rules: LiteralRules, extra: string): RegExp {
  let set = `${extra}${rules.quotes}`;
  if (rules.slashComments) set += '/';
  if (rules.hashComments) set += '#';
  if (rules.dashComments) set += '-';
  if (rules.longBrackets) set += '[';
  if (rules.backtick) set += '`';
  return new RegExp(`[${set.replace(/[\]\\^-]/g, '\\$&')}]`, 'g');
}

/** The index of the `}` that closes the `{` at `open`, or -1 when the source ends first. */
export function matchingBrace(source: string, open: number, rules: LiteralRules, stops: RegExp): number {
  let depth = 0;
  let at = open;
  const end = source.length;
  while (at < end) {
    stops.lastIndex = at;
    const stop = stops.exec(source);
    if (!stop) return -1;
    at = stop.index;
    const c = source.charCodeAt(at);
    if (c === OPEN_BRACE) {
      depth++;
      at++;
    } else if (c === CLOSE_BRACE) {
      if (--depth === 0) return at;
      at++;
    } else {
      const skipped = literalOrCommentEnd(source, at, end, rules);
      at = skipped >= 0 ? skipped : at + 1;
    }
  }
  return -1;
}
