/**
 * The one boot line of a worker module: run `main` when this thread is a worker started for
 * `role` (spawnWorker passes it as workerData.role). A module loaded on the main thread, or by a
 * worker of another role, does nothing. Only modules that start workers import this (it loads
 * node:worker_threads).
 */
import { isMainThread, workerData } from 'node:worker_threads';

export function workerMain(role: string, main: () => void): void {
  if (!isMainThread && (workerData as { role?: string } | null)?.role === role) main();
}
