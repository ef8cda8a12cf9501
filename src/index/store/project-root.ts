/**
 * Which directory a command works on: the path given, resolved, and the indexed project holding
 * it. Apart from the indexer so that the commands that only read an index (the CLI's search and
 * symbols) load none of the indexing code.
 */
import { realpathSync, statSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { ProjectFolders, type IndexStore } from './store.js';

class MissingPathError extends Error {
  readonly code = 'SEXTANT_ERR_NO_SUCH_PATH';
  constructor(path: string, isFile = false) {
    super(isFile ? `${path} is a file, not a directory: give the project's folder` : `No such directory: ${path}`);
    this.name = 'MissingPathError';
  }
}

export function resolveRoot(path: string): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new MissingPathError(path);
  }
  if (!statSync(real).isDirectory()) throw new MissingPathError(path, true);
  return real;
}

/**
 * The indexed project a directory belongs to, as git finds its repository: the directory itself
 * if it is indexed, else its nearest indexed ancestor. `sub` is where `path` sits inside it
 * (posix separators; '' for the project root), `store` its index. Undefined when no ancestor is
 * indexed.
 */
export function findIndexedProject(path: string, home?: string): { root: string; sub: string; store: IndexStore } | undefined {
  const start = resolveRoot(path);
  const folders = new ProjectFolders(home);
  for (let dir = start; ; dir = dirname(dir)) {
    const store = folders.indexed(dir);
    if (store) return { root: dir, sub: relative(dir, start).split(sep).join('/'), store };
    if (dirname(dir) === dir) return undefined;
  }
}
