/**
 * The skeleton of a language whose blocks are delimited by keywords (Lua; Ruby by its layout, see
 * indentedEndSkeleton): each function's body,
 * from after its parameters to its `end`, cut before tree-sitter parses the file, and its calls
 * found lexically (lexical-calls.ts). Blocks are counted by the rules' openers and closers
 * (`if`, `function`, `do`, `repeat` against `end` and `until`), outside comments and literals. A
 * body that defines a named function is kept and read on, its own functions cut in turn. When
 * the blocks do not balance there is no skeleton, and the file is parsed whole.
 */
import { literalOrCommentEnd, stopsOf } from './lexical.js';
import { build, Cuts, type Skeleton } from './skeleton-map.js';
import type { SkeletonRules } from './skeleton-rules.js';

/** Cuts shorter than this save tree-sitter little, and each is a step of the index map. */
const MIN_CUT = 24;
const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;

const stopsByRules = new WeakMap<SkeletonRules, RegExp>();

interface Scan {
  readonly source: string;
  readonly rules: SkeletonRules;
  readonly stops: RegExp;
}

/** The next word at or after `from` outside comments and literals: [its start, the word], or undefined at the end. */
function nextWord(scan: Scan, from: number): [number, string] | undefined {
  const { source, rules, stops } = scan;
  let at = from;
  while (at < source.length) {
    stops.lastIndex = at;
    const stop = stops.exec(source);
    if (!stop) return undefined;
    at = stop.index;
    const skipped = literalOrCommentEnd(source, at, source.length, rules);
    if (skipped >= 0) {
      at = skipped;
      continue;
    }
    const c = source.charCodeAt(at);
    const startsWord = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    const afterWordChar = at > 0 && /[\w.:]/.test(source[at - 1]!);
    if (!startsWord || afterWordChar) {
      // Inside a word, or a field (`t.end` is not Lua, `t.do_it` is one word): read past it.
      WORD.lastIndex = at;
      at = WORD.test(source) ? WORD.lastIndex : at + 1;
      continue;
    }
    WORD.lastIndex = at;
    WORD.test(source);
    return [at, source.slice(at, WORD.lastIndex)];
  }
  return undefined;
}

/** The index of the word that closes the block opened before `from` (depth 1), or -1. */
function blockEnd(scan: Scan, from: number): number {
  const { rules } = scan;
  let depth = 1;
  for (let found = nextWord(scan, from); found; found = nextWord(scan, found[0] + found[1].length)) {
    if (rules.blockOpeners!.has(found[1])) depth++;
    else if (rules.blockClosers!.has(found[1]) && --depth === 0) return found[0];
  }
  return -1;
}

/** The index after the `)` that closes the parameters following `from`, or -1. */
function parametersEnd(source: string, from: number, rules: SkeletonRules): number {
  const open = source.indexOf('(', from);
  if (open < 0) return -1;
  let depth = 0;
  for (let at = open; at < source.length;) {
    const skipped = literalOrCommentEnd(source, at, source.length, rules);
    if (skipped >= 0) {
      at = skipped;
      continue;
    }
    const c = source.charCodeAt(at);
    if (c === 40) depth++;
    else if (c === 41 && --depth === 0) return at + 1;
    at++;
  }
  return -1;
}

export function keywordSkeleton(source: string, rules: SkeletonRules): Skeleton | undefined {
  let stops = stopsByRules.get(rules);
  if (!stops) {
    // Words, and what may open a comment or a literal.
    stops = new RegExp(stopsOf(rules, '').source.replace(/^\[/, '[A-Za-z_'), 'g');
    stopsByRules.set(rules, stops);
  }
  const scan: Scan = { source, rules, stops };
  const cuts = new Cuts();
  let depth = 0;
  let at = 0;
  for (let found = nextWord(scan, at); found; found = nextWord(scan, at)) {
    const [start, word] = found;
    at = start + word.length;
    if (rules.blockClosers!.has(word)) {
      if (--depth < 0) return undefined;
      continue;
    }
    if (!rules.blockOpeners!.has(word)) continue;
    depth++;
    if (word !== 'function') continue;
    const bodyStart = parametersEnd(source, at, rules);
    if (bodyStart < 0) return undefined;
    const bodyEnd = blockEnd(scan, bodyStart);
    if (bodyEnd < 0) return undefined;
    at = bodyStart;
    if (rules.nested.test(source.slice(bodyStart, bodyEnd))) continue; // read on: its own functions are cut in turn
    if (bodyEnd - bodyStart >= MIN_CUT) cuts.body(bodyStart, bodyEnd);
    at = bodyEnd;
  }
  return depth === 0 ? build(source, cuts) : undefined;
}

const DEF_LINE = /^([ \t]*)(?:(?:private|protected|public|module_function)[ \t]+)?def[ \t]+\S/gm;
/** What a cut body must not hold: a definition (kept and read on), a heredoc or an `=begin` comment (lines out of indentation). */
const KEEP_BODY = /^[ \t]*(?:def|class|module)\b|<<[~-]?['"`]?[A-Za-z_]|^=begin/m;

/**
 * Ruby's skeleton, by indentation: a `def` whose `end` stands on its own line at the `def`'s
 * indentation, with every line between indented deeper (or `rescue`, `ensure`, `else` at its
 * level), has the lines between cut. Ruby's `if`, `while` and `until` open a block at a
 * statement's start but not after one (`x if y`), and `do` after `while` belongs to the loop:
 * counting keywords would need Ruby's grammar, while its conventional layout says where a method
 * ends. A method laid out otherwise (`def f; end`, `def f = x`, a body reaching out of its
 * indentation) is left whole, as is one that holds a definition, a heredoc or an `=begin`.
 */
export function indentedEndSkeleton(source: string): Skeleton {
  const cuts = new Cuts();
  const strings = heredocsAndComments(source);
  DEF_LINE.lastIndex = 0;
  for (let match = DEF_LINE.exec(source); match; match = DEF_LINE.exec(source)) {
    // A `def` in a heredoc is text (a template, or code kept in a string).
    const inString = strings.find(([from, to]) => match!.index >= from && match!.index < to);
    if (inString) {
      DEF_LINE.lastIndex = inString[1];
      continue;
    }
    const indent = match[1]!;
    const headEnd = headLineEnd(source, match.index);
    if (headEnd < 0) continue;
    const endAt = indentedEnd(source, headEnd + 1, indent);
    if (endAt < 0) continue;
    const bodyStart = headEnd + 1;
    if (endAt - bodyStart < MIN_CUT || KEEP_BODY.test(source.slice(bodyStart, endAt))) continue;
    cuts.body(bodyStart, endAt);
    DEF_LINE.lastIndex = endAt;
  }
  return build(source, cuts);
}

/**
 * The newline ending a `def`'s head, or -1 for a one-line method. Its parameters may run over
 * lines, in parentheses or after a trailing comma (`def f a, # note` then `b`).
 */
function headLineEnd(source: string, from: number): number {
  let depth = 0;
  let last = '';
  for (let at = from; at < source.length; at++) {
    const c = source[at]!;
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '#') {
      at = source.indexOf('\n', at) - 1;
      if (at < 0) return -1;
      continue;
    } else if ((c === ';' || c === '=') && depth === 0)
      return -1; // `def f; end`, `def f = x`
    else if (c === '\n' && depth <= 0 && last !== ',' && last !== '\\') return at;
    if (c !== ' ' && c !== '\t' && c !== '\r' && c !== '\n') last = c;
  }
  return -1;
}

/** Where the `end` at exactly `indent` that closes a body starting at `from` stands (after its indentation), or -1. */
function indentedEnd(source: string, from: number, indent: string): number {
  for (let line = from; line < source.length;) {
    let newline = source.indexOf('\n', line);
    if (newline < 0) newline = source.length;
    let text = line;
    while (text < newline && (source[text] === ' ' || source[text] === '\t')) text++;
    const blank = text === newline || (text === newline - 1 && source[text] === '\r');
    if (!blank && text - line <= indent.length) {
      if (text - line !== indent.length || !source.startsWith(indent, line)) return -1;
      const word = /^(end|rescue|ensure|else)\b/.exec(source.slice(text, text + 7))?.[1];
      if (word === 'end') return text;
      if (word === undefined) return -1;
    }
    line = newline + 1;
  }
  return -1;
}

const HEREDOC = /<<([~-]?)(['"`]?)([A-Za-z_]\w*)\2/g;

/** The ranges [from, to) of heredoc bodies and `=begin` comments: lines that are not code. */
function heredocsAndComments(source: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  HEREDOC.lastIndex = 0;
  for (let match = HEREDOC.exec(source); match; match = HEREDOC.exec(source)) {
    const bodyStart = source.indexOf('\n', match.index) + 1;
    if (bodyStart === 0) break;
    const indented = match[1] !== '';
    const terminator = new RegExp(`^${indented ? '[ \\t]*' : ''}${match[3]}\\r?$`, 'm');
    const end = terminator.exec(source.slice(bodyStart));
    const to = end ? bodyStart + end.index + end[0].length : source.length;
    ranges.push([bodyStart, to]);
    HEREDOC.lastIndex = Math.max(HEREDOC.lastIndex, bodyStart);
  }
  for (let at = source.indexOf('\n=begin'); at >= 0; at = source.indexOf('\n=begin', at + 1)) {
    const close = source.indexOf('\n=end', at);
    ranges.push([at, close < 0 ? source.length : close]);
  }
  return ranges;
}
