/**
 * File text kept in memory between searches, with each file's line starts once it has had a
 * match. Bounded (least recently used out first) and checked against the file's size and mtime
 * on every use — a stat costs far less than a read — so an edited file is read again and a
 * deleted one is never served. It outlives index readers: a sync that swaps the manifest does
 * not throw away the text of every file that did not change.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { lineAt, lineStartsOf } from '../text/line-index.js';
import type { ProjectFiles } from '../files/project-file.js';

/** File text (and line starts) kept in memory, across all search workers. */
export const DEFAULT_CONTENT_CACHE_BYTES = 256 * 1024 * 1024;

/** A file's text as the cache holds it; line starts are found once, on the first match in it. */
export interface FileText {
  path: string;
  text: string;
  mtimeMs: number;
  size: number;
  ino: number;
  /** When the file was last found unchanged (the cache's clock), and in which epoch. */
  checkedAt: number;
  epoch: number;
  lineStarts?: Int32Array;
}

/**
 * What a file's text costs in memory. V8 keeps a string of only Latin-1 characters at one byte
 * each; as many characters as UTF-8 bytes means the file is ASCII, so stored that way. Anything
 * else is counted at two bytes a character, an upper bound.
 */
function textBytes(text: string, utf8Bytes: number): number {
  return text.length === utf8Bytes ? text.length : text.length * 2;
}

export class ContentCache {
  readonly #entries = new Map<string, FileText>();
  readonly #maxBytes: number;
  /** Bytes held: text as V8 stores it (see textBytes), four per line start. */
  #bytes = 0;
  readonly #freshForMs: number;
  readonly #now: () => number;
  #epoch = 0;

  constructor(maxBytes = DEFAULT_CONTENT_CACHE_BYTES, options: { freshForMs?: number; now?: () => number } = {}) {
    this.#maxBytes = maxBytes;
    this.#freshForMs = options.freshForMs ?? 0;
    this.#now = options.now ?? performance.now.bind(performance);
  }

  /** Every entry is checked again on its next use (the index moved on: a sync saw files change). */
  recheckAll(): void {
    this.#epoch++;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /**
   * The current text of workspace-relative `path` in `files`, or undefined when it is gone or
   * not to be read (ProjectFiles decides: the cache only remembers what it read).
   */
  get(files: ProjectFiles, relative: string): FileText | undefined {
    const path = join(files.root, relative);
    const now = this.#now();
    const known = this.#entries.get(path);
    if (known && known.epoch === this.#epoch && now - known.checkedAt < this.#freshForMs) {
      this.#entries.delete(path);
      this.#entries.set(path, known);
      return known;
    }
    let stats;
    try {
      stats = statSync(path);
    } catch {
      this.#evict(path);
      return undefined;
    }
    // Replaced by a directory or a FIFO since indexing: nothing to search (a FIFO's read would wait for ever).
    if (!stats.isFile()) {
      this.#evict(path);
      return undefined;
    }
    const cached = this.#entries.get(path);
    // The inode too: a file swapped for a link to another with its size and mtime is read afresh.
    if (cached && cached.mtimeMs === stats.mtimeMs && cached.size === stats.size && cached.ino === stats.ino) {
      this.#entries.delete(path);
      this.#entries.set(path, cached); // most recently used last
      cached.checkedAt = now;
      cached.epoch = this.#epoch;
      return cached;
    }
    const text = files.text(relative);
    this.#evict(path);
    if (text === undefined) return undefined;
    const entry: FileText = { path, mtimeMs: stats.mtimeMs, size: stats.size, ino: stats.ino, text, checkedAt: now, epoch: this.#epoch };
    this.#entries.set(path, entry);
    this.#grow(textBytes(text, stats.size));
    return entry;
  }

  /** The 0-based line of `offset` in a cached file, its line starts indexed on first use. */
  lineOf(entry: FileText, offset: number): number {
    return lineAt(this.#lineStarts(entry), offset);
  }

  /** Where 0-based `line` starts in a cached file (the text's end past the last line). */
  lineStart(entry: FileText, line: number): number {
    const starts = this.#lineStarts(entry);
    return line < starts.length ? starts[line]! : entry.text.length;
  }

  #lineStarts(entry: FileText): Int32Array {
    if (!entry.lineStarts) {
      entry.lineStarts = lineStartsOf(entry.text);
      // Counted only while held: an entry let go meanwhile was already subtracted without them.
      if (this.#entries.get(entry.path) === entry) this.#grow(entry.lineStarts.byteLength);
    }
    return entry.lineStarts;
  }

  #evict(path: string): void {
    const entry = this.#entries.get(path);
    if (!entry) return;
    this.#entries.delete(path);
    this.#bytes -= textBytes(entry.text, entry.size) + (entry.lineStarts?.byteLength ?? 0);
  }

  #grow(bytes: number): void {
    this.#bytes += bytes;
    for (const oldest of this.#entries.keys()) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#evict(oldest);
    }
  }
}
