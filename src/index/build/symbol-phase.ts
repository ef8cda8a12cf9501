/**
 * The symbol phase in a thread of its own, for a long-lived server: a large project's phase
 * (parsing, and folding segments) takes seconds and must not hold the server's event loop.
 * The thread stays up for a while after a phase (IDLE_MS): a watcher refresh after a save then
 * finds the code loaded and the grammars compiled, instead of paying for both again. Progress
 * comes back as messages; cancelling terminates the thread (every file it writes is written
 * atomically, so the previous symbols stay whole). A thread stopped holding the project's lock
 * cannot release it: the lock names its thread, and once the thread has exited this side writes
 * the stop record and releases the lock for it (IndexStore.abandonThread).
 * Only then is the caller told: the next job finds the project free.
 */
import { parentPort, threadId, Worker } from 'node:worker_threads';
import { counted, IdleHeapTrimmer } from '../../platform/idle-heap.js';
import { spawnWorker } from '../../platform/runtime.js';
import { IndexReader } from '../search/reader.js';
import { setLeaseThread } from '../../coordination/files/lease-file.js';
import { IndexStore } from '../store/store.js';
import { buildSymbols, type SymbolsOptions, type SymbolsSummary } from '../symbols/build.js';
import { workerMain } from '../../platform/worker-main.js';

const WORKER_ROLE = 'sextant-symbols-job';
/** How long an idle symbol thread is kept for the next phase. */
export const IDLE_MS = 60_000;

type Message =
  | { type: 'progress'; job: number; done: number; total: number; symbols: number }
  | { type: 'done'; job: number; summary: SymbolsSummary }
  | { type: 'failed'; job: number; message: string; code?: string };

interface Request {
  job: number;
  root: string;
  home?: string;
  force: boolean;
}

/** One idle thread at most, reused by the next phase of any project; a running phase has it to itself. */
let idle: { worker: Worker; timer: NodeJS.Timeout } | undefined;
let nextJob = 1;

function takeWorker(): Worker {
  if (idle) {
    clearTimeout(idle.timer);
    const { worker } = idle;
    idle = undefined;
    return worker;
  }
  return spawnWorker(import.meta.url, { workerData: { role: WORKER_ROLE } });
}

function putBack(worker: Worker): void {
  if (idle) return void worker.terminate(); // one kept is enough
  const timer = setTimeout(() => {
    if (idle?.worker === worker) idle = undefined;
    void worker.terminate();
  }, IDLE_MS);
  timer.unref();
  // An idle thread must not keep the process alive.
  worker.unref();
  idle = { worker, timer };
}

/** buildSymbols over the project's live indexed files, off this thread. */
export function buildSymbolsInBackground(root: string, options: Omit<SymbolsOptions, 'threads'> = {}): Promise<SymbolsSummary> {
  options.signal?.throwIfAborted();
  const worker = takeWorker();
  worker.ref();
  const job = nextJob++;
  return new Promise<SymbolsSummary>((resolve, reject) => {
    let settled = false;
    const settle = (finish: () => void, reusable: boolean): void => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (reusable) return void (putBack(worker), finish());
      const { threadId } = worker;
      void worker.terminate().then(() => {
        try {
          new IndexStore(root, options.home).abandonThread(threadId, 'The symbol phase was stopped before it finished');
        } finally {
          finish();
        }
      });
    };
    const onAbort = (): void => settle(() => reject(options.signal!.reason), false);
    const onMessage = (message: Message): void => {
      if (message.job !== job) return;
      if (message.type === 'progress') options.onProgress?.(message.done, message.total, message.symbols);
      else if (message.type === 'done') settle(() => resolve(message.summary), true);
      else settle(() => reject(Object.assign(new Error(message.message), message.code ? { code: message.code } : {})), true);
    };
    const onError = (error: Error): void => settle(() => reject(error), false);
    const onExit = (code: number): void => settle(() => reject(new Error(`The symbol worker stopped (exit code ${code})`)), false);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage({ job, root, home: options.home, force: options.force === true } satisfies Request);
  });
}

function serve(): void {
  setLeaseThread(threadId);
  // Between phases the thread keeps the heap the last one grew: trimmed once it is quiet (idle-heap.ts).
  const heap = new IdleHeapTrimmer();
  parentPort!.on('message', (request: Request) => void counted(heap, () => buildAndReport(request)));
}

async function buildAndReport({ job, root, home, force }: Request): Promise<void> {
  try {
    const live = IndexReader.liveFiles(root, home);
    const summary = await buildSymbols(root, live.files, {
      home,
      force,
      textUpdatedAt: live.manifest.updatedAt,
      onProgress: (done, total, symbols) => parentPort!.postMessage({ type: 'progress', job, done, total, symbols } satisfies Message),
    });
    parentPort!.postMessage({ type: 'done', job, summary } satisfies Message);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    parentPort!.postMessage({
      type: 'failed',
      job,
      message: error instanceof Error ? error.message : String(error),
      ...(typeof code === 'string' ? { code } : {}),
    } satisfies Message);
  }
}

workerMain(WORKER_ROLE, serve);
