/**
 * A search worker thread of the pool (pool.ts), seen from inside: it serves any project the
 * server knows. Each request names its project's root; the thread keeps the projects it searched
 * lately open (their index readers and symbols) within a budget of open files, the least recently
 * searched one closed first, and one cache of file text for all of them. So a server with many
 * projects holds a fixed number of threads, files and cached bytes, not some of each per project.
 */
import { parentPort, workerData, type Worker } from 'node:worker_threads';
import { spawnWorker } from '../../../platform/runtime.js';
import { IdleHeapTrimmer } from '../../../platform/idle-heap.js';
import { workerMain } from '../../../platform/worker-main.js';
import { ContentCache } from '../content-cache.js';
import { directScan } from '../direct-scan.js';
import { movedBuffers, pack } from '../wire.js';
import { OpenProjects } from './open-projects.js';
import { searchBatch, searchIndex, threadError } from './project-search.js';
import type { BatchRequest, Reply, SearchRequest } from './search-worker.js';

const WORKER_ROLE = 'sextant-search';

/**
 * How long a thread trusts a cached file's text without a `stat`: the same files are read by
 * search after search under load, and a stat of every candidate each time is a large part of a
 * selective search (bench/RESULTS.md, load-search). A file edited meanwhile is seen at most this
 * late (and at once after a sync: a new manifest checks every entry again), which is sooner than
 * the index itself learns of the edit.
 */
const CONTENT_FRESH_MS = 500;

/**
 * Young-generation size of a search thread's heap: below V8's default (which cost each worker
 * RSS for no speed on one project), with room for the garbage of a batch over many projects,
 * which in a smaller one kept the thread collecting (bench/RESULTS.md, load-search across projects).
 */
const SEARCH_YOUNG_GENERATION_MB = 24;

/** What a thread is started with: the index home, its share of the text cache, and its share of the open-file budget. */
interface ThreadData {
  role: string;
  home?: string;
  cacheBytes: number;
  openFiles: number;
}

/** Starts a search thread (its replies: search-worker.ts). */
export function spawnSearchThread(data: Omit<ThreadData, 'role'>): Worker {
  // A bounded young generation: a search's garbage is short-lived (SEARCH_YOUNG_GENERATION_MB).
  return spawnWorker(import.meta.url, {
    workerData: { role: WORKER_ROLE, ...data } satisfies ThreadData,
    resourceLimits: { maxYoungGenerationSizeMb: SEARCH_YOUNG_GENERATION_MB },
  });
}

function startThread(): void {
  const { home, cacheBytes, openFiles } = workerData as ThreadData;
  const projects = new OpenProjects(home, new ContentCache(cacheBytes, { freshForMs: CONTENT_FRESH_MS }), openFiles);
  // A thread's heap holds the last searches' garbage until more work comes: trimmed when quiet (idle-heap.ts).
  const heap = new IdleHeapTrimmer();
  parentPort!.on('message', (request: SearchRequest | BatchRequest | { forget: string }) => {
    if ('forget' in request) return projects.forget(request.forget);
    heap.begin();
    try {
      if ('batch' in request) {
        const { reply, moved } = searchBatch(projects, request);
        return parentPort!.postMessage(reply, moved);
      }
      const { id, query, direct, root } = request;
      try {
        const packed = direct ? pack(directScan(root, query)) : searchIndex(projects.get(root), request);
        parentPort!.postMessage({ id, result: packed } satisfies Reply, movedBuffers(packed));
      } catch (error) {
        parentPort!.postMessage({ id, error: threadError(error) } satisfies Reply);
      }
    } finally {
      projects.trim();
      heap.end();
    }
  });
  parentPort!.postMessage({ ready: true, id: 0 } satisfies Reply);
}

workerMain(WORKER_ROLE, startThread);
