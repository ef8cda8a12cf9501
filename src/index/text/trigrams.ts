/**
 * Trigrams: three consecutive bytes of UTF-8 text, ASCII case-folded, packed into a 24-bit
 * integer. Folding only ASCII keeps byte lengths unchanged; non-ASCII letters are matched
 * exactly, and a case-insensitive query simply does not rely on trigrams that contain them.
 */
const A = 0x41;
const Z = 0x5a;

function foldAscii(byte: number): number {
  return byte >= A && byte <= Z ? byte | 0x20 : byte;
}

/**
 * One bit of "seen" per possible trigram (2 MiB), shared by every call on this thread: marking
 * and un-marking what a file touched is linear, where sorting all of a file's trigrams was not.
 */
const seen = new Uint8Array(1 << 21);
let scratch = new Int32Array(1 << 16);

/**
 * Distinct trigrams of a buffer, in the order first seen (the segment builder sorts all pairs
 * at the end, so sorting each file's set here would only cost time).
 */
export function trigramsOf(bytes: Uint8Array): Int32Array {
  if (bytes.length < 3) return new Int32Array(0);
  let count = 0;
  let t = (foldAscii(bytes[0]!) << 8) | foldAscii(bytes[1]!);
  for (let i = 2; i < bytes.length; i++) {
    t = ((t << 8) | foldAscii(bytes[i]!)) & 0xffffff;
    const mask = 1 << (t & 7);
    const slot = t >>> 3;
    if (seen[slot]! & mask) continue;
    seen[slot]! |= mask;
    if (count === scratch.length) {
      const grown = new Int32Array(scratch.length * 2);
      grown.set(scratch);
      scratch = grown;
    }
    scratch[count++] = t;
  }
  const unique = scratch.slice(0, count);
  for (let i = 0; i < count; i++) seen[unique[i]! >>> 3] = 0;
  return unique;
}

const encoder = new TextEncoder();

/** Trigrams a literal string contributes to a query; `undefined` for one too short to have any. */
export function literalTrigrams(literal: string, caseInsensitive: boolean): number[] | undefined {
  const bytes = encoder.encode(literal);
  if (bytes.length < 3) return undefined;
  const result = new Set<number>();
  for (let i = 0; i + 2 < bytes.length; i++) {
    const [a, b, c] = [bytes[i]!, bytes[i + 1]!, bytes[i + 2]!];
    // A non-ASCII byte may belong to a letter whose other case has other bytes.
    if (caseInsensitive && (a > 0x7f || b > 0x7f || c > 0x7f)) continue;
    result.add((foldAscii(a) << 16) | (foldAscii(b) << 8) | foldAscii(c));
  }
  return [...result];
}

/** A second seen-bitmap for the file as a whole while blocks are extracted (its distinct count). */
const seenInFile = new Uint8Array(1 << 21);

export interface BlockTrigrams {
  /** Distinct trigrams of each block. */
  blocks: Int32Array[];
  /** 0-based line where each block after the first starts. */
  startLines: number[];
  /** Distinct trigrams of the whole file. */
  distinct: number;
}

/**
 * Files larger than this get postings per block of about this size (cut at line ends): a query
 * then scans only the blocks of a large file that hold all its trigrams, not the whole file.
 */
export const DEFAULT_BLOCK_BYTES = 16 * 1024;

/**
 * Where the block that starts at `start` ends: at the end of the line that holds its last byte
 * of `blockBytes` (blocks hold whole lines). The one rule both indexing and search use.
 */
export function blockEnd(bytes: Uint8Array, start: number, blockBytes: number): number {
  const end = start + blockBytes;
  if (end >= bytes.length) return bytes.length;
  const newline = bytes.indexOf(0x0a, end - 1);
  return newline < 0 ? bytes.length : newline + 1;
}

/**
 * Trigrams per block of about `blockBytes`, blocks cut at line ends so that a line, and so a
 * match, lies in one block. Trigrams across a block's last newline are not kept: a match never
 * spans lines.
 */
export function blockTrigramsOf(bytes: Uint8Array, blockBytes: number): BlockTrigrams {
  const blocks: Int32Array[] = [];
  const startLines: number[] = [];
  let fileTouched = new Int32Array(1 << 14);
  let distinct = 0;
  let line = 0;
  let start = 0;
  while (start < bytes.length) {
    const end = blockEnd(bytes, start, blockBytes);
    const block = bytes.subarray(start, end);
    const trigrams = trigramsOf(block);
    for (let i = 0; i < trigrams.length; i++) {
      const t = trigrams[i]!;
      const slot = t >>> 3;
      const mask = 1 << (t & 7);
      if (seenInFile[slot]! & mask) continue;
      seenInFile[slot]! |= mask;
      if (distinct === fileTouched.length) {
        const grown = new Int32Array(fileTouched.length * 2);
        grown.set(fileTouched);
        fileTouched = grown;
      }
      fileTouched[distinct++] = t;
    }
    if (blocks.length > 0) startLines.push(line);
    blocks.push(trigrams);
    for (let at = block.indexOf(0x0a); at >= 0; at = block.indexOf(0x0a, at + 1)) line++;
    start = end;
  }
  for (let i = 0; i < distinct; i++) seenInFile[fileTouched[i]! >>> 3] = 0;
  return { blocks, startLines, distinct };
}
