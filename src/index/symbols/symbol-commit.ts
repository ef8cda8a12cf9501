/**
 * Commits what a symbol phase parsed: as a delta segment beside the existing ones (a sync or a
 * watcher refresh writes only the changed files), or folded into fewer segments when deltas
 * pile up. The segment is written first, the manifest swapped last, and only then are the
 * segments it no longer names removed, so a crash at any moment leaves the previous symbols.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexStore } from '../store/store.js';
import { writeAtomic } from '../../util/write-atomic.js';
import { encodeSymbolSegment, FILE_FIELDS, PackedBuilder, type PackedFiles, type SegmentStrings } from './segment/index.js';
import type { SymbolIndex } from './symbol-index.js';
import {
  baseSegmentsOf,
  LEGACY_SYMBOL_FILES,
  newSymbolSegmentName,
  readSymbolsManifest,
  SYMBOL_SEGMENT_NAME,
  SYMBOLS_FORMAT,
  writeSymbolsManifest,
  type SymbolSegmentEntry,
  type SymbolsManifest,
} from './symbol-manifest.js';

/** Segments before the deltas are folded into one. */
const MAX_SYMBOL_SEGMENTS = 6;
/** Files in deltas, as a share of the base's, beyond which everything is folded into one segment. */
const FOLD_ALL_SHARE = 0.25;

export interface SymbolChanges {
  /** Newly parsed files (packed batches from the parser threads). */
  parsed: PackedFiles[];
  /** Paths that no longer have symbols. */
  deleted: string[];
  /** `parsed`'s strings, numbered while the parser threads worked (the rest are numbered when written). */
  strings?: SegmentStrings;
}

/** How the symbols were written: one new segment for everything, a delta, or deltas folded. */
export type Written = 'full' | 'delta' | 'folded-deltas';

/** Removes symbol segments the manifest does not name, and the JSON store's files; the lock holder only. */
export function collectSymbolDebris(store: IndexStore): string[] {
  let named: Set<string>;
  try {
    named = new Set((readSymbolsManifest(store)?.segments ?? []).map((entry) => entry.name));
  } catch {
    return []; // unreadable: leave everything for a rebuild to replace
  }
  let names: string[];
  try {
    names = readdirSync(store.dir);
  } catch {
    return [];
  }
  const removed = names.filter((name) => (SYMBOL_SEGMENT_NAME.test(name) && !named.has(name)) || LEGACY_SYMBOL_FILES.includes(name));
  for (const name of removed) rmSync(join(store.dir, name), { force: true });
  return removed;
}

/** Encodes `parts` as one new symbol segment in the index folder (named by no manifest yet). */
export function writeSymbolSegment(dir: string, parts: PackedFiles[], strings?: SegmentStrings): SymbolSegmentEntry {
  const { bytes, counts } = encodeSymbolSegment(parts, strings);
  const name = newSymbolSegmentName();
  writeAtomic(join(dir, name), bytes);
  return { name, ...counts };
}

/** Every live file of `current`, packed (a full fold). */
function packAll(current: SymbolIndex, except: Set<string>): PackedFiles[] {
  const bySegment = new Map<number, number[]>();
  for (const entry of current.entries()) {
    if (except.has(entry.path)) continue;
    const files = bySegment.get(entry.segment) ?? [];
    files.push(entry.file);
    bySegment.set(entry.segment, files);
  }
  return [...bySegment].map(([segment, files]) => current.segments[segment]!.pack(files));
}

/** The newest entry of each path among the deltas (deletions included: they still hide the base's). */
function packDeltas(current: SymbolIndex, except: Set<string>): PackedFiles[] {
  const taken = new Set(except);
  const parts: PackedFiles[] = [];
  for (let segment = current.segments.length - 1; segment >= baseSegmentsOf(current.manifest); segment--) {
    const owner = current.segments[segment]!;
    const files: number[] = [];
    for (let file = 0; file < owner.fileCount; file++) {
      const path = owner.path(file);
      if (taken.has(path)) continue;
      taken.add(path);
      files.push(file);
    }
    parts.push(owner.pack(files));
  }
  return parts;
}

/**
 * Makes `bases` (written by the parser threads of a full build, one each, their paths apart) the
 * project's symbols: the first symbols, or a forced rebuild's. `live` as for commitSymbols.
 */
/** The live counts a commit records, and the files left unparsed. */
type Live = Pick<SymbolsManifest, 'files' | 'symbols' | 'unparsed'>;

export function commitBaseSegments(store: IndexStore, bases: SymbolSegmentEntry[], live: Live, textUpdatedAt?: string): Written {
  commitManifest(store, bases, bases.length, live, textUpdatedAt);
  return 'full';
}

/**
 * Names `segments` (the first `baseSegments` of them the base) as the project's symbols, then
 * removes the segments no longer named; a reader that holds one open keeps reading it until it
 * closes.
 */
function commitManifest(store: IndexStore, segments: SymbolSegmentEntry[], baseSegments: number, live: Live, textUpdatedAt?: string): void {
  writeSymbolsManifest(store, {
    format: SYMBOLS_FORMAT,
    segments,
    ...(baseSegments > 1 ? { baseSegments } : {}),
    files: live.files,
    symbols: live.symbols,
    updatedAt: new Date().toISOString(),
    ...(textUpdatedAt ? { textUpdatedAt } : {}),
    ...(live.unparsed ? { unparsed: live.unparsed } : {}),
  });
  collectSymbolDebris(store);
}

/**
 * Writes `changes` over `current` (undefined: the first symbols, or a forced rebuild, where
 * `changes.parsed` is everything). `live` is the live count of files and symbols afterwards.
 */
export function commitSymbols(store: IndexStore, current: SymbolIndex | undefined, changes: SymbolChanges, live: Live, textUpdatedAt?: string): Written {
  const changed = new Set<string>();
  for (const part of changes.parsed) for (let field = 0; field < part.files.length; field += FILE_FIELDS) changed.add(part.strings[part.files[field]!]!);
  for (const path of changes.deleted) changed.add(path);
  const deletions = new PackedBuilder();
  for (const path of changes.deleted) deletions.addDeleted(path);
  const delta = [...changes.parsed, ...(deletions.fileCount > 0 ? [deletions.build()] : [])];

  let segments: SymbolSegmentEntry[];
  let written: Written;
  const bases = current ? current.manifest.segments.slice(0, baseSegmentsOf(current.manifest)) : [];
  const baseFiles = bases.reduce((sum, entry) => sum + entry.files, 0);
  const deltaFiles = (current?.manifest.segments.slice(bases.length) ?? []).reduce((sum, entry) => sum + entry.files, 0) + changed.size;
  if (!current || bases.length === 0 || deltaFiles > FOLD_ALL_SHARE * Math.max(baseFiles, 1)) {
    // Everything live (minus what changed) plus the new files, in one segment; deletions simply drop out.
    const parts = [...(current ? packAll(current, changed) : []), ...changes.parsed];
    segments = [writeSymbolSegment(store.dir, parts, changes.strings)];
    written = 'full';
  } else if (current.manifest.segments.length + 1 > MAX_SYMBOL_SEGMENTS) {
    segments = [...bases, writeSymbolSegment(store.dir, [...packDeltas(current, changed), ...delta], changes.strings)];
    written = 'folded-deltas';
  } else {
    segments = [...current.manifest.segments, writeSymbolSegment(store.dir, delta, changes.strings)];
    written = 'delta';
  }
  // A full write is one base; otherwise the bases stay. The previous segments go now (a forced
  // rebuild's too, which had no `current`).
  commitManifest(store, segments, written === 'full' ? 1 : bases.length, live, textUpdatedAt);
  return written;
}
