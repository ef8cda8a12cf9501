/**
 * The symbol phase of indexing, run after the text index is committed (text search never waits
 * for it): parse, in worker threads, every file of a language with symbols whose content
 * changed since the last symbol phase, and commit them as a symbol segment (see
 * symbol-commit.ts). A full build (nothing committed yet, or --force) writes one base segment
 * per parser thread instead, each thread encoding what it parsed. Files whose path and content
 * hash are unchanged are not read at all; a phase with nothing to parse and nothing deleted
 * writes nothing.
 */
import { cpus } from 'node:os';
import { parentPort, workerData, type Worker } from 'node:worker_threads';
import { spawnWorker } from '../../platform/runtime.js';
import { ProjectFiles } from '../files/project-file.js';
import type { JobJournal } from '../store/journal.js';
import { IndexStore } from '../store/store.js';
import type { SegmentFile } from '../text/segment.js';
import { SymbolExtractor } from './extract.js';
import type { ReferenceInfo, SymbolInfo } from './types.js';
import { FILE_FIELDS, PackedBuilder, type PackedFiles, SegmentStrings, SYMBOL_FIELDS } from './segment/index.js';
import { UNPARSED_KEPT, UNPARSED_REASONS, unparsedReason, type Unparsed } from './parse-limits.js';
import { collectSymbolDebris, commitBaseSegments, commitSymbols, writeSymbolSegment, type Written } from './symbol-commit.js';
import { SymbolIndex } from './symbol-index.js';
import { writeSymbolsManifest, type SymbolSegmentEntry, type SymbolsManifest } from './symbol-manifest.js';
import { workerMain } from '../../platform/worker-main.js';

const WORKER_ROLE = 'sextant-symbols';
const BATCH_FILES = 32;
/** Up to this many files are parsed on the calling thread (a watcher refresh after a save). */
const INLINE_FILES = 8;
/** The calling thread's parser, kept for the next small phase (grammars stay compiled). */
let inlineExtractor: Promise<SymbolExtractor> | undefined;

export interface SymbolsOptions {
  home?: string;
  threads?: number;
  signal?: AbortSignal;
  /** Parse every file again: nothing of the previous symbols is reused (`index --force`). */
  force?: boolean;
  /** The text manifest's updatedAt that `files` come from: recorded, so a later sync knows the symbols are current. */
  textUpdatedAt?: string;
  /** After each batch: files parsed or reused so far, of how many, and the symbols found so far. */
  onProgress?(done: number, total: number, symbols: number): void;
}

export interface SymbolsSummary {
  files: number;
  parsed: number;
  reused: number;
  deleted: number;
  symbols: number;
  durationMs: number;
  /** What was written: nothing (no change), a delta, deltas folded, or everything in one segment. */
  written: 'nothing' | Written;
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
  for (const deadline = Date.now() + LOCK_PATIENCE_MS; ;) {
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

/** The symbols committed so far, or undefined (none yet, or unreadable: then everything is parsed again). */
function openCurrent(store: IndexStore): SymbolIndex | undefined {
  try {
    return SymbolIndex.open(store);
  } catch {
    return undefined;
  }
}

async function parseAndWrite(store: IndexStore, root: string, files: SegmentFile[], options: SymbolsOptions): Promise<SymbolsSummary> {
  const started = Date.now();
  collectSymbolDebris(store);
  const current = options.force ? undefined : openCurrent(store);
  try {
    const wanted = files.filter((file) => SymbolExtractor.supports(file.language));
    // What is committed now, by path: its content hash and how many symbols it has.
    const committed = new Map<string, { hash: string; symbols: number }>();
    for (const entry of current?.entries() ?? []) {
      const segment = current!.segments[entry.segment]!;
      committed.set(entry.path, { hash: segment.hash(entry.file), symbols: segment.fileField(entry.file, 4) });
    }
    const todo: Job['files'] = [];
    let reusedSymbols = 0;
    const kept = new Set<string>();
    for (const file of wanted) {
      kept.add(file.path);
      const known = committed.get(file.path);
      if (known && known.hash === file.hash) reusedSymbols += known.symbols;
      else todo.push({ path: file.path, hash: file.hash, language: file.language! });
    }
    const deleted = [...committed.keys()].filter((path) => !kept.has(path));
    // Files left unparsed, by reason: the last phase's, but for what is parsed again or gone, then this phase's.
    const unparsed: Array<[string, Unparsed]> = [];
    const redone = new Set([...todo.map((file) => file.path), ...deleted]);
    const unparsedNow = (): SymbolsManifest['unparsed'] => {
      const lists: Partial<Record<Unparsed, string[]>> = {};
      for (const reason of UNPARSED_REASONS)
        for (const path of current?.manifest.unparsed?.[reason] ?? []) if (!redone.has(path)) (lists[reason] ??= []).push(path);
      for (const [path, reason] of unparsed) (lists[reason] ??= []).push(path);
      for (const reason of UNPARSED_REASONS) if (lists[reason]) lists[reason] = lists[reason]!.sort().slice(0, UNPARSED_KEPT);
      return Object.keys(lists).length > 0 ? lists : undefined;
    };
    const reused = wanted.length - todo.length;
    const summary = (symbols: number, written: SymbolsSummary['written']): SymbolsSummary => ({
      files: wanted.length,
      parsed: todo.length,
      reused,
      deleted: deleted.length,
      symbols,
      durationMs: Date.now() - started,
      written,
    });
    options.onProgress?.(reused, wanted.length, reusedSymbols);
    if (current && todo.length === 0 && deleted.length === 0) {
      // Nothing to parse: at most the note of which text index the symbols match is updated.
      if (options.textUpdatedAt && current.manifest.textUpdatedAt !== options.textUpdatedAt)
        writeSymbolsManifest(store, { ...current.manifest, textUpdatedAt: options.textUpdatedAt });
      return summary(current.manifest.symbols, 'nothing');
    }
    if (!current && todo.length > INLINE_FILES) {
      // A full build: each parser thread keeps what it parsed and writes it as a base segment of
      // its own, the threads at once (encoding is a third of the phase on one thread).
      const bases = await parseIntoBases(store, todo, options, unparsed, (done, symbols) =>
        options.onProgress?.(reused + done, wanted.length, reusedSymbols + symbols),
      );
      const symbols = bases.reduce((sum, entry) => sum + entry.symbols, 0);
      return summary(symbols, commitBaseSegments(store, bases, { files: wanted.length, symbols, unparsed: unparsedNow() }, options.textUpdatedAt));
    }
    // Each batch's strings are numbered as it comes back: the main thread is idle while the parser threads work.
    const strings = new SegmentStrings();
    const parsed = await parse(root, todo, options, (batch, done, symbols) => {
      strings.add(batch);
      if (batch.unparsed) unparsed.push(...batch.unparsed);
      options.onProgress?.(reused + done, wanted.length, reusedSymbols + symbols);
    });
    options.signal?.throwIfAborted();
    const parsedSymbols = parsed.reduce((sum, part) => sum + part.symbols.length / SYMBOL_FIELDS, 0);
    const symbols = reusedSymbols + parsedSymbols;
    return summary(
      symbols,
      commitSymbols(store, current, { parsed, deleted, strings }, { files: wanted.length, symbols, unparsed: unparsedNow() }, options.textUpdatedAt),
    );
  } finally {
    current?.close();
  }
}

/** Parses `todo` on up to `threads` parser threads, batch by batch; each batch comes back packed. */
async function parse(
  root: string,
  todo: Job['files'],
  options: SymbolsOptions,
  onBatch: (batch: PackedFiles, done: number, symbols: number) => void,
): Promise<PackedFiles[]> {
  const results: PackedFiles[] = [];
  if (todo.length === 0) return results;
  if (todo.length <= INLINE_FILES) {
    // A save or two: starting parser threads would cost more than the parsing.
    inlineExtractor ??= SymbolExtractor.create();
    const batch = await parseBatch(await inlineExtractor, { id: 0, root, files: todo });
    onBatch(batch, todo.length, batch.symbols.length / SYMBOL_FIELDS);
    return [batch];
  }
  const workers = startParsers(todo, options, false);
  let done = 0;
  let symbols = 0;
  try {
    await Promise.all(
      startJobs(workers, jobsOf(root, todo), options, (batch: PackedFiles) => {
        results.push(batch);
        done += batch.files.length / FILE_FIELDS;
        symbols += batch.symbols.length / SYMBOL_FIELDS;
        onBatch(batch, done, symbols);
      }),
    );
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return results;
}

/**
 * Parses `todo` on the parser threads, each of which keeps its batches and, once all are parsed,
 * writes them as one segment of its own (paths never overlap: a file is in one batch). The
 * segments, in the threads' order, are the base of a full build.
 */
async function parseIntoBases(
  store: IndexStore,
  todo: Job['files'],
  options: SymbolsOptions,
  unparsed: Array<[string, Unparsed]>,
  onBatch: (done: number, symbols: number) => void,
): Promise<SymbolSegmentEntry[]> {
  const workers = startParsers(todo, options, true);
  let done = 0;
  let symbols = 0;
  try {
    // A thread writes its segment as soon as it has parsed its last batch, while the other may still parse.
    const written = await Promise.all(
      startJobs(workers, jobsOf(store.root, todo), options, (kept: BatchCount) => {
        if (kept.unparsed) unparsed.push(...kept.unparsed);
        done += kept.files;
        symbols += kept.symbols;
        onBatch(done, symbols);
      }).map((parsed, index) =>
        parsed.then(() => {
          options.signal?.throwIfAborted();
          return writeBase(workers[index]!, store.dir);
        }),
      ),
    );
    return written.filter((entry): entry is SymbolSegmentEntry => entry !== null);
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

/** Asks a parser thread that keeps its batches to write them as one segment into `dir`. */
function writeBase(worker: Worker, dir: string): Promise<SymbolSegmentEntry | null> {
  return new Promise<SymbolSegmentEntry | null>((resolve, reject) => {
    worker.once('message', (reply: { segment: SymbolSegmentEntry | null } | { error: string }) =>
      'error' in reply ? reject(new Error(reply.error)) : resolve(reply.segment),
    );
    worker.once('exit', (code) => reject(new Error(`A symbol parser thread stopped before writing its segment (exit code ${code})`)));
    worker.postMessage({ write: dir } satisfies WriteRequest);
  });
}

function jobsOf(root: string, todo: Job['files']): Job[] {
  const jobs: Job[] = [];
  for (let start = 0; start < todo.length; start += BATCH_FILES) jobs.push({ id: jobs.length, root, files: todo.slice(start, start + BATCH_FILES) });
  return jobs;
}

/** Up to `threads` parser threads (no more than there are batches); `keep`: they keep their batches (parseIntoBases). */
function startParsers(todo: Job['files'], options: SymbolsOptions, keep: boolean): Worker[] {
  const threads = Math.max(1, Math.min(options.threads ?? cpus().length, Math.ceil(todo.length / BATCH_FILES)));
  return Array.from({ length: threads }, () => spawnWorker(import.meta.url, { workerData: { role: WORKER_ROLE, keep } }));
}

/**
 * Hands `jobs` out to `workers`, two ahead each (a thread starts the next while the main thread
 * takes in the last); `taken` gets every reply. A promise per worker, settled once that worker
 * has answered its last job.
 */
function startJobs<Reply>(workers: Worker[], jobs: Job[], options: SymbolsOptions, taken: (reply: Reply) => void): Array<Promise<void>> {
  let next = 0;
  return workers.map(
    (worker) =>
      new Promise<void>((resolve, reject) => {
        let outstanding = 0;
        const give = (): void => {
          const job = jobs[next++];
          if (job) {
            worker.postMessage(job);
            outstanding++;
          } else if (outstanding === 0) finish();
        };
        const onMessage = (reply: Reply): void => {
          if (options.signal?.aborted) return reject(options.signal.reason);
          outstanding--;
          give();
          taken(reply);
        };
        // A parser thread that dies (out of memory in wasm, say) fails the phase instead of leaving it waiting for ever.
        const onExit = (code: number): void => reject(new Error(`A symbol parser thread stopped (exit code ${code})`));
        const finish = (): void => {
          worker.off('message', onMessage);
          resolve();
        };
        worker.on('message', onMessage);
        worker.on('error', reject);
        worker.on('exit', onExit);
        give();
        give();
      }),
  );
}

async function parseBatch(extractor: SymbolExtractor, job: Job): Promise<PackedFiles> {
  const batch = new PackedBuilder();
  const files = new ProjectFiles(job.root);
  const unparsed: Array<[string, Unparsed]> = [];
  for (const file of job.files) {
    let extracted: { symbols: SymbolInfo[]; references: ReferenceInfo[] } = { symbols: [], references: [] };
    const text = files.text(file.path);
    const reason = text === undefined ? undefined : unparsedReason(text);
    if (reason) unparsed.push([file.path, reason]);
    try {
      if (text !== undefined && !reason) extracted = await extractor.extract(file.language, text);
    } catch {
      // a grammar failure: the file simply has no symbols (so has one ProjectFiles would not read)
    }
    batch.add(file.path, file.hash, file.language, extracted.symbols, extracted.references);
  }
  const packed = batch.build();
  return unparsed.length > 0 ? { ...packed, unparsed } : packed;
}

interface BatchCount {
  files: number;
  symbols: number;
  unparsed?: Array<[string, Unparsed]>;
}

interface WriteRequest {
  /** The index folder the thread writes its segment into. */
  write: string;
}

function startWorker(): void {
  const ready = SymbolExtractor.create();
  const keep = (workerData as { keep?: boolean }).keep === true;
  const kept: PackedFiles[] = [];
  // Batches queue up (two are sent ahead): one at a time, in order, so each goes back as soon as it is done.
  let queue: Promise<void> = Promise.resolve();
  parentPort!.on('message', (message: Job | WriteRequest) => {
    queue = queue.then(async () => {
      if ('write' in message) {
        try {
          const segment = kept.length > 0 ? writeSymbolSegment(message.write, kept) : null;
          parentPort!.postMessage({ segment });
        } catch (error) {
          parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) });
        }
        return;
      }
      const packed = await parseBatch(await ready, message);
      if (keep) {
        kept.push(packed);
        parentPort!.postMessage({
          files: packed.files.length / FILE_FIELDS,
          symbols: packed.symbols.length / SYMBOL_FIELDS,
          ...(packed.unparsed ? { unparsed: packed.unparsed } : {}),
        } satisfies BatchCount);
      } else
        parentPort!.postMessage(packed, [packed.files.buffer as ArrayBuffer, packed.symbols.buffer as ArrayBuffer, packed.references.buffer as ArrayBuffer]);
    });
  });
}

workerMain(WORKER_ROLE, startWorker);
