/**
 * Throughput without changed answers: searches that run at once go whole to one worker each
 * instead of split between all of them, and a worker trusts a cached file's text for a short
 * while without a stat. Neither may change what a search finds.
 */
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildIndex } from '../../../src/index/build/indexer.js';
import { ProjectFiles } from '../../../src/index/files/project-file.js';
import { ContentCache } from '../../../src/index/search/content-cache.js';
import type { SearchQuery, SearchResult } from '../../../src/index/search/reader.js';
import { SearchPool, type WorkerResult } from '../../../src/index/search/threads/pool.js';
import { SearchService } from '../../../src/index/search/threads/service.js';
import { projectTree } from '../../helpers/projects.js';

/** Forty files, each with its own word and a shared one, so that every worker's shard holds some. */
function manyFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++) files[`pkg${i % 4}/file${i}.go`] = `package pkg\n\n// shared line ${i}\nfunc Only${i}() {}\n// shared again ${i}\n`;
  return files;
}

const shape = (result: SearchResult): unknown => ({
  matches: result.matches.map((match) => [match.path, match.line, match.column]),
  truncated: result.truncated,
});

test('searches that run together find what each finds alone, truncated at the same match', async () => {
  const root = projectTree(manyFiles());
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const queries: SearchQuery[] = [
    { pattern: 'shared', limit: 1_000 },
    { pattern: 'shared', limit: 7 },
    { pattern: 'shared', limit: 7, sourceFirst: true },
    { pattern: 'Only1\\d', regex: true, limit: 1_000 },
    { pattern: 'again 3', limit: 1_000, context: 1 },
  ];
  // Two searches admitted at a time: every one after the first starts while another runs.
  const service = new SearchService(root, { home, workers: 2, maxActive: 2 });
  try {
    const alone: unknown[] = [];
    for (const query of queries) alone.push(shape(await service.search(query)));
    assert.is((alone[0] as { matches: unknown[] }).matches.length, 80, 'both lines of every file');
    assert.is((alone[1] as { truncated: boolean }).truncated, true);
    for (let round = 0; round < 3; round++) {
      const together = await Promise.all([...queries, ...queries].map((query) => service.search(query)));
      assert.equal(together.map(shape), [...alone, ...alone], `round ${round}`);
    }
  } finally {
    await service.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

test("a search's matches are in path order where the walk's order is another, so a search split between workers stops where one searched whole does", async () => {
  // The walk lists a folder's entries by name, so `a/b.go` comes before `a-c.go` and `a.go`;
  // path order puts it after them. Six such neighbours, and source files beside test ones.
  const files: Record<string, string> = {};
  for (const name of ['a/b.go', 'a-c.go', 'a.go', 'a/tests/t.go', 'a_test.go', 'b/c/d.go', 'b.c.go', 'b-c/e.go', 'b/x_test.go'])
    files[name] = 'package p\n// shared\n';
  const root = projectTree(files);
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const whole = new SearchService(root, { home, workers: 1 });
  const split = new SearchService(root, { home, workers: 2 });
  const paths = (result: SearchResult): string[] => result.matches.map((match) => match.path);
  try {
    const all = paths(await whole.search({ pattern: 'shared', limit: 1_000 }));
    assert.equal(all, [...all].sort(), 'path order (code units)');
    assert.is(all.length, 9);
    const sourceFirst = paths(await whole.search({ pattern: 'shared', limit: 1_000, sourceFirst: true }));
    // Source before tests; within each, the shallower, then the shorter path, then path order.
    assert.equal(sourceFirst, ['a.go', 'a-c.go', 'b.c.go', 'a/b.go', 'b-c/e.go', 'b/c/d.go', 'a_test.go', 'b/x_test.go', 'a/tests/t.go']);
    for (let limit = 1; limit <= 9; limit++) {
      for (const query of [
        { pattern: 'shared', limit },
        { pattern: 'shared', limit, sourceFirst: true },
      ]) {
        const expected = (query.sourceFirst ? sourceFirst : all).slice(0, limit);
        assert.equal(paths(await whole.search(query)), expected, `whole, ${JSON.stringify(query)}`);
        assert.equal(paths(await split.search(query)), expected, `split, ${JSON.stringify(query)}`);
      }
    }
  } finally {
    await whole.close();
    await split.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

test('a batch that waits its turn goes to the thread least busy when it is let in, not when it came', async () => {
  const root = projectTree({ 'evil.txt': `${'a'.repeat(40)}!\n`, 'ok.txt': 'fine line\n' });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  // Two searches let in at a time, over two threads; a budget far past the wait this test asserts.
  const pool = new SearchPool({ home, workers: 2, maxActive: 2, budgetMs: 60_000 });
  const fine = { root, query: { pattern: 'fine', limit: 10 }, pageEnd: 10 };
  const paths = (results: Array<WorkerResult | Error>): unknown =>
    results.map((one) => (one instanceof Error ? one.message : one.matches.map((match) => match.path)));
  try {
    // Alone in the pool, a search is split: both threads are up, and owe nothing.
    assert.equal((await pool.search(root, { pattern: 'fine' })).matches.length, 1);
    // A pattern that backtracks for ever holds the project's own thread (a ranked page goes whole
    // to the least busy thread, the project's own on a tie) until the budget or the close.
    let stuckSettled = false;
    const stuck = pool.search(root, { pattern: '(a+)+$', regex: true, limit: 10 }, { rank: true, pageEnd: 10 });
    stuck.then(
      () => (stuckSettled = true),
      () => (stuckSettled = true),
    );
    await new Promise((resolve) => setImmediate(resolve));
    // The first batch goes to the other thread, the less busy one.
    const first = pool.searchMany([fine]);
    await new Promise((resolve) => setImmediate(resolve));
    // The second comes while each thread owes one search (a tie: the project's own thread, the
    // stuck one) and waits for the first's place; let in once the first is answered, it must go
    // where nothing is owed then.
    const second = pool.searchMany([fine]);
    assert.equal(paths(await first), [['ok.txt']]);
    assert.equal(paths(await second), [['ok.txt']]);
    assert.is(stuckSettled, false, 'the stuck search still runs: the second batch did not wait for it');
  } finally {
    await pool.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

test('a cached text is trusted without a stat only within its window, and never after recheckAll', () => {
  const root = projectTree({ 'a.txt': 'first version\n' });
  try {
    let now = 1_000;
    const cache = new ContentCache(1 << 20, { freshForMs: 500, now: () => now });
    const files = new ProjectFiles(root);
    assert.is(cache.get(files, 'a.txt')?.text, 'first version\n');
    // Same size, a later mtime: only a stat tells.
    writeFileSync(join(root, 'a.txt'), 'later version\n');
    const later = statSync(join(root, 'a.txt')).mtimeMs / 1_000 + 5;
    utimesSync(join(root, 'a.txt'), later, later);
    now += 499;
    assert.is(cache.get(files, 'a.txt')?.text, 'first version\n', 'within the window: the text checked a moment ago');
    now += 1;
    assert.is(cache.get(files, 'a.txt')?.text, 'later version\n', 'past it: checked, and read again');
    writeFileSync(join(root, 'a.txt'), 'third version\n');
    utimesSync(join(root, 'a.txt'), later + 5, later + 5);
    now += 10;
    assert.is(cache.get(files, 'a.txt')?.text, 'later version\n');
    cache.recheckAll();
    assert.is(cache.get(files, 'a.txt')?.text, 'third version\n', 'a new index generation checks every entry again');
    rmSync(join(root, 'a.txt'));
    cache.recheckAll();
    assert.is(cache.get(files, 'a.txt'), undefined, 'a file gone is never served');
    // Without a window (the default: the CLI, a reader of its own), every use is checked.
    const strict = new ContentCache(1 << 20);
    writeFileSync(join(root, 'b.txt'), 'one\n');
    assert.is(strict.get(files, 'b.txt')?.text, 'one\n');
    writeFileSync(join(root, 'b.txt'), 'two\n');
    utimesSync(join(root, 'b.txt'), later + 10, later + 10);
    assert.is(strict.get(files, 'b.txt')?.text, 'two\n');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test.run();
