/**
 * The search threads: the server's pool of them (pool.ts), what runs in each (search-thread.ts:
 * the projects it holds open, open-projects.ts, and what it does with a request,
 * project-search.ts), one seen from the pool (search-worker.ts), and one project's searches on a
 * pool (service.ts).
 * Not exported by index/search's own door: nothing here starts a thread until a search, but it
 * loads node:worker_threads, which a one-shot search does without.
 */
export { SearchPool, type SearchPoolOptions, type SearchQueueLimits, type WorkerResult } from './pool.js';
export { SearchService } from './service.js';
