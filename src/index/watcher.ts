/**
 * Keeps an index current while files are saved: a recursive fs.watch on the project, events
 * gathered for a short debounce, then a sync of exactly those paths (no walk of the tree).
 * Updates never overlap: paths that change during one are taken by the next.
 */
import { watch, type FSWatcher } from 'node:fs';
import { sep } from 'node:path';
import type { Logger } from '../log.js';
import { mergeDeltas, type MergeSummary } from './merge.js';
import { syncIndex, type SyncSummary } from './sync.js';

export const DEFAULT_WATCH_DEBOUNCE_MS = 150;
/** Quiet time after a save before symbols are refreshed. */
export const DEFAULT_SYMBOLS_IDLE_MS = 500;
/** Quiet time after a save before due segment merges run: merging never delays a save. */
export const DEFAULT_MERGE_IDLE_MS = 2_000;
/** How soon saved paths are tried again when another job holds the index. */
export const BUSY_RETRY_MS = 500;

export interface WatcherOptions {
  home?: string;
  debounceMs?: number;
  mergeIdleMs?: number;
  symbolsIdleMs?: number;
  logger?: Logger;
  /** Also refresh symbols once saves pause (only changed files are parsed again). */
  symbols?: boolean;
  /** Runs each update inside the owner's lock, so it never overlaps an index job of the same process. */
  exclusive?<T>(task: () => Promise<T>): Promise<T>;
  onUpdate?(summary: SyncSummary): void;
  onMerge?(summary: MergeSummary): void;
  onSymbols?(): void;
  onError?(error: unknown): void;
}

export class IndexWatcher {
  readonly #root: string;
  readonly #options: WatcherOptions;
  readonly #pending = new Set<string>();
  #watcher: FSWatcher | undefined;
  #timer: NodeJS.Timeout | undefined;
  #mergeTimer: NodeJS.Timeout | undefined;
  #symbolsTimer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(root: string, options: WatcherOptions = {}) {
    this.#root = root;
    this.#options = options;
  }

  start(): void {
    this.#watcher = watch(this.#root, { recursive: true }, (_event, filename) => {
      if (!filename) return;
      const path = filename.toString().split(sep).join('/');
      if (path === '.git' || path.startsWith('.git/')) return;
      this.#pending.add(path);
      this.#schedule();
    });
    this.#watcher.on('error', (error) => this.#options.onError?.(error));
  }

  /** Applies what is pending now (tests and shutdown use it; events call it after the debounce). */
  async flush(): Promise<void> {
    while (this.#running) await this.#running;
    if (this.#pending.size === 0) return;
    const paths = [...this.#pending];
    this.#pending.clear();
    const syncOptions: Parameters<typeof syncIndex>[1] = { paths };
    if (this.#options.home) syncOptions.home = this.#options.home;
    const update = (): Promise<SyncSummary> => syncIndex(this.#root, syncOptions);
    this.#running = (this.#options.exclusive ? this.#options.exclusive(update) : update())
      .then((summary) => {
        this.#options.onUpdate?.(summary);
        if (summary.mergeDue) this.#scheduleMerge();
        if (this.#options.symbols && summary.added + summary.changed + summary.deleted > 0) this.#scheduleSymbols();
      })
      .catch((error: unknown) => {
        if ((error as { code?: unknown }).code === 'index_in_progress') {
          // Another process holds the index: keep the paths and try again shortly.
          for (const path of paths) this.#pending.add(path);
          this.#retry();
          return;
        }
        this.#options.logger?.warning('Index update failed', error);
        this.#options.onError?.(error);
      })
      .finally(() => {
        this.#running = undefined;
      });
    await this.#running;
  }

  /**
   * Parses the changed files' symbols again (the others are reused by content hash), queued
   * behind any running update. The symbol files are rewritten whole, which on a large project
   * takes seconds: so this runs once saves pause, not after every one.
   */
  async refreshSymbols(): Promise<void> {
    while (this.#running) await this.#running;
    const run = async (): Promise<void> => {
      // Off this thread: the watcher lives in the server, whose event loop must stay free.
      const { buildSymbolsInBackground } = await import('./symbols/background.js');
      await buildSymbolsInBackground(this.#root, this.#options.home ? { home: this.#options.home } : {});
    };
    const refreshing = (this.#options.exclusive ? this.#options.exclusive(run) : run())
      .then(() => this.#options.onSymbols?.())
      .catch((error: unknown) => {
        this.#options.logger?.warning('Symbol refresh failed', error);
        this.#options.onError?.(error);
      })
      .finally(() => {
        this.#running = undefined;
      });
    this.#running = refreshing;
    await refreshing;
  }

  /** Folds the sync deltas into one segment, queued behind any running update. */
  async merge(): Promise<MergeSummary | undefined> {
    while (this.#running) await this.#running;
    let summary: MergeSummary | undefined;
    const run = async (): Promise<MergeSummary> => mergeDeltas(this.#root, this.#options.home ? { home: this.#options.home } : {});
    const merging = (this.#options.exclusive ? this.#options.exclusive(run) : run())
      .then((merged) => {
        summary = merged;
        this.#options.onMerge?.(merged);
      })
      .catch((error: unknown) => {
        if ((error as { code?: unknown }).code === 'index_in_progress') return this.#scheduleMerge();
        this.#options.logger?.warning('Index merge failed', error);
        this.#options.onError?.(error);
      })
      .finally(() => {
        this.#running = undefined;
      });
    this.#running = merging;
    await merging;
    return summary;
  }

  close(): void {
    clearTimeout(this.#timer);
    clearTimeout(this.#mergeTimer);
    clearTimeout(this.#symbolsTimer);
    this.#watcher?.close();
    this.#watcher = undefined;
  }

  #scheduleSymbols(): void {
    clearTimeout(this.#symbolsTimer);
    this.#symbolsTimer = setTimeout(() => {
      if (this.#pending.size > 0 || this.#running) this.#scheduleSymbols();
      else void this.refreshSymbols();
    }, this.#options.symbolsIdleMs ?? DEFAULT_SYMBOLS_IDLE_MS);
    this.#symbolsTimer.unref();
  }

  #scheduleMerge(): void {
    clearTimeout(this.#mergeTimer);
    clearTimeout(this.#symbolsTimer);
    this.#mergeTimer = setTimeout(() => {
      // Saves keep coming: wait for a quiet moment.
      if (this.#pending.size > 0 || this.#running) this.#scheduleMerge();
      else void this.merge();
    }, this.#options.mergeIdleMs ?? DEFAULT_MERGE_IDLE_MS);
    this.#mergeTimer.unref();
  }

  #retry(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.flush(), BUSY_RETRY_MS);
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.flush(), this.#options.debounceMs ?? DEFAULT_WATCH_DEBOUNCE_MS);
  }
}
