/**
 * Per-file extraction for the index — read, spot binaries, hash, detect the language, collect
 * trigrams — and the worker pool that runs it on every core. Reads are synchronous inside the
 * workers: on this kind of machine async readFile was several times slower for many small files.
 *
 * The same module is the worker's entry: in the single-file bundle, the worker runs the bundle
 * itself, and this module's top level starts the worker loop when it finds its role.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { detectLanguage } from './languages.js';
import { trigramsOf } from './trigrams.js';

/** A file with a line longer than this is searched by scanning, not through trigrams (like cindex). */
export const MAX_INDEXED_LINE_BYTES = 2_000;
/** ...and so is a file with more distinct trigrams than this (generated or data files). */
export const MAX_FILE_TRIGRAMS = 20_000;
/** Bytes looked at for a NUL to call a file binary. */
const BINARY_PROBE_BYTES = 8 * 1024;
/** Files handed to a worker at a time. */
const BATCH_FILES = 64;
const WORKER_ROLE = 'sextant-index-extract';

export type Extracted =
  | { kind: 'text'; size: number; hash: string; language?: string; trigrams?: Int32Array }
  | { kind: 'binary' }
  | { kind: 'unreadable' };

function hasLongLine(bytes: Buffer): boolean {
  let start = 0;
  for (;;) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline < 0 ? bytes.length : newline;
    if (end - start > MAX_INDEXED_LINE_BYTES) return true;
    if (newline < 0) return false;
    start = newline + 1;
  }
}

export function extract(root: string, path: string): Extracted {
  let content: Buffer;
  try {
    content = readFileSync(join(root, path));
  } catch {
    return { kind: 'unreadable' };
  }
  if (content.subarray(0, BINARY_PROBE_BYTES).includes(0)) return { kind: 'binary' };
  const result: Extracted = { kind: 'text', size: content.length, hash: createHash('sha1').update(content).digest('hex').slice(0, 16) };
  const language = detectLanguage(path, content.subarray(0, 200).toString('utf8'));
  if (language) result.language = language;
  if (!hasLongLine(content)) {
    const trigrams = trigramsOf(content);
    if (trigrams.length <= MAX_FILE_TRIGRAMS) result.trigrams = trigrams;
  }
  return result;
}

interface Batch {
  id: number;
  root: string;
  paths: string[];
}

/** This module's own file: the tsc-built module, or in the bundle the bundle itself. */
function workerUrl(): URL {
  return new URL(import.meta.url);
}

/**
 * Extracts every path, in parallel, and hands the results to `onResult` in path order (so file
 * ids stay in path order). Falls back to this thread for small jobs, where workers cost more.
 */
export async function extractAll(
  root: string,
  paths: string[],
  onResult: (index: number, result: Extracted) => void,
  options: { signal?: AbortSignal; threads?: number; onBatch?: (done: number) => void } = {},
): Promise<void> {
  const threads = Math.max(1, Math.min(options.threads ?? cpus().length, Math.ceil(paths.length / BATCH_FILES)));
  if (threads === 1 || paths.length < 4 * BATCH_FILES) {
    paths.forEach((path, index) => {
      if (index % BATCH_FILES === 0) {
        options.signal?.throwIfAborted();
        options.onBatch?.(index);
      }
      onResult(index, extract(root, path));
    });
    return;
  }
  // Workers inherit the parent's flags; --input-type (from `node -e`) is refused for a file entry.
  const execArgv = process.execArgv.filter((flag) => !flag.startsWith('--input-type'));
  const workers = Array.from({ length: threads }, () => new Worker(workerUrl(), { workerData: { role: WORKER_ROLE }, execArgv }));
  try {
    const batches: Batch[] = [];
    for (let start = 0; start < paths.length; start += BATCH_FILES) {
      batches.push({ id: batches.length, root, paths: paths.slice(start, start + BATCH_FILES) });
    }
    const pending = new Map<number, { resolve: (results: Extracted[]) => void; reject: (error: Error) => void }>();
    const failAll = (error: Error): void => {
      for (const waiter of pending.values()) waiter.reject(error);
      pending.clear();
    };
    for (const worker of workers) {
      worker.on('message', (message: { id: number; results: Extracted[] }) => pending.get(message.id)?.resolve(message.results));
      // A dead worker fails the job at once rather than leaving it waiting forever.
      worker.on('error', (error) => failAll(error));
      worker.on('exit', (code) => {
        if (code !== 0) failAll(new Error(`Index worker exited with code ${code}`));
      });
    }
    // Each batch is sent when the one `threads` places before it has been consumed: bounded memory.
    const promises = new Map<number, Promise<Extracted[]>>();
    const send = (batch: Batch): void => {
      promises.set(batch.id, new Promise((resolve, reject) => pending.set(batch.id, { resolve, reject })));
      workers[batch.id % threads]!.postMessage(batch);
    };
    for (const batch of batches.slice(0, threads * 2)) send(batch);
    let index = 0;
    for (const batch of batches) {
      options.signal?.throwIfAborted();
      const results = await promises.get(batch.id)!;
      promises.delete(batch.id);
      pending.delete(batch.id);
      const next = batches[batch.id + threads * 2];
      if (next) send(next);
      for (const result of results) onResult(index++, result);
      options.onBatch?.(index);
    }
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

function startWorker(): void {
  parentPort!.on('message', (batch: Batch) => {
    const results = batch.paths.map((path) => extract(batch.root, path));
    const transfer = results.flatMap((result) => (result.kind === 'text' && result.trigrams ? [result.trigrams.buffer as ArrayBuffer] : []));
    parentPort!.postMessage({ id: batch.id, results }, transfer);
  });
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === WORKER_ROLE) startWorker();
