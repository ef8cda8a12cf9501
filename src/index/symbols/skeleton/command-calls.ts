/**
 * Calls in the parts a Ruby skeleton cut (keyword-skeleton.ts), found lexically as tree-sitter-ruby
 * reads them: every `a.f` and `a&.f` (with or without arguments), `f(…)`, and a command call, a
 * name followed by its first argument with no parentheses (`puts x`, `attr_reader :x`,
 * `each do`, `loop {`). Constants, variables (`@a`, `$a`), symbols, keywords, labels (`key:`)
 * and what stands in strings, regexes and comments are not calls; the code inside `#{…}` is read.
 * Bodies with heredocs or `=begin` comments are never cut, so neither is handled here.
 */
import { isSpace } from './lexical.js';
import type { SkeletonRules } from './skeleton-rules.js';

const NEWLINE = 10;
const HASH = 35;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;
const BACKTICK = 96;
const PERCENT = 37;
const SLASH = 47;
const COLON = 58;
const DOT = 46;
const AT = 64;
const DOLLAR = 36;
const OPEN_PARENTHESIS = 40;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const BACKSLASH = 92;
const EQUALS = 61;
const QUESTION = 63;
const BANG = 33;

const isNameStart = (c: number): boolean => (c >= 97 && c <= 122) || c === 95 || (c >= 65 && c <= 90) || c > 127;
const isNamePart = (c: number): boolean => isNameStart(c) || (c >= 48 && c <= 57);
const isLower = (c: number): boolean => (c >= 97 && c <= 122) || c === 95 || c > 127;
/** What may start a command call's first argument: a name, a constant, a literal, a variable, a symbol. */
const startsArgument = (source: string, at: number): boolean => {
  const c = source.charCodeAt(at);
  if (isNameStart(c) || (c >= 48 && c <= 57) || c === DOUBLE_QUOTE || c === SINGLE_QUOTE || c === AT || c === DOLLAR) return true;
  if (c === PERCENT) return /[qQwWiIrsx]?[([{<|!/]/y.test(source.slice(at + 1, at + 3));
  return c === COLON && (isNameStart(source.charCodeAt(at + 1)) || source.charCodeAt(at + 1) === DOUBLE_QUOTE);
};
/** Keywords that are values, and so may be a command call's first argument (`puts self`). */
const VALUES = new Set(['self', 'nil', 'true', 'false', '__method__', '__FILE__', '__LINE__', '__dir__', 'not', 'defined?', 'super', 'yield']);
/** Closing delimiter of a `%w(`-style literal. */
const CLOSING: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };

/** Calls in each range [bodies[i], bodies[i + 1]): `found(name, index)` in order. */
export function scanCommandCalls(source: string, bodies: Int32Array, rules: SkeletonRules, found: (name: string, index: number) => void): void {
  for (let i = 0; i < bodies.length; i += 2) scanRange(source, bodies[i]!, bodies[i + 1]!, rules, found);
}

function scanRange(source: string, start: number, end: number, rules: SkeletonRules, found: (name: string, index: number) => void): void {
  let at = start;
  /** Whether an operand is expected here (a `/` or `%` then opens a literal). */
  let operandExpected = true;
  while (at < end) {
    const c = source.charCodeAt(at);
    if (isSpace(c)) {
      if (c === NEWLINE) operandExpected = true;
      at++;
    } else if (c === HASH) {
      const newline = source.indexOf('\n', at);
      at = newline < 0 || newline > end ? end : newline;
    } else if (c === DOUBLE_QUOTE || c === BACKTICK) {
      at = interpolatedEnd(source, at + 1, end, c, rules, found);
      operandExpected = false;
    } else if (c === SINGLE_QUOTE) {
      at = plainEnd(source, at + 1, end, c);
      operandExpected = false;
    } else if (c === PERCENT && operandExpected && /[qQwWiIrsx]?[([{<|!/]/y.test(source.slice(at + 1, at + 3))) {
      const kind = /[qQwWiIrsx]/.test(source[at + 1]!) ? source[at + 1]! : 'Q';
      const open = kind === 'Q' && !/[qQwWiIrsx]/.test(source[at + 1]!) ? at + 1 : at + 2;
      const close = CLOSING[source[open]!];
      // Brackets nest (`%w(a (b))`); another delimiter (`%r!…!`) only closes.
      const nests = close === undefined ? -1 : source.charCodeAt(open);
      const closing = (close ?? source[open]!).charCodeAt(0);
      at = /[QWIrx]/.test(kind) ? interpolatedEnd(source, open + 1, end, closing, rules, found, nests) : plainEnd(source, open + 1, end, closing, nests);
      operandExpected = false;
    } else if (c === QUESTION && operandExpected && !isSpace(source.charCodeAt(at + 1)) && !isNamePart(source.charCodeAt(at + 2))) {
      at += source.charCodeAt(at + 1) === BACKSLASH ? 3 : 2; // a character literal, `?/`, `?\n`
      operandExpected = false;
    } else if (c === SLASH && operandExpected) {
      at = interpolatedEnd(source, at + 1, end, SLASH, rules, found);
      operandExpected = false;
    } else if (c === COLON && source.charCodeAt(at + 1) === COLON) {
      at += 2; // `A::b` is read with the name after it
    } else if (c === COLON && (isNameStart(source.charCodeAt(at + 1)) || source.charCodeAt(at + 1) === DOUBLE_QUOTE)) {
      // A symbol, `:name` or `:"name"`.
      at++;
      if (source.charCodeAt(at) === DOUBLE_QUOTE) at = interpolatedEnd(source, at + 1, end, DOUBLE_QUOTE, rules, found);
      else while (at < end && (isNamePart(source.charCodeAt(at)) || source.charCodeAt(at) === QUESTION || source.charCodeAt(at) === BANG)) at++;
      operandExpected = false;
    } else if (c === AT || c === DOLLAR) {
      at++;
      // A special global (`$\``, `$1`, `$!`) is one character.
      if (c === DOLLAR && !isNameStart(source.charCodeAt(at))) at++;
      else while (at < end && (isNamePart(source.charCodeAt(at)) || source.charCodeAt(at) === AT)) at++;
      operandExpected = false;
    } else if (isNameStart(c)) {
      at = name(source, at, start, end, rules, found);
      operandExpected = rules.notCalls.has(source.slice(wordStart(source, at), at));
    } else {
      operandExpected = c !== CLOSE_BRACE && c !== 41 && c !== 93;
      at++;
    }
  }
}

/** Reads the name at `from` and reports it when it is called; returns the index after it. */
function name(source: string, from: number, start: number, end: number, rules: SkeletonRules, found: (name: string, index: number) => void): number {
  let at = from;
  while (at < end && isNamePart(source.charCodeAt(at))) at++;
  // `empty?`, `save!` (not `a != b`, `a ?b : c`).
  const suffix = source.charCodeAt(at);
  if ((suffix === QUESTION || suffix === BANG) && source.charCodeAt(at + 1) !== EQUALS && !isNameStart(source.charCodeAt(at + 1))) at++;
  const text = source.slice(from, at);
  const next = source.charCodeAt(at);
  // A label (`key: value`), not a call.
  if (next === COLON && source.charCodeAt(at + 1) !== COLON) return at;
  if (isMember(source, from, start)) {
    // `A::B` is a constant; a member may be named like a keyword (`self.class`, `t.end`).
    if (isLower(source.charCodeAt(from))) found(text, from);
    return at;
  }
  if (!isLower(source.charCodeAt(from)) || rules.notCalls.has(text)) return at;
  // A name ending in `?` or `!` can only be a method's: called, arguments or not.
  if (next === OPEN_PARENTHESIS || (at - from > 1 && (source.charCodeAt(at - 1) === QUESTION || source.charCodeAt(at - 1) === BANG))) {
    found(text, from);
    return at;
  }
  let after = at;
  while (after < end && (source.charCodeAt(after) === 32 || source.charCodeAt(after) === 9)) after++;
  if (after === at || after >= end) return at;
  const first = source.charCodeAt(after);
  const block = first === OPEN_BRACE || (source.startsWith('do', after) && !isNamePart(source.charCodeAt(after + 2)));
  if (block) {
    // `each_item do`, `loop {`; in `render file, out do` the block is render's, `out` an argument.
    if (startsStatement(source, from, start)) found(text, from);
    return at;
  }
  if (startsArgument(source, after) && !isModifier(source, after, rules)) found(text, from);
  return at;
}

/** Whether the word at `at` is a keyword but a value (`x if y`, `x and y`, `x end`): then `x` is no command call. */
function isModifier(source: string, at: number, rules: SkeletonRules): boolean {
  if (!isNameStart(source.charCodeAt(at))) return false;
  let after = at;
  while (isNamePart(source.charCodeAt(after))) after++;
  if (source.charCodeAt(after) === QUESTION) after++;
  const word = source.slice(at, after);
  return rules.notCalls.has(word) && !VALUES.has(word);
}

/** Whether the name at `from` starts a statement on its line (after `=`, `(`, `;`, `|`, `{` at most): `foo do` calls foo there only. */
function startsStatement(source: string, from: number, start: number): boolean {
  let before = from - 1;
  while (before >= start && (source.charCodeAt(before) === 32 || source.charCodeAt(before) === 9)) before--;
  if (before < start) return true;
  return '\n=(;|{'.includes(source[before]!);
}

/**
 * Whether the name at `from` is a member's: after `.`, `&.` or `::` on its line (a range's `..`
 * is not; a `.` ending the line before may end a comment).
 */
function isMember(source: string, from: number, start: number): boolean {
  let before = from - 1;
  while (before >= start && (source.charCodeAt(before) === 32 || source.charCodeAt(before) === 9)) before--;
  const c = source.charCodeAt(before);
  if (c === DOT) return source.charCodeAt(before - 1) !== DOT;
  return c === COLON && source.charCodeAt(before - 1) === COLON;
}

function wordStart(source: string, end: number): number {
  let at = end;
  while (at > 0 && (isNamePart(source.charCodeAt(at - 1)) || source.charCodeAt(at - 1) === QUESTION)) at--;
  return at;
}

/** The end of a literal without interpolation closing with `close` (`open` nests, as in `%w(a (b))`). */
function plainEnd(source: string, from: number, end: number, close: number, open = -1): number {
  let depth = 0;
  for (let at = from; at < end; at++) {
    const c = source.charCodeAt(at);
    if (c === BACKSLASH) at++;
    else if (c === open) depth++;
    else if (c === close && depth-- === 0) return at + 1;
  }
  return end;
}

/** The end of a literal with `#{…}` interpolation closing with `close`; the code inside is scanned. */
function interpolatedEnd(
  source: string,
  from: number,
  end: number,
  close: number,
  rules: SkeletonRules,
  found: (name: string, index: number) => void,
  open = -1,
): number {
  let depth = 0;
  for (let at = from; at < end; at++) {
    const c = source.charCodeAt(at);
    if (c === BACKSLASH) at++;
    else if (c === HASH && source.charCodeAt(at + 1) === OPEN_BRACE) {
      const codeEnd = closingBrace(source, at + 2, end);
      scanRange(source, at + 2, codeEnd, rules, found);
      at = codeEnd;
    } else if (c === open) depth++;
    else if (c === close && depth-- === 0) return at + 1;
  }
  return end;
}

/** The `}` that closes an interpolation's code starting at `from` (strings inside skipped). */
function closingBrace(source: string, from: number, end: number): number {
  let depth = 0;
  for (let at = from; at < end; at++) {
    const c = source.charCodeAt(at);
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) at = plainEnd(source, at + 1, end, c) - 1;
    else if (c === OPEN_BRACE) depth++;
    else if (c === CLOSE_BRACE && depth-- === 0) return at;
  }
  return end;
}
