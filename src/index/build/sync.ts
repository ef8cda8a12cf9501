/**
 * Incremental sync: compare the tree with the index by path, size and mtime; re-read only new
 * and changed files into a small delta segment that shadows their old entries, with tombstones
 * for deleted files; swap the manifest. Deltas pile up until a merge (merge.ts) folds them;
 * the sync only says when one is due, so whoever runs it can do so off the save path.
 */
import { realpathSync } from 'node:fs';
import { discover, type DiscoveredFile, type DiscoveryOptions, isIgnoredPath, lookAtPath, SKIPPED_EXAMPLES } from '../files/walk.js';
import { maxFileBytes } from '../files/file-limit.js';
import { readWalkCache, writeWalkCache } from '../files/walk-cache.js';
import { addExtracted, extractAll } from './text-extract.js';
import type { BuildOptions } from './indexer.js';
import type { JobJournal } from '../store/journal.js';
import { IndexStore } from '../store/store.js';
import { type Manifest, newSegmentName } from '../store/manifest.js';
import { resolveRoot } from '../store/project-root.js';
import { mergeDue } from './merge.js';
import { NotIndexedError } from '../search/reader.js';
import { SegmentBuilder, type SegmentFile, segmentFiles } from '../text/segment.js';

export interface SyncSummary {
  root: string;
  added: number;
  changed: number;
  deleted: number;
  /** Files read (new or changed since the last look, text or not). */
  read: number;
  /** Enough deltas have gathered that a merge (mergeDeltas) should run. */
  mergeDue: boolean;
  durationMs: number;
}

/** The live entry of every path, newest segment first. */
function liveFiles(store: IndexStore, manifest: Manifest): Map<string, SegmentFile> {
  const live = new Map<string, SegmentFile>();
  const dead = new Set<string>();
  for (const name of [...manifest.segments].reverse()) {
    // The file list is in the header: the postings (most of the segment) are not read.
    const segment = store.readSegmentPart(name, segmentFiles);
    for (const file of segment.files) if (!live.has(file.path) && !dead.has(file.path)) live.set(file.path, file);
    for (const path of segment.tombstones) if (!live.has(path)) dead.add(path);
  }
  return live;
}

export interface SyncOptions extends BuildOptions {
  /** Only these workspace-relative paths changed (the watcher knows): no walk of the tree. */
  paths?: string[];
}

/**
 * The given paths as discovery would see them now (lookAtPath: the walk's own rule), and which
 * indexed paths that settles: a file is present or not; a directory is walked (a directory
 * renamed into place brings its files); anything else (gone, a link out, a FIFO) may have been a
 * directory, so everything indexed under it is gone too (an `rm -rf` reports the directory,
 * rarely every file in it).
 */
function lookAt(
  root: string,
  paths: string[],
  options: Pick<DiscoveryOptions, 'maxFileBytes' | 'signal'>,
): { files: DiscoveredFile[]; covers(path: string): boolean } {
  const limit = options.maxFileBytes ?? maxFileBytes();
  const files = new Map<string, DiscoveredFile>();
  const checked = new Set<string>();
  const subtrees: string[] = [];
  const realRoot = realpathSync.native(root);
  for (const path of new Set(paths)) {
    checked.add(path);
    if (isIgnoredPath(root, path)) continue;
    const verdict = lookAtPath(realRoot, path, limit);
    if (verdict.kind === 'file') files.set(path, verdict.file);
    else {
      subtrees.push(path);
      if (verdict.kind === 'directory') for (const file of discover(root, { ...options, under: path }).files) files.set(file.path, file);
    }
  }
  const prefixes = subtrees.map((path) => `${path}/`);
  return { files: [...files.values()], covers: (path) => checked.has(path) || prefixes.some((prefix) => path.startsWith(prefix)) };
}

export async function syncIndex(path: string, options: SyncOptions = {}): Promise<SyncSummary> {
  const started = Date.now();
  const root = resolveRoot(path);
  const store = new IndexStore(root, options.home);
  if (!store.readManifest()) throw new NotIndexedError(root);
  const journal: JobJournal = { mode: 'sync', pid: process.pid, startedAt: new Date().toISOString(), stage: 'discovery', done: 0, total: 0 };
  store.startJob(journal);
  // Read under the lock: a job that committed just before us is what this sync builds on.
  const manifest = store.readManifest();
  if (!manifest) {
    store.endJob();
    throw new NotIndexedError(root);
  }
  try {
    const live = liveFiles(store, manifest);
    const knownBefore = new Set(live.keys());
    const walkCache = options.paths ? undefined : readWalkCache(store.dir);
    const discoveryOptions: Parameters<typeof discover>[1] = { signal: options.signal, maxFileBytes: options.maxFileBytes, walkCache };
    const walked = options.paths ? undefined : discover(root, discoveryOptions);
    // Saved even when nothing else is: directories read again now need not be next time.
    if (walked?.walkCache && walked.walkCacheChanged) writeWalkCache(store.dir, walked.walkCache);
    const { files, covers } = walked ? { files: walked.files, covers: () => true } : lookAt(root, options.paths!, discoveryOptions);
    options.onProgress?.({ stage: 'discovery', scanned: files.length });
    const present = new Set(files.map((file) => file.path));
    // Files found not to be text before, untouched since, are not read again.
    const nonText = store.readNonText();
    const nonTextBefore = nonText.size;
    const unchanged = (file: DiscoveredFile, known: { size: number; mtimeMs: number } | undefined): boolean =>
      known !== undefined && known.size === file.size && known.mtimeMs === file.mtimeMs;
    const stale = files.filter((file) => !unchanged(file, live.get(file.path)) && !unchanged(file, nonText.get(file.path)));
    const deleted = [...live.keys()].filter((known) => !present.has(known) && covers(known));
    let nonTextChanged = false;
    for (const path of [...nonText.keys()]) {
      if (present.has(path) || !covers(path)) continue;
      nonText.delete(path);
      nonTextChanged = true;
    }
    if (stale.length === 0 && deleted.length === 0) {
      if (nonTextChanged) store.writeNonText(nonText);
      store.endJob();
      return { root, added: 0, changed: 0, deleted: 0, read: stale.length, mergeDue: mergeDue(manifest), durationMs: Date.now() - started };
    }

    journal.stage = 'indexing';
    journal.total = stale.length;
    store.updateJob(journal);
    const builder = new SegmentBuilder();
    builder.tombstones = [...deleted];
    const extractOptions: Parameters<typeof extractAll>[3] = {
      onBatch: (done) => options.onProgress?.({ stage: 'indexing', done, total: stale.length }),
      signal: options.signal,
      threads: options.threads,
    };
    const tally = { files: 0, bytes: 0, unindexed: 0, counts: {} };
    await extractAll(
      root,
      stale.map((file) => file.path),
      (index, result) => {
        const file = stale[index]!;
        if (result.kind !== 'text') {
          // Once text, now binary or unreadable: it leaves the index.
          if (live.has(file.path)) builder.tombstones.push(file.path);
          live.delete(file.path);
          nonText.set(file.path, { size: file.size, mtimeMs: file.mtimeMs });
          nonTextChanged = true;
          return;
        }
        if (nonText.delete(file.path)) nonTextChanged = true;
        addExtracted(builder, file, result, tally);
        live.set(file.path, builder.files.at(-1)!);
      },
      extractOptions,
    );
    options.signal?.throwIfAborted();
    options.onProgress?.({ stage: 'finalizing' });
    for (const gone of deleted) live.delete(gone);

    // Binary files are never in the index, so they look new to every sync: when they were all
    // there was, nothing changed and no segment is written.
    if (nonTextChanged || nonText.size !== nonTextBefore) store.writeNonText(nonText);
    if (builder.files.length === 0 && builder.tombstones.length === 0) {
      store.endJob();
      return { root, added: 0, changed: 0, deleted: 0, read: stale.length, mergeDue: mergeDue(manifest), durationMs: Date.now() - started };
    }
    // Count only text.
    const added = stale.filter((file) => !knownBefore.has(file.path) && live.has(file.path)).length;
    const changed = stale.filter((file) => knownBefore.has(file.path)).length;
    const name = newSegmentName();
    const next: Manifest = {
      ...manifest,
      updatedAt: new Date().toISOString(),
      segments: [...manifest.segments, name],
      files: live.size,
      bytes: [...live.values()].reduce((sum, file) => sum + file.size, 0),
    };
    // A walk of the whole tree knows what is skipped now (a file grown past the limit, say);
    // a sync of a few paths keeps the last walk's account.
    if (walked) {
      const binary = [...nonText.keys()];
      next.skipped = { ...walked.skipped, binary: binary.length };
      const examples: Record<string, string[]> = { ...walked.examples };
      if (binary.length > 0) examples.binary = binary.slice(0, SKIPPED_EXAMPLES);
      if (Object.keys(examples).length > 0) next.skippedExamples = examples;
      else delete next.skippedExamples;
    }
    store.commit(next, [{ name, data: builder.encode() }]);
    store.endJob();
    return { root, added, changed, deleted: deleted.length, read: stale.length, mergeDue: mergeDue(next), durationMs: Date.now() - started };
  } catch (error) {
    store.stopJob({ ...journal, stopped: error instanceof Error ? error.message : String(error) });
    throw error;
  }
}
