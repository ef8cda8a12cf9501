/**
 * Searching an index: plan the trigram query, evaluate it over the postings (rarest lists
 * first), then verify each candidate file line by line against the real pattern. The result is
 * exactly what a scan of the indexed files would find, in path order, up to the limit.
 */
import { ContentCache, type FileText } from './content-cache.js';
import { join } from 'node:path';
import { globToRegExp } from './glob.js';
import { readTextOnce } from './read-text.js';
import { foldedLiteral, LONG_LITERAL_CHARS } from './folded-literal.js';
import { literalQuery, planRegex, type TrigramQuery } from './query-plan.js';
import { segmentCandidates } from './candidates.js';
import { byPath, documentsOf, Segment, type SegmentFile } from './segment.js';
import { IndexStore, type Manifest } from './store.js';

export const DEFAULT_SEARCH_LIMIT = 100;
/** Searches with more candidate files than this bypass the content cache. */
const CACHE_BYPASS_CANDIDATES = 4_096;
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
  /**
   * Verify only this share of the candidates (files whose path hashes to `index` modulo
   * `count`): several search workers split one query this way, each caching its own files.
   */
  shard?: { index: number; count: number };
}

export interface Match {
  path: string;
  line: number;
  column: number;
  text: string;
  before?: string[];
  after?: string[];
  /**
   * Ranking signals the search worker computes from its own verified match, so that nobody runs
   * the caller's pattern again outside the worker's budget (see publicMatch):
   * the match's length in code units; for a literal, whether an occurrence on the line is a
   * whole identifier; for a regex, the matched text (at most MAX_MATCHED_TEXT).
   */
  length?: number;
  word?: boolean;
  matched?: string;
}

/** Longest matched text kept as a ranking signal. */
export const MAX_MATCHED_TEXT = 200;

/** A match without the worker's ranking signals: what the CLI and the tools show. */
export function publicMatch(match: Match): Match {
  const { length: _length, word: _word, matched: _matched, ...shown } = match;
  return shown;
}

export interface Candidate {
  file: SegmentFile;
  /** For a file indexed in blocks, the blocks that can match, ascending; undefined: the whole file. */
  blocks?: number[];
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

export interface CompiledQuery {
  matcher: LineMatcher;
  plan: TrigramQuery;
  seek?: Seeker;
  /** The length (code units) of what the last successful `matcher` call matched. */
  lastLength(): number;
  regex: boolean;
}

export function compileMatcher(query: SearchQuery): CompiledQuery {
  const caseInsensitive = !query.caseSensitive;
  const regexQuery = query.regex === true;
  let length = 0;
  const lastLength = (): number => length;
  if (!regexQuery && !caseInsensitive) {
    const needle = query.pattern;
    length = needle.length;
    return { matcher: (line) => line.indexOf(needle), plan: literalQuery(needle, false), seek: (text, from) => text.indexOf(needle, from), lastLength, regex: false };
  }
  if (!regexQuery && query.pattern.length > LONG_LITERAL_CHARS) {
    // No regex of the whole text: see folded-literal.ts.
    const folded = foldedLiteral(query.pattern);
    const matcher: LineMatcher = (line) => {
      const found = folded.find(line, 0);
      if (!found) return -1;
      length = found.length;
      return found.index;
    };
    const seek: Seeker = (text, from) => {
      folded.head.lastIndex = from;
      return folded.head.exec(text)?.index ?? -1;
    };
    return { matcher, plan: literalQuery(query.pattern, true), seek, lastLength, regex: false };
  }
  const source = regexQuery ? query.pattern : query.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const { query: plan, unicode, literal } = regexQuery ? planRegex(source, caseInsensitive) : { query: literalQuery(query.pattern, true), unicode: true, literal: undefined };
  const flags = `${unicode ? 'u' : ''}${caseInsensitive ? 'i' : ''}`;
  const regex = new RegExp(source, flags);
  const matcher: LineMatcher = (line) => {
    const found = regex.exec(line);
    if (!found) return -1;
    length = found[0].length;
    return found.index;
  };
  const compiled = { matcher, plan, lastLength, regex: regexQuery };
  // A literal every match contains: jump between its occurrences; the line matcher decides.
  if (literal && !caseInsensitive) return { ...compiled, seek: (text, from) => text.indexOf(literal, from) };
  // Over a whole file with the m flag, a match on a line is a match in the text at the same
  // place, except where lookaround can see past the line's end: then scan line by line.
  if (/\(\?<?[=!]|\(\?</.test(source)) return compiled;
  const whole = new RegExp(source, `${flags}gm`);
  const seek: Seeker = (text, from) => {
    whole.lastIndex = from;
    const found = whole.exec(text);
    return found ? found.index : -1;
  };
  return { ...compiled, seek };
}

const IDENTIFIER_CHAR = /[\w$]/;
/** Occurrences of a literal on one line looked at for a whole-identifier one. */
const MAX_WORD_PROBES = 16;

/**
 * Whether the literal occurs on the line as a whole identifier (no identifier character on
 * either side), from the first verified match on, with the worker's own matcher.
 */
function wholeIdentifier(line: string, column: number, compiled: CompiledQuery): boolean {
  let start = column;
  let length = compiled.lastLength();
  for (let probe = 0; probe < MAX_WORD_PROBES; probe++) {
    const before = start > 0 ? line[start - 1]! : '';
    const after = line[start + length] ?? '';
    if (!IDENTIFIER_CHAR.test(before) && !IDENTIFIER_CHAR.test(after)) return true;
    const next = compiled.matcher(line.slice(start + 1));
    if (next < 0) return false;
    start += 1 + next;
    length = compiled.lastLength();
  }
  return false;
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf('\n', from); at >= 0 && at < to; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/**
 * Adds the matching lines of one file's text to `matches`, up to `limit`; false when it stopped
 * at the limit with more to find. `lineOf` (cached line starts) saves counting newlines.
 */
export function matchText(
  path: string,
  text: string,
  compiled: CompiledQuery,
  context: number,
  matches: Match[],
  limit: number,
  lineOf?: (offset: number) => number,
  /** With `lineOf`: only these [start, end) ranges of the text (each starting at a line start) need be searched. */
  windows?: Array<[number, number]>,
): boolean {
  const { matcher, seek } = compiled;
  let truncated = false;
  const emit = (lineIndex: number, column: number, line: string, lines?: string[]): boolean => {
    if (matches.length === limit) return (truncated = true) && false;
    const match: Match = { path, line: lineIndex + 1, column: column + 1, text: clip(line, column) };
    const length = compiled.lastLength();
    match.length = length;
    if (compiled.regex) match.matched = line.slice(column, column + Math.min(length, MAX_MATCHED_TEXT));
    else match.word = wholeIdentifier(line, column, compiled);
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
    // A window is searched as a slice of its own (V8 slices without copying), so that seeking
    // never runs on into text no block needs.
    for (const [windowStart, windowEnd] of lineOf && windows ? windows : [[0, text.length] as [number, number]]) {
      const part = windowStart === 0 && windowEnd === text.length ? text : text.slice(windowStart, windowEnd);
      // Lines end at '\n'; a final '\n' ends the last line, it does not start another (as in rg).
      for (let from = 0; from < part.length; ) {
        const hit = seek(part, from);
        if (hit < 0 || (hit === part.length && part.endsWith('\n'))) break;
        const lineStart = hit === 0 ? 0 : part.lastIndexOf('\n', hit - 1) + 1;
        let lineEnd = part.indexOf('\n', hit);
        if (lineEnd < 0) lineEnd = part.length;
        if (lineOf) lineIndex = lineOf(windowStart + lineStart);
        else {
          lineIndex += countNewlines(part, counted, lineStart);
          counted = lineStart;
        }
        const raw = part.slice(lineStart, lineEnd);
        const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        const column = matcher(line);
        if (column >= 0 && !emit(lineIndex, column, line)) return false;
        from = lineEnd + 1;
      }
    }
  } else {
    const lines = text.split('\n');
    if (text.endsWith('\n') || text === '') lines.pop();
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
      const column = matcher(line);
      if (column >= 0 && !emit(i, column, line, lines)) break;
    }
  }
  return !truncated;
}

export class IndexReader {
  readonly root: string;
  readonly manifest: Manifest;
  /** Segments oldest first; `live[id]` is 0 where a newer segment replaced or deleted the file. */
  readonly #layers: Array<{ segment: Segment; live: Uint8Array }>;
  readonly #cache: ContentCache;
  #cacheBypass = CACHE_BYPASS_CANDIDATES;
  /** Live files across segments; fixed for the life of a reader. */
  readonly #liveFiles: number;

  private constructor(root: string, manifest: Manifest, segments: Segment[], cache: ContentCache) {
    this.root = root;
    this.manifest = manifest;
    this.#cache = cache;
    // Newest first: a path seen in a newer segment (as a file or a tombstone) is dead in older ones.
    // The segments of one full build hold disjoint files: only the deltas after them need
    // remembering, not every path of the tree.
    const seen = new Set<string>();
    const base = Math.min(manifest.baseSegments ?? 0, segments.length);
    const layers = segments.map((segment) => ({ segment, live: new Uint8Array(segment.fileCount) }));
    for (let i = layers.length - 1; i >= 0; i--) {
      const { segment, live } = layers[i]!;
      const count = segment.fileCount;
      if (seen.size === 0) live.fill(1);
      else for (let id = 0; id < count; id++) live[id] = seen.has(segment.pathOf(id)) ? 0 : 1;
      if (i < base) continue;
      for (let id = 0; id < count; id++) seen.add(segment.pathOf(id));
      for (const path of segment.tombstones) seen.add(path);
    }
    this.#layers = layers;
    this.#liveFiles = layers.reduce((sum, { live }) => sum + live.reduce((n, alive) => n + alive, 0), 0);
  }

  /** `cache` may be shared with the reader this one replaces: the text of unchanged files stays warm. */
  /**
   * `lazy`: read each segment's header and directory only, and the posting lists a query needs
   * (a one-shot search: the CLI's); the reader then holds the files open until `close()`.
   */
  static open(root: string, home?: string, options: { cache?: ContentCache; contentCacheBytes?: number; cacheBypassCandidates?: number; segment?: (name: string) => Buffer | undefined; lazy?: boolean } = {}): IndexReader {
    const store = new IndexStore(root, home);
    let manifest: Manifest | undefined;
    let segments: Segment[] = [];
    // A commit swaps the manifest, then deletes the segments only the old one named: an open
    // that read the old manifest may find one gone. The new manifest is there by then: read again.
    for (let attempt = 0; ; attempt++) {
      manifest = store.readManifest();
      if (!manifest || manifest.segments.length === 0) throw new NotIndexedError(root);
      try {
        // A segment already in shared memory (search workers) is not read again.
        segments = [];
        for (const name of manifest.segments) {
          const shared = options.segment?.(name);
          segments.push(shared ? new Segment(shared) : options.lazy ? Segment.open(store.segmentPath(name)) : new Segment(store.readSegment(name)));
        }
        break;
      } catch (error) {
        for (const segment of segments) segment.close();
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 3) throw error;
      }
    }
    const reader = new IndexReader(root, manifest, segments, options.cache ?? new ContentCache(options.contentCacheBytes));
    if (options.cacheBypassCandidates !== undefined) reader.#cacheBypass = options.cacheBypassCandidates;
    return reader;
  }

  /**
   * The manifest and every live file, in path order, from the segments' headers alone: what a
   * symbol phase needs, without the postings a search would read.
   */
  static liveFiles(root: string, home?: string): { manifest: Manifest; files: SegmentFile[] } {
    const reader = IndexReader.open(root, home, { lazy: true });
    try {
      return { manifest: reader.manifest, files: reader.files };
    } finally {
      reader.close();
    }
  }

  /** Lets go of the segment files a lazy reader holds open. */
  close(): void {
    for (const { segment } of this.#layers) segment.close();
  }

  /** Every live file, in path order. */
  get files(): SegmentFile[] {
    return this.#layers
      .flatMap(({ segment, live }) => segment.files.filter((_, id) => live[id] === 1))
      .sort(byPath);
  }

  /**
   * Live files that can match, in path order across segments; for a file indexed in blocks, the
   * blocks that can (undefined: all of it).
   */
  candidates(plan: TrigramQuery): Candidate[] {
    const found: Candidate[] = [];
    for (const { segment, live } of this.#layers) {
      let last: Candidate | undefined;
      let lastId = -1;
      for (const document of segmentCandidates(segment, plan)) {
        const id = segment.documentFile[document]!;
        if (live[id] !== 1) continue;
        const file = segment.fileOf(id);
        if (id !== lastId) {
          last = { file };
          lastId = id;
          found.push(last);
        }
        if (file.blocks) (last!.blocks ??= []).push(segment.documentBlock[document]!);
      }
    }
    // A file whose every block can match is searched whole.
    for (const candidate of found) if (candidate.blocks && candidate.blocks.length === documentsOf(candidate.file)) delete candidate.blocks;
    if (this.#layers.length > 1) found.sort((a, b) => byPath(a.file, b.file));
    return found;
  }

  /** The [start, end) character ranges of a cached file that its candidate blocks cover, neighbours joined. */
  #windows(entry: FileText, file: SegmentFile, blocks: number[]): Array<[number, number]> {
    const windows: Array<[number, number]> = [];
    const lines = file.blocks!;
    for (const block of blocks) {
      const start = this.#cache.lineStart(entry, block === 0 ? 0 : lines[block - 1]!);
      const end = block < lines.length ? this.#cache.lineStart(entry, lines[block]!) : entry.text.length;
      const previous = windows.at(-1);
      if (previous && previous[1] === start) previous[1] = end;
      else windows.push([start, end]);
    }
    return windows;
  }

  search(query: SearchQuery): SearchResult {
    const started = Date.now();
    const limit = query.limit ?? DEFAULT_SEARCH_LIMIT;
    const context = Math.max(0, query.context ?? 0);
    const compiled = compileMatcher(query);
    const pathFilter = query.path ? globToRegExp(query.path) : undefined;
    const candidates = this.candidates(compiled.plan);
    // A scan of most of the tree would only churn the cache (and stat every file): read directly.
    const scan = candidates.length > this.#cacheBypass;
    const shard = query.shard && query.shard.count > 1 ? query.shard : undefined;
    const matches: Match[] = [];
    let truncated = false;
    for (const { file, blocks } of candidates) {
      if (shard && shardOf(file.path, shard.count) !== shard.index) continue;
      if (pathFilter && !pathFilter.test(file.path)) continue;
      if (query.language && file.language !== query.language) continue;
      const entry = scan ? undefined : this.#cache.get(join(this.root, file.path));
      const text = scan ? readTextOnce(join(this.root, file.path)) : entry?.text;
      if (text === undefined) continue; // deleted since indexing: nothing to match
      const lineOf = entry ? (offset: number) => this.#cache.lineOf(entry, offset) : undefined;
      // Blocks are valid only for the text that was indexed: an edited file is searched whole.
      const windows = entry && blocks && entry.size === file.size && entry.mtimeMs === file.mtimeMs ? this.#windows(entry, file, blocks) : undefined;
      if (!matchText(file.path, text, compiled, context, matches, limit, lineOf, windows)) truncated = true;
      if (truncated) break;
    }
    return { matches, truncated, stats: { files: this.#liveFiles, candidates: candidates.length, durationMs: Date.now() - started } };
  }
}

/** A stable shard for a path (FNV-1a), so each search worker keeps seeing the same files. */
export function shardOf(path: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % count;
}

function clip(line: string, column: number): string {
  if (line.length <= MAX_MATCH_TEXT) return line;
  const start = Math.max(0, Math.min(column - 100, line.length - MAX_MATCH_TEXT));
  return `${start > 0 ? '…' : ''}${line.slice(start, start + MAX_MATCH_TEXT)}…`;
}
