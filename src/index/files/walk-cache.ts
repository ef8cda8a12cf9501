/**
 * What the last whole walk of the tree saw in each directory, so that a sync does not read
 * every directory and test every name against the ignore rules again. The idea is git's
 * untracked cache: adding, removing or renaming an entry changes its directory's mtime, so a
 * directory whose mtime, ctime and .gitignore are as recorded still holds the same entries with
 * the same verdicts. Files are still lstat'ed one by one: an edit changes no directory.
 *
 * A hint only: a cache that is missing, unreadable or of another version means a full walk.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeAtomic } from '../../util/write-atomic.js';

/** Directories modified less than this long before the walk began are not recorded: on a
 * filesystem with coarse timestamps, a change within the same tick would leave the mtime as is. */
export const RACY_DIRECTORY_MS = 5_000;

const WALK_CACHE_VERSION = 1;

/** size and mtime of a rules file */
export type RulesStamp = [size: number, mtimeMs: number];

interface CachedDirectory {
  mtimeMs: number;
  ctimeMs: number;
  /** The directory's .gitignore as it was, when it has one. */
  gitignore?: RulesStamp;
  /** Entries that passed the rules, in walk order: `f` file, `d` directory, `l` symbolic link, then the name. */
  entries: string[];
  /** Entries the rules left out (counted as `ignored` in the skipped account). */
  ignored: number;
  /** The first of them (directories end with `/`), to name in the account. */
  ignoredExamples?: string[];
}

export interface WalkCache {
  /** `.git/info/exclude` and `.sextantignore` as they were (absent: null): any change invalidates everything. */
  rootRules: Array<RulesStamp | null>;
  directories: Map<string, CachedDirectory>;
}

function isStamp(value: unknown): value is RulesStamp {
  return Array.isArray(value) && value.length === 2 && typeof value[0] === 'number' && typeof value[1] === 'number';
}

function isDirectory(value: unknown): value is CachedDirectory {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.mtimeMs === 'number' &&
    typeof entry.ctimeMs === 'number' &&
    typeof entry.ignored === 'number' &&
    (entry.gitignore === undefined || isStamp(entry.gitignore)) &&
    (entry.ignoredExamples === undefined || (Array.isArray(entry.ignoredExamples) && entry.ignoredExamples.every((name) => typeof name === 'string'))) &&
    Array.isArray(entry.entries) &&
    entry.entries.every((name) => typeof name === 'string' && /^[fdl]./.test(name))
  );
}

/** The cache in `text`, or undefined when it is not one this version wrote. */
function parseWalkCache(text: string): WalkCache | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { version, rootRules, directories } = value as Record<string, unknown>;
  if (version !== WALK_CACHE_VERSION || !Array.isArray(rootRules) || !rootRules.every((stamp) => stamp === null || isStamp(stamp))) return undefined;
  if (typeof directories !== 'object' || directories === null) return undefined;
  const map = new Map<string, CachedDirectory>();
  for (const [path, entry] of Object.entries(directories)) {
    if (!isDirectory(entry)) return undefined;
    map.set(path, entry);
  }
  return { rootRules: rootRules as Array<RulesStamp | null>, directories: map };
}

function serializeWalkCache(cache: WalkCache): string {
  return JSON.stringify({ version: WALK_CACHE_VERSION, rootRules: cache.rootRules, directories: Object.fromEntries(cache.directories) });
}

export function sameStamp(a: RulesStamp | null | undefined, b: RulesStamp | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  return a[0] === b[0] && a[1] === b[1];
}

function cachePath(indexDir: string): string {
  return join(indexDir, 'walk-cache.json');
}

/** The cache kept in a project's index folder, undefined when there is none worth trusting. */
export function readWalkCache(indexDir: string): WalkCache | undefined {
  try {
    return parseWalkCache(readFileSync(cachePath(indexDir), 'utf8'));
  } catch {
    return undefined;
  }
}

export function writeWalkCache(indexDir: string, cache: WalkCache): void {
  writeAtomic(cachePath(indexDir), serializeWalkCache(cache));
}
