/**
 * C's skeleton: the source with what tree-sitter need not see cut out, so that it parses only
 * declarations (in the Linux tree a quarter of the text, and a third of the time). Cut are:
 *  - the contents of function bodies and top-level initializers, found as ctags finds them, by
 *    matching braces outside comments, literals and the later branches of conditionals (a
 *    top-level `{` after `)` opens a body, after `=` an initializer);
 *  - the members of top-level structs and unions (`struct name {`, `struct {`): the tag query
 *    asks only for the name and the braces. Kept whole when it defines a named struct, union or
 *    enum inside (that one is a definition too). Enums are not cut: tree-sitter reads a define
 *    among their enumerators differently when they are gone;
 *  - a top-level argument list after its first argument, when `;` or a body follows it
 *    (prototypes, macro invocations: `TRACE_EVENT(name, …);`);
 *  - the values of `#define`s: the name and the parameters stay, which is all the tag query
 *    asks of them (the directive stays too: removing it would let tree-sitter's recovery from a
 *    macro it cannot read run on into the next declaration);
 *  - the insides of comments (`/*` and `*\/` stay, so a comment is still a comment).
 * Other preprocessor lines stay, in bodies too (`#if IS_ENABLED(…)` is a call tree-sitter sees).
 * Calls inside the cut bodies, and inside the brackets of cut members (`u8 key[SIZE(n)]`), are
 * found by `scanCalls` (c-calls.ts): an identifier followed by `(` that is not a keyword or a member
 * (`a.f()`, `a->f()`), which is what the tag query's
 * `(call_expression function: (identifier))` captures; over the Linux tree it finds 99.7% of the
 * calls a parse of whole files finds, and little else (bench/RESULTS.md).
 *
 * When braces do not balance (a conditional whose branches open a body differently, an unclosed
 * comment), there is no skeleton and the caller parses the whole file.
 */
import { cutHeadAttributes, isAttributeCall, trailingAttributeEnd } from './c-header.js';
import {
  afterCommentOrLiteral,
  C_DECLARATION_WORDS,
  C_TYPE_WORDS,
  Char,
  defineValueStart,
  directiveEnd,
  directiveName,
  identifierBefore,
  isBlank,
  isIdentifierPart,
  isLineStart,
  literalEnd,
  nextSignificant,
  wordEndingAt,
} from './c-lexical.js';
import { build, Cuts, type Skeleton } from './skeleton-map.js';

export type { Skeleton } from './skeleton-map.js';

/** Cuts shorter than this are not made: they save tree-sitter little and each is a step of the index map. */
const MIN_CUT = 16;

/** Words before `(` whose parentheses are kept: attributes and types (`int (*f)(void)`). */
const KEEP_PARENTHESES = new Set([
  '__attribute__',
  '__attribute',
  '__declspec',
  'asm',
  '__asm__',
  '__asm',
  ...C_TYPE_WORDS,
  ...C_DECLARATION_WORDS,
  'const',
  'volatile',
  'register',
  'auto',
  '_Bool',
  'bool',
  'struct',
  'union',
  'enum',
  'return',
]);

/** In a body, the next character the scan must look at: the rest is cut unread. */
const BODY_STOP = /[{}"'/#\n]/g;

const TAGS = new Set(['struct', 'union', 'enum']);
const CUT_TAGS = new Set(['struct', 'union']);

/** Whether the `{` at `brace` opens a struct, union or enum body: `struct {`, `struct name {`. `named`: only the second. */
function opensTagBody(source: string, brace: number, named: boolean, tags = TAGS): boolean {
  const [start, word] = wordEndingAt(source, brace);
  if (word === '' || TAGS.has(word)) return !named && tags.has(word);
  return tags.has(wordEndingAt(source, start)[1]);
}

export function cSkeleton(source: string): Skeleton | undefined {
  const length = source.length;
  const cuts = new Cuts();
  /** One entry a conditional: whether the scan is in one of its later branches (#elif, #else). */
  const conditionals: boolean[] = [];
  let inLaterBranch = 0;
  let braces = 0;
  let parentheses = 0;
  let last = 0;
  /** Where the part of the current region (a body, an initializer, an argument list) not yet cut starts; -1 outside one. */
  let regionFrom = -1;
  let regionIsBody = false;
  /** In a struct, union or enum body: the cuts before it (to take them back), and whether it defines a named one inside. */
  let tagBody: { mark: ReturnType<Cuts['mark']>; open: number; nestedDefinition: boolean } | undefined;
  /** In a function body or initializer: the cuts before it, and whether it defines a named struct, union or enum. */
  let bodyMark: ReturnType<Cuts['mark']> | undefined;
  let localDefinition = false;
  /** After a `(` whose arguments are cut from the first comma on. */
  let argumentsPending = false;
  /** Where the current top-level declaration starts (its head, for c-header.ts); -1 between declarations. */
  let statementStart = -1;
  let at = 0;
  while (at < length) {
    if (regionIsBody && regionFrom >= 0) {
      BODY_STOP.lastIndex = at;
      const stop = BODY_STOP.exec(source);
      if (!stop) return undefined;
      at = stop.index;
    }
    const c = source.charCodeAt(at);
    if (isBlank(c) || c === Char.Newline) {
      at++;
      continue;
    }
    if (c === Char.Hash && isLineStart(source, at)) {
      const name = directiveName(source, at);
      if (name === 'if' || name === 'ifdef' || name === 'ifndef') conditionals.push(false);
      else if (name === 'endif') {
        if (conditionals.pop()) inLaterBranch--;
      } else if (name.startsWith('el') && conditionals.length > 0 && !conditionals.at(-1)) {
        conditionals[conditionals.length - 1] = true;
        inLaterBranch++;
      }
      const end = directiveEnd(source, at);
      const valueStart = name === 'define' ? defineValueStart(source, at) : -1;
      // The value ends before the directive's last newline (which ends tree-sitter's preproc_def).
      const valueEnd = end > 0 && source.charCodeAt(end - 1) === Char.Newline ? end - 1 : end;
      const define = valueStart >= 0 && valueEnd > valueStart;
      if (regionFrom >= 0 && !regionIsBody) {
        // An argument list is cut whole or not at all (see the closing parenthesis).
        regionFrom = -1;
        argumentsPending = false;
        if (define) cuts.cut(valueStart, valueEnd);
      } else if (regionFrom >= 0) {
        // In a body, the calls before the directive are scanned; a define's value goes with the cut, the directive stays.
        if (tagBody) cuts.cut(regionFrom, at);
        else cuts.body(regionFrom, at);
        if (define) cuts.cut(valueStart, valueEnd);
        regionFrom = end;
      } else if (define) cuts.cut(valueStart, valueEnd);
      if (braces === 0 && parentheses === 0) statementStart = -1;
      at = end;
      continue;
    }
    if (c === Char.Slash && source.charCodeAt(at + 1) === Char.Star) {
      const close = source.indexOf('*/', at + 2);
      if (close < 0) return undefined;
      if (regionFrom < 0 && close - at - 2 >= MIN_CUT) cuts.cut(at + 2, close);
      at = close + 2;
      continue;
    }
    if (c === Char.Slash && source.charCodeAt(at + 1) === Char.Slash) {
      let newline = source.indexOf('\n', at);
      if (newline < 0) newline = length;
      // A comment whose line ends in a backslash runs on to the next line: left whole.
      const lastChar = source.charCodeAt(newline - 1) === Char.Return ? newline - 2 : newline - 1;
      if (regionFrom < 0 && newline - at - 2 >= MIN_CUT && source.charCodeAt(lastChar) !== Char.Backslash) cuts.cut(at + 2, lastChar + 1);
      at = newline;
      continue;
    }
    if (c === Char.DoubleQuote || c === Char.SingleQuote) {
      at = literalEnd(source, at, length);
      last = c;
      continue;
    }
    if (inLaterBranch === 0) {
      if (statementStart < 0 && braces === 0 && parentheses === 0 && regionFrom < 0) statementStart = at;
      if (c === Char.OpenBrace) {
        if (braces === 0 && parentheses === 0 && regionFrom < 0) {
          const body = last === Char.CloseParenthesis || last === Char.Equals;
          if (body || (isIdentifierPart(last) && opensTagBody(source, at, false, CUT_TAGS))) {
            regionFrom = at + 1;
            regionIsBody = true;
            tagBody = body ? undefined : { mark: cuts.mark(), open: at + 1, nestedDefinition: false };
            bodyMark = body ? cuts.mark() : undefined;
            localDefinition = false;
          }
        } else if (tagBody && !tagBody.nestedDefinition && opensTagBody(source, at, true)) tagBody.nestedDefinition = true;
        else if (bodyMark && !localDefinition && opensTagBody(source, at, true)) localDefinition = true;
        braces++;
      } else if (c === Char.CloseBrace) {
        if (braces === 0) return undefined;
        braces--;
        if (braces === 0 && regionIsBody && regionFrom >= 0) {
          // A struct that defines a named struct (or union, enum) inside is kept whole: the inner one is a definition too.
          if (tagBody?.nestedDefinition) cuts.undo(tagBody.mark);
          // So is a function that defines one (`struct state { … };` in a body): ctags and a user look it up.
          else if (bodyMark && localDefinition) cuts.undo(bodyMark);
          else if (tagBody) {
            cuts.cut(regionFrom, at);
            bracketsOf(source, tagBody.open, at, cuts.bodies);
          } else cuts.body(regionFrom, at);
          regionFrom = -1;
          regionIsBody = false;
          tagBody = undefined;
          bodyMark = undefined;
        }
        if (braces === 0) statementStart = -1;
      } else if (c === Char.Semicolon && braces === 0 && parentheses === 0) {
        statementStart = -1;
      } else if (c === Char.OpenParenthesis && braces === 0) {
        const word = identifierBefore(source, at);
        argumentsPending =
          parentheses === 0 && regionFrom < 0 && isIdentifierPart(last) && nextSignificant(source, at + 1) !== Char.Star && !KEEP_PARENTHESES.has(word);
        if (argumentsPending) {
          const wordStart = wordEndingAt(source, at)[0];
          const trailingEnd = trailingAttributeEnd(source, wordStart, at);
          if (trailingEnd >= 0 && cuts.lastEnd() <= wordStart) {
            // `f(void) __releases(lock) {`: cut, so that the body still follows a `)`.
            cuts.cut(wordStart, trailingEnd);
            argumentsPending = false;
            last = Char.CloseParenthesis;
            at = trailingEnd;
            continue;
          }
          if (isAttributeCall(source, wordStart, at)) argumentsPending = false;
          else if (statementStart >= 0 && statementStart < wordStart && cuts.lastEnd() <= statementStart)
            cutHeadAttributes(source, statementStart, wordStart, cuts);
        }
        parentheses++;
      } else if (c === Char.Comma && argumentsPending && braces === 0 && parentheses === 1) {
        // The first argument stays: `f();` followed by a declaration would read as an old-style definition.
        regionFrom = at;
        argumentsPending = false;
      } else if (c === Char.CloseParenthesis && braces === 0) {
        if (parentheses === 0) return undefined;
        parentheses--;
        if (parentheses === 0) argumentsPending = false;
        if (parentheses === 0 && !regionIsBody && regionFrom >= 0) {
          // Only before `;` or a body: `f(a) x;` would read as an old-style definition with `x` a parameter's declaration.
          const next = nextSignificant(source, at + 1);
          if (next === Char.Semicolon || next === Char.OpenBrace) cuts.body(regionFrom, at);
          regionFrom = -1;
        }
      }
    }
    last = c;
    at++;
  }
  if (braces !== 0 || parentheses !== 0 || conditionals.length !== 0) return undefined;
  return build(source, cuts);
}

/**
 * The insides of the brackets in a struct or union body, pushed onto `ranges`: a member's only
 * expressions that tree-sitter would read calls in (`u8 key[KEY_SIZE(bits)]`). Elsewhere in the
 * body `name(` is a macro standing for a member or a type (`DECLARE_BITMAP(map, 64);`,
 * `Array(int) list;`), which the tree reads as a declaration, not a call.
 */
function bracketsOf(source: string, start: number, end: number, ranges: number[]): void {
  let open = -1;
  for (let at = start; at < end; at++) {
    const skipped = afterCommentOrLiteral(source, at, end);
    if (skipped >= 0) {
      at = skipped - 1;
      continue;
    }
    const c = source.charCodeAt(at);
    if (c === Char.OpenBracket && open < 0) open = at + 1;
    else if (c === Char.CloseBracket && open >= 0) {
      if (at > open) ranges.push(open, at);
      open = -1;
    }
  }
}
