/**
 * One search worker thread, seen from the thread that started it: the searches it owes answers
 * to, whether it is up, alive, or held (pool.ts keeps a pool of these; search-thread.ts runs in the thread).
 */
import type { Worker } from 'node:worker_threads';
import { codedError, isErrorCode } from '../../../errors.js';
import { BadGlobError } from '../../files/index.js';
import { BadPatternError } from '../query-plan.js';
import type { SearchQuery, SearchResult } from '../reader.js';
import type { KnownMatch } from '../ranking.js';
import { unpack, type PackedResult, type WorkerRanking } from '../wire.js';

/** An error raised inside the worker, with its stable code kept. */
export class SearchFailedError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'SearchFailedError';
    this.code = code;
  }
}

/** The worker's own errors that the caller tells apart, by code: rebuilt from their message. */
const REBUILT: Record<string, (message: string) => Error> = {
  [BadGlobError.CODE]: (message) => new BadGlobError(message),
  [BadPatternError.CODE]: (message) => new BadPatternError(message),
};

/** A failure in the thread, by its stable code. */
interface ThreadError {
  code: string;
  message: string;
}

export interface Reply {
  /** Sent once, when the worker has loaded and opened the index: a search's budget starts only then. */
  ready?: true;
  id: number;
  result?: PackedResult;
  error?: ThreadError;
  /** The answer to a batch: each search's result or failure, in the batch's order. */
  results?: Array<{ result: PackedResult } | { error: ThreadError }>;
}

/** A search's result, and its ranking when the worker ranked it (`rank`). */
export type WorkerResult = SearchResult & { ranking?: WorkerRanking };

/** What a worker is asked: a search, of the index or (`direct`) of the files on disk, ranked or not. */
export interface SearchRequest {
  id: number;
  /** The project searched: a thread serves every project of the server (search-thread.ts). */
  root: string;
  query: SearchQuery;
  direct?: boolean;
  rank?: boolean;
  /** With `rank`: the results asked for end here, and the search may stop once they are certain (first-page/early-page.ts). */
  pageEnd?: number;
}

/** The stamps of a project's index files as the caller read them (Project.stamps): the thread trusts them instead of a stat. */
export interface SearchStamps {
  manifest: string;
  symbols: string;
}

/** One project's search in a batch. */
export interface BatchItem {
  root: string;
  query: SearchQuery;
  pageEnd?: number;
  stamps?: SearchStamps;
  /**
   * The project defines the name past its seeds and shares the batch's pool of matches with the
   * others that do (first-page/shared-pool.ts): they all go to one thread, listed first.
   */
  sharesPool?: true;
}

/** Ranked searches of several projects, read together in one thread and answered in one message (pool.ts, searchMany). */
export interface BatchRequest {
  id: number;
  batch: BatchItem[];
  /**
   * Matches known already, of projects not searched (answered by their definitions of the name, or
   * kept): they count toward the page with those the batch reads (project-search.ts).
   */
  known?: KnownMatch[];
}

type Waiter = { resolve: (result: WorkerResult | Array<WorkerResult | Error>) => void; reject: (error: Error) => void };

/**
 * An error raised in the thread as the class it was there: a registered code (a corrupt index,
 * say) as its coded error, a bad glob or pattern as its own class; callers use instanceof.
 */
function rebuilt({ code, message }: ThreadError): Error {
  const rebuild = REBUILT[code];
  return rebuild ? rebuild(message) : isErrorCode(code) ? codedError(code, message) : new SearchFailedError(code, message);
}

/** One search worker and the requests it owes answers to. */
export class SearchWorker {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, Waiter>();
  #dead = false;
  /**
   * Settles once the thread is up (module loaded, index opened). A thread's cold start can take
   * longer than a whole search on a busy machine: it must never be charged to a search's budget.
   */
  readonly ready: Promise<void>;

  /** `thread`: the worker, just started; `onExit`: called once it has stopped, for whatever reason. */
  constructor(thread: Worker, onExit: (worker: SearchWorker) => void) {
    this.#worker = thread;
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
      if (reply.results) waiter.resolve(reply.results.map((one) => ('error' in one ? rebuilt(one.error) : unpack(one.result))));
      else if (reply.error) waiter.reject(rebuilt(reply.error));
      else waiter.resolve(unpack(reply.result!));
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
    // terminate() holds a thread it stops until it has stopped: let go of here, whoever awaits
    // the stop (SearchPool.close) could see the process end first.
    if (--this.#holds === 0 && !this.#dead) this.#worker.unref();
  }

  search(request: SearchRequest): Promise<WorkerResult> {
    return new Promise((resolve, reject) => {
      this.#waiting.set(request.id, { resolve: resolve as Waiter['resolve'], reject });
      this.#worker.postMessage(request);
    });
  }

  /** Several ranked searches in one message: each one's result, or its failure, in order. */
  searchBatch(request: BatchRequest): Promise<Array<WorkerResult | Error>> {
    return new Promise((resolve, reject) => {
      this.#waiting.set(request.id, { resolve: resolve as Waiter['resolve'], reject });
      this.#worker.postMessage(request);
    });
  }

  /** The server let go of the project at `root`: the thread closes its files now rather than when the budget needs them. */
  forget(root: string): void {
    if (!this.#dead) this.#worker.postMessage({ forget: root });
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
