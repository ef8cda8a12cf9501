/**
 * Builds a project's content index: discover, read each file once, skip binaries, record the
 * file's hash and language, extract its trigrams, write one segment and swap the manifest.
 * Progress is reported as stage events; an AbortSignal stops the job and keeps the old index.
 */
import { realpathSync, statSync } from 'node:fs';
import { discover, type DiscoveryOptions } from './discovery.js';
import { extractAll } from './extract.js';
import { SegmentBuilder, type SegmentFile } from './segment.js';
import { INDEX_FORMAT_VERSION, IndexIncompatibleError, IndexStore, type JobJournal, type Manifest } from './store.js';

export type IndexProgress =
  | { stage: 'discovery'; scanned: number }
  | { stage: 'indexing'; done: number; total: number }
  | { stage: 'finalizing' }
  | { stage: 'done'; files: number; bytes: number; durationMs: number };

export interface BuildOptions {
  home?: string;
  signal?: AbortSignal;
  onProgress?(event: IndexProgress): void;
  maxFileBytes?: number;
  /** Replace an index written by another format version (otherwise that is an error). */
  force?: boolean;
  /** Worker threads for reading and trigram extraction (default: one per core). */
  threads?: number;
}

export interface BuildSummary {
  root: string;
  files: number;
  bytes: number;
  unindexed: number;
  skipped: Record<string, number>;
  indexBytes: number;
  durationMs: number;
}

export class MissingPathError extends Error {
  readonly code = 'SEXTANT_ERR_NO_SUCH_PATH';
  constructor(path: string) {
    super(`No such directory: ${path}`);
    this.name = 'MissingPathError';
  }
}

export function resolveRoot(path: string): string {
  try {
    const real = realpathSync(path);
    if (statSync(real).isDirectory()) return real;
  } catch {
    // reported below
  }
  throw new MissingPathError(path);
}

export async function buildIndex(path: string, options: BuildOptions = {}): Promise<BuildSummary> {
  const root = resolveRoot(path);
  const store = new IndexStore(root, options.home);
  const journal: JobJournal = { mode: 'index', pid: process.pid, startedAt: new Date().toISOString(), stage: 'discovery', done: 0, total: 0 };
  store.startJob(journal);
  try {
    return await build(root, store, journal, options);
  } catch (error) {
    // The previous index is untouched; the journal says how far this job got and why it stopped.
    store.updateJob({ ...journal, stopped: error instanceof Error ? error.message : String(error) });
    throw error;
  }
}

async function build(root: string, store: IndexStore, journal: JobJournal, options: BuildOptions): Promise<BuildSummary> {
  const started = Date.now();
  let previous: Manifest | undefined;
  try {
    previous = store.readManifest();
  } catch (error) {
    if (!(error instanceof IndexIncompatibleError) || !options.force) throw error;
    previous = undefined; // --force: the incompatible index is replaced by this build
  }
  const discoveryOptions: DiscoveryOptions = { onProgress: (scanned) => options.onProgress?.({ stage: 'discovery', scanned }) };
  if (options.signal) discoveryOptions.signal = options.signal;
  if (options.maxFileBytes !== undefined) discoveryOptions.maxFileBytes = options.maxFileBytes;
  const { files, skipped } = discover(root, discoveryOptions);
  const counts: Record<string, number> = { ...skipped, binary: 0 };

  const builder = new SegmentBuilder();
  let bytes = 0;
  let unindexed = 0;
  journal.stage = 'indexing';
  journal.total = files.length;
  const extractOptions: Parameters<typeof extractAll>[3] = {
    onBatch: (done) => {
      options.onProgress?.({ stage: 'indexing', done, total: files.length });
      journal.done = done;
      if (done % 2048 < 64) store.updateJob(journal);
    },
  };
  if (options.signal) extractOptions.signal = options.signal;
  if (options.threads !== undefined) extractOptions.threads = options.threads;
  await extractAll(root, files.map((file) => file.path), (index, result) => {
    const file = files[index]!;
    if (result.kind !== 'text') {
      counts[result.kind] = (counts[result.kind] ?? 0) + 1;
      return;
    }
    bytes += result.size;
    const entry: SegmentFile = { path: file.path, size: result.size, mtimeMs: file.mtimeMs, hash: result.hash };
    if (result.language) entry.language = result.language;
    if (!result.trigrams) {
      entry.unindexed = true;
      unindexed++;
    }
    builder.add(entry, result.trigrams);
  }, extractOptions);

  options.signal?.throwIfAborted();
  options.onProgress?.({ stage: 'finalizing' });
  const data = builder.encode();
  const now = new Date().toISOString();
  const manifest: Manifest = {
    format: INDEX_FORMAT_VERSION,
    root,
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
    segments: [`segment-${Date.now().toString(36)}.sxt`],
    files: builder.files.length,
    bytes,
    skipped: counts,
  };
  store.commit(manifest, { name: manifest.segments[0]!, data }, previous);
  store.endJob();
  const durationMs = Date.now() - started;
  options.onProgress?.({ stage: 'done', files: manifest.files, bytes, durationMs });
  return { root, files: manifest.files, bytes, unindexed, skipped: counts, indexBytes: data.length, durationMs };
}
