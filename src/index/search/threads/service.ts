/**
 * One project's searches, run by a pool of search threads (pool.ts): the server's pool, shared
 * with every other project, or a pool of its own for a search service made alone (a test, the
 * CLI). The pool is imported by path, not from the room's door: it starts worker threads, and a
 * one-shot search must not load it.
 */
import type { SearchQuery } from '../reader.js';
import type { DirectScanResult } from '../direct-scan.js';
import { SearchPool, type SearchPoolOptions, type WorkerResult } from './pool.js';

export type { WorkerResult };

export class SearchService {
  readonly #root: string;
  readonly #pool: SearchPool;
  readonly #ownPool: boolean;

  /** `pool`: the server's; without it, the service runs a pool of its own with `options`. */
  constructor(root: string, options: SearchPoolOptions & { pool?: SearchPool } = {}) {
    const { pool, ...own } = options;
    this.#root = root;
    this.#pool = pool ?? new SearchPool(own);
    this.#ownPool = pool === undefined;
  }

  /** See SearchPool.search. */
  search(query: SearchQuery, options: { rank?: boolean; pageEnd?: number } = {}): Promise<WorkerResult> {
    return this.#pool.search(this.#root, query, options);
  }

  /** A search of the project's files as they are on disk, for a project with no index yet (see direct-scan.ts). */
  directSearch(query: SearchQuery): Promise<DirectScanResult> {
    return this.#pool.directSearch(this.#root, query);
  }

  /** Threads of the pool running now. */
  get liveWorkers(): number {
    return this.#pool.liveWorkers;
  }

  /** The project is let go: a pool of its own stops; the server's closes the project's files. */
  async close(): Promise<void> {
    if (this.#ownPool) await this.#pool.close();
    else this.#pool.forget(this.#root);
  }
}
