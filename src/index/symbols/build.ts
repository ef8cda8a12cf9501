/**
 * The symbol phase of indexing, run after the text index is committed (text search never waits
 * for it): parse every file of a language with symbols, in worker threads, reusing the symbols
 * of files whose content hash has not changed, and write one symbols file beside the segments.
 */
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { IndexStore, writeAtomic, type JobJournal } from '../store.js';
import { byPath, type SegmentFile } from '../segment.js';
import { SymbolExtractor, type ReferenceInfo, type SymbolInfo } from './extract.js';
import { writeNameIndex } from './names.js';
import { writeReferenceIndex } from './references.js';

const WORKER_ROLE = 'sextant-symbols';
const BATCH_FILES = 32;
export const SYMBOLS_FILE = 'symbols.json';
/** Counts of the last symbol phase, small enough to read on every status call. */
export const SYMBOLS_META_FILE = 'symbols-meta.json';

export interface FileSymbols {
  path: string;
  hash: string;
  symbols: SymbolInfo[];
  /** Calls and imports in the file (related-symbol queries); absent in files written before they were kept. */
  references?: ReferenceInfo[];
}

export interface SymbolsOptions {
  home?: string;
  threads?: number;
  signal?: AbortSignal;
  /** Parse every file again: nothing of the previous symbols is reused (`index --force`). */
  force?: boolean;
  /** After each batch: files parsed or reused so far, of how many, and the symbols found so far. */
  onProgress?(done: number, total: number, symbols: number): void;
}

export interface SymbolsSummary {
  files: number;
  parsed: number;
  reused: number;
  symbols: number;
  durationMs: number;
}

export function readSymbolsMeta(store: IndexStore): { files: number; symbols: number; updatedAt: string } | undefined {
  try {
    return JSON.parse(readFileSync(join(store.dir, SYMBOLS_META_FILE), 'utf8')) as { files: number; symbols: number; updatedAt: string };
  } catch {
    return undefined;
  }
}

/** Every file's symbols; none when the file is missing or unreadable (the next symbol phase parses everything again). */
export function readSymbols(store: IndexStore): FileSymbols[] {
  const file = join(store.dir, SYMBOLS_FILE);
  if (!existsSync(file)) return [];
  try {
    const files = (JSON.parse(readFileSync(file, 'utf8')) as { files?: unknown }).files;
    return Array.isArray(files) ? (files as FileSymbols[]) : [];
  } catch {
    return [];
  }
}

interface Job {
  id: number;
  root: string;
  files: Array<{ path: string; hash: string; language: string }>;
}

/** How long the symbol phase waits for another writer's lock before it gives up (index_in_progress). */
const LOCK_PATIENCE_MS = 10_000;

/** Files parsed between two journal updates. */
const JOURNAL_EVERY_FILES = 512;

/**
 * Parses `files` (live entries of the text index) and writes the symbol files, as a job of its
 * own: it holds the project's lock and keeps a journal (mode `symbols`), so a symbol phase that
 * dies is reported as interrupted, and the previous symbols keep answering meanwhile.
 */
export async function buildSymbols(root: string, files: SegmentFile[], options: SymbolsOptions = {}): Promise<SymbolsSummary> {
  const store = new IndexStore(root, options.home);
  const journal: JobJournal = { mode: 'symbols', pid: process.pid, startedAt: new Date().toISOString(), stage: 'symbols', done: 0, total: 0 };
  // The text phase just released the lock: a watcher's quick sync may hold it for a moment.
  for (const deadline = Date.now() + LOCK_PATIENCE_MS; ; ) {
    try {
      store.startJob(journal);
      break;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'index_in_progress' || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
      options.signal?.throwIfAborted();
    }
  }
  let journaled = 0;
  const onProgress = (done: number, total: number, symbols: number): void => {
    options.onProgress?.(done, total, symbols);
    if (done - journaled >= JOURNAL_EVERY_FILES || done === total) {
      journaled = done;
      store.updateJob({ ...journal, done, total });
    }
  };
  try {
    const summary = await parseAndWrite(store, root, files, { ...options, onProgress });
    store.endJob();
    return summary;
  } catch (error) {
    store.stopJob({ ...journal, done: journaled, stopped: error instanceof Error ? error.message : String(error) });
    throw error;
  }
}

async function parseAndWrite(store: IndexStore, root: string, files: SegmentFile[], options: SymbolsOptions): Promise<SymbolsSummary> {
  const started = Date.now();
  // Entries without references come from before they were kept: parsed again.
  const previous = new Map(options.force ? [] : readSymbols(store).filter((entry) => entry.references).map((entry) => [`${entry.path}\0${entry.hash}`, entry]));
  const wanted = files.filter((file) => SymbolExtractor.supports(file.language));
  const results: FileSymbols[] = [];
  const todo: Job['files'] = [];
  for (const file of wanted) {
    const cached = previous.get(`${file.path}\0${file.hash}`);
    if (cached) results.push(cached);
    else todo.push({ path: file.path, hash: file.hash, language: file.language! });
  }
  let symbolCount = results.reduce((sum, entry) => sum + entry.symbols.length, 0);
  options.onProgress?.(results.length, wanted.length, symbolCount);
  const threads = Math.max(1, Math.min(options.threads ?? cpus().length, Math.ceil(todo.length / BATCH_FILES)));
  if (todo.length > 0) {
    const execArgv = process.execArgv.filter((flag) => !flag.startsWith('--input-type'));
    const workers = Array.from({ length: threads }, () => new Worker(new URL(import.meta.url), { workerData: { role: WORKER_ROLE }, execArgv }));
    try {
      const jobs: Job[] = [];
      for (let start = 0; start < todo.length; start += BATCH_FILES) jobs.push({ id: jobs.length, root, files: todo.slice(start, start + BATCH_FILES) });
      let next = 0;
      await Promise.all(
        workers.map(
          (worker) =>
            new Promise<void>((resolve, reject) => {
              const give = (): void => {
                const job = jobs[next++];
                if (job) worker.postMessage(job);
                else resolve();
              };
              worker.on('message', (done: FileSymbols[]) => {
                results.push(...done);
                symbolCount += done.reduce((sum, entry) => sum + entry.symbols.length, 0);
                options.onProgress?.(results.length, wanted.length, symbolCount);
                if (options.signal?.aborted) return reject(options.signal.reason);
                give();
              });
              worker.on('error', reject);
              // A parser thread that dies (out of memory in wasm, say) fails the phase instead of leaving it waiting for ever.
              worker.on('exit', (code) => reject(new Error(`A symbol parser thread stopped (exit code ${code})`)));
              give();
            }),
        ),
      );
    } finally {
      await Promise.all(workers.map((worker) => worker.terminate()));
    }
  }
  options.signal?.throwIfAborted();
  results.sort(byPath);
  writeAtomic(join(store.dir, SYMBOLS_FILE), JSON.stringify({ files: results }));
  writeNameIndex(store, results);
  writeReferenceIndex(store, results);
  const symbolTotal = results.reduce((sum, entry) => sum + entry.symbols.length, 0);
  writeAtomic(join(store.dir, SYMBOLS_META_FILE), JSON.stringify({ files: results.length, symbols: symbolTotal, updatedAt: new Date().toISOString() }));
  return {
    files: wanted.length,
    parsed: todo.length,
    reused: wanted.length - todo.length,
    symbols: symbolTotal,
    durationMs: Date.now() - started,
  };
}

function startWorker(): void {
  const ready = SymbolExtractor.create();
  parentPort!.on('message', async (job: Job) => {
    const extractor = await ready;
    const done: FileSymbols[] = [];
    for (const file of job.files) {
      let extracted: { symbols: SymbolInfo[]; references: ReferenceInfo[] } = { symbols: [], references: [] };
      try {
        extracted = await extractor.extract(file.language, readFileSync(join(job.root, file.path), 'utf8'));
      } catch {
        // unreadable now, or a grammar failure: the file simply has no symbols
      }
      done.push({ path: file.path, hash: file.hash, ...extracted });
    }
    parentPort!.postMessage(done);
  });
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === WORKER_ROLE) startWorker();
