/**
 * Builds a project's content index: discover, read each file once, skip binaries, record the
 * file's hash and language, extract its trigrams, write one segment and swap the manifest.
 * Progress is reported as stage events; an AbortSignal stops the job and keeps the old index.
 */
import { discover, type DiscoveryOptions, SKIPPED_EXAMPLES } from '../files/walk.js';
import { writeWalkCache } from '../files/walk-cache.js';
import { cpus } from 'node:os';
import { addExtracted, buildPartitions, extract, type BuiltPartition } from './text-extract.js';
import { Segment, SegmentBuilder } from '../text/segment.js';
import { INDEX_FORMAT_VERSION, IndexCorruptError, type Manifest, newSegmentName } from '../store/manifest.js';
import type { JobJournal } from '../store/journal.js';
import { IndexStore } from '../store/store.js';
import { resolveRoot } from '../store/project-root.js';

/** Below this many files, one thread builds faster than starting workers. */
const PARALLEL_BUILD_FILES = 1_000;

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
  /** Source text per segment of a parallel build (default DEFAULT_PARTITION_BYTES). */
  partitionBytes?: number;
}

export interface BuildSummary {
  root: string;
  files: number;
  bytes: number;
  unindexed: number;
  skipped: Record<string, number>;
  /** The first few files skipped for each reason. */
  skippedExamples: Record<string, string[]>;
  indexBytes: number;
  durationMs: number;
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
    store.stopJob({ ...journal, stopped: error instanceof Error ? error.message : String(error) });
    throw error;
  }
}

async function build(root: string, store: IndexStore, journal: JobJournal, options: BuildOptions): Promise<BuildSummary> {
  const started = Date.now();
  // --force rebuilds from nothing: whatever is on disk is not even read. Without it, an index
  // of another format is refused (it may belong to another Sextant), but an unreadable one has
  // nothing worth keeping: it is rebuilt the same way.
  let previous: Manifest | undefined;
  if (!options.force) {
    try {
      previous = store.readManifest();
    } catch (error) {
      if (!(error instanceof IndexCorruptError)) throw error;
    }
  }
  const discoveryOptions: DiscoveryOptions = {
    onProgress: (scanned) => options.onProgress?.({ stage: 'discovery', scanned }),
    signal: options.signal,
    maxFileBytes: options.maxFileBytes,
  };
  const { files, skipped, examples, walkCache } = discover(root, discoveryOptions);
  options.onProgress?.({ stage: 'discovery', scanned: files.length });
  const counts: Record<string, number> = { ...skipped, binary: 0 };

  journal.stage = 'indexing';
  journal.total = files.length;
  const onDone = (done: number): void => {
    options.onProgress?.({ stage: 'indexing', done, total: files.length });
    journal.done = done;
    if (done % 2048 < 64) store.updateJob(journal);
  };
  const threads = Math.max(1, options.threads ?? cpus().length);
  let partitions: BuiltPartition[];
  if (threads > 1 && files.length >= PARALLEL_BUILD_FILES) {
    // One segment per worker: extraction and encoding both use every core.
    partitions = await buildPartitions(root, files, threads, { onProgress: onDone, partitionBytes: options.partitionBytes, signal: options.signal });
  } else {
    const builder = new SegmentBuilder();
    const tally = { files: 0, bytes: 0, unindexed: 0, counts: {} as Record<string, number> };
    files.forEach((file, index) => {
      if (index % 256 === 0) {
        options.signal?.throwIfAborted();
        onDone(index);
      }
      addExtracted(builder, file, extract(root, file.path), tally);
    });
    options.signal?.throwIfAborted();
    options.onProgress?.({ stage: 'finalizing' });
    partitions = [{ ...tally, data: builder.encode() }];
  }
  options.signal?.throwIfAborted();
  options.onProgress?.({ stage: 'finalizing' });
  for (const partition of partitions) {
    for (const [why, n] of Object.entries(partition.counts)) counts[why] = (counts[why] ?? 0) + n;
  }
  const bytes = partitions.reduce((sum, partition) => sum + partition.bytes, 0);
  const unindexed = partitions.reduce((sum, partition) => sum + partition.unindexed, 0);
  const named = partitions.map((partition, p) => ({ name: newSegmentName(String(p)), data: partition.data }));
  // What was discovered but is not in a segment is not text: the next sync need not read it again.
  const indexed = new Set(named.flatMap((segment) => new Segment(segment.data).files.map((file) => file.path)));
  const nonText = files.filter((file) => !indexed.has(file.path));
  store.writeNonText(new Map(nonText.map((file) => [file.path, { size: file.size, mtimeMs: file.mtimeMs }])));
  if (nonText.length > 0) examples.binary = nonText.slice(0, SKIPPED_EXAMPLES).map((file) => file.path);
  const now = new Date().toISOString();
  const manifest: Manifest = {
    format: INDEX_FORMAT_VERSION,
    root,
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
    segments: named.map((segment) => segment.name),
    baseSegments: named.length,
    files: partitions.reduce((sum, partition) => sum + partition.files, 0),
    bytes,
    skipped: counts,
    ...(Object.keys(examples).length > 0 ? { skippedExamples: examples } : {}),
  };
  store.commit(manifest, named);
  // The next sync starts from this walk (written after the commit: it describes the tree, not the index).
  if (walkCache) writeWalkCache(store.dir, walkCache);
  store.endJob();
  const durationMs = Date.now() - started;
  options.onProgress?.({ stage: 'done', files: manifest.files, bytes, durationMs });
  const indexBytes = named.reduce((sum, segment) => sum + segment.data.length, 0);
  return { root, files: manifest.files, bytes, unindexed, skipped: counts, skippedExamples: examples, indexBytes, durationMs };
}
