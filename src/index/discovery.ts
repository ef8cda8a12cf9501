/**
 * Finds the files worth indexing: a walk of the workspace that honours `.gitignore` at every
 * level, `.git/info/exclude` and `.sextantignore` (with the `ignore` package, git's semantics:
 * deeper rules win, an ignored directory is never entered), and skips `.git`, oversized files
 * and symlinks that leave the workspace. Binary files are recognised later, when read.
 */
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/**
 * Files larger than this are not indexed (data dumps, archives posing as text). Large source
 * files are indexed in blocks, so this can be generous; SEXTANT_MAX_FILE_BYTES overrides it.
 */
export const DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024;
/** Skipped files named per reason (the counts cover all of them). */
export const SKIPPED_EXAMPLES = 5;

export class MaxFileBytesError extends Error {
  readonly code = 'SEXTANT_ERR_CONFIG';
  constructor(value: string) {
    super(`SEXTANT_MAX_FILE_BYTES must be a whole number of bytes, at least 1 (got ${JSON.stringify(value)})`);
    this.name = 'MaxFileBytesError';
  }
}

/** The size limit in force: SEXTANT_MAX_FILE_BYTES when set (validated), else the default. */
export function maxFileBytes(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.SEXTANT_MAX_FILE_BYTES;
  if (value === undefined || value === '') return DEFAULT_MAX_FILE_BYTES;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 1) throw new MaxFileBytesError(value);
  return number;
}

export interface DiscoveredFile {
  /** Relative to the workspace root, with `/` separators. */
  path: string;
  size: number;
  mtimeMs: number;
}

export interface DiscoveryResult {
  files: DiscoveredFile[];
  skipped: { ignored: number; tooLarge: number; outsideLinks: number; brokenLinks: number; unreadable: number };
  /** The first few files skipped for each reason that leaves text unsearched (too large, unreadable). */
  examples: Record<string, string[]>;
}

export interface DiscoveryOptions {
  maxFileBytes?: number;
  /** Walk only this workspace-relative directory (the rules of its ancestors still apply). */
  under?: string;
  signal?: AbortSignal;
  onProgress?(scanned: number): void;
}

interface Rules {
  /** Directory the rules are relative to, as a workspace-relative posix path ('' for the root). */
  base: string;
  matcher: Ignore;
}

function readRules(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Git's answer for one path: the deepest rule set that has an opinion wins. */
function isIgnored(path: string, isDirectory: boolean, levels: Rules[]): boolean {
  let ignored = false;
  for (const { base, matcher } of levels) {
    const local = base === '' ? path : path.slice(base.length + 1);
    const result = matcher.test(isDirectory ? `${local}/` : local);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

export function discover(root: string, options: DiscoveryOptions = {}): DiscoveryResult {
  const limit = options.maxFileBytes ?? maxFileBytes();
  const realRoot = realpathSync(root);
  const files: DiscoveredFile[] = [];
  const skipped = { ignored: 0, tooLarge: 0, outsideLinks: 0, brokenLinks: 0, unreadable: 0 };
  const examples: Record<string, string[]> = {};
  const note = (reason: 'tooLarge' | 'unreadable', path: string): void => {
    skipped[reason]++;
    const list = (examples[reason] ??= []);
    if (list.length < SKIPPED_EXAMPLES) list.push(path);
  };

  const rootRules = ignore();
  for (const extra of [join(realRoot, '.git', 'info', 'exclude'), join(realRoot, '.sextantignore')]) {
    const text = readRules(extra);
    if (text) rootRules.add(text);
  }
  let scanned = 0;

  const walk = (dir: string, rel: string, inherited: Rules[]): void => {
    options.signal?.throwIfAborted();
    const gitignore = readRules(join(dir, '.gitignore'));
    const levels = gitignore ? [...inherited, { base: rel, matcher: ignore().add(gitignore) }] : inherited;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      note('unreadable', rel === '' ? '.' : rel);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name === '.git') continue;
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      const absolute = join(dir, entry.name);
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        // Follow a link only to a file inside the workspace; linked directories would index twice.
        let target: string;
        try {
          target = realpathSync(absolute);
        } catch {
          skipped.brokenLinks++; // a link to nothing: no text is missing
          continue;
        }
        if (target !== realRoot && !target.startsWith(realRoot + sep)) {
          skipped.outsideLinks++;
          continue;
        }
        isDirectory = false;
        isFile = statSync(target).isFile();
      }
      if (!isDirectory && !isFile) continue;
      if (isIgnored(path, isDirectory, levels)) {
        skipped.ignored++;
        continue;
      }
      if (isDirectory) {
        walk(absolute, path, levels);
        continue;
      }
      scanned++;
      if (scanned % 1000 === 0) options.onProgress?.(scanned);
      let stats;
      try {
        stats = entry.isSymbolicLink() ? statSync(absolute) : lstatSync(absolute);
      } catch {
        note('unreadable', path);
        continue;
      }
      if (stats.size > limit) {
        note('tooLarge', path);
        continue;
      }
      files.push({ path, size: stats.size, mtimeMs: stats.mtimeMs });
    }
  };
  const top: Rules[] = [{ base: '', matcher: rootRules }];
  if (options.under === undefined || options.under === '') walk(realRoot, '', top);
  else if (!isIgnoredPath(realRoot, options.under)) walk(join(realRoot, options.under), options.under, ancestorRules(realRoot, options.under, top));
  options.onProgress?.(scanned);
  return { files, skipped, examples };
}

/** The rule sets in force inside `path`'s parent: `base` plus each ancestor's .gitignore (the root's included). */
function ancestorRules(root: string, path: string, base: Rules[]): Rules[] {
  const parts = path.split('/');
  let levels = base;
  for (let depth = 0; depth < parts.length; depth++) {
    const dir = parts.slice(0, depth).join('/');
    const gitignore = readRules(join(root, dir, '.gitignore'));
    if (gitignore) levels = [...levels, { base: dir, matcher: ignore().add(gitignore) }];
  }
  return levels;
}

/**
 * Whether discovery would leave out one workspace-relative path, judged without walking the tree:
 * `.git`, then every ancestor directory and the path itself against the rules in force there.
 */
export function isIgnoredPath(root: string, path: string): boolean {
  const parts = path.split('/');
  if (parts.includes('.git')) return true;
  const rootRules = ignore();
  for (const extra of [join(root, '.git', 'info', 'exclude'), join(root, '.sextantignore')]) {
    const text = readRules(extra);
    if (text) rootRules.add(text);
  }
  let levels: Rules[] = [{ base: '', matcher: rootRules }];
  for (let depth = 0; depth < parts.length; depth++) {
    const dir = parts.slice(0, depth).join('/');
    const gitignore = readRules(join(root, dir, '.gitignore'));
    if (gitignore) levels = [...levels, { base: dir, matcher: ignore().add(gitignore) }];
    const isLast = depth === parts.length - 1;
    if (isIgnored(parts.slice(0, depth + 1).join('/'), !isLast, levels)) return true;
  }
  return false;
}

