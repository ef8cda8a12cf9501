/**
 * Searches run in a worker thread with a time budget. A JavaScript regex can backtrack for
 * ever (`(a+)+$` on a long line of a's), and nothing inside the engine can interrupt it: only
 * terminating the thread can. So the reader lives in a worker; a search over budget kills it,
 * the caller gets PatternTooExpensiveError, and the next search starts a fresh worker.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { IndexReader, type SearchQuery, type SearchResult } from './search.js';

/** How long one search may run before it is stopped. */
export const DEFAULT_SEARCH_BUDGET_MS = 5_000;
const WORKER_ROLE = 'sextant-search';

export class PatternTooExpensiveError extends Error {
  readonly code = 'SEXTANT_ERR_PATTERN_TOO_EXPENSIVE';
  constructor(budgetMs: number) {
    super(`The search took longer than ${budgetMs} ms and was stopped: the pattern is too expensive (simplify it, or add a literal it must contain)`);
    this.name = 'PatternTooExpensiveError';
  }
}

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
  id: number;
  result?: SearchResult;
  error?: { code: string; message: string };
}

export interface SearchServiceOptions {
  home?: string;
  budgetMs?: number;
}

export class SearchService {
  readonly #root: string;
  readonly #options: SearchServiceOptions;
  #worker: Worker | undefined;
  #nextId = 1;
  readonly #waiting = new Map<number, { resolve: (result: SearchResult) => void; reject: (error: Error) => void }>();

  constructor(root: string, options: SearchServiceOptions = {}) {
    this.#root = root;
    this.#options = options;
  }

  search(query: SearchQuery): Promise<SearchResult> {
    const worker = this.#ensureWorker();
    const id = this.#nextId++;
    const budgetMs = this.#options.budgetMs ?? DEFAULT_SEARCH_BUDGET_MS;
    return new Promise<SearchResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        this.#kill();
        reject(new PatternTooExpensiveError(budgetMs));
      }, budgetMs);
      this.#waiting.set(id, {
        resolve: (result) => {
          clearTimeout(timer);
          resolve(result);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      worker.postMessage({ id, query });
    });
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const execArgv = process.execArgv.filter((flag) => !flag.startsWith('--input-type'));
    const worker = new Worker(new URL(import.meta.url), {
      workerData: { role: WORKER_ROLE, root: this.#root, home: this.#options.home },
      execArgv,
    });
    worker.on('message', (reply: Reply) => {
      const waiter = this.#waiting.get(reply.id);
      this.#waiting.delete(reply.id);
      if (!waiter) return;
      if (reply.error) waiter.reject(new SearchFailedError(reply.error.code, reply.error.message));
      else waiter.resolve(reply.result!);
    });
    // Only the current worker's death fails what waits; one killed over budget was replaced already.
    worker.on('error', (error) => {
      if (this.#worker === worker) this.#failAll(error);
    });
    worker.on('exit', () => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      this.#failAll(new SearchFailedError('SEXTANT_ERR_SEARCH_WORKER', 'The search worker stopped'));
    });
    // Idle workers must not keep a CLI process alive.
    worker.unref();
    this.#worker = worker;
    return worker;
  }

  #kill(): void {
    const worker = this.#worker;
    this.#worker = undefined;
    void worker?.terminate();
  }

  #failAll(error: Error): void {
    for (const waiter of this.#waiting.values()) waiter.reject(error);
    this.#waiting.clear();
  }
}

function startWorker(): void {
  const { root, home } = workerData as { root: string; home?: string };
  let reader: IndexReader | undefined;
  parentPort!.on('message', ({ id, query }: { id: number; query: SearchQuery }) => {
    try {
      reader ??= IndexReader.open(root, home);
      parentPort!.postMessage({ id, result: reader.search(query) } satisfies Reply);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      parentPort!.postMessage({
        id,
        error: { code: typeof code === 'string' ? code : 'SEXTANT_ERR_SEARCH', message: error instanceof Error ? error.message : String(error) },
      } satisfies Reply);
    }
  });
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === WORKER_ROLE) startWorker();
