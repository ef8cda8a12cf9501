/**
 * Builds a project's content index: discover, read each file once, skip binaries, record the
 * file's hash and language, extract its trigrams, write one segment and swap the manifest.
 * Progress is reported as stage events; an AbortSignal stops the job and keeps the old index.
 */
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { discover, type DiscoveryOptions } from './discovery.js';
import { detectLanguage } from './languages.js';
import { SegmentBuilder, type SegmentFile } from './segment.js';
import { INDEX_FORMAT_VERSION, IndexIncompatibleError, IndexStore, type JobJournal, type Manifest } from './store.js';
import { trigramsOf } from './trigrams.js';

/** A file with a line longer than this is searched by scanning, not through trigrams (like cindex). */
export const MAX_INDEXED_LINE_BYTES = 2_000;
/** ...and so is a file with more distinct trigrams than this (generated or data files). */
export const MAX_FILE_TRIGRAMS = 20_000;
/** Bytes looked at for a NUL to call a file binary. */
const BINARY_PROBE_BYTES = 8 * 1024;

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

export function buildIndex(path: string, options: BuildOptions = {}): BuildSummary {
  const root = resolveRoot(path);
  const store = new IndexStore(root, options.home);
  const journal: JobJournal = { mode: 'index', pid: process.pid, startedAt: new Date().toISOString(), stage: 'discovery', done: 0, total: 0 };
  store.startJob(journal);
  try {
    return build(root, store, journal, options);
  } catch (error) {
    // The previous index is untouched; the journal says how far this job got and why it stopped.
    store.updateJob({ ...journal, stopped: error instanceof Error ? error.message : String(error) });
    throw error;
  }
}

function build(root: string, store: IndexStore, journal: JobJournal, options: BuildOptions): BuildSummary {
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
  files.forEach((file, index) => {
    if (index % 500 === 0) {
      options.signal?.throwIfAborted();
      options.onProgress?.({ stage: 'indexing', done: index, total: files.length });
      journal.done = index;
      store.updateJob(journal);
    }
    let content: Buffer;
    try {
      content = readFileSync(join(root, file.path));
    } catch {
      counts.unreadable = (counts.unreadable ?? 0) + 1;
      return;
    }
    if (content.subarray(0, BINARY_PROBE_BYTES).includes(0)) {
      counts.binary!++;
      return;
    }
    bytes += content.length;
    const entry: SegmentFile = {
      path: file.path,
      size: content.length,
      mtimeMs: file.mtimeMs,
      hash: createHash('sha1').update(content).digest('hex').slice(0, 16),
    };
    const language = detectLanguage(file.path, content.subarray(0, 200).toString('utf8'));
    if (language) entry.language = language;
    const trigrams = hasLongLine(content) ? undefined : trigramsOf(content);
    if (!trigrams || trigrams.length > MAX_FILE_TRIGRAMS) {
      entry.unindexed = true;
      unindexed++;
      builder.add(entry, undefined);
      return;
    }
    builder.add(entry, trigrams);
  });

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
