/**
 * Knowing that an index folder has not changed, without a stat of its files. A search across
 * projects asks every project whether its index is current; three file checks each (the text
 * manifest, the symbols manifest, the job journal) were a large part of its main-thread work.
 *
 * Each folder is watched (inotify, through fs.watch), and its stamps are trusted while the watch
 * has seen nothing. A change made just before a call may still be on its way from the kernel,
 * though. So a call first passes the fence: it writes to a file of its own, watched by the same
 * inotify instance (libuv keeps one per loop), and waits for that write to come back. The kernel
 * queues events in the order the changes happened, so by then every change made before the call
 * has been told to its folder's watch. No file is left on disk: the fence file is unlinked as
 * soon as it is open and watched.
 */
import { closeSync, type FSWatcher, mkdtempSync, openSync, rmdirSync, rmSync, unlinkSync, watch, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A fence whose write has not come back by then lets its callers go to read their stamps, and
 * so does every later one until the write does come back (a loop blocked for long reads its
 * events late, but reads them; one that never comes back leaves the fence stalled for good).
 */
const FENCE_TIMEOUT_MS = 10_000;

const FENCE_BYTE = Buffer.from('.');

export class ChangeFence {
  readonly #timeoutMs: number;
  /** The fence file, open and watched from the first use on; null once it failed (or could not open). */
  #file: { fd: number; watcher: FSWatcher } | null | undefined;
  /** The first event is the unlink's own (the link count changed), not a fence's. */
  #settled = false;
  /** Calls waiting on the write in flight; one at a time, or the kernel would merge their events. */
  #inFlight: Array<(passed: boolean) => void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** Calls that came after the write in flight went out: they need a write of their own. */
  #waiting: Array<(passed: boolean) => void> = [];
  /** A write (or the unlink's event) is overdue: callers read stamps until it comes back. */
  #stalled = false;

  /** `timeoutMs`: how long a write may take to come back (tests shorten it). */
  constructor(options: { timeoutMs?: number } = {}) {
    this.#timeoutMs = options.timeoutMs ?? FENCE_TIMEOUT_MS;
  }

  /** Whether watches can be trusted: false once the fence failed, or where files cannot be watched. */
  get working(): boolean {
    return this.#opened() !== null;
  }

  /**
   * Resolves once every change made before this call has reached the watches: true; false when
   * the fence does not work, and stamps must be read.
   */
  passed(): Promise<boolean> {
    const file = this.#opened();
    if (!file || this.#stalled) return Promise.resolve(false);
    // The loop stays up while a caller waits (the watch alone does not hold it).
    file.watcher.ref();
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.#send();
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
    this.#break();
  }

  #opened(): { fd: number; watcher: FSWatcher } | null {
    if (this.#file !== undefined) return this.#file;
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
      watcher?.close();
      if (fd !== undefined) closeSync(fd);
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
      return (this.#file = null);
    }
    watcher.on('change', () => this.#told());
    watcher.on('error', () => this.#break());
    this.#timer = setTimeout(() => this.#stall(), this.#timeoutMs).unref();
    return (this.#file = { fd, watcher });
  }

  #send(): void {
    const file = this.#file;
    if (!file || !this.#settled || this.#inFlight || this.#waiting.length === 0) return;
    this.#inFlight = this.#waiting;
    this.#waiting = [];
    try {
      writeSync(file.fd, FENCE_BYTE, 0, 1, 0);
    } catch {
      this.#break();
      return;
    }
    this.#timer = setTimeout(() => this.#stall(), this.#timeoutMs).unref();
  }

  #stall(): void {
    this.#stalled = true;
    this.#letGo(false);
    this.#file?.watcher.unref();
  }

  /** Every caller in flight or waiting told `passed`. */
  #letGo(passed: boolean): void {
    for (const resolve of [...(this.#inFlight ?? []), ...this.#waiting]) resolve(passed);
    // A write still out stays out (an empty flight) until its event comes back.
    if (this.#inFlight) this.#inFlight = [];
    this.#waiting = [];
  }

  #told(): void {
    clearTimeout(this.#timer);
    this.#stalled = false;
    if (!this.#settled) {
      this.#settled = true;
      this.#send();
      return;
    }
    const passed = this.#inFlight;
    this.#inFlight = undefined;
    for (const resolve of passed ?? []) resolve(true);
    this.#send();
    if (!this.#inFlight) this.#file?.watcher.unref();
  }

  #break(): void {
    const file = this.#file;
    this.#file = null;
    clearTimeout(this.#timer);
    if (file) {
      file.watcher.close();
      closeSync(file.fd);
    }
    this.#letGo(false);
    this.#inFlight = undefined;
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
