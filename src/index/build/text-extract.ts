/**
 * Per-file extraction for the index — read, spot binaries, hash, detect the language, collect
 * trigrams — and the worker pool that runs it on every core. Reads are synchronous inside the
 * workers: on this kind of machine async readFile was several times slower for many small files.
 *
 * The same module is the worker's entry: in the single-file bundle, the worker runs the bundle
 * itself, and this module's top level starts the worker loop when it finds its role.
 */
import { createHash } from 'node:crypto';
import { cpus } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { spawnWorker } from '../../platform/runtime.js';
import { detectLanguage } from '../files/languages.js';
import { ProjectFiles } from '../files/project-file.js';
import { blockTrigramsOf, DEFAULT_BLOCK_BYTES, trigramsOf } from '../text/trigrams.js';
import { SegmentBuilder, type SegmentFile } from '../text/segment.js';
import { workerMain } from '../../platform/worker-main.js';

/**
 * A file with more distinct trigrams than this is searched by scanning, not through the postings:
 * data more than text (hashes, base64, compressed dumps), whose trigrams would mostly be keys of
 * their own in the directory that every query reads.
 */
export const MAX_FILE_TRIGRAMS = 20_000;
/**
 * ...unless it is large and its trigrams are few for its size, as in code and markup, long lines
 * or not (minified code repeats its trigrams far more than base64 does): indexed in blocks, such a file is read only when a query can match it, instead of by
 * every query.
 */
export const MIN_BYTES_PER_TRIGRAM = 16;
/** Bytes looked at for a NUL to call a file binary. */
const BINARY_PROBE_BYTES = 8 * 1024;
/** Files handed to a worker at a time. */
const BATCH_FILES = 64;
const WORKER_ROLE = 'sextant-index-extract';

export type Extracted =
  | { kind: 'text'; size: number; hash: string; language?: string; trigrams?: Int32Array; blocks?: { trigrams: Int32Array[]; startLines: number[] } }
  | { kind: 'binary' }
  | { kind: 'unreadable' };

let lastFiles: ProjectFiles | undefined;
/** One reader per root while a job runs (files of one root come in a row). */
function filesOf(root: string): ProjectFiles {
  if (lastFiles?.root !== root) lastFiles = new ProjectFiles(root);
  return lastFiles;
}

export function extract(root: string, path: string): Extracted {
  const read = filesOf(root).read(path);
  if ('refused' in read) return { kind: 'unreadable' };
  const content = read.bytes;
  if (content.subarray(0, BINARY_PROBE_BYTES).includes(0)) return { kind: 'binary' };
  const result: Extracted = { kind: 'text', size: content.length, hash: createHash('sha1').update(content).digest('hex').slice(0, 16) };
  const language = detectLanguage(path, content.subarray(0, 200).toString('utf8'));
  if (language) result.language = language;
  if (content.length > DEFAULT_BLOCK_BYTES) {
    const { blocks, startLines, distinct } = blockTrigramsOf(content, DEFAULT_BLOCK_BYTES);
    if (distinct <= Math.max(MAX_FILE_TRIGRAMS, content.length / MIN_BYTES_PER_TRIGRAM)) result.blocks = { trigrams: blocks, startLines };
  } else {
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
  const workers = Array.from({ length: threads }, () => spawnWorker(import.meta.url, { workerData: { role: WORKER_ROLE } }));
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

export interface PartitionFile {
  path: string;
  mtimeMs: number;
  /** Bytes, when known: the threads' shares are balanced by them. */
  size?: number;
}

/** What opening and reading a file costs beside its bytes, in bytes' worth (balances the threads' shares). */
const FILE_COST_BYTES = 2048;

/**
 * `files` cut into `parts` runs, in order, of about equal work (bytes plus a cost per file): cut
 * by count alone, a tree's halves can differ by a third in bytes, and one thread idles for the
 * difference.
 */
export function balancedSlices<T extends { size?: number }>(files: T[], parts: number): T[][] {
  const weight = (file: T): number => (file.size ?? 0) + FILE_COST_BYTES;
  const total = files.reduce((sum, file) => sum + weight(file), 0);
  const slices: T[][] = [];
  let start = 0;
  let done = 0;
  for (let part = 1; part <= parts && start < files.length; part++) {
    const goal = (total * part) / parts;
    let end = start;
    while (end < files.length && (part === parts || done + weight(files[end]!) / 2 < goal)) done += weight(files[end++]!);
    if (end === start && start < files.length) done += weight(files[end++]!);
    slices.push(files.slice(start, end));
    start = end;
  }
  return slices;
}

export interface BuiltPartition {
  data: Buffer;
  files: number;
  bytes: number;
  unindexed: number;
  counts: Record<string, number>;
}

/**
 * Source text one partition segment covers before its worker writes it out and starts the next:
 * the (trigram, file) pairs a builder holds grow with the text, so this bounds a worker's memory
 * on a large repository at the price of a few more segments to read.
 */
export const DEFAULT_PARTITION_BYTES = 48 * 1024 * 1024;

type PartitionMessage = { type: 'batch'; root: string; files: PartitionFile[]; partitionBytes: number } | { type: 'finish' };
type SegmentReply = { data: Uint8Array; files: number; bytes: number; unindexed: number; counts: Record<string, number> };
type PartitionReply = { type: 'progress'; done: number } | ({ type: 'segment' } & SegmentReply) | ({ type: 'done' } & SegmentReply);

/** Adds one extracted file to a builder, keeping the tallies the summary reports. */
export function addExtracted(builder: SegmentBuilder, file: PartitionFile, result: Extracted, tally: Omit<BuiltPartition, 'data'>): void {
  if (result.kind !== 'text') {
    tally.counts[result.kind] = (tally.counts[result.kind] ?? 0) + 1;
    return;
  }
  tally.bytes += result.size;
  tally.files++;
  const entry: SegmentFile = { path: file.path, size: result.size, mtimeMs: file.mtimeMs, hash: result.hash };
  if (result.language) entry.language = result.language;
  if (!result.trigrams && !result.blocks) {
    entry.unindexed = true;
    tally.unindexed++;
  }
  if (result.blocks) entry.blocks = result.blocks.startLines;
  builder.add(entry, result.blocks ? result.blocks.trigrams : result.trigrams);
}

/**
 * Builds one segment per worker over contiguous slices of `files` (which are in path order), so
 * that extraction and encoding both run on every core. The reader treats the segments as one
 * index; paths never repeat across them.
 */
export async function buildPartitions(
  root: string,
  files: PartitionFile[],
  threads: number,
  options: { signal?: AbortSignal; onProgress?: (done: number) => void; partitionBytes?: number } = {},
): Promise<BuiltPartition[]> {
  const slices = balancedSlices(files, threads);
  const workers = slices.map(() => spawnWorker(import.meta.url, { workerData: { role: WORKER_ROLE } }));
  const done = new Array<number>(slices.length).fill(0);
  try {
    return await Promise.all(
      slices.map(
        (slice, p) =>
          new Promise<BuiltPartition[]>((resolve, reject) => {
            const worker = workers[p]!;
            const built: BuiltPartition[] = [];
            worker.on('message', (reply: PartitionReply) => {
              if (reply.type === 'progress') {
                done[p] = reply.done;
                if (options.signal?.aborted) return reject(options.signal.reason);
                options.onProgress?.(done.reduce((sum, n) => sum + n, 0));
                return;
              }
              const { type, data, ...rest } = reply;
              const last = built.at(-1);
              if (rest.files === 0 && last) {
                // An empty tail (only binaries after the last flush): keep its tallies, not a segment.
                for (const [why, n] of Object.entries(rest.counts)) last.counts[why] = (last.counts[why] ?? 0) + n;
              } else built.push({ ...rest, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength) });
              if (type === 'done') resolve(built);
            });
            worker.on('error', reject);
            worker.on('exit', (code) => {
              if (code !== 0) reject(new Error(`Index worker exited with code ${code}`));
            });
            for (let start = 0; start < slice.length; start += BATCH_FILES) {
              worker.postMessage({
                type: 'batch',
                root,
                files: slice.slice(start, start + BATCH_FILES),
                partitionBytes: options.partitionBytes ?? DEFAULT_PARTITION_BYTES,
              } satisfies PartitionMessage);
            }
            worker.postMessage({ type: 'finish' } satisfies PartitionMessage);
          }),
      ),
    ).then((perWorker) => perWorker.flat());
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

function startWorker(): void {
  let builder: SegmentBuilder | undefined;
  let tally: Omit<BuiltPartition, 'data'> = { files: 0, bytes: 0, unindexed: 0, counts: {} };
  let processed = 0;
  const flush = (type: 'segment' | 'done'): void => {
    const data = new Uint8Array((builder ?? new SegmentBuilder()).encode());
    parentPort!.postMessage({ type, data, ...tally } satisfies PartitionReply, [data.buffer as ArrayBuffer]);
    builder = undefined;
    tally = { files: 0, bytes: 0, unindexed: 0, counts: {} };
  };
  parentPort!.on('message', (message: Batch | PartitionMessage) => {
    if ('type' in message) {
      if (message.type === 'batch') {
        builder ??= new SegmentBuilder();
        for (const file of message.files) {
          addExtracted(builder, file, extract(message.root, file.path), tally);
          if (tally.bytes >= message.partitionBytes) flush('segment');
          builder ??= new SegmentBuilder();
        }
        processed += message.files.length;
        parentPort!.postMessage({ type: 'progress', done: processed } satisfies PartitionReply);
        return;
      }
      flush('done');
      processed = 0;
      return;
    }
    const batch = message;
    const results = batch.paths.map((path) => extract(batch.root, path));
    const transfer = results.flatMap((result) => {
      if (result.kind !== 'text') return [];
      if (result.blocks) return result.blocks.trigrams.map((block) => block.buffer as ArrayBuffer);
      return result.trigrams ? [result.trigrams.buffer as ArrayBuffer] : [];
    });
    parentPort!.postMessage({ id: batch.id, results }, transfer);
  });
}

workerMain(WORKER_ROLE, startWorker);
