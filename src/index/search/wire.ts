/**
 * The search workers' wire format: a result packed column by column to cross the thread
 * boundary, and unpacked on the other side. Apart from the pool (search-service.ts), which only
 * sends and receives it.
 */
import type { Match, SearchResult } from './reader.js';

/**
 * A result as it crosses the thread boundary: column by column, each path once. Thousands of
 * small match objects cost far more to clone than a few arrays (the typed ones are moved, not
 * copied).
 */
export interface PackedResult extends Omit<SearchResult, 'matches'> {
  paths: string[];
  file: Int32Array;
  line: Int32Array;
  column: Int32Array;
  text: string[];
  context?: Array<{ before?: string[]; after?: string[] } | null>;
  /** Ranking signals (see Match): length, flags (1: a whole identifier, 2: in a generated file), and a regex's matched text. */
  length: Int32Array;
  flags: Uint8Array;
  matched?: string[];
  partial?: boolean;
}

export function pack(result: SearchResult & { partial?: boolean }): PackedResult {
  const { matches, ...rest } = result;
  const paths: string[] = [];
  const file = new Int32Array(matches.length);
  const line = new Int32Array(matches.length);
  const column = new Int32Array(matches.length);
  const text: string[] = new Array<string>(matches.length);
  const length = new Int32Array(matches.length);
  const flags = new Uint8Array(matches.length);
  let matched: string[] | undefined;
  let context: PackedResult['context'];
  matches.forEach((match, i) => {
    if (paths.at(-1) !== match.path) paths.push(match.path);
    file[i] = paths.length - 1;
    line[i] = match.line;
    column[i] = match.column;
    text[i] = match.text;
    length[i] = match.length ?? 0;
    flags[i] = (match.word ? WORD : 0) | (match.generated ? GENERATED : 0);
    if (match.matched !== undefined) (matched ??= new Array<string>(matches.length).fill(''))[i] = match.matched;
    if (match.before || match.after) {
      context ??= new Array(matches.length).fill(null);
      context[i] = { ...(match.before ? { before: match.before } : {}), ...(match.after ? { after: match.after } : {}) };
    }
  });
  return { ...rest, paths, file, line, column, text, length, flags, ...(matched ? { matched } : {}), ...(context ? { context } : {}) };
}

const WORD = 1;
const GENERATED = 2;

export function unpack(packed: PackedResult): SearchResult {
  const { paths, file, line, column, text, context, length, flags, matched, ...rest } = packed;
  const matches = text.map((value, i): Match => {
    const match: Match = { path: paths[file[i]!]!, line: line[i]!, column: column[i]!, text: value, ...(context?.[i] ?? {}), length: length[i]! };
    if (matched) match.matched = matched[i]!;
    else match.word = (flags[i]! & WORD) !== 0;
    if (flags[i]! & GENERATED) match.generated = true;
    return match;
  });
  return { ...rest, matches };
}
