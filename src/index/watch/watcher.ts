/**
 * Keeps an index current while files are saved: a recursive fs.watch on the project, events
 * gathered for a short debounce, then a sync of exactly those paths (no walk of the tree).
 * Updates never overlap: paths that change during one are taken by the next.
 */
import type { Logger } from '../../platform/log.js';
import { mergeDeltas, type MergeSummary } from '../build/merge.js';
import { syncIndex, type SyncSummary } from '../build/sync.js';
import { watchTree, type TreeWatch, type TreeWatcherOptions } from './tree-watcher.js';

const DEFAULT_WATCH_DEBOUNCE_MS = 150;
/** Quiet time after a save before symbols are refreshed (a burst of saves makes one delta). */
const DEFAULT_SYMBOLS_IDLE_MS = 250;
/** Quiet time after a save before due segment merges run: merging never delays a save. */
const DEFAULT_MERGE_IDLE_MS = 2_000;
/** How soon saved paths are tried again when another job holds the index. */
const BUSY_RETRY_MS = 500;
/**
 * The longest wait before saved paths are tried again after a failed update (a full disk, a
 * read-only home): the waits double from BUSY_RETRY_MS up to this, and the paths are kept.
 */
const MAX_FAILED_RETRY_MS = 30_000;
/**
 * How often the whole tree is compared with the index (a sync without paths: a walk and a stat
 * per file, reading only what changed). File events can be lost (an overflowing inotify queue, a
 * change made while the watch was down, a filesystem that reports nothing): whatever the events
 * missed is in the index within this bound.
 */
const DEFAULT_RECONCILE_MS = 5 * 60_000;

export interface WatcherOptions {
  home?: string;
  debounceMs?: number;
  mergeIdleMs?: number;
  symbolsIdleMs?: number;
  /** See DEFAULT_RECONCILE_MS; 0 turns the periodic comparison off. */
  reconcileMs?: number;
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
  #watcher: TreeWatch | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** Work that waits for saves to pause, by kind: one timer each. */
  readonly #quietTimers = new Map<'merge' | 'symbols', NodeJS.Timeout>();
  #running: Promise<void> | undefined;
  /** Updates failed in a row (not counting "busy"): the next try waits longer. */
  #failures = 0;
  #reconciler: NodeJS.Timeout | undefined;

  constructor(root: string, options: WatcherOptions = {}) {
    this.#root = root;
    this.#options = options;
  }

  start(): void {
    const watchOptions: TreeWatcherOptions = {};
    if (this.#options.onError) watchOptions.onError = this.#options.onError;
    this.#watcher = watchTree(
      this.#root,
      (path) => {
        this.#pending.add(path);
        this.#schedule();
      },
      watchOptions,
    );
    const every = this.#options.reconcileMs ?? DEFAULT_RECONCILE_MS;
    if (every > 0) {
      this.#reconciler = setInterval(() => void this.reconcile(), every);
      this.#reconciler.unref();
    }
  }

  /**
   * Nothing pending, running or waiting for saves to pause: every event so far has had its
   * update, refresh and merge (the periodic reconcile aside). Tests wait for this state.
   */
  get idle(): boolean {
    return this.#pending.size === 0 && this.#running === undefined && this.#quietTimers.size === 0 && this.#timer === undefined;
  }

  /** Compares the whole tree with the index now (the periodic check calls it; tests may too). */
  async reconcile(): Promise<SyncSummary | undefined> {
    const syncOptions: Parameters<typeof syncIndex>[1] = {};
    if (this.#options.home) syncOptions.home = this.#options.home;
    // Busy: another job is bringing the index up to date anyway; the next period looks again.
    const summary = await this.#inTurn(
      'Index reconciliation',
      () => syncIndex(this.#root, syncOptions),
      () => undefined,
    );
    if (summary) this.#afterSync(summary);
    return summary;
  }

  /** Applies what is pending now (tests and shutdown use it; events call it after the debounce). */
  async flush(): Promise<void> {
    while (this.#running) await this.#running;
    if (this.#pending.size === 0) return;
    const paths = [...this.#pending];
    this.#pending.clear();
    const syncOptions: Parameters<typeof syncIndex>[1] = { paths };
    if (this.#options.home) syncOptions.home = this.#options.home;
    const keep = (delayMs: number): void => {
      for (const path of paths) this.#pending.add(path);
      this.#retry(delayMs);
    };
    const summary = await this.#inTurn(
      'Index update',
      () => syncIndex(this.#root, syncOptions),
      // Another process holds the index: keep the paths and try again shortly.
      () => keep(BUSY_RETRY_MS),
      // The write failed (a full disk, say): the saves are not lost; tried again, less often each time.
      () => keep(Math.min(MAX_FAILED_RETRY_MS, BUSY_RETRY_MS * 2 ** this.#failures++)),
    );
    if (summary) {
      this.#failures = 0;
      this.#afterSync(summary);
    }
  }

  #afterSync(summary: SyncSummary): void {
    this.#options.onUpdate?.(summary);
    if (summary.mergeDue) this.#whenQuiet('merge', this.#options.mergeIdleMs ?? DEFAULT_MERGE_IDLE_MS, () => this.merge());
    if (this.#options.symbols && summary.added + summary.changed + summary.deleted > 0) {
      this.#whenQuiet('symbols', this.#options.symbolsIdleMs ?? DEFAULT_SYMBOLS_IDLE_MS, () => this.refreshSymbols());
    }
  }

  /**
   * Parses the changed files' symbols again (the others are reused by content hash) and writes
   * them as a delta, queued behind any running update; once saves pause, not after every one.
   */
  async refreshSymbols(): Promise<void> {
    const done = await this.#inTurn(
      'Symbol refresh',
      async () => {
        // Off this thread: the watcher lives in the server, whose event loop must stay free.
        const { buildSymbolsInBackground } = await import('../build/symbol-phase.js');
        await buildSymbolsInBackground(this.#root, { home: this.#options.home });
        return true;
      },
      // Another process holds the index: refresh once it is quiet again.
      () => this.#whenQuiet('symbols', this.#options.symbolsIdleMs ?? DEFAULT_SYMBOLS_IDLE_MS, () => this.refreshSymbols()),
    );
    if (done) this.#options.onSymbols?.();
  }

  /** Folds the sync deltas into one segment, queued behind any running update. */
  async merge(): Promise<MergeSummary | undefined> {
    const summary = await this.#inTurn(
      'Index merge',
      async () => mergeDeltas(this.#root, { home: this.#options.home }),
      () => this.#whenQuiet('merge', this.#options.mergeIdleMs ?? DEFAULT_MERGE_IDLE_MS, () => this.merge()),
    );
    if (summary) this.#options.onMerge?.(summary);
    return summary;
  }

  /**
   * Runs one update after the ones before it (and inside the owner's lock), never two at once.
   * Its failure is logged, not thrown, then `onFailed` decides; when another process holds the
   * index, `onBusy` does.
   */
  async #inTurn<T>(what: string, task: () => Promise<T>, onBusy?: () => void, onFailed?: () => void): Promise<T | undefined> {
    while (this.#running) await this.#running;
    let result: T | undefined;
    const turn = (this.#options.exclusive ? this.#options.exclusive(task) : task())
      .then((value) => {
        result = value;
      })
      .catch((error: unknown) => {
        if (onBusy && (error as { code?: unknown }).code === 'index_in_progress') return onBusy();
        this.#options.logger?.warning(`${what} failed`, error);
        onFailed?.();
        this.#options.onError?.(error);
      })
      .finally(() => {
        this.#running = undefined;
      });
    this.#running = turn;
    await turn;
    return result;
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    clearInterval(this.#reconciler);
    for (const timer of this.#quietTimers.values()) clearTimeout(timer);
    this.#quietTimers.clear();
    this.#watcher?.close();
    this.#watcher = undefined;
  }

  /** Runs `task` once no save has come for `ms` and nothing else runs: saves keep coming, it waits on. */
  #whenQuiet(kind: 'merge' | 'symbols', ms: number, task: () => Promise<unknown>): void {
    clearTimeout(this.#quietTimers.get(kind));
    const timer = setTimeout(() => {
      this.#quietTimers.delete(kind);
      if (this.#pending.size > 0 || this.#running) this.#whenQuiet(kind, ms, task);
      else void task();
    }, ms);
    timer.unref();
    this.#quietTimers.set(kind, timer);
  }

  #retry(delayMs: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, delayMs);
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, this.#options.debounceMs ?? DEFAULT_WATCH_DEBOUNCE_MS);
  }
}
