/**
 * An immutable index segment: the files it covers and, per trigram, the sorted ids of the
 * documents that contain it (delta + varint encoded). A document is a whole file, or, for a
 * large file, one block of it (see `blocks`); documents are numbered in file order. One file on
 * disk:
 *
 *   "SXTSEG05" | u32 header length | header (the file table, in binary: segment-header.ts) | pad to 4 | u32 trigram count
 *   | i32 trigrams[count] (sorted) | u32 offsets[count + 1] | postings bytes | chunk checksums
 *
 * The checksums (checked-file.ts: a CRC-32 per 4 KiB) are verified for every byte a reader
 * uses: all of them when a segment is loaded whole (the server), the header and the directory
 * chunks and posting lists a query touches when it is opened lazily (`Segment.open`, the CLI's search). A
 * torn or overwritten file is reported as corrupt (index_corrupt), never searched.
 */
import { withChecksums } from './checked-file.js';
import { encodeHeader, parseHeader, type FileTable, type SegmentFile } from './segment-header.js';
import { CorruptSegmentError, partsInMemory, partsOnDisk, SEGMENT_MAGIC, type SegmentParts } from './segment-parts.js';

/**
 * Trigrams a segment keeps the place and length of (Segment.#known). A query asks for a few
 * dozen; a server's search threads hold a few hundred segments open at most.
 */
const MAX_KNOWN_TRIGRAMS = 1_024;

/** A file as a segment lists it (its header's file table holds it: segment-header.ts). */
export type { SegmentFile } from './segment-header.js';

/** How many documents a file is in the postings. */
export function documentsOf(file: SegmentFile): number {
  return (file.blocks?.length ?? 0) + 1;
}

/** Orders anything with a workspace path the way results are listed: by path, code unit by code unit. */
export function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function writeVarint(out: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    out[at++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  out[at++] = value;
  return at;
}

/** A growable Int32Array: pushing numbers one by one into a JS array costs more than the rest. */
class IntList {
  data = new Int32Array(1 << 16);
  length = 0;

  append(values: Int32Array | number, repeat = 1): void {
    const needed = this.length + (typeof values === 'number' ? repeat : values.length);
    if (needed > this.data.length) {
      let size = this.data.length * 2;
      while (size < needed) size *= 2;
      const grown = new Int32Array(size);
      grown.set(this.data.subarray(0, this.length));
      this.data = grown;
    }
    if (typeof values === 'number') this.data.fill(values, this.length, needed);
    else this.data.set(values, this.length);
    this.length = needed;
  }
}

/**
 * Builds a segment in memory from per-file trigram sets, file ids in the order given. Pairs of
 * (trigram, file) are kept flat and grouped by a counting sort at the end, which keeps each
 * posting list in file order without per-trigram arrays.
 */
export class SegmentBuilder {
  readonly files: SegmentFile[] = [];
  /** Paths this segment removes from older segments (deleted files); changed files shadow by path. */
  tombstones: string[] = [];
  readonly #trigrams = new IntList();
  readonly #fileIds = new IntList();
  #documents = 0;

  /** Adds a file with its trigrams: one set, or one per block (`file.blocks` says where they start). */
  add(file: SegmentFile, trigrams: Int32Array | Int32Array[] | undefined): void {
    this.files.push(file);
    const first = this.#documents;
    this.#documents += documentsOf(file);
    if (!trigrams) return;
    const sets = Array.isArray(trigrams) ? trigrams : [trigrams];
    sets.forEach((set, block) => {
      if (set.length === 0) return;
      this.#trigrams.append(set);
      this.#fileIds.append(first + block, set.length);
    });
  }

  /**
   * Adds a whole posting list of ids already in this builder (a segment merge). Lists must come
   * in ascending id order per trigram across calls, which merging segments oldest first gives.
   */
  addPosting(trigram: number, ids: Int32Array): void {
    this.#trigrams.append(trigram, ids.length);
    this.#fileIds.append(ids);
  }

  encode(): Buffer {
    const header = encodeHeader(this.files, this.tombstones);
    const pairs = this.#trigrams.length;
    const tri = this.#trigrams.data;
    const ids = this.#fileIds.data;
    // Two stable counting passes over 12-bit digits (an LSD radix sort) instead of one over
    // 2^24 buckets: no 64 MiB counter arrays, and stability keeps each trigram's file ids
    // ascending. (Measured: about as fast; the per-pair passes themselves are the cost.)
    const RADIX = 1 << 12;
    let keysIn: Int32Array = tri.subarray(0, pairs);
    let idsIn: Int32Array = ids.subarray(0, pairs);
    for (const shift of [0, 12]) {
      const keysOut = new Int32Array(pairs);
      const idsOut = new Int32Array(pairs);
      const starts = new Uint32Array(RADIX + 1);
      for (let i = 0; i < pairs; i++) starts[((keysIn[i]! >>> shift) & (RADIX - 1)) + 1]!++;
      for (let d = 0; d < RADIX; d++) starts[d + 1]! += starts[d]!;
      for (let i = 0; i < pairs; i++) {
        const slot = starts[(keysIn[i]! >>> shift) & (RADIX - 1)]!++;
        keysOut[slot] = keysIn[i]!;
        idsOut[slot] = idsIn[i]!;
      }
      keysIn = keysOut;
      idsIn = idsOut;
    }
    const sortedKeys = keysIn;
    const sortedIds = idsIn;
    let distinct = 0;
    for (let i = 0; i < pairs; i++) if (i === 0 || sortedKeys[i] !== sortedKeys[i - 1]) distinct++;
    const keys = new Int32Array(distinct);
    const bytes = new Uint8Array(pairs * 5 + distinct * 5);
    const offsets = new Uint32Array(distinct + 1);
    let at = 0;
    let index = -1;
    for (let i = 0; i < pairs;) {
      const key = sortedKeys[i]!;
      let end = i + 1;
      while (end < pairs && sortedKeys[end] === key) end++;
      keys[++index] = key;
      offsets[index] = at;
      at = writeVarint(bytes, at, end - i);
      let previous = 0;
      for (let j = i; j < end; j++) {
        at = writeVarint(bytes, at, sortedIds[j]! - previous);
        previous = sortedIds[j]!;
      }
      i = end;
    }
    offsets[distinct] = at;
    const pad = (4 - ((12 + header.length) % 4)) % 4;
    const head = Buffer.alloc(12 + header.length + pad + 4);
    head.write(SEGMENT_MAGIC, 0, 'latin1');
    head.writeUInt32LE(header.length, 8);
    header.copy(head, 12);
    head.writeUInt32LE(distinct, 12 + header.length + pad);
    return withChecksums(Buffer.concat([head, Buffer.from(keys.buffer), Buffer.from(offsets.buffer), Buffer.from(bytes.buffer, 0, at)]));
  }
}

/**
 * A segment's files and tombstones from its header alone (the postings are not read, nor the
 * checksum over them checked: a search that opens the segment checks it). `read(position,
 * length)` gives the segment's bytes there.
 */
export function segmentFiles(read: (position: number, length: number) => Buffer): { files: SegmentFile[]; tombstones: string[] } {
  const start = read(0, 12);
  if (start.length < 12 || start.toString('latin1', 0, 8) !== SEGMENT_MAGIC) throw new CorruptSegmentError('bad magic');
  const headerLength = start.readUInt32LE(8);
  const header = read(12, headerLength);
  if (header.length < headerLength) throw new CorruptSegmentError('header past the end');
  let table: FileTable;
  try {
    table = parseHeader(header);
  } catch {
    throw new CorruptSegmentError('unreadable header');
  }
  return { files: table.all(), tombstones: table.tombstones };
}

export class Segment {
  /** Paths this segment removes from older ones. */
  readonly tombstones: string[];
  /** Documents kept out of the postings (data-like files, too many distinct trigrams): candidates for every query. */
  readonly unindexedIds: Uint32Array;
  /** The file of each document, and the block of that file it is. */
  readonly documentFile: Uint32Array;
  readonly documentBlock: Uint32Array;
  /** Each file's first document. */
  readonly firstDocument: Uint32Array;
  readonly #table: FileTable;
  readonly #parts: SegmentParts;

  /** A segment from the whole file's bytes (verified here). */
  constructor(file: Uint8Array | SegmentParts) {
    const parts = file instanceof Uint8Array ? partsInMemory(file) : file;
    try {
      this.#table = parseHeader(parts.header);
    } catch {
      parts.close?.();
      throw new CorruptSegmentError('unreadable header');
    }
    const table = this.#table;
    this.tombstones = table.tombstones;
    // Plain passes over typed arrays: every CLI search does this once per segment, before its code warms up.
    const firsts = table.firstDocuments();
    const documents = firsts[table.count]!;
    this.firstDocument = firsts.subarray(0, table.count);
    this.documentFile = new Uint32Array(documents);
    this.documentBlock = new Uint32Array(documents);
    for (let id = 0; id < table.count; id++) {
      const first = firsts[id]!;
      const end = firsts[id + 1]!;
      this.documentFile[first] = id;
      for (let document = first + 1; document < end; document++) {
        this.documentFile[document] = id;
        this.documentBlock[document] = document - first;
      }
    }
    const unindexed: number[] = [];
    for (const id of table.unindexedIds()) for (let document = firsts[id]!; document < firsts[id + 1]!; document++) unindexed.push(document);
    this.unindexedIds = Uint32Array.from(unindexed);
    this.#parts = parts;
  }

  /** Every file of the segment, in id order (built on first use: `pathOf` and `fileOf` build less). */
  get files(): SegmentFile[] {
    return this.#table.all();
  }

  get fileCount(): number {
    return this.#table.count;
  }

  pathOf(id: number): string {
    return this.#table.pathOf(id);
  }

  fileOf(id: number): SegmentFile {
    return this.#table.fileOf(id);
  }

  /**
   * The segment at `path`, read lazily: its header and directory now, each posting list when a
   * query first needs it (verified chunk by chunk). Holds the file open until `close()`.
   */
  static open(path: string): Segment {
    return new Segment(partsOnDisk(path));
  }

  /** Lets go of the file of a segment opened lazily (nothing to do for one in memory). */
  close(): void {
    this.#parts.close?.();
  }
  get trigramCount(): number {
    return this.#parts.count;
  }

  /** Every trigram with its file ids, in trigram order (for merging segments). */
  *allPostings(): Generator<[trigram: number, ids: Uint32Array]> {
    for (let slot = 0; slot < this.#parts.count; slot++) {
      yield [this.#parts.trigramAt(slot), this.#decode(slot, false) as Uint32Array];
    }
  }

  get documentCount(): number {
    return this.documentFile.length;
  }

  /** Document ids containing `trigram`, ascending; empty when none. */
  postings(trigram: number): Uint32Array {
    const slot = this.#known(trigram).slot;
    return slot < 0 ? new Uint32Array(0) : (this.#decode(slot, false) as Uint32Array);
  }

  /** How many files contain `trigram`, without decoding the list (to intersect rarest first). */
  postingCount(trigram: number): number {
    return this.#known(trigram).count;
  }

  /**
   * Where `trigram`'s list is and how long it is, looked up once: the same trigrams come back
   * query after query (each a search of the directory and a read of the list's start), and a
   * segment never changes. Kept for MAX_KNOWN_TRIGRAMS trigrams, then forgotten together.
   */
  #known(trigram: number): { slot: number; count: number } {
    let known = this.#knownTrigrams.get(trigram);
    if (!known) {
      const slot = this.#parts.find(trigram);
      known = { slot, count: slot < 0 ? 0 : this.#decode(slot, true).length };
      if (this.#knownTrigrams.size >= MAX_KNOWN_TRIGRAMS) this.#knownTrigrams.clear();
      this.#knownTrigrams.set(trigram, known);
    }
    return known;
  }

  readonly #knownTrigrams = new Map<number, { slot: number; count: number }>();

  #decode(slot: number, countOnly: boolean): Uint32Array | { length: number } {
    // A count is one varint: five bytes at most.
    const bytes = countOnly ? this.#parts.listStart(slot, 5) : this.#parts.list(slot);
    let at = 0;
    const read = (): number => {
      let value = 0;
      let shift = 0;
      for (;;) {
        const byte = bytes[at++]!;
        value += (byte & 0x7f) * 2 ** shift;
        if (byte < 0x80) return value;
        shift += 7;
      }
    };
    const count = read();
    if (countOnly) return { length: count };
    const ids = new Uint32Array(count);
    let previous = 0;
    for (let i = 0; i < count; i++) ids[i] = previous += read();
    return ids;
  }
}
