/**
 * Searching an index: plan the trigram query, evaluate it over the postings (rarest lists
 * first), then verify each candidate file line by line against the real pattern. The result is
 * exactly what a scan of the indexed files would find, in path order, up to the limit.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { globToRegExp } from './glob.js';
import { literalQuery, planRegex, type TrigramQuery } from './query-plan.js';
import { Segment, type SegmentFile } from './segment.js';
import { IndexStore, type Manifest } from './store.js';

export const DEFAULT_SEARCH_LIMIT = 100;
/** Longest line text returned in a match; longer lines are cut around the match. */
export const MAX_MATCH_TEXT = 400;

export interface SearchQuery {
  pattern: string;
  regex?: boolean;
  caseSensitive?: boolean;
  /** Glob over workspace-relative paths, e.g. `src/**\/*.ts`. */
  path?: string;
  language?: string;
  limit?: number;
  /** Lines of context before and after each match. */
  context?: number;
}

export interface Match {
  path: string;
  line: number;
  column: number;
  text: string;
  before?: string[];
  after?: string[];
}

export interface SearchResult {
  matches: Match[];
  truncated: boolean;
  stats: { files: number; candidates: number; durationMs: number };
}

export class NotIndexedError extends Error {
  readonly code = 'SEXTANT_ERR_NOT_INDEXED';
  constructor(root: string) {
    super(`${root} is not indexed yet: run "sextant index ${root}"`);
    this.name = 'NotIndexedError';
  }
}

/** Finds the first match in a line: its 0-based column, or -1. */
export type LineMatcher = (line: string) => number;

export function compileMatcher(query: SearchQuery): { matcher: LineMatcher; plan: TrigramQuery } {
  const caseInsensitive = !query.caseSensitive;
  if (!query.regex && !caseInsensitive) {
    const needle = query.pattern;
    return { matcher: (line) => line.indexOf(needle), plan: literalQuery(needle, false) };
  }
  const source = query.regex ? query.pattern : query.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const { query: plan, unicode } = query.regex ? planRegex(source, caseInsensitive) : { query: literalQuery(query.pattern, true), unicode: true };
  const regex = new RegExp(source, `${unicode ? 'u' : ''}${caseInsensitive ? 'i' : ''}`);
  return {
    matcher: (line) => {
      const found = regex.exec(line);
      return found ? found.index : -1;
    },
    plan,
  };
}

export class IndexReader {
  readonly root: string;
  readonly manifest: Manifest;
  readonly #segment: Segment;

  private constructor(root: string, manifest: Manifest, segment: Segment) {
    this.root = root;
    this.manifest = manifest;
    this.#segment = segment;
  }

  static open(root: string, home?: string): IndexReader {
    const store = new IndexStore(root, home);
    const manifest = store.readManifest();
    if (!manifest || manifest.segments.length === 0) throw new NotIndexedError(root);
    return new IndexReader(root, manifest, new Segment(store.readSegment(manifest.segments[0]!)));
  }

  get files(): readonly SegmentFile[] {
    return this.#segment.files;
  }

  /** Ids of the files that can match, ascending (= path order). */
  candidates(plan: TrigramQuery): Uint32Array {
    const all = this.#segment.files.length;
    const evaluate = (query: TrigramQuery): Uint32Array | undefined => {
      switch (query.op) {
        case 'all':
          return undefined;
        case 'trigram':
          return this.#segment.postings(query.trigram);
        case 'and': {
          const lists = query.children.map(evaluate).filter((list): list is Uint32Array => list !== undefined);
          if (lists.length === 0) return undefined;
          lists.sort((a, b) => a.length - b.length);
          return lists.reduce(intersect);
        }
        case 'or': {
          const lists = query.children.map(evaluate);
          if (lists.some((list) => list === undefined)) return undefined;
          return (lists as Uint32Array[]).reduce(union);
        }
      }
    };
    const indexed = evaluate(plan) ?? Uint32Array.from({ length: all }, (_, i) => i);
    // Files kept out of the postings (long lines, too many trigrams) are always candidates.
    const unindexed = this.#segment.files.flatMap((file, id) => (file.unindexed ? [id] : []));
    return unindexed.length === 0 ? indexed : union(indexed, Uint32Array.from(unindexed));
  }

  search(query: SearchQuery): SearchResult {
    const started = Date.now();
    const limit = query.limit ?? DEFAULT_SEARCH_LIMIT;
    const context = Math.max(0, query.context ?? 0);
    const { matcher, plan } = compileMatcher(query);
    const pathFilter = query.path ? globToRegExp(query.path) : undefined;
    const candidates = this.candidates(plan);
    const matches: Match[] = [];
    let truncated = false;
    for (const id of candidates) {
      const file = this.#segment.files[id]!;
      if (pathFilter && !pathFilter.test(file.path)) continue;
      if (query.language && file.language !== query.language) continue;
      let text: string;
      try {
        text = readFileSync(join(this.root, file.path), 'utf8');
      } catch {
        continue; // deleted since indexing: nothing to match
      }
      const lines = text.split('\n');
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
        const column = matcher(line);
        if (column < 0) continue;
        if (matches.length === limit) {
          truncated = true;
          break;
        }
        const match: Match = { path: file.path, line: i + 1, column: column + 1, text: clip(line, column) };
        if (context > 0) {
          match.before = lines.slice(Math.max(0, i - context), i).map((l) => l.replace(/\r$/, ''));
          match.after = lines.slice(i + 1, i + 1 + context).map((l) => l.replace(/\r$/, ''));
        }
        matches.push(match);
      }
      if (truncated) break;
    }
    return { matches, truncated, stats: { files: this.#segment.files.length, candidates: candidates.length, durationMs: Date.now() - started } };
  }
}

function clip(line: string, column: number): string {
  if (line.length <= MAX_MATCH_TEXT) return line;
  const start = Math.max(0, Math.min(column - 100, line.length - MAX_MATCH_TEXT));
  return `${start > 0 ? '…' : ''}${line.slice(start, start + MAX_MATCH_TEXT)}…`;
}

export function intersect(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out[n++] = a[i]!;
      i++;
      j++;
    }
  }
  return out.subarray(0, n);
}

export function union(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]! < b[j]!)) out[n++] = a[i++]!;
    else if (i >= a.length || b[j]! < a[i]!) out[n++] = b[j++]!;
    else {
      out[n++] = a[i]!;
      i++;
      j++;
    }
  }
  return out.subarray(0, n);
}
