/**
 * The lines of files read_file served lately, kept while each file is unchanged: the same device,
 * inode, size and modification time. Reading a file again and splitting it into lines was most of
 * a read_file call's own work when agents page through the same files. An entry is made only from
 * a read that passed every check (inside the project, a regular file, not too large), of a file
 * that did not change while it was read; a later stat that finds the same inode, size and time
 * finds those same bytes.
 */
import { statSync } from 'node:fs';
import { MAX_OUTPUT_CHARS } from './limits.js';

/** A longer line is cut, its end marked with …. */
const MAX_LINE_CHARS = 2_000;
/** Windows of one file's lines kept (agents page through a file, or read the same part again). */
const KEPT_WINDOWS_PER_FILE = 8;
/** Characters of windows kept across all files, beside the kept lines' own budget. */
const KEPT_WINDOW_CHARS = 16 * 1024 * 1024;

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

/** The lines a read_file gives, as they are and numbered, and the last one given. */
export interface LineWindow {
  end: number;
  text: string;
  numbered: string;
}

/** The windows given of each kept file's lines: they hold as long as the lines do (FileLines). */
const windows = new WeakMap<string[], Map<string, LineWindow>>();
/** Every window kept, oldest first, with what it holds: counted against KEPT_WINDOW_CHARS. */
const windowOrder = new Map<LineWindow, { lines: WeakRef<string[]>; key: string; chars: number }>();
let windowChars = 0;

/**
 * Lines `start` to `wantedEnd` of `lines` within the output budget (each line twice: in the
 * numbered text and as it is), long lines cut; the same window of the same lines is made once.
 */
export function windowOf(lines: string[], start: number, wantedEnd: number): LineWindow {
  const key = `${start}:${wantedEnd}`;
  let kept = windows.get(lines);
  const found = kept?.get(key);
  if (found) return found;
  const shown: string[] = [];
  let budget = MAX_OUTPUT_CHARS - 4_000;
  let end = start - 1;
  for (let line = start; line <= wantedEnd; line++) {
    const raw = lines[line - 1]!;
    const text = raw.length > MAX_LINE_CHARS ? `${raw.slice(0, MAX_LINE_CHARS)}…` : raw;
    budget -= 2 * text.length + String(line).length + 4;
    if (budget < 0 && shown.length > 0) break;
    shown.push(text);
    end = line;
  }
  const width = String(end).length;
  const window = { end, text: shown.join('\n'), numbered: shown.map((text, index) => `${String(start + index).padStart(width)}: ${text}`).join('\n') };
  if (!kept) windows.set(lines, (kept = new Map()));
  if (kept.size >= KEPT_WINDOWS_PER_FILE) forgetWindow(kept.values().next().value!);
  kept.set(key, window);
  const chars = window.text.length + window.numbered.length;
  // Weakly: a window must not keep alive the lines FileLines let go of.
  windowOrder.set(window, { lines: new WeakRef(lines), key, chars });
  windowChars += chars;
  for (const oldest of windowOrder.keys()) {
    if (windowChars <= KEPT_WINDOW_CHARS) break;
    forgetWindow(oldest);
  }
  return window;
}

function forgetWindow(window: LineWindow): void {
  const entry = windowOrder.get(window);
  if (!entry) return;
  windowOrder.delete(window);
  windowChars -= entry.chars;
  const lines = entry.lines.deref();
  if (lines) windows.get(lines)?.delete(entry.key);
}
