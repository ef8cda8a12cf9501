/**
 * The lexical parts of C the skeleton (c-skeleton.ts), its heads (c-header.ts) and its call scan
 * (c-calls.ts) share: characters, literals, comments and directives, and the words around an index.
 */

/** C's arithmetic type words: a type, never a function's name. */
export const C_TYPE_WORDS = ['int', 'char', 'void', 'long', 'short', 'unsigned', 'signed', 'float', 'double'];
/** Storage and qualifier words that may stand before a declaration. */
export const C_DECLARATION_WORDS = ['static', 'inline', 'extern'];

export const enum Char {
  Tab = 9,
  Newline = 10,
  VerticalTab = 11,
  FormFeed = 12,
  Return = 13,
  Space = 32,
  DoubleQuote = 34,
  Hash = 35,
  Comma = 44,
  SingleQuote = 39,
  OpenParenthesis = 40,
  CloseParenthesis = 41,
  Star = 42,
  Minus = 45,
  Dot = 46,
  Slash = 47,
  Zero = 48,
  Nine = 57,
  Semicolon = 59,
  Equals = 61,
  Greater = 62,
  UpperA = 65,
  UpperZ = 90,
  Backslash = 92,
  Underscore = 95,
  LowerA = 97,
  LowerZ = 122,
  OpenBracket = 91,
  CloseBracket = 93,
  OpenBrace = 123,
  CloseBrace = 125,
}

export function isIdentifierStart(c: number): boolean {
  return (c >= Char.LowerA && c <= Char.LowerZ) || (c >= Char.UpperA && c <= Char.UpperZ) || c === Char.Underscore || c > 127;
}

export function isIdentifierPart(c: number): boolean {
  return isIdentifierStart(c) || (c >= Char.Zero && c <= Char.Nine);
}

export function isBlank(c: number): boolean {
  return c === Char.Space || c === Char.Tab || c === Char.Return || c === Char.FormFeed || c === Char.VerticalTab;
}

/** The index after a preprocessor directive starting at `from` (its newline included), continuation lines and all. */
export function directiveEnd(source: string, from: number): number {
  let at = from;
  for (;;) {
    let newline = source.indexOf('\n', at);
    if (newline < 0) return source.length;
    // A block comment opened on the line and closed on a later one carries the directive on.
    for (let open = source.indexOf('/*', at); open >= 0 && open < newline; open = source.indexOf('/*', at)) {
      const close = source.indexOf('*/', open + 2);
      if (close < 0) return source.length;
      at = close + 2;
      if (close > newline) newline = source.indexOf('\n', at);
      if (newline < 0) return source.length;
    }
    let last = newline - 1;
    if (source.charCodeAt(last) === Char.Return) last--;
    if (source.charCodeAt(last) !== Char.Backslash) return newline + 1;
    at = newline + 1;
  }
}

/** The index after a string or character literal opening at `from` (an unterminated one ends at the newline). */
export function literalEnd(source: string, from: number, end: number): number {
  const quote = source.charCodeAt(from);
  let at = from + 1;
  while (at < end) {
    const c = source.charCodeAt(at);
    if (c === Char.Backslash) at += 2;
    else if (c === quote) return at + 1;
    else if (c === Char.Newline) return at;
    else at++;
  }
  return end;
}

/**
 * Where the comment or literal starting at `at` ends (an unterminated one runs to `end`), or -1
 * when none starts there. What a lexical scan of cut code skips (`bracketsOf`, c-calls.ts).
 */
export function afterCommentOrLiteral(source: string, at: number, end: number): number {
  const c = source.charCodeAt(at);
  if (c === Char.DoubleQuote || c === Char.SingleQuote) return literalEnd(source, at, end);
  if (c !== Char.Slash) return -1;
  const next = source.charCodeAt(at + 1);
  if (next === Char.Star) {
    const close = source.indexOf('*/', at + 2);
    return close < 0 || close + 2 > end ? end : close + 2;
  }
  if (next === Char.Slash) {
    const newline = source.indexOf('\n', at);
    return newline < 0 || newline > end ? end : newline;
  }
  return -1;
}

/** The directive's name: `if`, `ifdef`, `else`, `endif`, `define`… */
export function directiveName(source: string, hash: number): string {
  let at = hash + 1;
  while (isBlank(source.charCodeAt(at))) at++;
  const start = at;
  while (isIdentifierPart(source.charCodeAt(at))) at++;
  return source.slice(start, at);
}

/** Where the value of a `#define` at `hash` starts (after its name and parameters), or -1 when it is not a define. */
export function defineValueStart(source: string, hash: number): number {
  let at = hash + 1;
  while (isBlank(source.charCodeAt(at))) at++;
  if (!source.startsWith('define', at)) return -1;
  at += 6;
  if (!isBlank(source.charCodeAt(at))) return -1;
  while (isBlank(source.charCodeAt(at))) at++;
  if (!isIdentifierStart(source.charCodeAt(at))) return -1;
  while (isIdentifierPart(source.charCodeAt(at))) at++;
  if (source.charCodeAt(at) !== Char.OpenParenthesis) return at;
  const close = source.indexOf(')', at);
  const newline = source.indexOf('\n', at);
  // Parameters that run on past the line (after a backslash) are left whole, with the value.
  return close < 0 || (newline >= 0 && close > newline) ? -1 : close + 1;
}

/** The identifier that ends just before `end`, if the text there is one. */
export function identifierBefore(source: string, before: number): string {
  let end = before;
  while (end > 0 && isBlank(source.charCodeAt(end - 1))) end--;
  let start = end;
  while (start > 0 && isIdentifierPart(source.charCodeAt(start - 1))) start--;
  return source.slice(start, end);
}

/** The identifier ending at `end` (blanks, newlines and block comments before `end` skipped): [its start, it]. */
export function wordEndingAt(source: string, end: number): [number, string] {
  let stop = end;
  for (;;) {
    while (stop > 0 && (isBlank(source.charCodeAt(stop - 1)) || source.charCodeAt(stop - 1) === Char.Newline)) stop--;
    if (stop < 2 || source.charCodeAt(stop - 1) !== Char.Slash || source.charCodeAt(stop - 2) !== Char.Star) break;
    const open = source.lastIndexOf('/*', stop - 3);
    if (open < 0) break;
    stop = open;
  }
  let start = stop;
  while (start > 0 && isIdentifierPart(source.charCodeAt(start - 1))) start--;
  return [start, source.slice(start, stop)];
}

export function nextSignificant(source: string, from: number): number {
  let at = from;
  while (isBlank(source.charCodeAt(at)) || source.charCodeAt(at) === Char.Newline) at++;
  return source.charCodeAt(at);
}

/** Whether only blanks stand between the line's start and `at`. */
export function isLineStart(source: string, at: number): boolean {
  let before = at - 1;
  while (before >= 0 && isBlank(source.charCodeAt(before))) before--;
  return before < 0 || source.charCodeAt(before) === Char.Newline;
}
