/**
 * The global a worker thread of the single executable finds its role in, set by the worker's boot
 * code (src/platform/runtime.ts) before the bundle runs, read by the bundle's entry (src/cli/main.ts).
 * A leaf module: the CLI reads it at start-up without loading node:worker_threads.
 */
export const WORKER_ROLE_GLOBAL = '__sextantWorkerRole';
