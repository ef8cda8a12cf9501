/**
 * A file's text for a search that reads each file once (no cache): read through one buffer kept
 * between reads, without the stat and the fresh buffer of `readFileSync(path, 'utf8')`. Measured
 * on the Linux tree (bench/RESULTS.md): the 902 files of `struct file_operations`, 39 MB, 35 ms
 * against 96 ms; 739 smaller files, 24 ms against 29 ms. Decoding is the same (invalid UTF-8
 * becomes U+FFFD), and a file grown since it was indexed is read whole.
 *
 * Every reader of project files that may meet one replaced since it was found (search, extraction,
 * the direct scan) opens it here, without blocking.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync } from 'node:fs';

const FIRST_BUFFER_BYTES = 1 << 20;
/** A buffer grown past this for one large file is not kept for the next. */
const KEPT_BUFFER_BYTES = 16 << 20;

let buffer: Buffer | undefined;

/**
 * Opens a project file for reading without blocking: a file replaced by a FIFO since it was
 * found reads as empty (or fails), instead of a read that waits for ever. Throws as openSync does.
 */
export function openNonBlocking(path: string): number {
  return openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
}

/** The bytes of `path`, opened without blocking (openNonBlocking); throws when it cannot be read. */
export function readBytesNonBlocking(path: string): Buffer {
  const fd = openNonBlocking(path);
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The text of `path`, or undefined when it cannot be read (gone since indexing, unreadable). */
export function readTextOnce(path: string): string | undefined {
  const bytes = readBytesOnce(path);
  return bytes?.toString('utf8');
}

/**
 * The bytes of `path`, or undefined when it cannot be read: a view of the kept buffer, valid
 * until the next read (decode or copy what is kept).
 */
export function readBytesOnce(path: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openNonBlocking(path);
  } catch {
    return undefined;
  }
  try {
    let bytes = buffer ?? Buffer.allocUnsafe(FIRST_BUFFER_BYTES);
    let length = 0;
    for (let read; (read = readSync(fd, bytes, length, bytes.length - length, length)) > 0; ) {
      length += read;
      if (length === bytes.length) {
        // Past the buffer: room for the whole file at once (and a byte to see its end), not
        // doublings that each copy what was read.
        const grown = Buffer.allocUnsafe(Math.max(bytes.length * 2, fstatSync(fd).size + 1));
        bytes.copy(grown, 0, 0, length);
        bytes = grown;
      }
    }
    buffer = bytes.length <= KEPT_BUFFER_BYTES ? bytes : undefined;
    return bytes.subarray(0, length);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
