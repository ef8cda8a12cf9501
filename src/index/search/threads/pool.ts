/**
 * The server's search threads, shared by every project it serves. Searches run in worker threads
 * with a time budget: a JavaScript regex can backtrack for ever (`(a+)+$` on a long line of a's),
 * and no timer fires while it runs, so a search over budget terminates the threads it ran on, the
 * caller gets PatternTooExpensiveError, and the next search starts fresh threads. The threads, the
 * cached file text and the open index files are the server's, bounded once (search-thread.ts),
 * whatever the number of projects; a search waits its turn in one queue for all of them.
 */
import { availableParallelism } from 'node:os';
import { DEFAULT_CONTENT_CACHE_BYTES } from '../content-cache.js';
import { DEFAULT_SEARCH_BUDGET_MS, DEFAULT_SEARCH_LIMIT, PatternTooExpensiveError, type SearchQuery } from '../reader.js';
import type { DirectScanResult } from '../direct-scan.js';
import type { KnownMatch } from '../ranking.js';
import { mergeShares } from './merge-shares.js';
import { spawnSearchThread } from './search-thread.js';
import { type BatchItem, type BatchRequest, SearchFailedError, SearchWorker, type WorkerResult } from './search-worker.js';
import { BusyError } from '../../../errors.js';

export type { WorkerResult };

export interface SearchPoolOptions extends SearchQueueLimits {
  home?: string;
  budgetMs?: number;
  /** Search threads; a search alone in the pool is split between them (default: one per core, at most 4). */
  workers?: number;
  /** Idle time after which the threads (and their caches and open files) are let go; the next search starts new ones. */
  idleMs?: number;
  /** Bytes of file text cached, across all threads and projects. */
  contentBytes?: number;
  /** Index files held open, across all threads and projects (the least recently searched project closes first). */
  openFiles?: number;
}

export interface SearchQueueLimits {
  /** Searches sent to the threads at once; the rest wait their turn (default: two per thread). */
  maxActive?: number;
  /** Searches that may wait their turn; one more is refused at once (BusyError) rather than left waiting without bound. */
  maxQueued?: number;
}

/**
 * Two searches in each thread at a time: one runs while the next waits in its queue, and a
 * search's time budget never counts a long wait behind others (which stopped searches that were
 * not expensive at all when fifty clients asked at once).
 */
const ACTIVE_PER_THREAD = 2;
/** Searches that may wait, for the whole server: a search over every project waits as one per project. */
const DEFAULT_QUEUED_SEARCHES = 1_024;
/** What a refused search is told: come back after this long. */
const BUSY_RETRY_MS = 1_000;

/**
 * A server may go quiet for hours; threads nobody searched with for this long give their cached
 * file text and open files back (they come back with the next search, the cache cold).
 */
const DEFAULT_SEARCH_IDLE_MS = 10 * 60 * 1000;

/** Index files held open by default: a segment or two and a symbols file per project, for a few hundred projects. */
const DEFAULT_OPEN_INDEX_FILES = 512;

/**
 * Index files a project holds open in a thread, as a batch is planned: a segment or two and its
 * symbols. A batch goes whole to one thread only if its projects fit that thread's budget.
 */
const FILES_PER_PROJECT = 4;

/** Projects of a batch that share one search's time budget (pool.searchMany). */
const PROJECTS_PER_BUDGET = 8;

/** At most this many search threads by default: past it, merging costs more than it saves. */
const MAX_DEFAULT_WORKERS = 4;

type Ask = (worker: SearchWorker, id: number, index: number) => Promise<WorkerResult>;
/** The threads a search goes to, and what each is asked (its shard, or the whole search). */
interface Route {
  workers: SearchWorker[];
  ask: Ask;
}

/** A string's place among `count` threads: the thread a project's searches prefer, so that its files are open in one. */
function homeThread(root: string, count: number): number {
  let hash = 0;
  for (let i = 0; i < root.length; i++) hash = (Math.imul(hash, 31) + root.charCodeAt(i)) | 0;
  return Math.abs(hash) % count;
}

export class SearchPool {
  readonly #options: SearchPoolOptions;
  readonly #count: number;
  readonly #workers: Array<SearchWorker | undefined>;
  #nextId = 1;
  #inFlight = 0;
  #idleTimer: NodeJS.Timeout | undefined;
  #active = 0;
  /** Searches waiting their turn, first come first served: each is let in by the one that leaves. */
  readonly #waiting: Array<() => void> = [];

  constructor(options: SearchPoolOptions = {}) {
    this.#options = options;
    this.#count = Math.max(1, options.workers ?? Math.min(MAX_DEFAULT_WORKERS, availableParallelism()));
    this.#workers = new Array<SearchWorker | undefined>(this.#count).fill(undefined);
  }

  /** Searches this pool lets into its threads at once. */
  get maxActive(): number {
    return this.#options.maxActive ?? ACTIVE_PER_THREAD * this.#count;
  }

  /**
   * A search alone in the pool is split between the threads (each matches its shard of the
   * candidate files), for the shortest wait. One that starts while another runs goes whole to the
   * least busy thread, its project's own thread on a tie: splitting then only repeats each search's
   * fixed work (the posting lists, a message and a merge) in every thread, and the cores are busy
   * either way.
   *
   * `rank`: a search that goes whole to a thread is ranked there too (ranking.ts, with the
   * definitions of the name), and comes back as the pool in ranked order with `ranking` set. A
   * split search is ranked by the caller, after the merge.
   *
   * `pageEnd`, with `rank`: only the results up to there are needed, and the search may stop once
   * they are certain (first-page/early-page.ts). Such a search always goes whole to one thread: it
   * stops where one reader knows it can.
   */
  search(root: string, query: SearchQuery, { rank = false, pageEnd }: { rank?: boolean; pageEnd?: number } = {}): Promise<WorkerResult> {
    return this.#run(query, () => {
      const whole = { id: 0, root, query, rank, ...(rank && pageEnd !== undefined ? { pageEnd } : {}) };
      if (this.#count > 1 && this.#active <= 1 && whole.pageEnd === undefined) {
        const workers = this.#workers.map((_, index) => this.#ensureWorker(index));
        return { workers, ask: (worker, id, index) => worker.search({ id, root, query: { ...query, shard: { index, count: this.#count } } }) };
      }
      return { workers: [this.#leastBusy(root)], ask: (worker, id) => worker.search({ ...whole, id }) };
    });
  }

  /**
   * Ranked searches of several projects (a search across projects), in one message and one turn in
   * the queue per thread. A batch that may stop early (its page end set), or any batch while other
   * searches keep the threads busy, goes whole to the thread least busy when its turn comes, which
   * reads its projects in one order until the page is certain across them all (project-search.ts),
   * as one index would be read: reading together reads less than reading apart, idle or not. Any
   * other batch alone in the pool, or too many projects for one thread's open files, is split:
   * each project goes to its own thread (homeThread), which keeps its files open, and each thread
   * reads its share together; but the projects that share a pool of matches (`sharesPool`) all go
   * to the first one's thread, so that they share it wherever the others go; that thread holds all
   * their files open at once, past its share of the open-file budget if need be, until they are
   * read. `known`: matches of projects not searched here, as the caller will show them. The budget
   * is the batch's: a pattern too expensive anywhere stops it. Each search's result or failure, in
   * order.
   */
  async searchMany(items: BatchItem[], known?: KnownMatch[]): Promise<Array<WorkerResult | Error>> {
    /** Each share: its items' places, and its thread, picked once the share is let in. */
    const shares: Array<{ indexes: number[]; thread: () => number }> = [];
    const fits = items.length <= this.#openFilesPerThread / FILES_PER_PROJECT && items.length > 0;
    if (fits && (this.#active > 0 || items.every((item) => item.pageEnd !== undefined))) {
      // The least busy thread when the batch is let in, not when it comes: a batch that waited its
      // turn behind others would otherwise go where the threads were least busy back then. Whether
      // it goes whole is decided as it comes: a split batch takes a place in the queue per share.
      shares.push({ indexes: items.map((_, index) => index), thread: () => this.#leastBusyIndex(items[0]!.root) });
    } else {
      const pooled = items.find((item) => item.sharesPool);
      const byThread = new Map<number, number[]>();
      items.forEach((item, index) => {
        const thread = homeThread((item.sharesPool ? pooled! : item).root, this.#count);
        const indexes = byThread.get(thread);
        if (indexes) indexes.push(index);
        else byThread.set(thread, [index]);
      });
      for (const [thread, indexes] of byThread) shares.push({ indexes, thread: () => thread });
    }
    const results = new Array<WorkerResult | Error>(items.length);
    await Promise.all(
      shares.map(async ({ indexes, thread }) => {
        const batch = indexes.map((index) => items[index]!);
        try {
          const answers = await this.#enqueued(() => this.#batch(this.#ensureWorker(thread()), batch, known));
          indexes.forEach((index, at) => (results[index] = answers[at]!));
        } catch (error) {
          // A share that failed whole (over its budget, the queue full, the thread gone) fails each of its searches: the other threads' stand.
          for (const index of indexes) results[index] = error instanceof Error ? error : new Error(String(error));
        }
      }),
    );
    return results;
  }

  #batch(worker: SearchWorker, batch: BatchItem[], known: KnownMatch[] | undefined): Promise<Array<WorkerResult | Error>> {
    const id = this.#nextId++;
    // A search's budget for each few projects of the batch: a batch of many cheap searches is not one expensive search.
    const budgetMs = (this.#options.budgetMs ?? DEFAULT_SEARCH_BUDGET_MS) * Math.ceil(batch.length / PROJECTS_PER_BUDGET);
    const request: BatchRequest = { id, batch };
    if (known && known.length > 0) request.known = known;
    return this.#onThreads([worker], budgetMs, () => worker.searchBatch(request));
  }

  /** A search of a project's files as they are on disk, for a project with no index yet (see direct-scan.ts). */
  async directSearch(root: string, query: SearchQuery): Promise<DirectScanResult> {
    return (await this.#run(query, () => ({
      workers: [this.#leastBusy(root)],
      ask: (worker, id) => worker.search({ id, root, query, direct: true }),
    }))) as DirectScanResult;
  }

  /** The server let go of the project at `root`: each thread closes its files now. */
  forget(root: string): void {
    for (const worker of this.#workers) worker?.forget(root);
  }

  /** Threads running now (they stop when idle, and start again with the next search). */
  get liveWorkers(): number {
    return this.#workers.filter((worker) => worker && !worker.dead).length;
  }

  /** The thread with the fewest searches owed; of equals, the project's own (homeThread). */
  #leastBusy(root: string): SearchWorker {
    return this.#ensureWorker(this.#leastBusyIndex(root));
  }

  #leastBusyIndex(root: string): number {
    let best = homeThread(root, this.#count);
    for (let index = 0; index < this.#count; index++) {
      const pending = this.#workers[index]?.pending ?? 0;
      const bestPending = this.#workers[best]?.pending ?? 0;
      if (pending < bestPending) best = index;
    }
    return best;
  }

  /** Each thread's share of the open-file budget. */
  get #openFilesPerThread(): number {
    return Math.max(1, Math.floor((this.#options.openFiles ?? DEFAULT_OPEN_INDEX_FILES) / this.#count));
  }

  /** Runs a search once admitted; `route` then says which threads take it, and how each is asked. */
  #run(query: SearchQuery, route: () => Route): Promise<WorkerResult> {
    return this.#enqueued(() => {
      const { workers, ask } = route();
      return this.#runOnce(query, workers, ask);
    });
  }

  /** Runs `work` once admitted (one place in the queue), then lets the next one in; the threads stop when idle long enough. */
  async #enqueued<T>(work: () => Promise<T>): Promise<T> {
    clearTimeout(this.#idleTimer);
    this.#inFlight++;
    try {
      await this.#admit();
      try {
        return await work();
      } finally {
        this.#leave();
      }
    } finally {
      if (--this.#inFlight === 0) {
        this.#idleTimer = setTimeout(() => void this.#release(), this.#options.idleMs ?? DEFAULT_SEARCH_IDLE_MS);
        this.#idleTimer.unref();
      }
    }
  }

  #runOnce(query: SearchQuery, workers: SearchWorker[], ask: Ask): Promise<WorkerResult> {
    const id = this.#nextId++;
    return this.#onThreads(workers, this.#options.budgetMs ?? DEFAULT_SEARCH_BUDGET_MS, async () => {
      const shares = await Promise.all(workers.map((worker, index) => ask(worker, id, index)));
      return mergeShares(shares, query.limit ?? DEFAULT_SEARCH_LIMIT, query.sourceFirst === true);
    });
  }

  /**
   * `work` on `workers`, held (the process stays up while they owe it) and within `budgetMs`,
   * which starts once every one of them is up: a thread's cold start is never charged to a search.
   * Past the budget, the threads are stopped (what else they were running fails as interrupted)
   * and the work fails with PatternTooExpensiveError.
   */
  async #onThreads<T>(workers: SearchWorker[], budgetMs: number, work: () => Promise<T>): Promise<T> {
    for (const worker of workers) worker.hold();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.all(workers.map((worker) => worker.ready));
      const answer = work();
      // An answer that fails after the budget fired must not surface as an unhandled rejection.
      answer.catch(() => undefined);
      const overBudget = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const interrupted = new SearchFailedError(
            'SEXTANT_ERR_SEARCH_INTERRUPTED',
            'The search was stopped because another one ran over its time budget; run it again',
          );
          for (const worker of workers) void worker.kill(interrupted);
          reject(new PatternTooExpensiveError(budgetMs));
        }, budgetMs);
      });
      return await Promise.race([answer, overBudget]);
    } finally {
      clearTimeout(timer);
      for (const worker of workers) worker.release();
    }
  }

  async #admit(): Promise<void> {
    if (this.#active < this.maxActive) {
      this.#active++;
      return;
    }
    const limit = this.#options.maxQueued ?? DEFAULT_QUEUED_SEARCHES;
    if (this.#waiting.length >= limit) {
      throw new BusyError(`The search queue is full (${limit} searches waiting): retry in a moment`, BUSY_RETRY_MS);
    }
    // The slot of the search that leaves passes to this one: #active stays as it is.
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #leave(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#active--;
  }

  async close(): Promise<void> {
    clearTimeout(this.#idleTimer);
    await this.#release(true);
  }

  async #release(closing = false): Promise<void> {
    if (this.#inFlight > 0 && !closing) return; // a search started meanwhile: not idle after all
    const workers = this.#workers.splice(0, this.#count, ...new Array<undefined>(this.#count).fill(undefined));
    const closed = new SearchFailedError('SEXTANT_ERR_SEARCH_CLOSED', 'The search service was closed');
    await Promise.all(workers.map((worker) => worker?.kill(closed)));
  }

  #ensureWorker(index: number): SearchWorker {
    const current = this.#workers[index];
    if (current && !current.dead) return current;
    // The threads share the budgets: each caches and holds open its part.
    const thread = spawnSearchThread({
      home: this.#options.home,
      cacheBytes: Math.floor((this.#options.contentBytes ?? DEFAULT_CONTENT_CACHE_BYTES) / this.#count),
      openFiles: this.#openFilesPerThread,
    });
    const worker = new SearchWorker(thread, (exited) => {
      if (this.#workers[index] === exited) this.#workers[index] = undefined;
    });
    this.#workers[index] = worker;
    return worker;
  }
}
