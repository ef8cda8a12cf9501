/**
 * A recursive watch of a tree, built on Linux from one plain (inotify) watch per directory.
 * Node 20's own recursive watch on Linux walks the tree in JavaScript and keeps a record of
 * every file in the heap, blocking the thread while it walks a large tree. Directories are what
 * inotify needs watching; files are reported through them.
 * Elsewhere the platform's native recursive watch is used as it is.
 */
import { lstatSync, watch, readdirSync, type FSWatcher } from 'node:fs';
import { join, sep } from 'node:path';

export interface TreeWatcherOptions {
  onError?: (error: unknown) => void;
}

export interface TreeWatch {
  close(): void;
}

/** Git's own files change on every commit and checkout; what they hold is never indexed. */
function inGit(path: string): boolean {
  return path === '.git' || path.startsWith('.git/');
}

/** Calls `onChange` (never for `.git`) with the workspace-relative path (posix separators) of whatever changed under `root`. */
export function watchTree(root: string, onChange: (path: string) => void, options: TreeWatcherOptions = {}): TreeWatch {
  if (process.platform !== 'linux') {
    const native = watch(root, { recursive: true }, (_event, filename) => {
      const path = filename?.toString().split(sep).join('/');
      if (path && !inGit(path)) onChange(path);
    });
    native.on('error', (error) => options.onError?.(error));
    return native;
  }
  return new DirectoryWatches(root, onChange, options);
}

/** Directories watched at once when the watch starts or a directory arrives; the rest in chunks. */
const SYNC_DIRECTORIES = 256;
const CHUNK_DIRECTORIES = 64;

class DirectoryWatches implements TreeWatch {
  readonly #root: string;
  readonly #onChange: (path: string) => void;
  readonly #options: TreeWatcherOptions;
  /** Workspace-relative directory ('' for the root) → its watch. */
  readonly #watches = new Map<string, { watcher: FSWatcher }>();
  /** Directories still to watch (and whether to report what they hold). */
  readonly #queue: Array<{ dir: string; report: boolean }> = [];
  #draining = false;
  #closed = false;

  constructor(root: string, onChange: (path: string) => void, options: TreeWatcherOptions) {
    this.#root = root;
    this.#onChange = onChange;
    this.#options = options;
    this.#add('');
  }

  /**
   * Watches `dir` and every directory under it not yet watched. With `report`, whatever is
   * found inside is reported too: it may have been written before its directory was watched.
   */
  #add(dir: string, report = false): void {
    this.#queue.push({ dir, report });
    this.#drain(SYNC_DIRECTORIES);
  }

  /**
   * Watches up to `budget` queued directories now, the rest on later turns of the event loop:
   * a small tree is fully watched before start returns (nothing written right after is
   * missed), a large one does not hold a server's first request for the whole walk.
   */
  #drain(budget: number): void {
    for (let item = this.#queue.pop(); item !== undefined; item = this.#queue.pop()) {
      if (this.#closed) return;
      if (budget-- <= 0) {
        this.#queue.push(item);
        if (!this.#draining) {
          this.#draining = true;
          setImmediate(() => {
            this.#draining = false;
            this.#drain(CHUNK_DIRECTORIES);
          });
        }
        return;
      }
      const { dir: next, report } = item;
      if (this.#watches.has(next)) continue;
      const absolute = next === '' ? this.#root : join(this.#root, next);
      let watcher: FSWatcher;
      try {
        watcher = watch(absolute, (event, filename) => this.#directoryOnChange(next, event, filename?.toString()));
      } catch (error) {
        // Gone meanwhile, or out of inotify watches (ENOSPC): say so, keep the rest.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.#options.onError?.(error);
        continue;
      }
      watcher.on('error', () => this.#remove(next)); // the directory went away under its watch
      this.#watches.set(next, { watcher });
      let entries;
      try {
        entries = readdirSync(absolute, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        if (entry.name === '.git') continue;
        const child = next === '' ? entry.name : `${next}/${entry.name}`;
        if (report) this.#onChange(child);
        if (entry.isDirectory()) this.#queue.push({ dir: child, report });
      }
    }
  }

  #remove(dir: string): void {
    for (const [watched, { watcher }] of this.#watches) {
      if (watched === dir || watched.startsWith(`${dir}/`)) {
        watcher.close();
        this.#watches.delete(watched);
      }
    }
  }

  #directoryOnChange(dir: string, event: string, filename: string | undefined): void {
    if (this.#closed || !filename) return;
    const path = dir === '' ? filename : `${dir}/${filename}`;
    if (inGit(path)) return;
    if (event === 'rename') {
      // Created, moved in, removed or moved away: a directory that arrived is watched, one that left is not.
      // A directory there now was made or moved in (perhaps under the name of one just removed,
      // even with its inode reused): its subtree is watched afresh. Gone, it is not watched.
      // Not followed through a link: the walk never enters a linked directory, so neither does
      // the watch (a link to /usr would add a watch per directory there).
      let isDirectory = false;
      try {
        isDirectory = lstatSync(join(this.#root, path)).isDirectory();
      } catch {
        // gone
      }
      this.#remove(path);
      if (isDirectory) this.#add(path, true);
    }
    this.#onChange(path);
  }

  close(): void {
    this.#closed = true;
    for (const { watcher } of this.#watches.values()) watcher.close();
    this.#watches.clear();
  }
}
