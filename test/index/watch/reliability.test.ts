/**
 * Reliability of the watcher: a removed or renamed directory takes its files with it, and what
 * file events never reported is caught by the periodic reconciliation.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildIndex } from '../../../src/index/build/indexer.js';
import { IndexReader } from '../../../src/index/search/reader.js';
import { IndexStore } from '../../../src/index/store/store.js';
import { buildSymbols } from '../../../src/index/symbols/build.js';
import { SymbolIndex } from '../../../src/index/symbols/symbol-index.js';
import { IndexWatcher } from '../../../src/index/watch/watcher.js';
import { projectTree } from '../../helpers/projects.js';

/** A tree with `dirs` packages, each with nested folders of TypeScript files. */
function packages(dirs: string[], perDir = 16): string {
  const files: Record<string, string> = { 'keep.ts': 'export const kept = 1;\n' };
  for (const dir of dirs) {
    for (let i = 0; i < perDir; i++)
      files[`${dir}/${i % 3 === 0 ? 'deep/deeper/' : i % 2 ? 'sub/' : ''}f${i}.ts`] =
        `export function ${dir.replace(/\W/g, '_')}_fn${i}(): number {\n  return ${i};\n}\n`;
  }
  return projectTree(files);
}

const indexedPaths = (root: string, home: string): string[] => IndexReader.open(root, home).files.map((file) => file.path);

/** Waits, update after update, until `done()` holds (or fails with what the index held at the deadline). */
function until(done: () => boolean, subscribe: (wake: () => void) => void, what: string, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting until ${what}`)), timeoutMs);
    const check = (): void => {
      if (!done()) return;
      clearTimeout(timer);
      resolve();
    };
    subscribe(check);
    check();
  });
}

test('the tree watch follows directories created, moved in and removed after it started, and ignores .git', async () => {
  const { watchTree } = await import('../../../src/index/watch/tree-watcher.js');
  const root = projectTree({ 'a/b/file.ts': 'export const x = 1;\n', '.git/HEAD': 'ref\n' });
  const seen: string[] = [];
  const waiters = new Set<() => void>();
  const watch = watchTree(root, (path) => {
    seen.push(path);
    for (const wake of waiters) wake();
  });
  const reported = (path: string): Promise<void> =>
    until(
      () => seen.includes(path),
      (wake) => waiters.add(wake),
      `${path} reported (saw ${seen.slice(-5).join(', ')})`,
    );
  try {
    writeFileSync(join(root, 'a/b/file.ts'), 'export const x = 2;\n');
    await reported('a/b/file.ts');
    // A directory made after the start, and one inside it: what is written there is reported.
    mkdirSync(join(root, 'new/deeper'), { recursive: true });
    await reported('new');
    writeFileSync(join(root, 'new/deeper/later.ts'), 'export const later = 1;\n');
    await reported('new/deeper/later.ts');
    // A directory moved in from outside the tree brings its subdirectories.
    const outside = projectTree({ 'pkg/inner/moved.ts': 'export const moved = 1;\n' });
    renameSync(join(outside, 'pkg'), join(root, 'pkg'));
    await reported('pkg');
    writeFileSync(join(root, 'pkg/inner/moved.ts'), 'export const moved = 2;\n');
    await reported('pkg/inner/moved.ts');
    // Removed, then made again: watched afresh.
    rmSync(join(root, 'new'), { recursive: true });
    mkdirSync(join(root, 'new'));
    writeFileSync(join(root, 'new/again.ts'), 'export const again = 1;\n');
    await reported('new/again.ts');
    writeFileSync(join(root, '.git/HEAD'), 'other\n');
    writeFileSync(join(root, 'last.ts'), 'export const last = 1;\n');
    await reported('last.ts');
    assert.equal(
      seen.filter((path) => path === '.git' || path.startsWith('.git/')),
      [],
    );
  } finally {
    watch.close();
  }
});

test('the watcher forgets every file of a removed directory tree, and moves a renamed one', async () => {
  const root = packages(['gone', 'moved']);
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const wakers = new Set<() => void>();
  const watcher = new IndexWatcher(root, { home, reconcileMs: 0, onUpdate: () => wakers.forEach((wake) => wake()) });
  watcher.start();
  try {
    assert.is(indexedPaths(root, home).filter((path) => path.startsWith('gone/')).length, 16);
    rmSync(join(root, 'gone'), { recursive: true });
    await until(
      () => !indexedPaths(root, home).some((path) => path.startsWith('gone/')),
      (wake) => wakers.add(wake),
      'gone/ left the index',
    );
    renameSync(join(root, 'moved'), join(root, 'arrived'));
    await until(
      () => {
        const paths = indexedPaths(root, home);
        return !paths.some((path) => path.startsWith('moved/')) && paths.filter((path) => path.startsWith('arrived/')).length === 16;
      },
      (wake) => wakers.add(wake),
      'moved/ became arrived/ in the index',
    );
    assert.ok(indexedPaths(root, home).includes('keep.ts'));
    assert.is(new IndexStore(root, home).readManifest()!.files, 17, 'status counts only what exists');
    // The symbols follow: a refresh lists no definition of a file that is gone.
    await buildSymbols(root, IndexReader.open(root, home).files, { home });
    const names = SymbolIndex.open(new IndexStore(root, home))!;
    assert.equal(
      names.find('gone_fn1', { limit: 5 }).filter((found) => found.name === 'gone_fn1'),
      [],
    );
    assert.ok(names.find('moved_fn1', { limit: 5 }).some((found) => found.path === 'arrived/sub/f1.ts'));
  } finally {
    watcher.close();
  }
});

test('what no file event reported is caught by the periodic reconciliation within its period', async () => {
  const root = packages(['pkg'], 4);
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  // Changes made while nobody watched: no event will ever report them.
  writeFileSync(join(root, 'pkg/sub/f1.ts'), 'export const reconciled_marker = 1;\n');
  rmSync(join(root, 'keep.ts'));
  mkdirSync(join(root, 'later'));
  writeFileSync(join(root, 'later/new.ts'), 'export const late_marker = 2;\n');
  const wakers = new Set<() => void>();
  const watcher = new IndexWatcher(root, { home, reconcileMs: 200, onUpdate: () => wakers.forEach((wake) => wake()) });
  watcher.start();
  try {
    await until(
      () => {
        const reader = IndexReader.open(root, home);
        return (
          reader.search({ pattern: 'reconciled_marker' }).matches.length === 1 &&
          reader.search({ pattern: 'late_marker' }).matches.length === 1 &&
          !reader.files.some((file) => file.path === 'keep.ts')
        );
      },
      (wake) => wakers.add(wake),
      'the reconciliation caught every unreported change',
    );
  } finally {
    watcher.close();
  }
});

test('links out of the workspace are neither watched nor indexed, whatever reports them', async () => {
  const { watchTree } = await import('../../../src/index/watch/tree-watcher.js');
  const { syncIndex } = await import('../../../src/index/build/sync.js');
  const root = projectTree({ 'keep.ts': 'export const kept = 1;\n', 'sub/inner.ts': 'export const inner_marker = 1;\n' });
  const outside = projectTree({ 'secret.go': 'package secret\n\nfunc OutsideSecret() {}\n', 'deep/passwd.txt': 'outside_marker\n' });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const seen: string[] = [];
  const waiters = new Set<() => void>();
  const watch = watchTree(root, (path) => {
    seen.push(path);
    for (const wake of waiters) wake();
  });
  const wakers = new Set<() => void>();
  const watcher = new IndexWatcher(root, { home, reconcileMs: 0, onUpdate: () => wakers.forEach((wake) => wake()) });
  watcher.start();
  try {
    symlinkSync(outside, join(root, 'linkdir'));
    symlinkSync(join(outside, 'deep/passwd.txt'), join(root, 'linkfile.txt'));
    symlinkSync('sub/inner.ts', join(root, 'inside-link.ts'));
    await until(
      () => seen.includes('linkdir'),
      (wake) => waiters.add(wake),
      'the link was reported',
    );
    // Written through the link after it appeared: a watch on the linked directory would report it.
    writeFileSync(join(outside, 'later.go'), 'package secret\n');
    writeFileSync(join(root, 'after.ts'), 'export const after_marker = 1;\n');
    await until(
      () => seen.includes('after.ts'),
      (wake) => waiters.add(wake),
      'after.ts was reported',
    );
    assert.equal(
      seen.filter((path) => path.startsWith('linkdir/')),
      [],
      'nothing under the linked directory is watched',
    );
    await until(
      () => indexedPaths(root, home).includes('after.ts') && indexedPaths(root, home).includes('inside-link.ts'),
      (wake) => wakers.add(wake),
      'after.ts and the inside link were indexed',
    );
    // A sync told of the paths directly (as a watcher elsewhere might be) takes none of them either.
    await syncIndex(root, { home, paths: ['linkdir', 'linkdir/secret.go', 'linkdir/deep/passwd.txt', 'linkfile.txt'] });
    const paths = indexedPaths(root, home);
    assert.equal(
      paths.filter((path) => path.startsWith('linkdir') || path === 'linkfile.txt'),
      [],
      `outside files indexed: ${paths.join(', ')}`,
    );
    const reader = IndexReader.open(root, home);
    assert.equal(reader.search({ pattern: 'outside_marker' }).matches, []);
    assert.equal(reader.search({ pattern: 'OutsideSecret' }).matches, []);
    assert.is(reader.search({ pattern: 'inner_marker' }).matches.length, 2, 'the file and the link to it inside');
  } finally {
    watcher.close();
    watch.close();
  }
});

test.run();
