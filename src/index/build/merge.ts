/**
 * Folds a project's sync deltas into one segment, from the segments alone: no file is read
 * again. Files shadowed or deleted by a newer delta are dropped, their postings with them; the
 * tombstones that still hide files of the base segments are kept. The base segments are left
 * as they are, so a merge costs in proportion to what changed since the last full build.
 */
import { documentsOf, Segment, SegmentBuilder } from '../text/segment.js';
import { IndexStore } from '../store/store.js';
import { type Manifest, newSegmentName } from '../store/manifest.js';

/** Delta segments a project may gather before a merge is due. */
export const MAX_DELTA_SEGMENTS = 8;

export interface MergeSummary {
  /** Delta segments folded into one (0: nothing to merge). */
  merged: number;
  files: number;
  durationMs: number;
}

function deltaCount(manifest: Manifest): number {
  return manifest.segments.length - (manifest.baseSegments ?? 1);
}

export function mergeDue(manifest: Manifest): boolean {
  return deltaCount(manifest) >= MAX_DELTA_SEGMENTS;
}

class ConcurrentUpdateError extends Error {
  readonly code = 'SEXTANT_ERR_CONCURRENT_UPDATE';
  constructor() {
    super('The index changed while its segments were being merged; the merge was dropped and will run again');
    this.name = 'ConcurrentUpdateError';
  }
}

export function mergeDeltas(root: string, options: { home?: string } = {}): MergeSummary {
  const store = new IndexStore(root, options.home);
  // A writer like any job: never beside a sync or a build (IndexBusyError when one runs).
  store.lock();
  try {
    return merge(store);
  } finally {
    store.unlock();
  }
}

function merge(store: IndexStore): MergeSummary {
  const started = Date.now();
  const manifest = store.readManifest();
  const base = manifest?.baseSegments ?? 1;
  if (!manifest || deltaCount(manifest) < 2) return { merged: 0, files: 0, durationMs: Date.now() - started };
  const names = manifest.segments.slice(base);
  const deltas = names.map((name) => new Segment(store.readSegment(name)));

  // Newest first: a path seen in a newer delta, as a file or a tombstone, is dead in older ones.
  const seen = new Set<string>();
  const keep = deltas.map((delta) => delta.files.map(() => -1));
  const livePaths = new Set<string>();
  for (let d = deltas.length - 1; d >= 0; d--) {
    const delta = deltas[d]!;
    delta.files.forEach((file, id) => {
      if (!seen.has(file.path)) {
        keep[d]![id] = 0;
        livePaths.add(file.path);
      }
    });
    for (const file of delta.files) seen.add(file.path);
    for (const path of delta.tombstones) seen.add(path);
  }
  const builder = new SegmentBuilder();
  builder.tombstones = [...new Set(deltas.flatMap((delta) => delta.tombstones))].filter((path) => !livePaths.has(path));
  // New document ids in (delta, old id) order, so each merged posting list stays ascending.
  let documents = 0;
  const documentMaps = deltas.map((delta, d) => {
    const map = new Int32Array(delta.documentCount).fill(-1);
    delta.files.forEach((file, id) => {
      if (keep[d]![id] === -1) return;
      builder.add(file, undefined);
      const first = delta.firstDocument[id]!;
      for (let block = 0; block < documentsOf(file); block++) map[first + block] = documents++;
    });
    return map;
  });
  for (const [d, delta] of deltas.entries()) {
    const map = documentMaps[d]!;
    for (const [trigram, posting] of delta.allPostings()) {
      const mapped = new Int32Array(posting.length);
      let count = 0;
      for (const document of posting) if (map[document]! >= 0) mapped[count++] = map[document]!;
      if (count > 0) builder.addPosting(trigram, mapped.subarray(0, count));
    }
  }
  const name = newSegmentName('m');
  const next: Manifest = { ...manifest, segments: [...manifest.segments.slice(0, base), name] };
  // A sync that committed meanwhile would be lost by this manifest: leave the merge for later.
  if (store.readManifest()?.segments.join() !== manifest.segments.join()) throw new ConcurrentUpdateError();
  store.commit(next, [{ name, data: builder.encode() }]);
  return { merged: names.length, files: builder.files.length, durationMs: Date.now() - started };
}
