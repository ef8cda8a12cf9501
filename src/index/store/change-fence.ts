/**
 * Knowing that an index folder has not changed, without a stat of its files. A search across
 * projects asks every project whether its index is current; three file checks each (the text
 * manifest, the symbols manifest, the job journal) were a large part of its main-thread work.
 *
 * Each folder is watched (inotify, through fs.watch), and its stamps are trusted while the watch
 * has seen nothing. A change made just before a call may still be on its way from the kernel,
 * though. So a call first passes the fence: it writes to a file of its own, watched by the same
 * inotify instance (on Linux libuv keeps one per loop), and waits for that write to come back.
 * The kernel queues events in the order the changes happened, so by then every change made
 * before the call has been told to its folder's watch. No file is left on disk: the fence file
 * is unlinked as soon as it is open and watched.
 *
 * Linux only: elsewhere libuv watches a file and a folder by different means (kqueue and
 * FSEvents on macOS), whose events keep no common order. There the fence never works, and
 * callers read their stamps.
 */
import { closeSync, type FSWatcher, mkdtempSync, openSync, rmdirSync, rmSync, unlinkSync, watch, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A fence whose write has not come back by then (an overflowing inotify queue drops events, and
 * libuv does not pass on the kernel's notice of it) lets its callers go to read their stamps, and
 * is opened afresh for the next caller.
 */
const FENCE_TIMEOUT_MS = 2_000;

/** Fences opened afresh after one another timed out, with none coming back between: events do not come back here. */
const MAX_STALLS = 3;

const FENCE_BYTE = Buffer.from('.');

/** The fence file, open and watched, and the write out on it (one at a time: the kernel merges a file's like events). */
interface FenceFile {
  readonly fd: number;
  readonly watcher: FSWatcher;
  /** The first event is the unlink's own (the link count changed), not a fence's. */
  settled: boolean;
  inFlight: Array<(passed: boolean) => void> | undefined;
  timer: NodeJS.Timeout | undefined;
}

export class ChangeFence {
  readonly #timeoutMs: number;
  /** Opened at the first use, and again after a stall; null where it cannot work, or once closed. */
  #file: FenceFile | null | undefined;
  /** Calls that came after the write in flight went out: they need a write of their own. */
  #waiting: Array<(passed: boolean) => void> = [];
  #stalls = 0;
  #epoch = 0;

  /** `timeoutMs`: how long a write may take to come back (tests shorten it). */
  constructor(options: { timeoutMs?: number } = {}) {
    this.#timeoutMs = options.timeoutMs ?? FENCE_TIMEOUT_MS;
  }

  /** Whether watches can be trusted: false where the fence cannot work, and once it is closed. */
  get working(): boolean {
    return this.#opened() !== null;
  }

  /**
   * Which fence file is open: another one after a stall. A stall may mean events were dropped,
   * folder events too, so what was kept under an earlier epoch is read again (WatchedStamps).
   */
  get epoch(): number {
    return this.#epoch;
  }

  /**
   * Resolves once every change made before this call has reached the watches: true; false when
   * the fence cannot tell now (not working, or just opened), and stamps must be read.
   */
  passed(): Promise<boolean> {
    const file = this.#opened();
    if (!file?.settled) return Promise.resolve(false);
    // The loop stays up while a caller waits (the watch alone does not hold it).
    file.watcher.ref();
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.#send(file);
    });
  }

  /** A watch of `dir` until its first change; undefined when it cannot be watched (not there yet). */
  watchFolder(dir: string): FolderWatch | undefined {
    if (!this.working) return undefined;
    try {
      return new FolderWatch(watch(dir, { persistent: false }));
    } catch {
      return undefined;
    }
  }

  close(): void {
    if (this.#file) this.#drop(this.#file);
    this.#file = null;
  }

  #opened(): FenceFile | null {
    if (this.#file !== undefined) return this.#file;
    this.#file = null;
    if (process.platform !== 'linux') return null;
    let dir: string | undefined;
    let fd: number | undefined;
    let watcher: FSWatcher | undefined;
    try {
      dir = mkdtempSync(join(tmpdir(), 'sextant-fence-'));
      const path = join(dir, 'fence');
      writeFileSync(path, '');
      watcher = watch(path, { persistent: false });
      fd = openSync(path, 'r+');
      unlinkSync(path);
      rmdirSync(dir);
    } catch {
      quietly(() => watcher?.close());
      quietly(() => fd !== undefined && closeSync(fd));
      quietly(() => dir !== undefined && rmSync(dir, { recursive: true, force: true }));
      return null;
    }
    this.#epoch++;
    const file: FenceFile = { fd, watcher, settled: false, inFlight: undefined, timer: undefined };
    watcher.on('change', () => this.#told(file));
    watcher.on('error', () => this.#stall(file));
    file.timer = setTimeout(() => this.#stall(file), this.#timeoutMs).unref();
    return (this.#file = file);
  }

  #send(file: FenceFile): void {
    if (file.inFlight || this.#waiting.length === 0) return;
    file.inFlight = this.#waiting;
    this.#waiting = [];
    try {
      writeSync(file.fd, FENCE_BYTE, 0, 1, 0);
    } catch {
      this.#stall(file);
      return;
    }
    file.timer = setTimeout(() => this.#stall(file), this.#timeoutMs).unref();
  }

  #told(file: FenceFile): void {
    if (this.#file !== file) return;
    clearTimeout(file.timer);
    // Only a write that came back shows events come back here (the unlink's may where writes' do not).
    if (file.settled) this.#stalls = 0;
    const passed = file.settled ? file.inFlight : undefined;
    file.settled = true;
    file.inFlight = undefined;
    for (const resolve of passed ?? []) resolve(true);
    this.#send(file);
    if (!file.inFlight) file.watcher.unref();
  }

  /** The write (or the unlink's event) is overdue, or the watch failed: callers read, and the next one opens a fence afresh. */
  #stall(file: FenceFile): void {
    if (this.#file !== file) return;
    this.#drop(file);
    this.#file = ++this.#stalls >= MAX_STALLS ? null : undefined;
  }

  #drop(file: FenceFile): void {
    clearTimeout(file.timer);
    quietly(() => file.watcher.close());
    quietly(() => closeSync(file.fd));
    for (const resolve of [...(file.inFlight ?? []), ...this.#waiting]) resolve(false);
    file.inFlight = undefined;
    this.#waiting = [];
  }
}

/** Clean-up that must not throw over what it cleans up after. */
function quietly(step: () => unknown): void {
  try {
    step();
  } catch {
    // Nothing more to do: this fence file is done with (a fresh one may be opened later).
  }
}

/**
 * A folder's watch, until the folder's first change: then it is closed, and the folder watched
 * anew by whoever reads it next. (A folder removed and made again is a new folder to inotify; a
 * watch that went on would see nothing of it.)
 */
export class FolderWatch {
  readonly #watcher: FSWatcher;
  #unchanged = true;

  constructor(watcher: FSWatcher) {
    this.#watcher = watcher;
    watcher.on('change', () => this.close());
    watcher.on('error', () => this.close());
  }

  /** No change seen since the watch began. */
  get unchanged(): boolean {
    return this.#unchanged;
  }

  close(): void {
    if (!this.#unchanged) return;
    this.#unchanged = false;
    this.#watcher.close();
  }
}
