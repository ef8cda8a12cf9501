/**
 * The symbols manifest (`symbols-manifest.json`): which symbol segments make up the project's
 * symbols, oldest first, and the live counts. Like the text manifest, it is written last by
 * every commit (atomically) and checked field by field when read; segments it does not name
 * are debris.
 */
import { crypto } from '../../util/lazy-crypto.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IndexCorruptError, IndexIncompatibleError } from '../store/manifest.js';
import { fileStamp, type IndexStore } from '../store/store.js';
import { writeAtomic } from '../../util/write-atomic.js';
import type { Unparsed } from './parse-limits.js';

export const SYMBOLS_MANIFEST = 'symbols-manifest.json';

/**
 * Which generation of the symbols is on disk: the stamp of their manifest, which a symbol phase's
 * commit swaps last ('' before the first). Whoever holds the symbols opens them again when it changes.
 */
export function symbolsStamp(store: IndexStore): string {
  return fileStamp(join(store.dir, SYMBOLS_MANIFEST));
}
/** Bump with the segment layout: symbols of another format are rebuilt, never misread. */
export const SYMBOLS_FORMAT = 1;
export const SYMBOL_SEGMENT_NAME = /^symbols-[a-z0-9]+-[0-9a-f]+\.sxs$/;
/** What the JSON symbol store (before the binary segments) left in an index folder. */
export const LEGACY_SYMBOL_FILES = ['symbols.json', 'names.json', 'references.json', 'symbols-meta.json'];

export interface SymbolSegmentEntry {
  name: string;
  files: number;
  symbols: number;
  references: number;
}

export interface SymbolsManifest {
  format: number;
  segments: SymbolSegmentEntry[];
  /**
   * How many of the first segments are the base: a full build writes one per parser thread, in
   * parallel (their paths do not overlap); the rest are deltas. 1 when absent.
   */
  baseSegments?: number;
  /** Live counts over every segment (a path's newest entry wins; deletions count for nothing). */
  files: number;
  symbols: number;
  updatedAt: string;
  /** The text index (its manifest's updatedAt) these symbols were built from. */
  textUpdatedAt?: string;
  /** Files with no symbols because they were not parsed, by reason (parse-limits.ts): the first UNPARSED_KEPT paths. */
  unparsed?: Partial<Record<Unparsed, string[]>>;
}

export function newSymbolSegmentName(): string {
  return `symbols-${Date.now().toString(36)}-${crypto().randomBytes(4).toString('hex')}.sxs`;
}

/** The manifest, or undefined when the symbol phase has not committed yet. */
export function readSymbolsManifest(store: IndexStore): SymbolsManifest | undefined {
  let text: string;
  try {
    text = readFileSync(join(store.dir, SYMBOLS_MANIFEST), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const bad = (what: string): IndexCorruptError => new IndexCorruptError(`${SYMBOLS_MANIFEST}: ${what}`, store.root);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw bad('not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('not an object');
  const manifest = value as Record<string, unknown>;
  if (manifest.format !== SYMBOLS_FORMAT) throw new IndexIncompatibleError(manifest.format, `symbols format ${SYMBOLS_FORMAT}`);
  const count = (n: unknown): boolean => Number.isSafeInteger(n) && (n as number) >= 0;
  if (!count(manifest.files) || !count(manifest.symbols)) throw bad('counts are not counts');
  if (typeof manifest.updatedAt !== 'string') throw bad('"updatedAt" is not a string');
  if (manifest.textUpdatedAt !== undefined && typeof manifest.textUpdatedAt !== 'string') throw bad('"textUpdatedAt" is not a string');
  const segments = manifest.segments;
  const valid = (entry: unknown): boolean => {
    const e = entry as Record<string, unknown> | null;
    return (
      typeof e === 'object' &&
      e !== null &&
      typeof e.name === 'string' &&
      SYMBOL_SEGMENT_NAME.test(e.name) &&
      count(e.files) &&
      count(e.symbols) &&
      count(e.references)
    );
  };
  if (!Array.isArray(segments) || !segments.every(valid)) throw bad('"segments" is not a list of symbol segments');
  if (new Set(segments.map((entry: SymbolSegmentEntry) => entry.name)).size !== segments.length) throw bad('"segments" names a segment twice');
  const unparsed = manifest.unparsed;
  const paths = (list: unknown): boolean => Array.isArray(list) && list.every((path) => typeof path === 'string');
  if (unparsed !== undefined && (typeof unparsed !== 'object' || unparsed === null || !Object.values(unparsed).every(paths)))
    throw bad('"unparsed" is not lists of paths');
  const bases = manifest.baseSegments;
  if (bases !== undefined && !(Number.isSafeInteger(bases) && (bases as number) >= 1 && (bases as number) <= Math.max(1, segments.length)))
    throw bad('"baseSegments" is not a count of its segments');
  return manifest as unknown as SymbolsManifest;
}

/** How many of the manifest's first segments are its base. */
export function baseSegmentsOf(manifest: SymbolsManifest): number {
  return Math.min(manifest.baseSegments ?? 1, manifest.segments.length);
}

export function writeSymbolsManifest(store: IndexStore, manifest: SymbolsManifest): void {
  writeAtomic(join(store.dir, SYMBOLS_MANIFEST), JSON.stringify(manifest));
}
