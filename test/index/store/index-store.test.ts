import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { discover } from '../../../src/index/files/walk.js';
import { buildIndex } from '../../../src/index/build/indexer.js';
import { DEFAULT_BLOCK_BYTES } from '../../../src/index/text/trigrams.js';
import { detectLanguage, KNOWN_LANGUAGES } from '../../../src/index/files/languages.js';
import { IndexReader } from '../../../src/index/search/reader.js';
import { IndexIncompatibleError } from '../../../src/index/store/manifest.js';
import { projectDir } from '../../../src/index/store/home.js';
import { IndexStore } from '../../../src/index/store/store.js';
import { deadPid, killMidJob, ROOT, runCli } from '../../helpers/process.js';
import { eventually } from '../../helpers/wait.js';

function tree(files: Record<string, string | Buffer>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-tree-')));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

test('discovery honours .gitignore at every level (deeper rules win), exclude, .sextantignore, size and links', async () => {
  const root = tree({
    'a.ts': 'export const a = 1;\n',
    '.gitignore': '*.log\n',
    'ignored.log': 'x',
    'sub/.gitignore': '!keep.log\nbuild/\n',
    'sub/keep.log': 'kept by the deeper rule',
    'sub/build/x.js': 'ignored directory',
    'sub/deep/y.py': 'print(1)\n',
    '.sextantignore': 'secret.txt\n',
    'secret.txt': 'x',
    '.git/info/exclude': 'excluded.md\n',
    '.git/HEAD': 'ref: refs/heads/main\n',
    'excluded.md': 'x',
    'big.txt': Buffer.alloc(2 * 1024 * 1024, 0x61),
  });
  symlinkSync('/etc/hostname', join(root, 'link-out'));
  symlinkSync(join(root, 'a.ts'), join(root, 'link-in.ts'));
  symlinkSync(join(root, 'no-such-target'), join(root, 'link-nowhere'));
  const result = discover(root, { maxFileBytes: 1024 * 1024 });
  assert.equal(
    result.files.map((f) => f.path),
    ['.gitignore', '.sextantignore', 'a.ts', 'link-in.ts', 'sub/.gitignore', 'sub/deep/y.py', 'sub/keep.log'],
  );
  assert.is(result.skipped.tooLarge, 1);
  assert.equal(result.examples.tooLarge, ['big.txt'], 'skipped files are named');
  assert.is(result.skipped.outsideLinks, 1);
  assert.is(result.skipped.brokenLinks, 1);
  assert.is(result.skipped.unreadable, 0, 'a link to nothing is not unreadable text');
  assert.ok(result.skipped.ignored >= 4);
  // The default limit (16 MiB) keeps a 2 MiB file.
  assert.ok(discover(root).files.some((f) => f.path === 'big.txt'));
});

test('languages: by name, extension and shebang; more than 40 known', async () => {
  assert.ok(KNOWN_LANGUAGES.length >= 40, String(KNOWN_LANGUAGES.length));
  assert.is(detectLanguage('src/x.tsx'), 'tsx');
  assert.is(detectLanguage('Dockerfile'), 'dockerfile');
  assert.is(detectLanguage('bin/tool', '#!/usr/bin/env python3\nprint()'), 'python');
  assert.is(detectLanguage('bin/run', '#!/bin/bash\n'), 'bash');
  assert.is(detectLanguage('notes'), undefined);
});

test('binary files are left out; long lines keep no file out of the postings; data-like files are always scanned', async () => {
  // Base64 of pseudo-random bytes, over a block: about one distinct trigram in two bytes.
  let seed = 7;
  const random = Buffer.from(Array.from({ length: 45_000 }, () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) >> 23));
  const data = `${random.toString('base64').replace(/.{76}/g, '$&\n')}\nneedle_here\n`;
  // One 36 KB line of the same few calls: many bytes, few trigrams, as in minified code.
  const minified = `var a=${Array.from({ length: 4_000 }, (_, i) => `f${i % 50}(x)`).join(';')};needle_here;\n`;
  const root = tree({
    'bin.dat': Buffer.from([0x66, 0x6f, 0x6f, 0x00, 0x62]),
    'blob.b64': data,
    'bundle.min.js': minified,
    'small.min.js': `var x=1;${'y'.repeat(3000)};needle_here\n`,
    'plain.txt': 'a needle_here b\n',
  });
  assert.ok(data.length > DEFAULT_BLOCK_BYTES && minified.length > DEFAULT_BLOCK_BYTES && !minified.slice(0, -1).includes('\n'));
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const summary = await buildIndex(root, { home });
  assert.is(summary.skipped.binary, 1);
  assert.is(summary.unindexed, 1, 'only the data file stays out of the postings');
  const reader = IndexReader.open(root, home);
  const found = reader.search({ pattern: 'needle_here' });
  assert.equal(found.matches.map((m) => m.path).sort(), ['blob.b64', 'bundle.min.js', 'plain.txt', 'small.min.js']);
  // A query no indexed file can match still reads the data file, and only it.
  const absent = reader.search({ pattern: 'zq_absent_qz' });
  assert.equal(absent.matches, []);
  assert.is(absent.stats.candidates, 1);
});

test('the content cache never serves an edited file stale, nor a deleted one', async () => {
  const root = tree({ 'a.txt': 'alpha beta\n', 'b.txt': 'alpha gamma\n' });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const reader = IndexReader.open(root, home);
  assert.equal(
    reader.search({ pattern: 'alpha' }).matches.map((m) => m.text),
    ['alpha beta', 'alpha gamma'],
  );
  writeFileSync(join(root, 'a.txt'), 'alpha delta and more\n');
  rmSync(join(root, 'b.txt'));
  assert.equal(
    reader.search({ pattern: 'alpha' }).matches.map((m) => m.text),
    ['alpha delta and more'],
  );
});

test('a catastrophic regex is stopped at the time budget with a clear error; the next search works', async () => {
  const { SearchService } = await import('../../../src/index/search/threads/service.js');
  const { PatternTooExpensiveError } = await import('../../../src/index/search/reader.js');
  const root = tree({ 'evil.txt': `${'a'.repeat(40)}!\n`, 'ok.txt': 'fine line\n' });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const service = new SearchService(root, { home, budgetMs: 300 });
  try {
    const started = Date.now();
    try {
      await service.search({ pattern: '(a+)+$', regex: true });
      assert.unreachable('this regex backtracks for ever');
    } catch (error) {
      assert.instance(error, PatternTooExpensiveError);
      assert.is((error as { code: string }).code, 'SEXTANT_ERR_PATTERN_TOO_EXPENSIVE');
      assert.match((error as Error).message, 'too expensive');
    }
    assert.ok(Date.now() - started < 3_000, 'stopped near the budget');
    const after = await service.search({ pattern: 'fine' });
    assert.equal(
      after.matches.map((m) => m.path),
      ['ok.txt'],
    );
    try {
      await service.search({ pattern: 'a(b', regex: true });
      assert.unreachable('bad regex');
    } catch (error) {
      assert.is((error as { code: string }).code, 'SEXTANT_ERR_BAD_PATTERN');
    }
  } finally {
    await service.close();
  }
});

test('an index of another format is reported as index_incompatible, never read; --force rebuilds it', async () => {
  const root = tree({ 'a.txt': 'hello world\n' });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const manifestPath = join(projectDir(root, home), 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { format: number };
  writeFileSync(manifestPath, JSON.stringify({ ...manifest, format: 999 }));
  for (const attempt of [async () => IndexReader.open(root, home), () => buildIndex(root, { home })]) {
    try {
      await attempt();
      assert.unreachable('must not read another format');
    } catch (error) {
      assert.instance(error, IndexIncompatibleError);
      assert.is((error as IndexIncompatibleError).code, 'index_incompatible');
    }
  }
  const status = await runCli(['status', root, '--json'], '', { SEXTANT_HOME: home });
  assert.is((JSON.parse(status.stdout) as { error: { code: string } }).error.code, 'index_incompatible');
  await buildIndex(root, { home, force: true });
  assert.is(IndexReader.open(root, home).search({ pattern: 'hello' }).matches.length, 1);
});

test('an aborted build keeps the previous index and leaves a journal that status reports', async () => {
  const root = tree({ 'a.txt': 'first version\n' });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  writeFileSync(join(root, 'b.txt'), 'second file\n');
  const controller = new AbortController();
  controller.abort(new Error('user stopped it'));
  try {
    await buildIndex(root, { home, signal: controller.signal });
    assert.unreachable('aborted');
  } catch (error) {
    assert.match((error as Error).message, 'user stopped it');
  }
  const reader = IndexReader.open(root, home);
  assert.is(reader.files.length, 1, 'the previous index is intact');
  const journal = new IndexStore(root, home).interruptedJob();
  assert.is(journal?.mode, 'index');
  assert.match(journal?.stopped ?? '', 'user stopped it');
});

test('kill -9 during index: status and search still work on the previous index and report the interrupted job', async () => {
  const root = realpathSync(join(ROOT, 'node_modules/typescript'));
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const small = tree({ 'x.txt': 'unrelated\n' });
  await buildIndex(small, { home });
  await buildIndex(root, { home, maxFileBytes: 64 * 1024 }); // a quick complete index first
  const before = IndexReader.open(root, home).files.length;
  const store = new IndexStore(root, home);
  await killMidJob('index', root, home, store.journalPath);
  const status = await runCli(['status', root, '--json'], '', { SEXTANT_HOME: home });
  const report = JSON.parse(status.stdout) as { indexed: boolean; files: number; interruptedJob: { mode: string } | null };
  assert.ok(report.indexed);
  assert.is(report.files, before, 'the previous complete index is what status sees');
  assert.is(report.interruptedJob?.mode, 'index');
  const search = await runCli(['search', '"version"', root, '--json', '--limit', '1'], '', { SEXTANT_HOME: home });
  assert.is(search.code, 0, search.stderr);
  assert.is((JSON.parse(search.stdout) as { matches: unknown[] }).matches.length, 1);
  const human = await runCli(['status', root], '', { SEXTANT_HOME: home });
  assert.match(human.stdout, 'interrupted index job');
  // The killed job's lock is stale (its process is gone): the next job takes it over.
  assert.ok(existsSync(store.lockPath), 'the lock outlived the killed process');
  assert.is((await buildIndex(root, { home, maxFileBytes: 64 * 1024 })).files, before);
  assert.not.ok(existsSync(store.lockPath));
});

test('one index writer at a time across processes: a build while another process indexes is index_in_progress', async () => {
  const { IndexBusyError } = await import('../../../src/index/store/job-lock.js');
  const { mergeDeltas } = await import('../../../src/index/build/merge.js');
  const { BIN } = await import('../../helpers/process.js');
  const files: Record<string, string> = {};
  for (let i = 0; i < 4_000; i++) files[`d${i % 40}/f${i}.ts`] = `export function f${i}(x: number): number { return x + ${i}; }\n`.repeat(20);
  const root = tree(files);
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const store = new IndexStore(root, home);
  const child = spawn(process.execPath, [BIN, 'index', root], { env: { ...process.env, SEXTANT_HOME: home }, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  await eventually(() => existsSync(store.lockPath), 'the other process took the lock', 10_000, 5);
  for (const attempt of [() => buildIndex(root, { home }), async () => mergeDeltas(root, { home })]) {
    try {
      await attempt();
      assert.unreachable('the index is held by the other process');
    } catch (error) {
      assert.instance(error, IndexBusyError);
      assert.is((error as { code: string }).code, 'index_in_progress');
      assert.is((error as { pid: number }).pid, child.pid);
    }
  }
  await exited;
  assert.not.ok(existsSync(store.lockPath), 'released at the end');
  assert.is((await buildIndex(root, { home })).files, 4_000);
});

test('the content cache is bounded (least recently used out), counts line starts, and is shared by the readers that follow a sync', async () => {
  const { ContentCache } = await import('../../../src/index/search/content-cache.js');
  const { syncIndex } = await import('../../../src/index/build/sync.js');
  const files: Record<string, string> = {};
  for (let i = 0; i < 8; i++) files[`f${i}.txt`] = `${`line ${i} marker_cache\n`.repeat(100)}`;
  const root = tree(files);
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const oneFile = files['f0.txt']!.length;
  // Room for about three files with their line starts.
  const cache = new ContentCache(3 * (oneFile + 101 * 4) + 10);
  const reader = IndexReader.open(root, home, { cache });
  const all = reader.search({ pattern: 'marker_cache', limit: 10_000 });
  assert.is(all.matches.length, 800);
  assert.ok(cache.bytes <= 3 * (oneFile + 101 * 4) + 10, `bounded: ${cache.bytes}`);
  assert.ok(cache.bytes >= 2 * oneFile, 'holds what fits');
  // A sync swaps the manifest; the next reader keeps the warm cache and still sees the edit.
  writeFileSync(join(root, 'f7.txt'), 'marker_cache edited\n');
  await syncIndex(root, { home });
  const next = IndexReader.open(root, home, { cache });
  const after = next.search({ pattern: 'marker_cache', limit: 10_000 });
  assert.is(after.matches.length, 701);
  const { publicMatch } = await import('../../../src/index/search/reader.js');
  assert.equal(publicMatch(after.matches.at(-1)!), { path: 'f7.txt', line: 1, column: 1, text: 'marker_cache edited' });
  // The worker's ranking signals: what matched, and that it stands as a whole identifier.
  assert.is(after.matches.at(-1)!.length, 'marker_cache'.length);
  assert.is(after.matches.at(-1)!.word, true);
});

test('a writer taken for dead and replaced cannot commit: its job lock token is outdated, and the manifest stays', async () => {
  const root = mkdtempSync(join(tmpdir(), 'sextant-fenced-'));
  writeFileSync(join(root, 'a.ts'), 'export const a = 1;\n');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const paused = new IndexStore(root, home);
  paused.lock();
  const before = readFileSync(paused.manifestPath, 'utf8');
  // While it is paused, its lock is taken for a dead process's and taken over by another writer.
  writeFileSync(paused.lockPath, `${await deadPid()} 0000000000000000 thread-0`);
  const successor = new IndexStore(root, home);
  successor.lock();
  try {
    paused.commit({ ...paused.readManifest()!, updatedAt: new Date().toISOString() }, []);
    assert.unreachable('a fenced-off writer must not commit');
  } catch (error) {
    assert.is((error as { code?: string }).code, 'index_in_progress');
  }
  assert.is(readFileSync(paused.manifestPath, 'utf8'), before, 'the manifest did not move');
  successor.unlock();
  paused.unlock();
});

test.run();
