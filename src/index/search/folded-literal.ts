/**
 * Case-insensitive search for a literal too long to compile as one regex: a megabyte of query
 * text as a `/…/iu` pattern overflows the regex compiler's stack and costs hundreds of MiB.
 * Candidates come from a short regex of the literal's first characters; the rest is compared
 * one code point at a time. Equality is asked of the regex engine itself (`/^a$/iu.test(b)`,
 * Unicode simple case folding) and memoised, so the answer is exactly what the whole regex
 * would give.
 */

/** Case-insensitive literals longer than this (code units) are matched here, not by one regex. */
export const LONG_LITERAL_CHARS = 256;
/** Code units of the literal's head that the candidate regex covers. */
const HEAD_CODE_UNITS = 64;

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface FoldedLiteral {
  /** The first match in `text` at or after `from`: its index and length in code units; undefined when none. */
  find(text: string, from: number): { index: number; length: number } | undefined;
  /** A regex (flags gimu) of the literal's head: every match starts where it matches. */
  readonly head: RegExp;
}

export function foldedLiteral(needle: string): FoldedLiteral {
  const points = Array.from(needle);
  let headPoints = 0;
  let headUnits = 0;
  while (headPoints < points.length && headUnits + points[headPoints]!.length <= HEAD_CODE_UNITS) headUnits += points[headPoints++]!.length;
  const head = escape(points.slice(0, headPoints).join(''));
  const seekHead = new RegExp(head, 'giu');
  const rest = points.slice(headPoints);
  const single = new Map<string, RegExp>();
  const memo = new Map<string, boolean>();
  const same = (a: string, b: string): boolean => {
    if (a === b) return true;
    const key = `${a}\0${b}`;
    let known = memo.get(key);
    if (known === undefined) {
      let regex = single.get(a);
      if (!regex) single.set(a, (regex = new RegExp(`^${escape(a)}$`, 'iu')));
      memo.set(key, (known = regex.test(b)));
    }
    return known;
  };
  const codePointAt = (text: string, at: number): string | undefined => {
    const code = text.codePointAt(at);
    return code === undefined ? undefined : String.fromCodePoint(code);
  };
  return {
    head: new RegExp(head, 'gimu'),
    find(text, from) {
      seekHead.lastIndex = from;
      for (let found = seekHead.exec(text); found; found = seekHead.exec(text)) {
        let at = found.index + found[0].length;
        let matched = true;
        for (const wanted of rest) {
          const actual = codePointAt(text, at);
          if (actual === undefined || !same(wanted, actual)) {
            matched = false;
            break;
          }
          at += actual.length;
        }
        if (matched) return { index: found.index, length: at - found.index };
        seekHead.lastIndex = found.index + 1;
      }
      return undefined;
    },
  };
}
