/**
 * Random reads of one index file through a small page cache: a lookup reads the few pages it
 * touches, never the whole file, and the cache has a fixed ceiling, so a server that looked up
 * every name of a large project still holds at most `maxPages` pages per open file.
 *
 * The descriptor stays open for the reader's lifetime: the file may be replaced (a merge) or
 * removed while a lookup holds this reader, and an open descriptor keeps reading the version
 * it opened. Readers dropped without close() are closed when they are garbage-collected.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { keep, touch } from '../../../util/lru.js';

export const PAGE_BYTES = 64 * 1024;
/** Ranges this long are read directly, around the cache. */
const DIRECT_READ_BYTES = 4 * PAGE_BYTES;
/** Pages kept per open file: 8 MiB. */
const DEFAULT_MAX_PAGES = 128;

const unclosed = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
});

export class PagedFile {
  readonly size: number;
  readonly #maxPages: number;
  #fd: number;
  /** Page number → bytes; Map order is the LRU order (oldest first). */
  readonly #pages = new Map<number, Buffer>();

  constructor(path: string, maxPages = DEFAULT_MAX_PAGES) {
    this.#fd = openSync(path, 'r');
    this.size = fstatSync(this.#fd).size;
    this.#maxPages = maxPages;
    unclosed.register(this, this.#fd, this);
  }

  #page(number: number): Buffer {
    const kept = touch(this.#pages, number);
    if (kept) return kept;
    const start = number * PAGE_BYTES;
    const page = this.#read(Buffer.allocUnsafe(Math.min(PAGE_BYTES, this.size - start)), start);
    keep(this.#pages, number, page, this.#maxPages);
    return page;
  }

  /** Fills `into` from `position` on. */
  #read(into: Buffer, position: number): Buffer {
    if (this.#fd < 0) throw new Error('read after the file was closed');
    for (let read = 0; read < into.length;) {
      const n = readSync(this.#fd, into, read, into.length - read, position + read);
      if (n === 0) throw new Error(`short read at ${position + read} of ${this.size} bytes`);
      read += n;
    }
    return into;
  }

  /** The little-endian u32 at `offset` (4-aligned: it never straddles two pages). */
  u32(offset: number): number {
    return this.#page(Math.floor(offset / PAGE_BYTES)).readUInt32LE(offset % PAGE_BYTES);
  }

  /** `length` bytes at `offset`: a view of the page when they fit in one, a copy otherwise. */
  bytes(offset: number, length: number): Buffer {
    const first = Math.floor(offset / PAGE_BYTES);
    const within = offset % PAGE_BYTES;
    if (within + length <= PAGE_BYTES) return this.#page(first).subarray(within, within + length);
    const out = Buffer.allocUnsafe(length);
    // A long range (a table read whole) is one read, not pages that would push the cache's others out.
    if (length >= DIRECT_READ_BYTES) return this.#read(out, offset);
    for (let copied = 0; copied < length;) {
      const at = offset + copied;
      const page = this.#page(Math.floor(at / PAGE_BYTES));
      copied += page.copy(out, copied, at % PAGE_BYTES, Math.min(page.length, (at % PAGE_BYTES) + length - copied));
    }
    return out;
  }

  string(offset: number, length: number): string {
    return length === 0 ? '' : this.bytes(offset, length).toString('utf8');
  }

  close(): void {
    if (this.#fd < 0) return;
    unclosed.unregister(this);
    closeSync(this.#fd);
    this.#fd = -1;
    this.#pages.clear();
  }
}
