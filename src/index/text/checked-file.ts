/**
 * Index files checked a chunk at a time, or whole. The body is followed by a CRC-32 of each 4 KiB
 * chunk of it, a CRC-32 of the whole body, and a CRC-32 of that trailer:
 *
 *   body | u32 crc[n] (crc[i]: body bytes [i·CHUNK, (i+1)·CHUNK)) | u32 n | u32 CRC of the body | u32 CRC of the trailer before it
 *
 * A reader that takes the whole file checks the body's CRC (one pass, as fast as the CRC runs);
 * a reader that takes parts of it (`CheckedFile`, the CLI's search) checks each chunk it reads
 * before using a byte of it. Either way a torn or overwritten file is reported, never believed.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crc32 } from './checksum.js';

export const CHECKED_CHUNK_BYTES = 4 * 1024;

/** What was wrong with a checked file (the caller turns it into its own corrupt-file error). */
export class ChecksumError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ChecksumError';
  }
}

function chunksOf(bodyLength: number): number {
  return Math.ceil(bodyLength / CHECKED_CHUNK_BYTES);
}

const TAIL_BYTES = 12;

/** `body` with its checksums appended. */
export function withChecksums(body: Uint8Array): Buffer {
  const n = chunksOf(body.length);
  const trailer = Buffer.alloc(4 * n + TAIL_BYTES);
  for (let i = 0; i < n; i++) trailer.writeUInt32LE(crc32(body.subarray(i * CHECKED_CHUNK_BYTES, (i + 1) * CHECKED_CHUNK_BYTES)), 4 * i);
  trailer.writeUInt32LE(n, 4 * n);
  trailer.writeUInt32LE(crc32(body), 4 * n + 4);
  trailer.writeUInt32LE(crc32(trailer.subarray(0, 4 * n + 8)), 4 * n + 8);
  return Buffer.concat([body, trailer]);
}

/** The checksums of a file `size` bytes long, read through `readAt` and checked against their own CRC. */
function readTrailer(size: number, readAt: (position: number, length: number) => Uint8Array): { bodyLength: number; bodyCrc: number; crcs: Uint32Array } {
  if (size < TAIL_BYTES) throw new ChecksumError('too short for its checksums');
  const n = Buffer.from(readAt(size - TAIL_BYTES, 4)).readUInt32LE(0);
  const bodyLength = size - TAIL_BYTES - 4 * n;
  if (bodyLength < 0 || chunksOf(bodyLength) !== n) throw new ChecksumError('checksum list does not fit the file');
  const trailer = Buffer.from(readAt(bodyLength, 4 * n + TAIL_BYTES));
  if (crc32(trailer.subarray(0, 4 * n + 8)) !== trailer.readUInt32LE(4 * n + 8)) throw new ChecksumError('checksum mismatch (checksum list)');
  const crcs = new Uint32Array(n);
  for (let i = 0; i < n; i++) crcs[i] = trailer.readUInt32LE(4 * i);
  return { bodyLength, bodyCrc: trailer.readUInt32LE(4 * n + 4), crcs };
}

/** The body of a whole checked file, verified. */
export function checkedBody(file: Uint8Array): Uint8Array {
  const { bodyLength, bodyCrc } = readTrailer(file.length, (position, length) => file.subarray(position, position + length));
  const body = file.subarray(0, bodyLength);
  if (crc32(body) !== bodyCrc) throw new ChecksumError('checksum mismatch');
  return body;
}

/** A checked file read in parts through one descriptor: each chunk is verified the first time it is read. */
export class CheckedFile {
  readonly bodyLength: number;
  readonly #fd: number;
  readonly #crcs: Uint32Array;
  readonly #verified: Uint8Array;

  private constructor(fd: number, bodyLength: number, crcs: Uint32Array) {
    this.#fd = fd;
    this.bodyLength = bodyLength;
    this.#crcs = crcs;
    this.#verified = new Uint8Array(crcs.length);
  }

  /** Opens `path` and checks its checksum list (ENOENT and other open errors are thrown as they are). */
  static open(path: string): CheckedFile {
    const fd = openSync(path, 'r');
    try {
      const { bodyLength, crcs } = readTrailer(fstatSync(fd).size, (position, length) => readFully(fd, position, length));
      return new CheckedFile(fd, bodyLength, crcs);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** `length` bytes of the body from `position`, verified; a range past the body is an error. */
  read(position: number, length: number): Buffer {
    if (position < 0 || length < 0 || position + length > this.bodyLength)
      throw new ChecksumError(`read past the end (${position} + ${length} of ${this.bodyLength})`);
    if (length === 0) return Buffer.alloc(0);
    const first = Math.floor(position / CHECKED_CHUNK_BYTES);
    const last = Math.floor((position + length - 1) / CHECKED_CHUNK_BYTES);
    let allVerified = true;
    for (let i = first; i <= last && allVerified; i++) allVerified = this.#verified[i] === 1;
    if (allVerified) return readFully(this.#fd, position, length);
    // Whole chunks, so that each can be checked against its checksum.
    const start = first * CHECKED_CHUNK_BYTES;
    const chunks = readFully(this.#fd, start, Math.min((last + 1) * CHECKED_CHUNK_BYTES, this.bodyLength) - start);
    for (let i = first; i <= last; i++) {
      if (this.#verified[i] === 1) continue;
      const chunk = chunks.subarray((i - first) * CHECKED_CHUNK_BYTES, (i - first + 1) * CHECKED_CHUNK_BYTES);
      if (crc32(chunk) !== this.#crcs[i]) throw new ChecksumError(`checksum mismatch (bytes from ${i * CHECKED_CHUNK_BYTES})`);
      this.#verified[i] = 1;
    }
    return chunks.subarray(position - start, position - start + length);
  }

  close(): void {
    closeSync(this.#fd);
  }
}

function readFully(fd: number, position: number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  let read = 0;
  for (let n; read < length && (n = readSync(fd, bytes, read, length - read, position + read)) > 0;) read += n;
  if (read < length) throw new ChecksumError(`file ends early (${position + read} of ${position + length} bytes)`);
  return bytes;
}
