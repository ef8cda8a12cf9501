/**
 * Searches run in a worker thread with a time budget. A JavaScript regex can backtrack for
 * ever (`(a+)+$` on a long line of a's), and no timer fires while it runs: terminating the
 * thread stops it (so does vm's execution timeout, which one-shot-search.ts uses for the CLI).
 * So the reader lives in a worker; a search over budget kills it, the caller gets
 * PatternTooExpensiveError, and the next search starts a fresh worker.
 */
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { spawnWorker } from '../../runtime.js';
import { availableParallelism } from 'node:os';
import { IdleHeapTrimmer } from '../../idle-heap.js';
import { ContentCache, DEFAULT_CONTENT_CACHE_BYTES } from './content-cache.js';
import { DEFAULT_SEARCH_BUDGET_MS, DEFAULT_SEARCH_LIMIT, IndexReader, PatternTooExpensiveError, type SearchQuery, type SearchResult } from './reader.js';
import { directScan, type DirectScanResult } from './direct-scan.js';
import { fileStamp, IndexStore } from '../store/store.js';
import { workerMain } from '../../worker-main.js';
import { pack, unpack, type PackedResult } from './wire.js';
import { mergeShares } from './merge-shares.js';
import { BusyError, codedError, isErrorCode } from '../../errors.js';

const WORKER_ROLE = 'sextant-search';

/** An error raised inside the worker, with its stable code kept. */
export class SearchFailedError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'SearchFailedError';
    this.code = code;
  }
}

interface Reply {
  /** Sent once, when the worker has loaded and opened the index: a search's budget starts only then. */
  ready?: true;
  id: number;
  result?: PackedResult;
  error?: { code: string; message: string };
}

export interface SearchServiceOptions extends SearchQueueLimits {
  home?: string;
  budgetMs?: number;
  /** Search workers; each query's candidate files are split between them (default: one per core, at most 4). */
  workers?: number;
  /** Idle time after which the workers (and their caches) are let go; the next search starts new ones. */
  idleMs?: number;
}

export interface SearchQueueLimits {
  /** Searches sent to the workers at once (each one goes to every worker); the rest wait their turn. */
  maxActive?: number;
  /** Searches that may wait their turn; one more is refused at once (BusyError) rather than left waiting without bound. */
  maxQueued?: number;
}

/**
 * Two searches in the workers at a time: one runs while the next waits in the workers' queue, and
 * a search's time budget never counts a long wait behind others (which stopped searches that
 * were not expensive at all when fifty clients asked at once).
 */
export const DEFAULT_ACTIVE_SEARCHES = 2;
export const DEFAULT_QUEUED_SEARCHES = 64;
/** What a refused search is told: come back after this long. */
const BUSY_RETRY_MS = 1_000;

/**
 * A server may know many projects; one nobody searched for this long gives its threads and its
 * cached file text back (they come back with the next search, the cache cold).
 */
export const DEFAULT_SEARCH_IDLE_MS = 10 * 60 * 1000;

/**
 * How long a worker trusts a cached file's text without a `stat`: the same files are read by
 * search after search under load, and a stat of every candidate each time is a large part of a
 * selective search (bench/RESULTS.md, load-search). A file
 * edited meanwhile is seen at most this late (and at once after a sync: a new manifest checks
 * every entry again), which is sooner than the index itself learns of the edit.
 */
const CONTENT_FRESH_MS = 500;

/** Young-generation size of a search worker's heap. */
const SEARCH_YOUNG_GENERATION_MB = 8;

/** At most this many search workers by default: past it, merging costs more than it saves. */
const MAX_DEFAULT_WORKERS = 4;

type Ask = (worker: SearchWorker, id: number, index: number) => Promise<SearchResult>;
/** The workers a search goes to, and what each is asked (its shard, or the whole search). */
interface Route {
  workers: SearchWorker[];
  ask: Ask;
}

type Waiter = { resolve: (result: SearchResult) => void; reject: (error: Error) => void };

/** One search worker and the requests it owes answers to. */
class SearchWorker {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, Waiter>();
  #dead = false;
  /**
   * Settles once the thread is up (module loaded, index opened). A thread's cold start can take
   * longer than a whole search on a busy machine: it must never be charged to a search's budget.
   */
  readonly ready: Promise<void>;

  constructor(root: string, home: string | undefined, cacheBytes: number, onExit: (worker: SearchWorker) => void) {
    // A small young generation: a search's garbage is short-lived, and V8's default semi-spaces
    // cost each worker 20-30 MiB of RSS for no measurable speed (bench/RESULTS.md, #12).
    this.#worker = spawnWorker(import.meta.url, {
      workerData: { role: WORKER_ROLE, root, home, cacheBytes },
      resourceLimits: { maxYoungGenerationSizeMb: SEARCH_YOUNG_GENERATION_MB },
    });
    let becameReady!: () => void;
    let failedToStart!: (error: Error) => void;
    this.ready = new Promise<void>((resolve, reject) => {
      becameReady = resolve;
      failedToStart = reject;
    });
    this.ready.catch(() => undefined);
    this.#worker.on('message', (reply: Reply) => {
      if (reply.ready) return becameReady();
      const waiter = this.#waiting.get(reply.id);
      this.#waiting.delete(reply.id);
      if (!waiter) return;
      if (reply.error) {
        // A registered code (a corrupt index, say) comes back as the coded error it was in the worker.
        const { code, message } = reply.error;
        waiter.reject(isErrorCode(code) ? codedError(code, message) : new SearchFailedError(code, message));
      } else waiter.resolve(unpack(reply.result!));
    });
    this.#worker.on('error', (error) => {
      failedToStart(error);
      this.#failAll(error);
    });
    this.#worker.on('exit', () => {
      failedToStart(new SearchFailedError('SEXTANT_ERR_SEARCH_WORKER', 'The search worker stopped before it was ready'));
      this.#dead = true;
      this.#failAll(new SearchFailedError('SEXTANT_ERR_SEARCH_WORKER', 'The search worker stopped'));
      onExit(this);
    });
    // Idle workers must not keep a CLI process alive.
    this.#worker.unref();
  }

  get dead(): boolean {
    return this.#dead;
  }

  /** Searches sent to this thread and not yet answered. */
  get pending(): number {
    return this.#waiting.size;
  }

  #holds = 0;

  /** Keeps the process alive while a search waits on this thread (an idle one must not, see unref above). */
  hold(): void {
    if (this.#holds++ === 0) this.#worker.ref();
  }

  release(): void {
    if (--this.#holds === 0) this.#worker.unref();
  }

  search(id: number, query: SearchQuery, direct = false): Promise<SearchResult> {
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#worker.postMessage({ id, query, direct });
    });
  }

  /** Stops the thread; what else waited on it fails with `reason`. */
  kill(reason: Error): Promise<number> {
    this.#dead = true;
    this.#failAll(reason);
    return this.#worker.terminate();
  }

  #failAll(error: Error): void {
    for (const waiter of this.#waiting.values()) waiter.reject(error);
    this.#waiting.clear();
  }
}

export class SearchService {
  readonly #root: string;
  readonly #options: SearchServiceOptions;
  readonly #count: number;
  readonly #workers: Array<SearchWorker | undefined>;
  #nextId = 1;
  #inFlight = 0;
  #idleTimer: NodeJS.Timeout | undefined;
  #active = 0;
  /** Searches waiting their turn, first come first served: each is let in by the one that leaves. */
  readonly #waiting: Array<() => void> = [];

  constructor(root: string, options: SearchServiceOptions = {}) {
    this.#root = root;
    this.#options = options;
    this.#count = Math.max(1, options.workers ?? Math.min(MAX_DEFAULT_WORKERS, availableParallelism()));
    this.#workers = new Array<SearchWorker | undefined>(this.#count).fill(undefined);
  }

  /**
   * A search alone in the service is split between the workers (each matches its shard of the
   * candidate files), for the shortest wait. One that starts while another runs goes whole to
   * the least busy worker: splitting then only repeats each search's fixed work (the posting
   * lists, a message and a merge) in every worker, and the cores are busy either way.
   */
  search(query: SearchQuery): Promise<SearchResult> {
    return this.#run(query, () => {
      const workers = this.#workers.map((_, index) => this.#ensureWorker(index));
      if (this.#count === 1) return { workers, ask: (worker, id) => worker.search(id, query) };
      if (this.#active > 1) {
        const idlest = workers.reduce((best, worker) => (worker.pending < best.pending ? worker : best));
        return { workers: [idlest], ask: (worker, id) => worker.search(id, query) };
      }
      return { workers, ask: (worker, id, index) => worker.search(id, { ...query, shard: { index, count: this.#count } }) };
    });
  }

  /** A search of the project's files as they are on disk, for a project with no index yet (see direct-scan.ts). */
  async directSearch(query: SearchQuery): Promise<DirectScanResult> {
    return (await this.#run(query, () => ({ workers: [this.#ensureWorker(0)], ask: (worker, id) => worker.search(id, query, true) }))) as DirectScanResult;
  }

  /** Workers running now (they stop when idle, and start again with the next search). */
  get liveWorkers(): number {
    return this.#workers.filter((worker) => worker && !worker.dead).length;
  }

  /** Runs a search once admitted; `route` then says which workers take it, and how each is asked. */
  async #run(query: SearchQuery, route: () => Route): Promise<SearchResult> {
    clearTimeout(this.#idleTimer);
    this.#inFlight++;
    try {
      await this.#admit();
      try {
        const { workers, ask } = route();
        return await this.#runOnce(query, workers, ask);
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

  async #runOnce(query: SearchQuery, workers: SearchWorker[], ask: Ask): Promise<SearchResult> {
    const id = this.#nextId++;
    const budgetMs = this.#options.budgetMs ?? DEFAULT_SEARCH_BUDGET_MS;
    for (const worker of workers) worker.hold();
    try {
      // The budget is the search's own: it starts once every worker it needs is up.
      await Promise.all(workers.map((worker) => worker.ready));
      return await this.#budgeted(id, budgetMs, query, workers, ask);
    } finally {
      for (const worker of workers) worker.release();
    }
  }

  async #budgeted(id: number, budgetMs: number, query: SearchQuery, workers: SearchWorker[], ask: Ask): Promise<SearchResult> {
    const shares = workers.map((worker, index) => ask(worker, id, index));
    let timer: NodeJS.Timeout | undefined;
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
    // A share that fails after the budget fired must not surface as an unhandled rejection.
    for (const share of shares) share.catch(() => undefined);
    try {
      return mergeShares(await Promise.race([Promise.all(shares), overBudget]), query.limit ?? DEFAULT_SEARCH_LIMIT, query.sourceFirst === true);
    } finally {
      clearTimeout(timer);
    }
  }

  async #admit(): Promise<void> {
    if (this.#active < (this.#options.maxActive ?? DEFAULT_ACTIVE_SEARCHES)) {
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
    // The workers share the cache budget: each caches only the files of its own shard.
    const cacheBytes = Math.floor(DEFAULT_CONTENT_CACHE_BYTES / this.#count);
    const worker = new SearchWorker(this.#root, this.#options.home, cacheBytes, (exited) => {
      if (this.#workers[index] === exited) this.#workers[index] = undefined;
    });
    this.#workers[index] = worker;
    return worker;
  }
}

/**
 * The worker's reader, opened again when a sync or build swapped the manifest (renamed into
 * place, so its inode changes): a long-lived server sees every commit without a restart. The
 * segments are opened lazily (header and directory; a posting list when a query needs it, from
 * the page cache): no thread holds a copy of the postings, and a search is as fast (bench/RESULTS.md). The reader it replaces lets go of its files.
 */
function liveReader(root: string, home: string | undefined, cacheBytes: number): () => IndexReader {
  const manifestPath = new IndexStore(root, home).manifestPath;
  let reader: IndexReader | undefined;
  let seen = '';
  const cache = new ContentCache(cacheBytes, { freshForMs: CONTENT_FRESH_MS });
  return () => {
    // No manifest (''): open() says the project is not indexed.
    const stamp = fileStamp(manifestPath);
    if (!reader || stamp !== seen) {
      // A sync saw files change: every cached text is checked again before its next use.
      if (reader) cache.recheckAll();
      const next = IndexReader.open(root, home, { cache, lazy: true });
      reader?.close();
      reader = next;
      seen = stamp;
    }
    return reader;
  };
}

function startWorker(): void {
  const { root, home, cacheBytes } = workerData as { root: string; home?: string; cacheBytes: number };
  const current = liveReader(root, home, cacheBytes);
  try {
    current(); // open the index now, outside any search's budget
  } catch {
    // no index yet, or an unreadable one: the first search reports it
  }
  // A worker's heap holds the last searches' garbage until more work comes: trimmed when quiet (idle-heap.ts).
  const heap = new IdleHeapTrimmer();
  parentPort!.on('message', ({ id, query, direct }: { id: number; query: SearchQuery; direct?: boolean }) => {
    heap.begin();
    try {
      const packed = pack(direct ? directScan(root, query) : current().search(query));
      const moved = [packed.line, packed.column, packed.file, packed.length, packed.flags].map((array) => array.buffer as ArrayBuffer);
      parentPort!.postMessage({ id, result: packed } satisfies Reply, moved);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      parentPort!.postMessage({
        id,
        error: { code: typeof code === 'string' ? code : 'SEXTANT_ERR_SEARCH', message: error instanceof Error ? error.message : String(error) },
      } satisfies Reply);
    } finally {
      heap.end();
    }
  });
  parentPort!.postMessage({ ready: true, id: 0 } satisfies Reply);
}

workerMain(WORKER_ROLE, startWorker);
