/**
 * The skeleton of a language whose blocks are delimited by keywords (Lua): each function's body,
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
