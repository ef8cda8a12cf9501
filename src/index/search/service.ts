/**
 * Searches run in a worker thread with a time budget. A JavaScript regex can backtrack for
 * ever (`(a+)+$` on a long line of a's), and no timer fires while it runs: terminating the
 * thread stops it (so does vm's execution timeout, which one-shot.ts uses for the CLI).
 * So the reader lives in a worker; a search over budget kills it, the caller gets
 * PatternTooExpensiveError, and the next search starts a fresh worker.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { spawnWorker } from '../../platform/runtime.js';
import { IdleHeapTrimmer } from '../../platform/idle-heap.js';
import { ContentCache, DEFAULT_CONTENT_CACHE_BYTES } from './content-cache.js';
import { DEFAULT_SEARCH_BUDGET_MS, DEFAULT_SEARCH_LIMIT, IndexReader, PatternTooExpensiveError, type SearchQuery } from './reader.js';
import { directScan, type DirectScanResult } from './direct-scan.js';
import { fileStamp, IndexStore } from '../store/store.js';
import { SymbolIndex, symbolsStamp } from '../symbols/index.js';
import { workerMain } from '../../platform/worker-main.js';
import { movedBuffers, pack, packRanked } from './wire.js';
import { mergeShares } from './merge-shares.js';
import { rankSearch, type RankingSymbols } from './ranking.js';
import { mayStopEarly, searchFirstResults } from './first-page/index.js';
import { type Reply, type SearchRequest, SearchFailedError, SearchWorker, type WorkerResult } from './search-worker.js';
import { BusyError } from '../../errors.js';

export type { WorkerResult };

const WORKER_ROLE = 'sextant-search';

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

type Ask = (worker: SearchWorker, id: number, index: number) => Promise<WorkerResult>;
/** The workers a search goes to, and what each is asked (its shard, or the whole search). */
interface Route {
  workers: SearchWorker[];
  ask: Ask;
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
   *
   * `rank`: a search that goes whole to a worker is ranked there too (ranking.ts, with the
   * definitions of the name), and comes back as the pool in ranked order with `ranking` set. Under
   * load the main thread then only pages and describes; a split search is ranked by the caller,
   * after the merge, as is one on a thread of its own.
   *
   * `pageEnd`, with `rank`: only the results up to there are needed, and the search may stop once
   * they are certain (first-page/early-page.ts). Such a search always goes whole to one worker: it stops
   * where one reader knows it can.
   */
  search(query: SearchQuery, { rank = false, pageEnd }: { rank?: boolean; pageEnd?: number } = {}): Promise<WorkerResult> {
    return this.#run(query, () => {
      const workers = this.#workers.map((_, index) => this.#ensureWorker(index));
      const whole = { id: 0, query, rank, ...(rank && pageEnd !== undefined ? { pageEnd } : {}) };
      if (this.#count === 1) return { workers, ask: (worker, id) => worker.search({ ...whole, id }) };
      if (this.#active > 1 || whole.pageEnd !== undefined) {
        const idlest = workers.reduce((best, worker) => (worker.pending < best.pending ? worker : best));
        return { workers: [idlest], ask: (worker, id) => worker.search({ ...whole, id }) };
      }
      return { workers, ask: (worker, id, index) => worker.search({ id, query: { ...query, shard: { index, count: this.#count } } }) };
    });
  }

  /** A search of the project's files as they are on disk, for a project with no index yet (see direct-scan.ts). */
  async directSearch(query: SearchQuery): Promise<DirectScanResult> {
    return (await this.#run(query, () => ({
      workers: [this.#ensureWorker(0)],
      ask: (worker, id) => worker.search({ id, query, direct: true }),
    }))) as DirectScanResult;
  }

  /** Workers running now (they stop when idle, and start again with the next search). */
  get liveWorkers(): number {
    return this.#workers.filter((worker) => worker && !worker.dead).length;
  }

  /** Runs a search once admitted; `route` then says which workers take it, and how each is asked. */
  async #run(query: SearchQuery, route: () => Route): Promise<WorkerResult> {
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

  async #runOnce(query: SearchQuery, workers: SearchWorker[], ask: Ask): Promise<WorkerResult> {
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

  async #budgeted(id: number, budgetMs: number, query: SearchQuery, workers: SearchWorker[], ask: Ask): Promise<WorkerResult> {
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
    // A small young generation: a search's garbage is short-lived, and V8's default semi-spaces
    // cost each worker 20-30 MiB of RSS for no measurable speed (bench/RESULTS.md, #12).
    const thread = spawnWorker(import.meta.url, {
      workerData: { role: WORKER_ROLE, root: this.#root, home: this.#options.home, cacheBytes },
      resourceLimits: { maxYoungGenerationSizeMb: SEARCH_YOUNG_GENERATION_MB },
    });
    const worker = new SearchWorker(thread, (exited) => {
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

/**
 * The worker's symbols, for ranking: opened again when the symbol phase committed (the symbols
 * manifest is swapped last), as Project.symbols() does on the main thread. None before the first
 * symbol phase, or when they cannot be read: a search is then ranked by its text alone, as it
 * would be on the main thread.
 */
function liveSymbols(root: string, home: string | undefined): () => RankingSymbols | undefined {
  const store = new IndexStore(root, home);
  let symbols: SymbolIndex | undefined;
  let seen: string | undefined;
  return () => {
    const stamp = symbolsStamp(store);
    if (stamp !== seen) {
      // A ranking runs to its end before the next message: nothing still holds the old generation.
      symbols?.close();
      symbols = undefined;
      seen = stamp;
      try {
        symbols = SymbolIndex.open(store, { present: (path) => existsSync(join(root, path)) });
      } catch {
        symbols = undefined;
      }
    }
    return symbols;
  };
}

/**
 * A search of the index, ranked when asked (the pool in ranked order, and the ranking beside it);
 * read only as far as the page asked for needs, where that can be known (first-page/early-page.ts).
 */
function searchIndex(reader: IndexReader, request: SearchRequest, root: string, symbols: () => RankingSymbols | undefined) {
  const { query, rank, pageEnd } = request;
  if (rank && pageEnd !== undefined && mayStopEarly(query, pageEnd)) {
    const started = performance.now();
    const { result, ranked, seeds, certain } = searchFirstResults(reader, root, symbols(), query, pageEnd);
    // Ranking as it read is the search's time; the ranking of what it read, after, is ranking's.
    return packRanked(result, ranked, seeds, Math.max(0, performance.now() - started - result.stats.durationMs), certain);
  }
  const result = reader.search(query);
  if (!rank) return pack(result);
  const started = performance.now();
  const { ranked, seeds } = rankSearch(root, symbols(), query, result.matches);
  return packRanked(result, ranked, seeds, performance.now() - started);
}

function startWorker(): void {
  const { root, home, cacheBytes } = workerData as { root: string; home?: string; cacheBytes: number };
  const current = liveReader(root, home, cacheBytes);
  const symbols = liveSymbols(root, home);
  try {
    current(); // open the index now, outside any search's budget
  } catch {
    // no index yet, or an unreadable one: the first search reports it
  }
  // A worker's heap holds the last searches' garbage until more work comes: trimmed when quiet (idle-heap.ts).
  const heap = new IdleHeapTrimmer();
  parentPort!.on('message', (request: SearchRequest) => {
    const { id, query, direct } = request;
    heap.begin();
    try {
      const packed = direct ? pack(directScan(root, query)) : searchIndex(current(), request, root, symbols);
      parentPort!.postMessage({ id, result: packed } satisfies Reply, movedBuffers(packed));
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
