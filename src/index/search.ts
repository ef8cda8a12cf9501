/**
 * Searching an index: plan the trigram query, evaluate it over the postings (rarest lists
 * first), then verify each candidate file line by line against the real pattern. The result is
 * exactly what a scan of the indexed files would find, in path order, up to the limit.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { globToRegExp } from './glob.js';
import { literalQuery, planRegex, type TrigramQuery } from './query-plan.js';
import { Segment, type SegmentFile } from './segment.js';
import { IndexStore, type Manifest } from './store.js';

export const DEFAULT_SEARCH_LIMIT = 100;
/** File text kept in memory between searches (UTF-16, so about two bytes a character). */
export const DEFAULT_CONTENT_CACHE_BYTES = 256 * 1024 * 1024;
/** When an AND of trigram lists is down to this many files, the rest of the lists are skipped. */
const GOOD_ENOUGH_CANDIDATES = 16;
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

/**
 * Finds where a match could start in a whole file, at or after `from` (-1: nowhere). Used to
 * jump to candidate lines instead of splitting every file; each such line is then checked with
 * the line matcher, so the answer stays exactly the line-by-line one.
 */
export type Seeker = (text: string, from: number) => number;

export function compileMatcher(query: SearchQuery): { matcher: LineMatcher; plan: TrigramQuery; seek?: Seeker } {
  const caseInsensitive = !query.caseSensitive;
  if (!query.regex && !caseInsensitive) {
    const needle = query.pattern;
    return { matcher: (line) => line.indexOf(needle), plan: literalQuery(needle, false), seek: (text, from) => text.indexOf(needle, from) };
  }
  const source = query.regex ? query.pattern : query.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const { query: plan, unicode } = query.regex ? planRegex(source, caseInsensitive) : { query: literalQuery(query.pattern, true), unicode: true };
  const flags = `${unicode ? 'u' : ''}${caseInsensitive ? 'i' : ''}`;
  const regex = new RegExp(source, flags);
  const matcher: LineMatcher = (line) => {
    const found = regex.exec(line);
    return found ? found.index : -1;
  };
  // Over a whole file with the m flag, a match on a line is a match in the text at the same
  // place, except where lookaround can see past the line's end: then scan line by line.
  if (/\(\?<?[=!]|\(\?</.test(source)) return { matcher, plan };
  const whole = new RegExp(source, `${flags}gm`);
  const seek: Seeker = (text, from) => {
    whole.lastIndex = from;
    const found = whole.exec(text);
    return found ? found.index : -1;
  };
  return { matcher, plan, seek };
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf('\n', from); at >= 0 && at < to; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

export class IndexReader {
  readonly root: string;
  readonly manifest: Manifest;
  readonly #segment: Segment;
  readonly #cache = new Map<number, { mtimeMs: number; size: number; text: string }>();
  readonly #cacheBytes: number;
  #cachedChars = 0;

  private constructor(root: string, manifest: Manifest, segment: Segment, cacheBytes: number) {
    this.root = root;
    this.manifest = manifest;
    this.#segment = segment;
    this.#cacheBytes = cacheBytes;
  }

  static open(root: string, home?: string, options: { contentCacheBytes?: number } = {}): IndexReader {
    const store = new IndexStore(root, home);
    const manifest = store.readManifest();
    if (!manifest || manifest.segments.length === 0) throw new NotIndexedError(root);
    const segment = new Segment(store.readSegment(manifest.segments[0]!));
    return new IndexReader(root, manifest, segment, options.contentCacheBytes ?? DEFAULT_CONTENT_CACHE_BYTES);
  }

  /**
   * A file's current text. Kept in a bounded LRU, checked against the file's size and mtime on
   * every use (a stat costs far less than a read), so an edited file is read again.
   */
  #content(id: number, file: SegmentFile): string | undefined {
    const path = join(this.root, file.path);
    let stats;
    try {
      stats = statSync(path);
    } catch {
      this.#cache.delete(id);
      return undefined;
    }
    const cached = this.#cache.get(id);
    if (cached && cached.mtimeMs === stats.mtimeMs && cached.size === stats.size) {
      this.#cache.delete(id);
      this.#cache.set(id, cached); // most recently used last
      return cached.text;
    }
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
    if (cached) this.#cachedChars -= cached.text.length;
    this.#cache.set(id, { mtimeMs: stats.mtimeMs, size: stats.size, text });
    this.#cachedChars += text.length;
    for (const [oldest, entry] of this.#cache) {
      if (this.#cachedChars * 2 <= this.#cacheBytes) break;
      this.#cache.delete(oldest);
      this.#cachedChars -= entry.text.length;
    }
    return text;
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
          // Rarest trigram lists first, and stop once few candidates are left: verifying a
          // handful of files costs less than decoding long lists that would barely narrow them.
          const trigrams = query.children
            .filter((child): child is { op: 'trigram'; trigram: number } => child.op === 'trigram')
            .map((child) => ({ trigram: child.trigram, count: this.#segment.postingCount(child.trigram) }))
            .sort((a, b) => a.count - b.count);
          let result: Uint32Array | undefined;
          for (const { trigram } of trigrams) {
            if (result && result.length <= GOOD_ENOUGH_CANDIDATES) break;
            const list = this.#segment.postings(trigram);
            result = result ? intersect(result, list) : list;
          }
          for (const child of query.children) {
            if (child.op === 'trigram') continue;
            const list = evaluate(child);
            if (list) result = result ? intersect(result, list) : list;
          }
          return result;
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
    const { matcher, plan, seek } = compileMatcher(query);
    const pathFilter = query.path ? globToRegExp(query.path) : undefined;
    const candidates = this.candidates(plan);
    const matches: Match[] = [];
    let truncated = false;
    for (const id of candidates) {
      const file = this.#segment.files[id]!;
      if (pathFilter && !pathFilter.test(file.path)) continue;
      if (query.language && file.language !== query.language) continue;
      const text = this.#content(id, file);
      if (text === undefined) continue; // deleted since indexing: nothing to match
      const emit = (lineIndex: number, column: number, line: string, lines?: string[]): boolean => {
        if (matches.length === limit) return (truncated = true) && false;
        const match: Match = { path: file.path, line: lineIndex + 1, column: column + 1, text: clip(line, column) };
        if (context > 0 && lines) {
          match.before = lines.slice(Math.max(0, lineIndex - context), lineIndex).map((l) => l.replace(/\r$/, ''));
          match.after = lines.slice(lineIndex + 1, lineIndex + 1 + context).map((l) => l.replace(/\r$/, ''));
        }
        matches.push(match);
        return true;
      };
      if (seek && context === 0) {
        let lineIndex = 0;
        let counted = 0;
        for (let from = 0; from <= text.length; ) {
          const hit = seek(text, from);
          if (hit < 0) break;
          const lineStart = hit === 0 ? 0 : text.lastIndexOf('\n', hit - 1) + 1;
          let lineEnd = text.indexOf('\n', hit);
          if (lineEnd < 0) lineEnd = text.length;
          lineIndex += countNewlines(text, counted, lineStart);
          counted = lineStart;
          const raw = text.slice(lineStart, lineEnd);
          const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
          const column = matcher(line);
          if (column >= 0 && !emit(lineIndex, column, line)) break;
          from = lineEnd + 1;
        }
      } else {
        const lines = text.split('\n');
        for (let i = 0; i < lines.length; i++) {
          const line = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
          const column = matcher(line);
          if (column >= 0 && !emit(i, column, line, lines)) break;
        }
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
