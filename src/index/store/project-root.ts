/**
 * Which directory a command works on: the path given, resolved, and the indexed project holding
 * it (found without hashing paths). Apart from the indexer so that the commands that only read
 * an index (the CLI's search and symbols) load none of the indexing code.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { folderStem, PROJECT_FOLDER, sextantHome } from './home.js';
import { IndexStore } from './store.js';

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

/**
 * The project folders of a home, read once, to find which directories are indexed without
 * hashing their paths: a folder named after a directory's last component whose manifest names
 * that directory is its index. Hashing would load node:crypto, which a CLI search otherwise
 * never needs.
 */
class ProjectFolders {
  readonly #home: string;
  readonly #byStem = new Map<string, string[]>();

  constructor(home = sextantHome()) {
    this.#home = home;
    let names: string[] = [];
    try {
      names = readdirSync(join(home, 'projects'));
    } catch {
      // No projects folder: nothing is indexed.
    }
    for (const name of names) {
      const stem = PROJECT_FOLDER.exec(name)?.[1];
      if (stem === undefined) continue;
      const named = this.#byStem.get(stem);
      if (named) named.push(name);
      else this.#byStem.set(stem, [name]);
    }
  }

  /**
   * The store of `realRoot`'s index when it has a manifest. A manifest whose root cannot be
   * read (damaged, say) is settled by the hash, so that reading it reports the damage.
   */
  indexed(realRoot: string): IndexStore | undefined {
    for (const name of this.#byStem.get(folderStem(realRoot)) ?? []) {
      const dir = join(this.#home, 'projects', name);
      let root: unknown;
      try {
        root = (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { root?: unknown } | null)?.root;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        const store = new IndexStore(realRoot, this.#home);
        if (store.dir === dir) return store;
        continue;
      }
      if (root === realRoot) return new IndexStore(realRoot, this.#home, dir);
    }
    return undefined;
  }
}
