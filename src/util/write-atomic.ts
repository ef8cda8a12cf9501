/**
 * Writing a file whole or not at all: a temp file beside it, fsync, rename, then fsync of the
 * folder. Temp files are named TEMP_FILE, with the writer's pid, so that a later writer can tell
 * which ones a dead process left behind.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The name of a temp file writeAtomic leaves if its process dies mid-write; group 1 is the pid. */
export const TEMP_FILE = /\.tmp-(\d+)-\d+$/;

/** Writes a file so that readers see the old content or the new, never a part. */
export function writeAtomic(path: string, data: Buffer | string): void {
  const temp = `${path}.tmp-${process.pid}-${Date.now()}`;
  const fd = openSync(temp, 'w');
  try {
    try {
      const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      let written = 0;
      while (written < buffer.length) written += writeSync(fd, buffer, written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    // A full disk, or something in the way: the part written is removed, not left for later.
    rmSync(temp, { force: true });
    throw error;
  }
  // The rename itself must reach the disk too.
  const dirFd = openSync(join(path, '..'), 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}
