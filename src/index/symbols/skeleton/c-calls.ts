/**
 * Calls in the parts of C a skeleton cut (c-skeleton.ts), found lexically: an identifier followed
 * by `(` that is not a keyword and not a member's name, which is what the tag query's
 * `(call_expression function: (identifier))` captures in a parse of the whole file.
 */
import { afterCommentOrLiteral, C_DECLARATION_WORDS, C_TYPE_WORDS, Char, isBlank, isIdentifierPart, isIdentifierStart } from './c-lexical.js';

const NOT_CALLS = new Set([
  'if',
  'while',
  'for',
  'switch',
  'return',
  'sizeof',
  'do',
  'else',
  'case',
  'goto',
  'defined',
  '_Alignof',
  'alignof',
  '__alignof__',
  '__alignof',
  'typeof',
  '__typeof__',
  '__typeof',
  'typeof_unqual',
  '__attribute__',
  '__attribute',
  'asm',
  '__asm__',
  '__asm',
  '_Static_assert',
  'static_assert',
  '_Generic',
  '__extension__',
  '__builtin_offsetof',
  '__builtin_types_compatible_p',
  '__builtin_va_arg',
  ...C_TYPE_WORDS,
  'struct',
  'union',
  'enum',
  'const',
  'volatile',
  '__volatile__',
  'static',
  'inline',
  'extern',
  'register',
  'auto',
  '_Bool',
]);

/** Words after which `name(` declares a function, not calls one (`int f(`); after a macro (`ENTRY __field(`) it is still a call. */
const BEFORE_DECLARATIONS = new Set([...C_TYPE_WORDS, '_Bool', 'bool', ...C_DECLARATION_WORDS]);

/**
 * Calls in the cut ranges: `found(name, index)` for each identifier followed by `(` that is not a
 * keyword and not a member's name. Comments, literals and preprocessor lines are skipped (a kept
 * directive is parsed with the skeleton).
 */
export function scanCalls(source: string, bodies: Int32Array, found: (name: string, index: number) => void): void {
  for (let i = 0; i < bodies.length; i += 2) scanRange(source, bodies[i]!, bodies[i + 1]!, found);
}

/** What the call scan stops at: a parenthesis, or the start of a comment or literal to skip. */
const CALL_STOP = /[("'/]/g;

function scanRange(source: string, start: number, end: number, found: (name: string, index: number) => void): void {
  let at = start;
  while (at < end) {
    CALL_STOP.lastIndex = at;
    const stop = CALL_STOP.exec(source);
    if (!stop || stop.index >= end) return;
    at = stop.index;
    const skipped = afterCommentOrLiteral(source, at, end);
    if (skipped >= 0) {
      at = skipped;
      continue;
    }
    if (source.charCodeAt(at) !== Char.OpenParenthesis) {
      at++; // a slash that starts no comment
      continue;
    }
    // `name (`: the name before the parenthesis, on the same line.
    let nameEnd = at;
    while (nameEnd > start && isBlank(source.charCodeAt(nameEnd - 1))) nameEnd--;
    let nameStart = nameEnd;
    while (nameStart > start && isIdentifierPart(source.charCodeAt(nameStart - 1))) nameStart--;
    at++;
    if (nameStart === nameEnd || !isIdentifierStart(source.charCodeAt(nameStart))) continue;
    const name = source.slice(nameStart, nameEnd);
    if (NOT_CALLS.has(name) || afterMemberOrType(source, nameStart, start)) continue;
    found(name, nameStart);
  }
}

/** Whether the name at `at` follows `.` or `->` (a member: `a->f()`) or a type word (`int f(`), on its line. */
function afterMemberOrType(source: string, at: number, start: number): boolean {
  let before = at;
  while (before > start && isBlank(source.charCodeAt(before - 1))) before--;
  const c = source.charCodeAt(before - 1);
  if (c === Char.Dot) return true;
  if (c === Char.Greater) return source.charCodeAt(before - 2) === Char.Minus;
  if (!isIdentifierPart(c) || before <= start) return false;
  let wordStart = before;
  while (wordStart > start && isIdentifierPart(source.charCodeAt(wordStart - 1))) wordStart--;
  return BEFORE_DECLARATIONS.has(source.slice(wordStart, before));
}
