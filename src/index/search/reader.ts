/**
 * Searching an index: plan the trigram query, evaluate it over the postings (rarest lists
 * first), then verify each candidate file line by line against the real pattern. The result is
 * exactly what a scan of the indexed files would find, in path order, up to the limit.
 */
import { ContentCache, type FileText } from './content-cache.js';
import { globToRegExp } from '../files/glob.js';
import { ProjectFiles } from '../files/project-file.js';
import { byteWindows } from './block-windows.js';
import { compiledMatcher, matchBytes, matchText, matchWindows } from './matcher.js';
import type { TrigramQuery } from './query-plan.js';
import { segmentCandidates } from './candidates.js';
import { byPath, documentsOf, Segment, type SegmentFile } from '../text/segment.js';
import { IndexStore } from '../store/store.js';
import type { Manifest } from '../store/manifest.js';
import { sourceFirst, sourceFirstKey } from './path-signals.js';
import type { Match, SearchQuery } from './search-query.js';

export type { Match, SearchQuery } from './search-query.js';

export const DEFAULT_SEARCH_LIMIT = 100;
/** Searches with more candidate files than this bypass the content cache. */
const CACHE_BYPASS_CANDIDATES = 4_096;

/**
 * How a file says it is generated, in its first characters: Go's `// Code generated … DO NOT
 * EDIT.`, protoc's and others' `DO NOT EDIT`, Facebook's `@generated`. A ranking signal only.
 */
const GENERATED_MARK = /\bDO NOT EDIT\b|@generated\b/;
const GENERATED_HEAD_CHARS = 1_024;

/** Whether a file whose text starts with `text` says it is generated (GENERATED_MARK in its head). */
export function saysGenerated(text: string): boolean {
  return GENERATED_MARK.test(text.length > GENERATED_HEAD_CHARS ? text.slice(0, GENERATED_HEAD_CHARS) : text);
}

/** A match without the worker's ranking signals: what the CLI and the tools show. */
export function publicMatch(match: Match): Match {
  const { length: _length, word: _word, matched: _matched, generated: _generated, defines: _defines, ...shown } = match;
  return shown;
}

function inPathOrder(candidates: Candidate[]): boolean {
  for (let at = 1; at < candidates.length; at++) if (byPath(candidates[at - 1]!.file, candidates[at]!.file) > 0) return false;
  return true;
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

/** How long one search may run before it is stopped (regexes can backtrack for ever). */
export const DEFAULT_SEARCH_BUDGET_MS = 5_000;

export class PatternTooExpensiveError extends Error {
  readonly code = 'SEXTANT_ERR_PATTERN_TOO_EXPENSIVE';
  constructor(budgetMs: number) {
    super(`The search took longer than ${budgetMs} ms and was stopped: the pattern is too expensive (simplify it, or add a literal it must contain)`);
    this.name = 'PatternTooExpensiveError';
  }
}

export class NotIndexedError extends Error {
  readonly code = 'SEXTANT_ERR_NOT_INDEXED';
  constructor(root: string) {
    super(`${root} is not indexed yet: run "sextant index ${root}"`);
    this.name = 'NotIndexedError';
  }
}

export class IndexReader {
  readonly root: string;
  readonly manifest: Manifest;
  /** Segments oldest first; `live[id]` is 0 where a newer segment replaced or deleted the file. */
  readonly #layers: Array<{ segment: Segment; live: Uint8Array }>;
  readonly #cache: ContentCache;
  #files: ProjectFiles | undefined;
  #cacheBypass = CACHE_BYPASS_CANDIDATES;
  readonly #sourceFirstKeys = new WeakMap<SegmentFile, number>();
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

  /**
   * `cache` may be shared with the reader this one replaces: the text of unchanged files stays warm.
   * `lazy`: read each segment's header only, then the directory chunks and posting lists a query
   * needs (the CLI's one-shot search, the server's search workers); the reader then holds the
   * files open until `close()`. `store`: the project's index when it was found already
   * (ProjectFolders), instead of by `root` and `home`.
   */
  static open(
    root: string,
    home?: string,
    options: { store?: IndexStore; cache?: ContentCache; contentCacheBytes?: number; cacheBypassCandidates?: number; lazy?: boolean } = {},
  ): IndexReader {
    const store = options.store ?? new IndexStore(root, home);
    let manifest: Manifest | undefined;
    let segments: Segment[] = [];
    // A commit swaps the manifest, then deletes the segments only the old one named: an open
    // that read the old manifest may find one gone. The new manifest is there by then: read again.
    for (let attempt = 0; ; attempt++) {
      manifest = store.readManifest();
      if (!manifest || manifest.segments.length === 0) throw new NotIndexedError(root);
      try {
        segments = [];
        for (const name of manifest.segments) segments.push(options.lazy ? Segment.open(store.segmentPath(name)) : new Segment(store.readSegment(name)));
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

  /** The segment files a lazy reader holds open (one each). */
  get openFiles(): number {
    return this.#layers.length;
  }

  /** Lets go of the segment files a lazy reader holds open. */
  close(): void {
    for (const { segment } of this.#layers) segment.close();
  }

  /** A file's place in a source-first search (sourceFirstKey), worked out once per file of this index generation. */
  #sourceFirstKey(file: SegmentFile): number {
    let key = this.#sourceFirstKeys.get(file);
    if (key === undefined) this.#sourceFirstKeys.set(file, (key = sourceFirstKey(file.path)));
    return key;
  }

  /** Every live file, in path order. */
  get files(): SegmentFile[] {
    return this.#layers.flatMap(({ segment, live }) => segment.files.filter((_, id) => live[id] === 1)).sort(byPath);
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
    // A segment lists its files in the walk's order, which puts `a/b.go` before `a.go`: every
    // other order here (shares merged, source first, streamed output) is byPath's.
    if (!inPathOrder(found)) found.sort((a, b) => byPath(a.file, b.file));
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

  /**
   * `found`, when given, is called with each file's matches as soon as they are found (in path
   * order): output can stream. `stopBefore`, when given, is asked before each candidate file is
   * read (with its sourceFirstKey) whether the search has found enough: if so, it stops there,
   * truncated.
   */
  search(query: SearchQuery, found?: (matches: Match[]) => void, stopBefore?: (next: SegmentFile, key: number) => boolean): SearchResult {
    const cursor = this.cursor(query, found);
    for (let next = cursor.next(); next; next = cursor.next()) {
      if (stopBefore?.(next.file, next.key)) return cursor.finish(true);
      if (!cursor.read()) return cursor.finish(true);
    }
    return cursor.finish(false);
  }

  /**
   * A search read one candidate file at a time, in the order `search` reads them: the caller
   * decides before each file whether to go on (a search across projects reads several projects'
   * files in one order, first-page/together.ts).
   */
  cursor(query: SearchQuery, found?: (matches: Match[]) => void): SearchCursor {
    const started = Date.now();
    const limit = query.limit ?? DEFAULT_SEARCH_LIMIT;
    const context = Math.max(0, query.context ?? 0);
    const compiled = compiledMatcher(query);
    const pathFilter = query.path ? globToRegExp(query.path) : undefined;
    const shard = query.shard && query.shard.count > 1 ? query.shard : undefined;
    const all = this.candidates(compiled.plan);
    // This worker's share, narrowed by glob and language, before anything else looks at a path.
    const candidates = all.filter(
      ({ file }) =>
        (!shard || shardOf(file.path, shard.count) === shard.index) &&
        (!pathFilter || pathFilter.test(file.path)) &&
        (!query.language || file.language === query.language),
    );
    const ordered = query.sourceFirst ? sourceFirst(candidates, ({ file }) => this.#sourceFirstKey(file)) : candidates;
    // Bytes every match contains (a literal's own UTF-8): a scan decodes only the lines that hold
    // them. A U+FFFD in it could match an invalid sequence, which only decoding tells.
    const required = compiled.required && !compiled.required.includes('\uFFFD') ? Buffer.from(compiled.required, 'utf8') : undefined;
    // A scan of most of the tree would only churn the cache (and stat every file): read directly.
    const scan = all.length > this.#cacheBypass;
    const matches: Match[] = [];
    const files = (this.#files ??= new ProjectFiles(this.root));
    let at = 0;
    const read = (cap = limit): boolean => {
      const { file, blocks } = ordered[at++]!;
      const most = Math.min(limit, cap);
      const before = matches.length;
      // Unreadable (deleted since indexing, say): nothing to match.
      let more = true;
      /** The file's text (or its head, from bytes), for the generated marker once it has a match. */
      let head = '';
      if (scan) {
        const bytes = files.bytesShared(file.path);
        // Without context lines: only the candidate blocks are looked at, and only the lines that hold the required bytes decoded.
        const windows = bytes && blocks && context === 0 && bytes.length === file.size ? byteWindows(bytes, file.blocks!, blocks) : undefined;
        if (bytes && windows) more = matchWindows(file.path, bytes, windows, required, compiled, matches, most);
        else if (bytes && required && context === 0) more = matchBytes(file.path, bytes, required, compiled, matches, most);
        else if (bytes) more = matchText(file.path, bytes.toString('utf8'), compiled, context, matches, most);
        if (bytes && matches.length > before) head = bytes.toString('latin1', 0, GENERATED_HEAD_CHARS);
      } else {
        const entry = this.#cache.get(files, file.path);
        // Blocks are valid only for the text that was indexed: an edited file is searched whole.
        const windows = entry && blocks && entry.size === file.size && entry.mtimeMs === file.mtimeMs ? this.#windows(entry, file, blocks) : undefined;
        if (entry) more = matchText(file.path, entry.text, compiled, context, matches, most, (offset) => this.#cache.lineOf(entry, offset), windows);
        if (entry && matches.length > before) head = entry.text;
      }
      if (head !== '' && saysGenerated(head)) for (let i = before; i < matches.length; i++) matches[i]!.generated = true;
      if (found && matches.length > before) found(matches.slice(before));
      return more;
    };
    return {
      next: () => {
        const candidate = ordered[at];
        return candidate && { file: candidate.file, key: this.#sourceFirstKey(candidate.file) };
      },
      read,
      matched: () => matches.length,
      finish: (truncated) => ({
        matches,
        truncated,
        stats: { files: this.#liveFiles, candidates: all.length, durationMs: Date.now() - started },
      }),
    };
  }
}

/** A search in steps (IndexReader.cursor). */
export interface SearchCursor {
  /** The candidate file read next, and its sourceFirstKey; undefined once every one was read. */
  next(): { file: SegmentFile; key: number } | undefined;
  /**
   * Reads the next file; false once the matches reached the query's limit, or `cap` matches in
   * all when that is lower, with more to find (the search is over, truncated).
   */
  read(cap?: number): boolean;
  /** Matches found so far. */
  matched(): number;
  /** The result: the matches read, `truncated` when the caller stopped before the end. */
  finish(truncated: boolean): SearchResult;
}

/** A stable shard for a path (FNV-1a), so each search worker keeps seeing the same files. */
function shardOf(path: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % count;
}
