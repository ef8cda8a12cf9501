import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { discover, type DiscoveryResult } from '../../../src/index/files/walk.js';
import { buildIndex } from '../../../src/index/build/indexer.js';
import { IndexReader } from '../../../src/index/search/reader.js';
import { IndexStore } from '../../../src/index/store/store.js';
import { syncIndex } from '../../../src/index/build/sync.js';
import { readWalkCache, type WalkCache } from '../../../src/index/files/walk-cache.js';

function tree(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-walk-')));
  const files: Record<string, string> = {
    '.gitignore': 'build/\n*.log\n',
    '.sextantignore': 'secret/\n',
    'src/a.ts': 'export const a = 1;\n',
    'src/b.ts': 'export const b = 2;\n',
    'src/sub/c.ts': 'export const c = 3;\n',
    'src/debug.log': 'noise\n',
    'build/out.js': 'compiled\n',
    'secret/key.txt': 'hidden\n',
    'lib/.gitignore': '*.gen.ts\n',
    'lib/x.gen.ts': 'generated\n',
    'lib/y.ts': 'export const y = 4;\n',
    'lib/z.ts': 'export const z = 5;\n',
    'lib/deep/w.ts': 'export const w = 6;\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  symlinkSync(join(root, 'src/a.ts'), join(root, 'link.ts'));
  symlinkSync('/nonexistent/sextant-target', join(root, 'broken.ts'));
  return root;
}

let ageTick = 0;
/** Sets every directory's mtime an hour back (each time a different second): old enough to be recorded. */
function age(root: string): void {
  const when = Date.now() / 1000 - 3600 - ++ageTick;
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) visit(join(dir, entry.name));
    utimesSync(dir, when, when);
  };
  visit(root);
}

function answer(result: DiscoveryResult): unknown {
  return { files: result.files, skipped: result.skipped, examples: result.examples };
}

/** A walk from `cache` finds exactly what a walk from nothing finds; returns it. */
function walkFrom(root: string, cache: WalkCache): DiscoveryResult {
  const cached = discover(root, { walkCache: cache });
  assert.equal(answer(cached), answer(discover(root)));
  return cached;
}

test('a walk from the walk cache finds what a full walk finds, reading only the directories that changed', () => {
  const root = tree();
  age(root);
  const first = discover(root);
  assert.is(first.directoriesRead, 5);
  assert.equal([...first.walkCache!.directories.keys()].sort(), ['', 'lib', 'lib/deep', 'src', 'src/sub']);
  assert.equal(
    first.files.map((file) => file.path),
    ['.gitignore', '.sextantignore', 'lib/.gitignore', 'lib/deep/w.ts', 'lib/y.ts', 'lib/z.ts', 'link.ts', 'src/a.ts', 'src/b.ts', 'src/sub/c.ts'],
  );
  assert.equal(first.skipped, { ignored: 4, tooLarge: 0, outsideLinks: 0, brokenLinks: 1, unreadable: 0 });

  // Nothing changed: no directory is listed, and the cache needs no saving.
  const same = walkFrom(root, first.walkCache!);
  assert.is(same.directoriesRead, 0);
  assert.is(same.walkCacheChanged, false);

  // An edit changes no directory: the file's new size is still seen, through a link too.
  appendFileSync(join(root, 'src/a.ts'), 'export const more = 1;\n');
  const edited = walkFrom(root, same.walkCache!);
  assert.is(edited.directoriesRead, 0);
  assert.is(edited.files.find((file) => file.path === 'link.ts')!.size, readFileSync(join(root, 'src/a.ts')).length);

  // A new file, a removed file: only their directories are listed again.
  writeFileSync(join(root, 'src/sub/d.ts'), 'export const d = 7;\n');
  rmSync(join(root, 'lib/y.ts'));
  const moved = walkFrom(root, edited.walkCache!);
  assert.is(moved.directoriesRead, 2);
  assert.is(moved.walkCacheChanged, true);
  assert.ok(moved.files.some((file) => file.path === 'src/sub/d.ts'));
  assert.not.ok(moved.files.some((file) => file.path === 'lib/y.ts'));
  // Modified just now, those two are not recorded (the next change could share their mtime's tick).
  assert.not.ok(moved.walkCache!.directories.has('src/sub'));
  assert.not.ok(moved.walkCache!.directories.has('lib'));
  assert.is(walkFrom(root, moved.walkCache!).directoriesRead, 2);

  // A .gitignore edited in place changes no directory's mtime: its directory and everything under it are judged again.
  age(root);
  const aged = discover(root);
  writeFileSync(join(root, 'lib/.gitignore'), '*.gen.ts\nz.ts\n');
  const rules = walkFrom(root, aged.walkCache!);
  assert.is(rules.directoriesRead, 2); // lib, lib/deep
  assert.not.ok(rules.files.some((file) => file.path === 'lib/z.ts'));

  // The rules of the whole tree changed: every directory is listed again.
  age(root);
  const before = discover(root);
  writeFileSync(join(root, '.sextantignore'), 'secret/\nsrc/b.ts\n');
  const everything = walkFrom(root, before.walkCache!);
  assert.is(everything.directoriesRead, 5);
  assert.not.ok(everything.files.some((file) => file.path === 'src/b.ts'));

  // A directory that is gone takes its files with it.
  age(root);
  const last = discover(root);
  rmSync(join(root, 'lib/deep'), { recursive: true });
  const gone = walkFrom(root, last.walkCache!);
  assert.is(gone.directoriesRead, 1);
  assert.not.ok(gone.walkCache!.directories.has('lib/deep'));
  assert.not.ok(gone.files.some((file) => file.path.startsWith('lib/deep/')));
});

test('index writes the walk cache and sync starts from it; an unreadable cache only costs a full walk', async () => {
  const root = tree();
  age(root);
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const store = new IndexStore(root, home);
  assert.equal([...readWalkCache(store.dir)!.directories.keys()].sort(), ['', 'lib', 'lib/deep', 'src', 'src/sub']);

  writeFileSync(join(root, 'src/sub/zebra.ts'), 'export const zebra_walk_marker = 1;\n');
  const summary = await syncIndex(root, { home });
  assert.equal([summary.added, summary.changed, summary.deleted], [1, 0, 0]);
  assert.equal(
    IndexReader.open(root, home)
      .search({ pattern: 'zebra_walk_marker' })
      .matches.map((match) => match.path),
    ['src/sub/zebra.ts'],
  );

  writeFileSync(join(store.dir, 'walk-cache.json'), '{"version":1,"rootRules":[],"directories":{"":{"mtimeMs":"x"}}}');
  assert.is(readWalkCache(store.dir), undefined);
  rmSync(join(root, 'src/sub/zebra.ts'));
  const again = await syncIndex(root, { home });
  assert.equal([again.added, again.changed, again.deleted], [0, 0, 1]);
  assert.equal(IndexReader.open(root, home).search({ pattern: 'zebra_walk_marker' }).matches, []);
  assert.ok(readWalkCache(store.dir), 'the sync wrote a fresh cache');
});

test.run();
