import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RANKING_POOL } from '../../src/tools/search/index.js';
import { definitionMatches } from '../../src/index/search/index.js';
import { Project } from '../../src/workspace/project.js';
import { runCli } from '../helpers/process.js';
import { call, projectHarness, projectTree, sdkClient } from '../helpers/projects.js';
import { type ToolResult } from '../helpers/tool-result.js';

/**
 * search_code ranks as an engineer reads (#14): every definition of the name first, wherever its
 * path sorts, over more matches than the ranking pool; then the signals, each shown by a pair of
 * matches that differ in it alone.
 */
type Json = Record<string, unknown>;
const places = (result: ToolResult): string[] => (result.structuredContent!.results as Json[]).map((r) => `${r.path}:${r.line}`);

/** Uses of NewReader in files whose paths sort first: more than the ranking pool holds. */
const USE_FILES = 12;
const USES_PER_FILE = 100;

function goTree(): string {
  const files: Record<string, string> = {};
  for (let n = 0; n < USE_FILES; n++) {
    const body = Array.from({ length: USES_PER_FILE }, (_, i) => `\tr${i} := NewReader(src)`).join('\n');
    files[`aa/uses/use${String(n).padStart(2, '0')}.go`] = `package uses\n\nfunc use${n}(src string) {\n${body}\n}\n`;
  }
  files['zz/strings/reader.go'] =
    'package strings\n\n// NewReader returns a new Reader reading from s.\nfunc NewReader(s string) *Reader { return &Reader{s, 0, -1} }\n';
  files['zz/bufio/deep/er/reader.go'] = 'package er\n\nfunc NewReader(rd io.Reader) *Reader { return nil }\n';
  files['zz/internal/lower.go'] = 'package internal\n\nfunc newreader() int { return 0 }\n';
  files['zz/strings/reader_test.go'] = 'package strings\n\nfunc TestNewReader(t *testing.T) {\n\tNewReader("")\n}\n';
  files['zz/testdata/fake.go'] = 'package testdata\n\nfunc NewReader() int { return 1 }\n';
  files['zz/tests/helpers.go'] = 'package tests\n\nfunc NewReader() int { return 2 }\n';
  files['zz/vendor/dep/dep.go'] = 'package dep\n\nfunc NewReader() int { return 3 }\n';
  return projectTree(files);
}

async function indexed(root: string) {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const h = await projectHarness({ workspaces: [root] }, home);
  const client = await sdkClient(h.http.urls.mcp);
  const done = await call(client, 'index_repo');
  assert.not.ok(done.isError, done.content[0]?.text);
  return { h, client, home, close: async () => (await client.close(), await h.close()) };
}

test('every definition of the name is ranked, wherever its path sorts, over more matches than the pool; the order is one the cursor pages through', async () => {
  const root = goTree();
  const f = await indexed(root);
  try {
    const found = await call(f.client, 'search_code', { query: 'NewReader', limit: 7 });
    assert.ok(USE_FILES * USES_PER_FILE > RANKING_POOL);
    // Source definitions first (exported, exact case), the shallower path first; then the test
    // helper's; the private lower-case one; test data and vendored ones; the uses after.
    assert.equal(places(found), [
      'zz/strings/reader.go:4',
      'zz/bufio/deep/er/reader.go:3',
      'zz/tests/helpers.go:3',
      'zz/internal/lower.go:3',
      'zz/testdata/fake.go:3',
      'zz/vendor/dep/dep.go:3',
      'aa/uses/use00.go:4',
    ]);
    const first = (found.structuredContent!.results as Json[])[0]!;
    assert.is(first.definition, true);
    assert.equal(first.rank_notes, ['defines function NewReader', 'exported', 'whole identifier', 'exact case']);
    // The page is certain once the first file of uses is read: every other file of uses is as
    // deep and as long, and read after it (first-page/early-page.ts).
    assert.is(found.structuredContent!.result_completeness, 'truncated');
    assert.match(String(found.structuredContent!.note), /stopped reading once the first 106 results were certain/, String(found.structuredContent!.note));
    assert.is(found.structuredContent!.certain_results, 106);
    assert.is(found.structuredContent!.total_matches, 6 + USES_PER_FILE);
    // Past the pool's first file, a page reads on; with a regex, nothing is certain before the end.
    const whole = await call(f.client, 'search_code', { query: 'NewReader\\b', regex: true, limit: 7 });
    assert.is(whole.structuredContent!.total_matches, RANKING_POOL);
    assert.match(String(whole.structuredContent!.note), `More than ${RANKING_POOL} matches`);
    // Paging goes through the same order.
    const paged: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 3; page++) {
      const next = await call(f.client, 'search_code', { query: 'NewReader', limit: 3, ...(cursor ? { cursor } : {}) });
      paged.push(...places(next));
      cursor = next.structuredContent!.nextCursor as string;
    }
    assert.equal(paged.slice(0, 7), places(found));
    // The CLI's `search --rank` prints the same order (the index the server built, read by another process).
    const cli = await runCli(['search', '--rank', 'NewReader', root, '--limit', '7'], '', { SEXTANT_HOME: f.home });
    assert.is(cli.code, 0, cli.stderr);
    assert.equal(
      cli.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(':').slice(0, 2).join(':')),
      places(found),
    );
    assert.match(cli.stderr, `the first 7 of ${RANKING_POOL + 6} ranked matches`);
    // Narrowed by a path glob, the definitions outside it are not seeded.
    const narrowed = await call(f.client, 'search_code', { query: 'NewReader', path: 'zz/strings/**' });
    assert.equal(places(narrowed), ['zz/strings/reader.go:4', 'zz/strings/reader.go:3', 'zz/strings/reader_test.go:4', 'zz/strings/reader_test.go:3']);
    assert.equal(f.h.problems(), []);
  } finally {
    await f.close();
  }
});

test('more matches than the pool holds: source fills it first, so a use in code is ranked over a thousand lines of docs and test data that sort before it', async () => {
  const files: Record<string, string> = {};
  for (let n = 0; n < 6; n++)
    files[`Documentation/notes${n}.txt`] = Array.from({ length: 200 }, (_, i) => `call frobnicate() here, note ${i}`).join('\n') + '\n';
  for (let n = 0; n < 6; n++)
    files[`aa/testdata/case${n}.go`] = 'package testdata\n\n' + Array.from({ length: 100 }, (_, i) => `var v${i} = frobnicate()`).join('\n') + '\n';
  files['zz/src/app.go'] = 'package src\n\nfunc run() {\n\tfrobnicate()\n\tfrobnicate()\n}\n';
  const root = projectTree(files);
  const f = await indexed(root);
  try {
    const found = await call(f.client, 'search_code', { query: 'frobnicate', limit: 3 });
    // Then docs (after code and tests), before test data, vendored and generated code.
    assert.equal(places(found), ['zz/src/app.go:4', 'zz/src/app.go:5', 'Documentation/notes0.txt:1']);
    assert.is(found.structuredContent!.result_completeness, 'truncated');
    assert.match(String(found.structuredContent!.note), 'source first');
    // The same pool and order at the shell.
    const cli = await runCli(['search', '--rank', 'frobnicate', root, '--limit', '3'], '', { SEXTANT_HOME: f.home });
    assert.equal(
      cli.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(':').slice(0, 2).join(':')),
      places(found),
    );
    // Without --rank the CLI stays rg-like: path order, as found.
    const plain = await runCli(['search', 'frobnicate', root, '--limit', '1'], '', { SEXTANT_HOME: f.home });
    assert.match(plain.stdout, /^Documentation\/notes0\.txt:1:/);
  } finally {
    await f.close();
  }
});

test('signals: exact case over a case-insensitive match, exported over private, source over tests over test data, the shallower path at a tie', async () => {
  const root = projectTree({
    'pkg/fetch.go': 'package pkg\n\nfunc Fetch() int { return 1 }\n',
    'pkg/private.go': 'package pkg\n\nfunc fetch() int { return 2 }\n',
    'pkg/deeper/still/fetch_more.go': 'package still\n\nfunc Fetch() int { return 3 }\n',
    'pkg/fetch_test.go': 'package pkg\n\nfunc TestFetch(t *testing.T) { Fetch() }\n',
    'pkg/testdata/sample.go': 'package testdata\n\nfunc sample() { Fetch() }\n',
    'lib/api.py': 'def fetch():\n    return 1\n\ndef _fetch():\n    return 2\n',
    'pkg/zz_generated.go': '// Code generated by stringer; DO NOT EDIT.\n\npackage pkg\n\nfunc helper() { Fetch() }\n',
    'pkg/zz_defs.go': '// Code generated by a tool. DO NOT EDIT.\n\npackage pkg\n\nfunc Fetch() int { return 4 }\n',
  });
  const f = await indexed(root);
  try {
    const exact = await call(f.client, 'search_code', { query: 'Fetch', limit: 20 });
    const order = places(exact);
    const before = (a: string, b: string): void =>
      assert.ok(order.indexOf(a) >= 0 && order.indexOf(a) < order.indexOf(b), `${a} before ${b} in ${order.join(', ')}`);
    before('pkg/fetch.go:3', 'pkg/deeper/still/fetch_more.go:3'); // the same signals: the shallower path
    before('pkg/deeper/still/fetch_more.go:3', 'pkg/private.go:3'); // exact case and exported, over neither
    before('lib/api.py:1', 'lib/api.py:4'); // Python: public over _private (both lower case: case does not decide)
    before('pkg/fetch_test.go:3', 'pkg/testdata/sample.go:3'); // a use in a test over one in test data
    before('pkg/fetch_test.go:3', 'pkg/zz_generated.go:5'); // ...and over one in a file that says it is generated
    before('pkg/deeper/still/fetch_more.go:3', 'pkg/zz_defs.go:5'); // a generated definition after a written one
    const notes = new Map((exact.structuredContent!.results as Json[]).map((r) => [`${r.path}:${r.line}`, r.rank_notes as string[]]));
    assert.ok(notes.get('pkg/private.go:3')!.includes('private'));
    assert.ok(notes.get('lib/api.py:4')!.includes('private'));
    assert.ok(notes.get('pkg/fetch_test.go:3')!.includes('test path'));
    assert.ok(notes.get('pkg/testdata/sample.go:3')!.includes('test data path'));
    assert.ok(notes.get('pkg/zz_generated.go:5')!.includes('generated file'));
    assert.ok(notes.get('pkg/zz_defs.go:5')!.includes('generated file'));
    // Searched in lower case, the lower-case definitions are written as searched.
    const lower = await call(f.client, 'search_code', { query: 'fetch', limit: 3 });
    assert.equal(places(lower).slice(0, 2).sort(), ['lib/api.py:1', 'pkg/private.go:3']);
    // Case-sensitive: only the exact name is a definition of it.
    const sensitive = await call(f.client, 'search_code', { query: 'Fetch', case_sensitive: true, limit: 20 });
    assert.not.ok(places(sensitive).includes('pkg/private.go:3'));
    // get_code_context orders its definitions the same way: source before tests and test data.
    const context = await call(f.client, 'get_code_context', { query: 'Fetch', max_tokens: 2000 });
    const items = (context.structuredContent!.context_items as Json[]).map((item) => String(item.path));
    const lastSource = Math.max(...items.map((path, index) => (/testdata\/|_test\.go$/.test(path) ? -1 : index)));
    const firstLow = items.findIndex((path) => /testdata\/|_test\.go$/.test(path));
    assert.ok(firstLow < 0 || firstLow > lastSource, items.join(', '));
    assert.ok(items.includes('pkg/testdata/sample.go') && items.includes('pkg/fetch_test.go'), items.join(', '));
  } finally {
    await f.close();
  }
});

/** A tree indexed in this process (text and symbols), for the seeds' own tests. */
async function indexedProject(files: Record<string, string>) {
  const root = projectTree(files);
  const project = new Project(root, { home: mkdtempSync(join(tmpdir(), 'sextant-home-')) });
  const job = project.startJob('index');
  await job.finished;
  assert.is(job.status, 'completed', job.error?.message);
  return { root, project, symbols: project.symbols()! };
}

test('seeds are read once per generation of the symbols, and again when a seeded file changes', async () => {
  const { root, project, symbols } = await indexedProject({
    'pkg/fetch.go': 'package pkg\n\nfunc Fetch() int { return 1 }\n',
    'pkg/other.go': 'package pkg\n\nfunc other() { Fetch() }\n',
  });
  const query = { pattern: 'Fetch', caseSensitive: false, context: 0 };
  const first = definitionMatches(root, symbols, query).matches;
  assert.equal(
    first.map((match) => `${match.path}:${match.line}:${match.text}`),
    ['pkg/fetch.go:3:func Fetch() int { return 1 }'],
  );
  assert.is(definitionMatches(root, symbols, query).matches, first, 'the same query again: not read again');
  // Edited in place (same line, same symbols): its seed is read again.
  writeFileSync(join(root, 'pkg/fetch.go'), 'package pkg\n\nfunc Fetch() int { return 2 }\n');
  const later = new Date(Date.now() + 5_000);
  utimesSync(join(root, 'pkg/fetch.go'), later, later);
  assert.equal(
    definitionMatches(root, symbols, query).matches.map((match) => match.text),
    ['func Fetch() int { return 2 }'],
  );
  await project.close();
});

test('seeds narrowed by a glob or a language are chosen inside it: the cap never fills with files it excludes', async () => {
  const files: Record<string, string> = { 'z/keep/late.go': 'package keep\n\nfunc Fetch() int { return 0 }\n' };
  for (let n = 0; n < 60; n++) files[`a/f${String(n).padStart(2, '0')}.go`] = `package a\n\nfunc Fetch() int { return ${n} }\n`;
  const { root, project, symbols } = await indexedProject(files);
  const everywhere = definitionMatches(root, symbols, { pattern: 'Fetch', caseSensitive: true, context: 0 });
  assert.is(everywhere.matches.length, 50);
  assert.not.ok(everywhere.complete, '61 definitions, 50 seeded');
  const narrowed = definitionMatches(root, symbols, { pattern: 'Fetch', caseSensitive: true, context: 0, path: 'z/**' });
  assert.equal(
    narrowed.matches.map((match) => `${match.path}:${match.line}`),
    ['z/keep/late.go:3'],
  );
  assert.ok(narrowed.complete);
  await project.close();
});

test.run();
