/**
 * The symbol phase in a thread of its own, for a long-lived server: reading the previous
 * symbols and writing the new files takes seconds on a large project (6.4 s on the 470,000
 * symbols of the benchmark corpus), and must not hold the server's event loop meanwhile.
 * Progress comes back as messages; cancelling terminates the thread (every file it writes is
 * written atomically, so the previous ones stay whole).
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { IndexReader } from '../search.js';
import { buildSymbols, type SymbolsOptions, type SymbolsSummary } from './build.js';

const WORKER_ROLE = 'sextant-symbols-job';

type Message =
  | { type: 'progress'; done: number; total: number; symbols: number }
  | { type: 'done'; summary: SymbolsSummary }
  | { type: 'failed'; message: string; code?: string };

/** buildSymbols over the project's live indexed files, off this thread. */
export function buildSymbolsInBackground(root: string, options: Omit<SymbolsOptions, 'threads'> = {}): Promise<SymbolsSummary> {
  options.signal?.throwIfAborted();
  const execArgv = process.execArgv.filter((flag) => !flag.startsWith('--input-type'));
  const worker = new Worker(new URL(import.meta.url), { workerData: { role: WORKER_ROLE, root, home: options.home, force: options.force === true }, execArgv });
  return new Promise<SymbolsSummary>((resolve, reject) => {
    let settled = false;
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      finish();
    };
    const onAbort = (): void => {
      void worker.terminate();
      settle(() => reject(options.signal!.reason));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: Message) => {
      if (message.type === 'progress') options.onProgress?.(message.done, message.total, message.symbols);
      else if (message.type === 'done') settle(() => resolve(message.summary));
      else settle(() => reject(Object.assign(new Error(message.message), message.code ? { code: message.code } : {})));
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`The symbol worker stopped (exit code ${code})`))));
  });
}

async function runJob(): Promise<void> {
  const { root, home, force } = workerData as { root: string; home?: string; force: boolean };
  try {
    const reader = IndexReader.open(root, home);
    const summary = await buildSymbols(root, reader.files, {
      textUpdatedAt: reader.manifest.updatedAt,
      ...(home ? { home } : {}),
      force,
      onProgress: (done, total, symbols) => parentPort!.postMessage({ type: 'progress', done, total, symbols } satisfies Message),
    });
    parentPort!.postMessage({ type: 'done', summary } satisfies Message);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    parentPort!.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error), ...(typeof code === 'string' ? { code } : {}) } satisfies Message);
  }
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === WORKER_ROLE) void runJob();
