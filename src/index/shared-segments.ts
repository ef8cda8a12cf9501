/**
 * The text segments of one index, read once into shared memory and handed to every search
 * worker: N workers then hold one copy of the postings instead of N (51 MB each on the Linux
 * corpus). Segment files never change once written, so a name is a stable key; what the
 * current manifest no longer names is let go.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { fileStamp, IndexStore, SEGMENT_NAME } from './store.js';

export class SharedSegments {
  readonly #store: IndexStore;
  #segments = new Map<string, SharedArrayBuffer>();
  /** The manifest file the map was made for (inode, mtime, size): a search reads no JSON while it stands. */
  #stamp = '';

  constructor(root: string, home?: string) {
    this.#store = new IndexStore(root, home);
  }

  /** The current manifest's segments, each read once; empty when there is no readable index (the worker reports why). */
  current(): Map<string, SharedArrayBuffer> {
    const stamp = fileStamp(this.#store.manifestPath);
    if (stamp !== '' && stamp === this.#stamp) return this.#segments;
    this.#stamp = stamp;
    let names: string[];
    try {
      names = this.#store.readManifest()?.segments ?? [];
    } catch {
      names = [];
    }
    const next = new Map<string, SharedArrayBuffer>();
    for (const name of names) {
      const known = this.#segments.get(name);
      if (known) next.set(name, known);
      else if (SEGMENT_NAME.test(name)) {
        try {
          next.set(name, readShared(join(this.#store.dir, name)));
        } catch {
          // gone meanwhile (a commit swapped the manifest): the worker reads what is there
        }
      }
    }
    this.#segments = next;
    return next;
  }

  clear(): void {
    this.#segments = new Map();
    this.#stamp = '';
  }
}

function readShared(path: string): SharedArrayBuffer {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const shared = new SharedArrayBuffer(size);
    const view = Buffer.from(shared);
    for (let read = 0; read < size; ) {
      const n = readSync(fd, view, read, size - read, read);
      if (n === 0) throw new Error(`${path}: short read`);
      read += n;
    }
    return shared;
  } finally {
    closeSync(fd);
  }
}
