/**
 * Finds the files worth indexing: a walk of the workspace that honours `.gitignore` at every
 * level, `.git/info/exclude` and `.sextantignore` (with the `ignore` package, git's semantics:
 * deeper rules win, an ignored directory is never entered), and skips `.git`, oversized files
 * and symlinks that leave the workspace. Binary files are recognised later, when read.
 * A whole walk can start from the last one's walk cache (walk-cache.ts): directories unchanged
 * since are not read or matched again, only their files' sizes and mtimes are looked at.
 */
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { readRulesFile } from './project-file.js';
import { RACY_DIRECTORY_MS, sameStamp, type RulesStamp, type WalkCache } from './walk-cache.js';

import { maxFileBytes } from './file-limit.js';
/** Skipped files named per reason (the counts cover all of them). */
export const SKIPPED_EXAMPLES = 5;

export interface DiscoveredFile {
  /** Relative to the workspace root, with `/` separators. */
  path: string;
  size: number;
  mtimeMs: number;
}

export interface DiscoveryResult {
  files: DiscoveredFile[];
  skipped: { ignored: number; tooLarge: number; outsideLinks: number; brokenLinks: number; unreadable: number };
  /** The first few paths skipped for each reason (links and ignored paths too). */
  examples: Record<string, string[]>;
  /** What this walk saw, for the next one (whole walks only). */
  walkCache?: WalkCache;
  /** The walk cache differs from the one given (or none was): worth saving. */
  walkCacheChanged?: boolean;
  /** Directories listed (readdir) by this walk; the rest came from the walk cache. */
  directoriesRead: number;
}

export interface DiscoveryOptions {
  maxFileBytes?: number;
  /** Walk only this workspace-relative directory (the rules of its ancestors still apply). */
  under?: string;
  /** What the last whole walk saw: directories unchanged since are not read again (whole walks only). */
  walkCache?: WalkCache;
  signal?: AbortSignal;
  onProgress?(scanned: number): void;
}

/** The rules of one directory, compiled when first needed (a cached directory may never need them). */
interface Rules {
  /** Directory the rules are relative to, as a workspace-relative posix path ('' for the root). */
  base: string;
  matcher(): Ignore;
}

function rulesOf(base: string, load: () => string | undefined): Rules {
  let compiled: Ignore | undefined;
  return { base, matcher: () => (compiled ??= ignore().add(load() ?? '')) };
}

/** An ignore file's rules (ProjectFiles' rules: a FIFO named .gitignore does not block the walk). */
function readRules(file: string): string | undefined {
  return readRulesFile(file);
}

/** A rules file's size and mtime, null when there is none. */
function stampOf(file: string): RulesStamp | null {
  try {
    const stats = statSync(file, { throwIfNoEntry: false });
    return stats ? [stats.size, stats.mtimeMs] : null;
  } catch {
    return null;
  }
}

/** Git's answer for one path: the deepest rule set that has an opinion wins. */
function isIgnored(path: string, isDirectory: boolean, levels: Rules[]): boolean {
  let ignored = false;
  for (const { base, matcher } of levels) {
    const local = base === '' ? path : path.slice(base.length + 1);
    const result = matcher().test(isDirectory ? `${local}/` : local);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

/** The files that apply to the whole tree besides the .gitignore files. */
function rootRuleFiles(root: string): string[] {
  return [join(root, '.git', 'info', 'exclude'), join(root, '.sextantignore')];
}

function rootRulesOf(root: string): Rules {
  return rulesOf('', () =>
    rootRuleFiles(root)
      .map((file) => readRules(file) ?? '')
      .join('\n'),
  );
}

export function discover(root: string, options: DiscoveryOptions = {}): DiscoveryResult {
  const limit = options.maxFileBytes ?? maxFileBytes();
  const realRoot = realpathSync(root);
  const files: DiscoveredFile[] = [];
  const skipped = { ignored: 0, tooLarge: 0, outsideLinks: 0, brokenLinks: 0, unreadable: 0 };
  const examples: Record<string, string[]> = {};
  const example = (reason: keyof typeof skipped, path: string): void => {
    const list = (examples[reason] ??= []);
    if (list.length < SKIPPED_EXAMPLES) list.push(path);
  };
  const note = (reason: keyof typeof skipped, path: string): void => {
    skipped[reason]++;
    example(reason, path);
  };
  const whole = options.under === undefined || options.under === '';
  const walkStarted = Date.now();
  const rootRules = rootRuleFiles(realRoot).map(stampOf);
  const previous =
    whole &&
    options.walkCache &&
    options.walkCache.rootRules.length === rootRules.length &&
    options.walkCache.rootRules.every((stamp, i) => sameStamp(stamp, rootRules[i]))
      ? options.walkCache
      : undefined;
  const next: WalkCache = { rootRules, directories: new Map() };
  let reused = 0;
  let reread = 0;
  let scanned = 0;

  const addFile = (path: string, absolute: string, follow: boolean): void => {
    scanned++;
    if (scanned % 1000 === 0) options.onProgress?.(scanned);
    let stats;
    try {
      stats = follow ? statSync(absolute) : lstatSync(absolute);
    } catch {
      note('unreadable', path);
      return;
    }
    if (stats.size > limit) {
      note('tooLarge', path);
      return;
    }
    files.push({ path, size: stats.size, mtimeMs: stats.mtimeMs });
  };

  // Followed only to a file inside the workspace (linked directories would index twice); its
  // target can change without its directory changing, so a link is judged afresh every walk.
  const addLink = (path: string, absolute: string, levels: Rules[]): void => {
    let target: string;
    try {
      target = realpathSync(absolute);
    } catch {
      note('brokenLinks', path); // a link to nothing: no text is missing
      return;
    }
    if (target !== realRoot && !target.startsWith(realRoot + sep)) {
      note('outsideLinks', path);
      return;
    }
    let isFile: boolean;
    try {
      isFile = statSync(target).isFile();
    } catch {
      note('unreadable', path);
      return;
    }
    if (!isFile) return;
    if (isIgnored(path, false, levels)) {
      note('ignored', path);
      return;
    }
    addFile(path, absolute, true);
  };

  const visit = (entry: string, dir: string, rel: string, levels: Rules[], trustCache: boolean): void => {
    const name = entry.slice(1);
    const path = rel === '' ? name : `${rel}/${name}`;
    // `dir` is already absolute and normal: joining by hand spares a normalisation per file.
    const absolute = dir.endsWith(sep) ? dir + name : `${dir}${sep}${name}`;
    if (entry[0] === 'd') walk(absolute, path, levels, trustCache);
    else if (entry[0] === 'f') addFile(path, absolute, false);
    else addLink(path, absolute, levels);
  };

  const walk = (dir: string, rel: string, inherited: Rules[], trustCache: boolean): void => {
    options.signal?.throwIfAborted();
    let stats;
    try {
      stats = lstatSync(dir, { throwIfNoEntry: false });
    } catch {
      stats = undefined;
    }
    // A directory that became a link since it was listed (or an `under` given as one): not entered.
    if (stats?.isSymbolicLink()) return;
    const cached = trustCache ? previous?.directories.get(rel) : undefined;
    if (cached && stats && stats.mtimeMs === cached.mtimeMs && stats.ctimeMs === cached.ctimeMs) {
      const gitignore = join(dir, '.gitignore');
      if (!cached.gitignore || sameStamp(stampOf(gitignore), cached.gitignore)) {
        const levels = cached.gitignore ? [...inherited, rulesOf(rel, () => readRules(gitignore))] : inherited;
        reused++;
        next.directories.set(rel, cached);
        skipped.ignored += cached.ignored;
        for (const name of cached.ignoredExamples ?? []) example('ignored', rel === '' ? name : `${rel}/${name}`);
        for (const entry of cached.entries) visit(entry, dir, rel, levels, true);
        return;
      }
      trustCache = false; // new rules here: every verdict below is judged again
    }
    reread++;
    let dirents;
    try {
      dirents = readdirSync(dir, { withFileTypes: true });
    } catch {
      note('unreadable', rel === '' ? '.' : rel);
      return;
    }
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    let levels = inherited;
    let gitignore: RulesStamp | undefined;
    if (dirents.some((dirent) => dirent.name === '.gitignore')) {
      const file = join(dir, '.gitignore');
      const text = readRules(file);
      const stamp = stampOf(file);
      if (text !== undefined && stamp) {
        levels = [...inherited, rulesOf(rel, () => text)];
        gitignore = stamp;
      }
    }
    const entries: string[] = [];
    let ignored = 0;
    const ignoredExamples: string[] = [];
    for (const dirent of dirents) {
      if (dirent.name === '.git') continue;
      const path = rel === '' ? dirent.name : `${rel}/${dirent.name}`;
      if (dirent.isSymbolicLink()) entries.push(`l${dirent.name}`);
      else if (dirent.isDirectory() || dirent.isFile()) {
        if (isIgnored(path, dirent.isDirectory(), levels)) {
          ignored++;
          const shown = dirent.isDirectory() ? `${dirent.name}/` : dirent.name;
          if (ignoredExamples.length < SKIPPED_EXAMPLES) ignoredExamples.push(shown);
          example('ignored', rel === '' ? shown : `${rel}/${shown}`);
        } else entries.push(`${dirent.isDirectory() ? 'd' : 'f'}${dirent.name}`);
      }
    }
    skipped.ignored += ignored;
    // A directory changed just now could change again within its timestamp's tick, unseen. An
    // older mtime is safe whatever the ctime: any change to the entries sets a new mtime.
    if (whole && stats && stats.mtimeMs < walkStarted - RACY_DIRECTORY_MS) {
      next.directories.set(rel, {
        mtimeMs: stats.mtimeMs,
        ctimeMs: stats.ctimeMs,
        ...(gitignore ? { gitignore } : {}),
        entries,
        ignored,
        ...(ignoredExamples.length > 0 ? { ignoredExamples } : {}),
      });
    }
    for (const entry of entries) visit(entry, dir, rel, levels, trustCache);
  };
  const top: Rules[] = [rootRulesOf(realRoot)];
  if (whole) walk(realRoot, '', top, previous !== undefined);
  else if (!isIgnoredPath(realRoot, options.under!)) walk(join(realRoot, options.under!), options.under!, ancestorRules(realRoot, options.under!, top), false);
  options.onProgress?.(scanned);
  const result: DiscoveryResult = { files, skipped, examples, directoriesRead: reread };
  if (whole) {
    result.walkCache = next;
    result.walkCacheChanged = !previous || reread > 0 || reused !== previous.directories.size;
  }
  return result;
}

/** The rule sets in force inside `path`'s parent: `base` plus each ancestor's .gitignore (the root's included). */
function ancestorRules(root: string, path: string, base: Rules[]): Rules[] {
  const parts = path.split('/');
  let levels = base;
  for (let depth = 0; depth < parts.length; depth++) {
    const dir = parts.slice(0, depth).join('/');
    const gitignore = readRules(join(root, dir, '.gitignore'));
    if (gitignore) levels = [...levels, rulesOf(dir, () => gitignore)];
  }
  return levels;
}

/** What the walk would make of one path met alone (a watcher's event): see `lookAtPath`. */
export type PathVerdict = { kind: 'file'; file: DiscoveredFile } | { kind: 'directory' } | { kind: 'gone' } | { kind: 'left_out' };

/**
 * The walk's rule for one workspace-relative path, judged without walking to it: under a linked
 * directory nothing is (the walk never enters one); a link counts only as a file inside the
 * workspace, within the size limit; a directory is a directory; FIFOs, devices and sockets are
 * left out. Ignore rules are not looked at here (isIgnoredPath does that). `realRoot`: the
 * workspace's real path (the caller resolves it once for all its paths).
 */
export function lookAtPath(realRoot: string, path: string, limit: number): PathVerdict {
  const absolute = join(realRoot, path);
  const slash = path.lastIndexOf('/');
  if (slash > 0) {
    const parent = join(realRoot, path.slice(0, slash));
    try {
      if (realpathSync.native(parent) !== parent) return { kind: 'left_out' };
    } catch {
      return { kind: 'gone' };
    }
  }
  let stats;
  try {
    stats = lstatSync(absolute);
    if (stats.isSymbolicLink()) {
      const target = realpathSync.native(absolute);
      if (target !== realRoot && !target.startsWith(realRoot + sep)) return { kind: 'left_out' };
      stats = statSync(target);
      if (!stats.isFile()) return { kind: 'left_out' };
    }
  } catch {
    return { kind: 'gone' };
  }
  if (stats.isDirectory()) return { kind: 'directory' };
  if (!stats.isFile() || stats.size > limit) return { kind: 'left_out' };
  return { kind: 'file', file: { path, size: stats.size, mtimeMs: stats.mtimeMs } };
}

/**
 * Whether discovery would leave out one workspace-relative path, judged without walking the tree:
 * `.git`, then every ancestor directory and the path itself against the rules in force there.
 */
export function isIgnoredPath(root: string, path: string): boolean {
  const parts = path.split('/');
  if (parts.includes('.git')) return true;
  let levels: Rules[] = [rootRulesOf(root)];
  for (let depth = 0; depth < parts.length; depth++) {
    const dir = parts.slice(0, depth).join('/');
    const gitignore = readRules(join(root, dir, '.gitignore'));
    if (gitignore) levels = [...levels, rulesOf(dir, () => gitignore)];
    const isLast = depth === parts.length - 1;
    if (isIgnored(parts.slice(0, depth + 1).join('/'), !isLast, levels)) return true;
  }
  return false;
}
