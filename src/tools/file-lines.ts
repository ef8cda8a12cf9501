/**
 * The lines of files read_file served lately, kept while each file is unchanged: the same device,
 * inode, size and modification time. Reading a file again and splitting it into lines was most of
 * a read_file call's own work when agents page through the same files. An entry is made only from
 * a read that passed every check (inside the project, a regular file, not too large), of a file
 * that did not change while it was read; a later stat that finds the same inode, size and time
 * finds those same bytes.
 */
import { statSync } from 'node:fs';

/** Bytes of file text kept, at most (counted as UTF-8 read from disk). */
const KEPT_BYTES = 32 * 1024 * 1024;

function stampOf(absolute: string): string | undefined {
  try {
    const stats = statSync(absolute);
    return stats.isFile() ? `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}` : undefined;
  } catch {
    return undefined;
  }
}

/** A file's lines, a trailing empty one (after the last newline) dropped; undefined for no file. */
export function splitLines(bytes: Buffer): string[];
export function splitLines(bytes: Buffer | undefined): string[] | undefined;
export function splitLines(bytes: Buffer | undefined): string[] | undefined {
  if (!bytes) return undefined;
  const lines = bytes.toString('utf8').split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export class FileLines {
  /** In use order: the first is the least recently used. */
  readonly #entries = new Map<string, { stamp: string; lines: string[]; bytes: number }>();
  #bytes = 0;

  /** The lines of the file at `absolute`: kept ones while it is unchanged, else `read()`'s (undefined: not served). */
  lines(absolute: string, read: () => Buffer | undefined): string[] | undefined {
    const before = stampOf(absolute);
    const kept = this.#entries.get(absolute);
    if (kept && before !== undefined && kept.stamp === before) {
      this.#entries.delete(absolute);
      this.#entries.set(absolute, kept);
      return kept.lines;
    }
    const bytes = read();
    if (!bytes) return undefined;
    const lines = splitLines(bytes);
    if (before !== undefined && stampOf(absolute) === before) this.#keep(absolute, { stamp: before, lines, bytes: bytes.length });
    return lines;
  }

  #keep(absolute: string, entry: { stamp: string; lines: string[]; bytes: number }): void {
    const old = this.#entries.get(absolute);
    if (old) this.#bytes -= old.bytes;
    this.#entries.delete(absolute);
    if (entry.bytes > KEPT_BYTES / 4) return;
    this.#entries.set(absolute, entry);
    this.#bytes += entry.bytes;
    for (const [path, oldest] of this.#entries) {
      if (this.#bytes <= KEPT_BYTES) break;
      this.#entries.delete(path);
      this.#bytes -= oldest.bytes;
    }
  }
}
