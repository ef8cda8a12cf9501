/**
 * `sextant list` and `sextant remove`: the indexes under SEXTANT_HOME, where the disk went, and
 * taking it back. Only index folders are touched, never a project.
 */
import { existsSync, lstatSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { indexFolders, IndexStore, sextantHome } from '../index/store/index.js';
import type { Output } from './output.js';

/** Bytes of every file under `dir` (an index folder holds no links worth following). */
function folderBytes(dir: string): number {
  let total = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    try {
      const stats = lstatSync(join(dir, name));
      total += stats.isDirectory() ? folderBytes(join(dir, name)) : stats.size;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

interface Listed {
  root: string | null;
  indexDir: string;
  files: number;
  updatedAt: string | null;
  diskBytes: number;
  /** The project folder is gone: `sextant remove --gone` takes its index back. */
  gone: boolean;
}

function listed(): Listed[] {
  return indexFolders().map(({ dir, root, files, updatedAt }) => ({
    root: root ?? null,
    indexDir: dir,
    files,
    updatedAt,
    diskBytes: folderBytes(dir),
    gone: root !== undefined && !existsSync(root),
  }));
}

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

export function listCommand(json: boolean, output: Output): number {
  const indexes = listed();
  const total = indexes.reduce((sum, index) => sum + index.diskBytes, 0);
  if (json) {
    output.out(`${JSON.stringify({ home: sextantHome(), indexes, diskBytes: total })}\n`);
    return 0;
  }
  for (const index of indexes) {
    output.out(
      `${index.root ?? `(unreadable) ${index.indexDir}`}: ${index.files} files, ${mb(index.diskBytes)}, updated ` +
        `${index.updatedAt ?? 'never'}${index.gone ? ' (project folder gone)' : ''}\n`,
    );
  }
  output.out(`${indexes.length} ${indexes.length === 1 ? 'index' : 'indexes'}, ${mb(total)} in ${sextantHome()}\n`);
  return 0;
}

/** The index of the project at `path` (which may be gone): its folder, or an error naming what exists. */
function indexOf(path: string): { root: string; dir: string } {
  let root = resolve(path);
  try {
    root = realpathSync(path);
  } catch {
    // a project folder already deleted is still named by its path
  }
  const found = indexFolders().find((index) => index.root === root);
  if (!found) throw new Error(`No index for ${root} in ${sextantHome()} ("sextant list" shows them)`);
  return { root, dir: found.dir };
}

/** Removes one index folder, unless a job writes it now. */
function removeIndex(root: string, dir: string): number {
  const running = new IndexStore(root, undefined, dir).runningJob();
  if (running) throw new Error(`An index job (process ${running.pid}) is writing the index of ${root}; stop it first`);
  const bytes = folderBytes(dir);
  rmSync(dir, { recursive: true, force: true });
  return bytes;
}

export function removeCommand(path: string | undefined, gone: boolean, output: Output): number {
  if (gone === (path !== undefined)) throw new Error('give a project PATH, or --gone for every index whose project folder no longer exists');
  if (path !== undefined) {
    const { root, dir } = indexOf(path);
    output.out(`Removed the index of ${root} (${mb(removeIndex(root, dir))})\n`);
    return 0;
  }
  let freed = 0;
  let count = 0;
  for (const index of listed()) {
    if (!index.gone || index.root === null) continue;
    freed += removeIndex(index.root, index.indexDir);
    count++;
    output.out(`Removed the index of ${index.root}\n`);
  }
  output.out(`${count} ${count === 1 ? 'index' : 'indexes'} removed, ${mb(freed)} freed\n`);
  return 0;
}
