/**
 * A project's index stamps, kept while its folder's watch sees no change (index/store/change-fence.ts):
 * a caller that has passed the fence since it began reads them without a stat.
 */
import { existsSync } from 'node:fs';
import type { ChangeFence, FolderWatch, IndexStore } from '../index/store/index.js';

/**
 * Longest stamps are kept without a stat, whatever the watch says: inotify drops events when its
 * queue overflows, and libuv does not pass on the kernel's notice of it. Past this, a missed
 * change is seen anyway.
 */
const MAX_TRUST_MS = 1_000;

/** What is kept needs only say whether a job was running (Project.stamps). */
interface Stamps {
  readonly jobPid: number | undefined;
}

export class WatchedStamps<T extends Stamps> {
  readonly #fence: ChangeFence;
  readonly #store: IndexStore;
  readonly #maxTrustMs: number;
  /** Watching since the stamps kept were read (under the fence's epoch then); none kept without it. */
  #kept: { stamps: T; watch: FolderWatch; readAt: number; epoch: number } | undefined;
  /** When the folder could not be watched (no index yet): not tried again before maxTrustMs. */
  #unwatchableAt = -Infinity;
  /** Once the project is closed: read each time, and nothing watched (a search in flight may still ask). */
  #closed = false;

  /** `maxTrustMs`: how long stamps are kept at most (tests lengthen or shorten it). */
  constructor(fence: ChangeFence, store: IndexStore, options: { maxTrustMs?: number } = {}) {
    this.#fence = fence;
    this.#store = store;
    this.#maxTrustMs = options.maxTrustMs ?? MAX_TRUST_MS;
  }

  /**
   * The stamps: the ones kept if the folder has not changed since they were read, else `read()`.
   * Only for a caller that has passed the fence since it began (ChangeFence.passed), so that any
   * change made before it has reached the watch.
   */
  current(read: () => T): T {
    const now = performance.now();
    const kept = this.#kept;
    if (kept?.watch.unchanged && now - kept.readAt < this.#maxTrustMs && kept.epoch === this.#fence.epoch) return kept.stamps;
    kept?.watch.close();
    this.#kept = undefined;
    if (this.#closed || !this.#fence.working || now - this.#unwatchableAt < this.#maxTrustMs) return read();
    // Watched before the read: a change during it closes the watch, and is read next time.
    const watch = this.#fence.watchFolder(this.#store.dir);
    if (!watch) this.#unwatchableAt = now;
    let stamps: T;
    try {
      stamps = read();
    } catch (error) {
      watch?.close();
      throw error;
    }
    // A job's journal can end with its process, which changes no file here: read each time.
    if (!watch || stamps.jobPid !== undefined || existsSync(this.#store.journalPath)) watch?.close();
    else this.#kept = { stamps, watch, readAt: now, epoch: this.#fence.epoch };
    return stamps;
  }

  /** Lets go of the watch while the project is let go; the next call watches again. */
  release(): void {
    this.#kept?.watch.close();
    this.#kept = undefined;
  }

  /** Stops watching for good (the project is closed); later calls read each time. */
  close(): void {
    this.#closed = true;
    this.release();
  }
}
