/**
 * Reading a segment file's parts (layout in segment.ts): the header and the directory of trigrams
 * and offsets, and each posting list, from a whole file in memory (verified whole) or from disk a
 * part at a time (each 4 KiB chunk verified as it is first read: checked-file.ts).
 */
import { CheckedFile, checkedBody, ChecksumError } from './checked-file.js';

export const SEGMENT_MAGIC = 'SXTSEG04';

export class CorruptSegmentError extends Error {
  /** The tool error code it is reported as (see IndexCorruptError). */
  readonly code = 'index_corrupt';
  constructor(reason: string) {
    super(`Corrupt index segment: ${reason}; rebuild the index with "sextant index --force"`);
    this.name = 'CorruptSegmentError';
  }
}

/** A segment's parts: the header and directory in memory, each posting list on demand. */
export interface SegmentParts {
  header: string;
  trigrams: Int32Array;
  /** The bytes of the posting list in directory slot `slot`. */
  list(slot: number): Uint8Array;
  close?(): void;
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
  return { header: body.toString('utf8', 12, 12 + headerLength), trigrams, list: (slot) => postings.subarray(offsets[slot]!, offsets[slot + 1]!) };
}

/** A segment file read in parts: header and directory now, posting lists as asked for. */
export function partsOnDisk(path: string): SegmentParts {
  const file = CheckedFile.open(path);
  try {
    if (file.bodyLength < 16) throw new CorruptSegmentError('bad magic');
    const start = file.read(0, 12);
    if (start.toString('latin1', 0, 8) !== SEGMENT_MAGIC) throw new CorruptSegmentError('bad magic');
    const headerLength = start.readUInt32LE(8);
    const at = directoryAt(headerLength);
    if (at + 4 > file.bodyLength) throw new CorruptSegmentError('header past the end');
    const count = file.read(at, 4).readUInt32LE(0);
    if (at + 4 + count * 8 + 4 > file.bodyLength) throw new CorruptSegmentError('directory past the end');
    const { trigrams, offsets } = directoryOf(file.read(at + 4, count * 8 + 4), count);
    const postingsAt = at + 8 + count * 8;
    if (offsets[count] !== file.bodyLength - postingsAt) throw new CorruptSegmentError('postings length mismatch');
    // A query reads a list twice (its length to order the intersection, then its ids).
    const lists = new Map<number, Uint8Array>();
    const list = (slot: number): Uint8Array => {
      let bytes = lists.get(slot);
      if (!bytes) {
        try {
          bytes = file.read(postingsAt + offsets[slot]!, offsets[slot + 1]! - offsets[slot]!);
        } catch (error) {
          corrupt(error);
        }
        lists.set(slot, bytes);
      }
      return bytes;
    };
    return { header: file.read(12, headerLength).toString('utf8'), trigrams, list, close: () => file.close() };
  } catch (error) {
    file.close();
    corrupt(error);
  }
}
