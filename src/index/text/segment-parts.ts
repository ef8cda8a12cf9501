/**
 * Reading a segment file's parts (layout in segment.ts): the header, the directory of trigrams
 * and offsets, and each posting list, from a whole file in memory (verified whole) or from disk a
 * part at a time (each 4 KiB chunk verified as it is first read: checked-file.ts). On disk the
 * directory too is read a page at a time, as its binary searches reach them: a query looks up a
 * handful of trigrams, and reading the whole directory was a large part of a CLI search.
 */
import { CHECKED_CHUNK_BYTES, CheckedFile, checkedBody, ChecksumError } from './checked-file.js';

export const SEGMENT_MAGIC = 'SXTSEG05';

export class CorruptSegmentError extends Error {
  /** The tool error code it is reported as (see IndexCorruptError). */
  readonly code = 'index_corrupt';
  constructor(reason: string) {
    super(`Corrupt index segment: ${reason}; rebuild the index with "sextant index --force"`);
    this.name = 'CorruptSegmentError';
  }
}

/** A segment's parts: the header in memory, the directory and each posting list on demand. */
export interface SegmentParts {
  /** The header's bytes (segment-header.ts). */
  header: Uint8Array;
  /** Slots in the directory: one per distinct trigram, in ascending trigram order. */
  count: number;
  /** The slot of `trigram`, or -1. */
  find(trigram: number): number;
  trigramAt(slot: number): number;
  /** The bytes of the posting list in directory slot `slot`. */
  list(slot: number): Uint8Array;
  /** Its first `bytes` bytes at most: enough for its count, without reading the whole list. */
  listStart(slot: number, bytes: number): Uint8Array;
  close?(): void;
}

/** The slot of `trigram` among `count` ascending values read by `at`, or -1. */
function binarySearch(count: number, at: (slot: number) => number, trigram: number): number {
  let low = 0;
  let high = count - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const value = at(mid);
    if (value < trigram) low = mid + 1;
    else if (value > trigram) high = mid - 1;
    else return mid;
  }
  return -1;
}

/** Where the directory starts, after the header and its padding. */
function directoryAt(headerLength: number): number {
  return 12 + headerLength + ((4 - ((12 + headerLength) % 4)) % 4);
}

/** The trigram table and offsets from the bytes that hold both (copied: a Buffer's offset in its pool need not be 4-aligned). */
function directoryOf(bytes: Uint8Array, count: number): { trigrams: Int32Array; offsets: Uint32Array } {
  const copy = new Uint8Array(count * 8 + 4);
  copy.set(bytes.subarray(0, count * 8 + 4));
  return { trigrams: new Int32Array(copy.buffer, 0, count), offsets: new Uint32Array(copy.buffer, count * 4, count + 1) };
}

function corrupt(error: unknown): never {
  if (error instanceof ChecksumError) throw new CorruptSegmentError(error.message);
  throw error;
}

/** A whole segment file in memory, every chunk verified. */
export function partsInMemory(file: Uint8Array): SegmentParts {
  let body: Buffer;
  try {
    const checked = checkedBody(file);
    body = Buffer.from(checked.buffer, checked.byteOffset, checked.length);
  } catch (error) {
    corrupt(error);
  }
  if (body.length < 16 || body.toString('latin1', 0, 8) !== SEGMENT_MAGIC) throw new CorruptSegmentError('bad magic');
  const headerLength = body.readUInt32LE(8);
  const at = directoryAt(headerLength);
  if (at + 4 > body.length) throw new CorruptSegmentError('header past the end');
  const count = body.readUInt32LE(at);
  if (at + 4 + count * 8 + 4 > body.length) throw new CorruptSegmentError('directory past the end');
  const { trigrams, offsets } = directoryOf(body.subarray(at + 4), count);
  const postings = body.subarray(at + 8 + count * 8);
  if (offsets[count] !== postings.length) throw new CorruptSegmentError('postings length mismatch');
  return {
    header: body.subarray(12, 12 + headerLength),
    count,
    find: (trigram) => binarySearch(count, (slot) => trigrams[slot]!, trigram),
    trigramAt: (slot) => trigrams[slot]!,
    list: (slot) => postings.subarray(offsets[slot]!, offsets[slot + 1]!),
    listStart: (slot, bytes) => postings.subarray(offsets[slot]!, Math.min(offsets[slot]! + bytes, offsets[slot + 1]!)),
  };
}

/**
 * The 32-bit values of a checked file, read a chunk at a time as they are asked for and kept:
 * chunks are 4 KiB aligned and values 4-byte aligned, so no value straddles two.
 */
class ChunkedWords {
  readonly #file: CheckedFile;
  readonly #chunks = new Map<number, Buffer>();

  constructor(file: CheckedFile) {
    this.#file = file;
  }

  /** The little-endian value at byte `position` (a multiple of 4). */
  uint32(position: number): number {
    const index = Math.floor(position / CHECKED_CHUNK_BYTES);
    let chunk = this.#chunks.get(index);
    if (!chunk) {
      const start = index * CHECKED_CHUNK_BYTES;
      chunk = this.#file.read(start, Math.min(CHECKED_CHUNK_BYTES, this.#file.bodyLength - start));
      this.#chunks.set(index, chunk);
    }
    return chunk.readUInt32LE(position - index * CHECKED_CHUNK_BYTES);
  }

  int32(position: number): number {
    return this.uint32(position) | 0;
  }
}

/** A segment file read in parts: the header now, the directory and the posting lists as asked for. */
export function partsOnDisk(path: string): SegmentParts {
  const file = CheckedFile.open(path);
  try {
    if (file.bodyLength < 16) throw new CorruptSegmentError('bad magic');
    const start = file.read(0, 12);
    if (start.toString('latin1', 0, 8) !== SEGMENT_MAGIC) throw new CorruptSegmentError('bad magic');
    const headerLength = start.readUInt32LE(8);
    const at = directoryAt(headerLength);
    if (at + 4 > file.bodyLength) throw new CorruptSegmentError('header past the end');
    const words = new ChunkedWords(file);
    const count = words.uint32(at);
    if (at + 4 + count * 8 + 4 > file.bodyLength) throw new CorruptSegmentError('directory past the end');
    const trigramsAt = at + 4;
    const offsetsAt = trigramsAt + count * 4;
    const postingsAt = offsetsAt + (count + 1) * 4;
    if (words.uint32(offsetsAt + count * 4) !== file.bodyLength - postingsAt) throw new CorruptSegmentError('postings length mismatch');
    const trigramAt = (slot: number): number => words.int32(trigramsAt + slot * 4);
    /** What a later read finds wrong with the file is the segment's corruption, as at open. */
    const guarded = <T>(read: () => T): T => {
      try {
        return read();
      } catch (error) {
        corrupt(error);
      }
    };
    /** The posting list of `slot`, its first `limit` bytes at most. */
    const read = (slot: number, limit: number): Uint8Array =>
      guarded(() => {
        const from = words.uint32(offsetsAt + slot * 4);
        const to = words.uint32(offsetsAt + slot * 4 + 4);
        if (to < from || postingsAt + to > file.bodyLength) throw new CorruptSegmentError('bad posting offsets');
        return file.read(postingsAt + from, Math.min(to - from, limit));
      });
    const lists = new Map<number, Uint8Array>();
    const list = (slot: number): Uint8Array => {
      let bytes = lists.get(slot);
      if (!bytes) lists.set(slot, (bytes = read(slot, Infinity)));
      return bytes;
    };
    /** Starts of lists read for their count alone: the next query that asks reads none again. */
    const starts = new Map<number, { asked: number; bytes: Uint8Array }>();
    const listStart = (slot: number, bytes: number): Uint8Array => {
      const whole = lists.get(slot);
      if (whole) return whole.subarray(0, bytes);
      let start = starts.get(slot);
      if (!start || start.asked < bytes) starts.set(slot, (start = { asked: bytes, bytes: read(slot, bytes) }));
      return start.bytes.subarray(0, bytes);
    };
    return {
      header: file.read(12, headerLength),
      count,
      find: (trigram) => guarded(() => binarySearch(count, trigramAt, trigram)),
      trigramAt: (slot) => guarded(() => trigramAt(slot)),
      list,
      // A list already read is not read again; else only its start (the count orders an intersection).
      listStart,
      close: () => file.close(),
    };
  } catch (error) {
    file.close();
    corrupt(error);
  }
}
