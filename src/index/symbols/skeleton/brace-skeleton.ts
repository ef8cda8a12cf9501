/**
 * The skeleton of a brace language (Go, JavaScript and TypeScript, Java, C#, C++, Rust, Kotlin,
 * Swift, Scala, PHP): the contents of function bodies cut before tree-sitter parses the file, and their
 * calls found lexically instead (lexical-calls.ts), as C's skeleton does for C.
 *
 * Each `{` outside a cut body is judged by its header, the logical line before it (back to a
 * newline, `;`, `{` or `}` outside brackets):
 *  - a container word there (`class`, `struct`, `impl`: SkeletonRules.containers) opens a body of
 *    declarations, kept and looked into, so that its methods' bodies are cut in turn;
 *  - parameters (`(`, `=>`) or a body word (`get`, `init`) make it a function's body: cut, unless
 *    it defines something a user would look up (SkeletonRules.nested: a class in a function), in
 *    which case it is kept and looked into;
 *  - an initializer (`var t = T{`) is cut where the language's values hold no definitions
 *    (SkeletonRules.cutInitializers: Go's tables are a large part of its standard library);
 *  - anything else (an object literal, a block of script) is kept and looked into: object
 *    literals hold methods.
 * A header misread as a container costs only a cut; nothing a function body holds is lost. When
 * braces do not balance there is no skeleton, and the caller parses the whole file.
 */
import { literalOrCommentEnd, matchingBrace, stopsOf } from './lexical.js';
import { build, Cuts, type Skeleton } from './skeleton-map.js';
import type { SkeletonRules } from './skeleton-rules.js';

/** Cuts shorter than this save tree-sitter little, and each is a step of the index map. */
const MIN_CUT = 24;
/** How far back a header is read: a declaration's line, with its parameters. */
const MAX_HEADER = 2_000;

const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const SEMICOLON = 59;
const NEWLINE = 10;
const SLASH = 47;
const STAR = 42;

/** A line comment's end without a carriage return before its newline (which stays with the line end). */
function lineContentEnd(source: string, end: number): number {
  return source.charCodeAt(end - 1) === 13 ? end - 1 : end;
}

interface Compiled {
  readonly stops: RegExp;
  readonly braceStops: RegExp;
  readonly container: RegExp;
  readonly bodyWord: RegExp | undefined;
}

const compiled = new WeakMap<SkeletonRules, Compiled>();

function compile(rules: SkeletonRules): Compiled {
  let entry = compiled.get(rules);
  if (!entry) {
    const alternatives = (set: ReadonlySet<string>): string => [...set].map((word) => word.replace(/[$@]/g, '\\$&')).join('|');
    entry = {
      stops: stopsOf(rules, '{};'),
      braceStops: stopsOf(rules, '{}'),
      container: new RegExp(`(?:^|[^\\w$.])(?:${alternatives(rules.containers)})(?![\\w$])`),
      bodyWord: rules.bodyWords.size > 0 ? new RegExp(`(?:^|[^\\w$.])(?:${alternatives(rules.bodyWords)})\\s*$`) : undefined,
    };
    compiled.set(rules, entry);
  }
  return entry;
}

/** The header of the `{` at `brace`: back to a newline, `;`, `{` or `}` that stands outside brackets. */
function headerStart(source: string, brace: number): number {
  let depth = 0;
  const limit = Math.max(0, brace - MAX_HEADER);
  for (let at = brace - 1; at >= limit; at--) {
    const c = source.charCodeAt(at);
    if (c === 41 /* ) */ || c === 93 /* ] */) depth++;
    else if (c === 40 /* ( */ || c === 91 /* [ */) {
      if (depth === 0) return at + 1; // inside an argument list: `f(function () {`
      depth--;
    } else if (depth === 0 && (c === NEWLINE || c === SEMICOLON || c === OPEN_BRACE || c === CLOSE_BRACE)) return at + 1;
  }
  return limit;
}

/**
 * Whether a header reads as a function's: it ends with `=>`, or with its parameters and at most
 * a return type, a `throws` or a `where` clause after them. An expression (`= (a) | {`, `f() || {`,
 * `cond(x) ? {`) is not one: its object literal or type literal may hold methods.
 */
function opensFunctionBody(header: string): boolean {
  const trimmed = header.trimEnd();
  if (trimmed.endsWith('=>')) return true;
  const close = trimmed.lastIndexOf(')');
  return close >= 0 && !AFTER_PARAMETERS_NOT_A_FUNCTION.test(trimmed.slice(close + 1));
}

/** After a function's parameters, a return type may hold `<`, `,`, `:`, `[`, `*`, `&`: never an assignment or an operator of an expression. */
const AFTER_PARAMETERS_NOT_A_FUNCTION = /[=|?(]|&&/;
/** An assignment's value (`var tables = map[string]int{`), not a comparison. */
const INITIALIZER = /[^=!<>:]=(?!=)|:=/;

export function braceSkeleton(source: string, rules: SkeletonRules): Skeleton | undefined {
  const { stops, braceStops, container, bodyWord } = compile(rules);
  const cuts = new Cuts();
  const length = source.length;
  let depth = 0;
  let at = 0;
  while (at < length) {
    stops.lastIndex = at;
    const stop = stops.exec(source);
    if (!stop) break;
    at = stop.index;
    const c = source.charCodeAt(at);
    if (c === CLOSE_BRACE) {
      if (depth === 0) return undefined;
      depth--;
      at++;
      continue;
    }
    if (c !== OPEN_BRACE) {
      const skipped = c === SEMICOLON ? -1 : literalOrCommentEnd(source, at, length, rules);
      // A comment's insides go too (its delimiters stay, so it is still a comment): doc comments are much of what a skeleton keeps.
      if (skipped >= 0 && c === SLASH && skipped - at >= MIN_CUT) {
        const block = source.charCodeAt(at + 1) === STAR;
        if (block || source.charCodeAt(at + 1) === SLASH) cuts.cut(at + 2, block ? skipped - 2 : lineContentEnd(source, skipped));
      }
      at = skipped >= 0 ? skipped : at + 1;
      continue;
    }
    const header = source.slice(headerStart(source, at), at);
    const isContainer = container.test(header);
    if (!isContainer && (opensFunctionBody(header) || bodyWord?.test(header) || (rules.cutInitializers && INITIALIZER.test(header)))) {
      const close = matchingBrace(source, at, rules, braceStops);
      if (close < 0) return undefined;
      if (!rules.nested.test(source.slice(at + 1, close))) {
        if (close - at - 1 >= MIN_CUT) cuts.body(at + 1, close);
        at = close + 1;
        continue;
      }
    }
    depth++;
    at++;
  }
  return depth === 0 ? build(source, cuts) : undefined;
}
