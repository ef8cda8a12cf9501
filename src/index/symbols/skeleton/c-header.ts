/**
 * Attribute macros in a C declaration's head, cut before tree-sitter parses it. The Linux tree
 * writes `static int __init setup(void)`, `void __weak hook(void)` and
 * `static __printf(3, 4) __cold int emit(…)`: without the macro's definition tree-sitter reads
 * one word too many, takes `__init` for the declarator, and recovers by dropping the function
 * (`setup` is then no definition at all). With the extra words cut the head is plain C.
 *
 * A word is extra when the head already has a type (an arithmetic word, or `struct name`), or,
 * with no such type, when another word stands beside it and it looks like an attribute
 * (`__word` without digits and not a `_t` type, or a known one such as `asmlinkage`). A head
 * that is not a plain run of words, stars and attribute arguments is left alone.
 */
import { afterCommentOrLiteral, Char, isBlank, isIdentifierPart, isIdentifierStart } from './c-lexical.js';
import type { Cuts } from './skeleton-map.js';

/** Words tree-sitter-c reads itself in a declaration's head: storage, qualifiers, and types. */
const KNOWN_WORDS = new Set([
  'static',
  'extern',
  'inline',
  '__inline',
  '__inline__',
  '__forceinline',
  'auto',
  'register',
  'thread_local',
  '__thread',
  '_Thread_local',
  'const',
  'constexpr',
  'volatile',
  'restrict',
  '__restrict__',
  '__extension__',
  '_Atomic',
  '_Noreturn',
  'noreturn',
  '__attribute__',
  '__attribute',
  '__declspec',
]);

/** Arithmetic and boolean type words: a head with one has its type. */
const TYPE_WORDS = new Set(['int', 'char', 'void', 'long', 'short', 'unsigned', 'signed', 'float', 'double', 'bool', '_Bool']);

const TAG_WORDS = new Set(['struct', 'union', 'enum']);

/** Attribute macros with no leading underscores, common enough to name. */
const BARE_ATTRIBUTES = new Set(['asmlinkage', 'notrace', 'noinline', 'noinstr', 'visible']);

/**
 * Whether the `(` at `open` belongs to an attribute macro in a head (`__printf(3, 4) __cold int f(`):
 * a `__word(…)` followed by another word (`int __init __printf(3, 4) f(…)` too). When that word
 * is a called `__word(`, this one is the name: `__f(int a) __releases(x)` is a function `__f` with
 * an attribute after its parameters.
 */
export function isAttributeCall(source: string, wordStart: number, open: number): boolean {
  if (!startsWithUnderscores(source, wordStart)) return false;
  const close = closingParenthesis(source, open);
  if (close < 0) return false;
  const next = skipSpace(source, close + 1);
  if (!isIdentifierStart(source.charCodeAt(next))) return false;
  let at = next;
  while (isIdentifierPart(source.charCodeAt(at))) at++;
  // A called `__word(` after it is an attribute after the parameters: this one is the name.
  return source.charCodeAt(skipSpace(source, at)) !== Char.OpenParenthesis || !startsWithUnderscores(source, next);
}

/**
 * Where an attribute macro after a parameter list ends (`f(void) __acquires(rq->lock) {`: the
 * index after its `)`), or -1 when the `__word(` at `wordStart` is not one.
 */
export function trailingAttributeEnd(source: string, wordStart: number, open: number): number {
  if (!startsWithUnderscores(source, wordStart)) return -1;
  let before = wordStart - 1;
  while (before >= 0 && (isBlank(source.charCodeAt(before)) || source.charCodeAt(before) === Char.Newline)) before--;
  if (source.charCodeAt(before) !== Char.CloseParenthesis) return -1;
  const close = closingParenthesis(source, open);
  return close < 0 ? -1 : close + 1;
}

function startsWithUnderscores(source: string, at: number): boolean {
  return source.charCodeAt(at) === Char.Underscore && source.charCodeAt(at + 1) === Char.Underscore;
}

function skipSpace(source: string, from: number): number {
  let at = from;
  while (isBlank(source.charCodeAt(at)) || source.charCodeAt(at) === Char.Newline) at++;
  return at;
}

interface Word {
  start: number;
  /** After the word, its arguments included. */
  end: number;
  text: string;
  hasArguments: boolean;
}

/**
 * Cuts the attribute words of the head [from, nameStart) of the declaration named at
 * `nameStart`. `from` must be after every cut made so far (the cuts stay in order).
 */
export function cutHeadAttributes(source: string, from: number, nameStart: number, cuts: Cuts): void {
  const words = headWords(source, from, nameStart);
  if (!words) return;
  let typed = false;
  const others: Word[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (TAG_WORDS.has(word.text)) {
      typed = true;
      i++; // the tag's name
    } else if (TYPE_WORDS.has(word.text)) typed = true;
    else if (!KNOWN_WORDS.has(word.text)) others.push(word);
  }
  // A word with arguments is an attribute: isAttributeCall let the scan past it.
  const bare = others.filter((word) => !word.hasArguments);
  let kept: Word | undefined;
  if (!typed) kept = bare.find((word) => !looksLikeAttribute(word.text)) ?? bare[0];
  // Each cut takes the blanks after the word: a definition that started with it starts at it (Cuts.head).
  for (const word of others) if (word !== kept) cuts.head(word.start, skipSpace(source, word.end));
}

function looksLikeAttribute(word: string): boolean {
  if (BARE_ATTRIBUTES.has(word)) return true;
  return word.startsWith('__') && !/\d/.test(word) && !word.endsWith('_t');
}

/** The words of a head, each with its arguments; undefined when the head holds anything but words, stars and comments. */
function headWords(source: string, from: number, end: number): Word[] | undefined {
  const words: Word[] = [];
  let at = from;
  while (at < end) {
    const c = source.charCodeAt(at);
    if (isBlank(c) || c === Char.Newline || c === Char.Star) {
      at++;
      continue;
    }
    const skipped = afterCommentOrLiteral(source, at, end);
    if (skipped >= 0) {
      if (c !== Char.Slash) return undefined; // a literal has no place in a head
      at = skipped;
      continue;
    }
    if (!isIdentifierStart(c)) return undefined;
    const start = at;
    while (at < end && isIdentifierPart(source.charCodeAt(at))) at++;
    const text = source.slice(start, at);
    let after = at;
    while (isBlank(source.charCodeAt(after)) || source.charCodeAt(after) === Char.Newline) after++;
    let hasArguments = false;
    if (source.charCodeAt(after) === Char.OpenParenthesis && after < end) {
      const close = closingParenthesis(source, after);
      if (close < 0 || close >= end) return undefined;
      // Only `__word(…)` attributes and the words tree-sitter knows take arguments in a head.
      if (!text.startsWith('__') && !KNOWN_WORDS.has(text)) return undefined;
      at = close + 1;
      hasArguments = true;
    }
    words.push({ start, end: at, text, hasArguments });
  }
  return words;
}

/** The `)` closing the `(` at `open` (literals and comments skipped), or -1 within a short reach. */
function closingParenthesis(source: string, open: number): number {
  let depth = 0;
  const limit = Math.min(source.length, open + 4096);
  for (let at = open; at < limit; at++) {
    const skipped = afterCommentOrLiteral(source, at, limit);
    if (skipped >= 0) {
      at = skipped - 1;
      continue;
    }
    const c = source.charCodeAt(at);
    if (c === Char.OpenParenthesis) depth++;
    else if (c === Char.CloseParenthesis && --depth === 0) return at;
    else if (c === Char.Semicolon || c === Char.OpenBrace || c === Char.CloseBrace) return -1;
  }
  return -1;
}
