/**
 * Reliability: what a caller's search input can do to the server. No pattern may run unbounded
 * on the main thread; long literals are literals; a path glob that leaves the workspace is an
 * error, not "no matches".
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli, stopAll } from '../../helpers/process.js';
import { projectTree } from '../../helpers/projects.js';
import { stdioRpc } from '../../helpers/stdio-rpc.js';
import { errorCode } from '../../helpers/tool-result.js';

test.after.each(() => stopAll());

async function indexedServer(files: Record<string, string>) {
  const root = projectTree(files);
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const indexed = await runCli(['index', root], '', { SEXTANT_HOME: home });
  assert.is(indexed.code, 0, indexed.stderr);
  const rpc = await stdioRpc({ SEXTANT_HOME: home, SEXTANT_PROJECT: root });
  return { root, home, rpc };
}

test('a regex that backtracks on a symbol name cannot hang the server: pings are answered, the search answers, SIGTERM stops it', async () => {
  const { rpc } = await indexedServer({ 'evil.go': `package evil\n\nfunc ${'a'.repeat(36)}X() {}\n` });
  // The line search is quick (the first alternative matches); ranking used to run the whole
  // regex again on the symbol name on the main thread, where `^(a+)+$` backtracks for ever.
  const search = rpc.tool('search_code', { query: 'aaaa[a]*X\\(|^(a+)+$', regex: true, path: 'evil.go' }, 30_000);
  const ping = await rpc.request('ping', {}, 15_000);
  assert.equal(ping.result, {});
  const result = await search;
  assert.not.ok(result.isError, JSON.stringify(result));
  const results = result.structuredContent!.results as Array<{ path: string; line: number; definition?: boolean }>;
  assert.equal(
    results.map((item) => [item.path, item.line]),
    [['evil.go', 3]],
  );
  // The regex matched exactly the name on its defining line: still ranked as the definition.
  assert.is(results[0]!.definition, undefined, 'the match is the name and its parenthesis, not the name alone');
  const named = await rpc.tool('search_code', { query: 'a+X', regex: true, path: 'evil.go' });
  assert.is((named.structuredContent!.results as Array<{ definition?: boolean }>)[0]!.definition, true);
  // A blocked main thread would never run the SIGTERM handler: `exit` would reject after 15 s.
  rpc.server.child.kill('SIGTERM');
  const exit = await rpc.server.exit;
  assert.is(exit.code, 0, 'stopped cleanly by its own SIGTERM handler');
});

test('a 2 MB literal is searched as a literal: no regex compile, no tool failure, the pattern is not logged whole', async () => {
  const line = `${'Lorem ipsum dolor sit amet, '.repeat(12)}end`;
  const { rpc } = await indexedServer({ 'long.txt': `${line}\nother\n`, 'b.txt': 'nothing here\n' });
  try {
    const huge = rpc.tool('search_code', { query: 'x'.repeat(2 * 1024 * 1024) }, 30_000);
    const ping = await rpc.request('ping', {}, 15_000);
    assert.equal(ping.result, {});
    const answer = await huge;
    assert.not.ok(answer.isError, answer.content[0]?.text.slice(0, 300));
    assert.equal(answer.structuredContent!.results, []);
    // A long literal, case-insensitive, that does occur: found, at the right column.
    const found = await rpc.tool('search_code', { query: line.toUpperCase() });
    assert.not.ok(found.isError, found.content[0]?.text.slice(0, 300));
    assert.equal(
      (found.structuredContent!.results as Array<{ path: string; column: number }>).map((item) => [item.path, item.column]),
      [['long.txt', 1]],
    );
    const shifted = await rpc.tool('search_code', { query: line.slice(5).toUpperCase() });
    assert.equal(
      (shifted.structuredContent!.results as Array<{ column: number }>).map((item) => item.column),
      [6],
    );
    // A regex that long is refused with a clear error, quoting only the start of it.
    const longRegex = await rpc.tool('search_code', { query: `(${'a'.repeat(20_000)})`, regex: true });
    assert.is(errorCode(longRegex), 'invalid_input');
    assert.ok(longRegex.content[0]!.text.length < 2_000, `${longRegex.content[0]!.text.length} characters`);
    assert.not.match(rpc.server.stderr(), 'x'.repeat(1_000));
  } finally {
    await rpc.close();
  }
});

test('a search_code path glob outside the workspace is invalid_input; absolute globs inside it work', async () => {
  const { root, rpc } = await indexedServer({ 'src/a.ts': 'export const needle = 1;\n', 'lib/b.ts': 'const needle = 2;\n' });
  try {
    for (const path of ['/etc/**', '../**', 'src/../../*', `${root}-other/**`, 'src/[z-a].ts']) {
      const answer = await rpc.tool('search_code', { query: 'needle', path });
      assert.is(errorCode(answer), 'invalid_input', `${path}: ${answer.content[0]?.text}`);
    }
    const inside = await rpc.tool('search_code', { query: 'needle', path: `${root}/src/**` });
    assert.equal(
      (inside.structuredContent!.results as Array<{ path: string }>).map((item) => item.path),
      ['src/a.ts'],
    );
    const dotted = await rpc.tool('search_code', { query: 'needle', path: 'src/../lib/*.ts' });
    assert.equal(
      (dotted.structuredContent!.results as Array<{ path: string }>).map((item) => item.path),
      ['lib/b.ts'],
    );
  } finally {
    await rpc.close();
  }
});

test('a catastrophic regex in the line search is stopped at the budget, and the server keeps answering', async () => {
  const { rpc, root } = await indexedServer({ 'a.txt': `${'a'.repeat(40)}!\n` });
  writeFileSync(join(root, 'b.txt'), 'fine\n');
  try {
    const stopped = rpc.tool('search_code', { query: '(a+)+$', regex: true }, 30_000);
    assert.equal((await rpc.request('ping', {}, 15_000)).result, {});
    assert.is(errorCode(await stopped), 'pattern_too_expensive');
    const after = await rpc.tool('search_code', { query: 'aaaa' });
    assert.is((after.structuredContent!.results as unknown[]).length, 1);
  } finally {
    await rpc.close();
  }
});

test("a file replaced by a FIFO since indexing is skipped by the server's search, not waited on", async () => {
  const { rpc, root } = await indexedServer({ 'plain.ts': 'export const fifoServerMarker = 1;\n', 'pipe.ts': 'export const fifoServerMarker = 2;\n' });
  try {
    rmSync(join(root, 'pipe.ts'));
    execFileSync('mkfifo', [join(root, 'pipe.ts')]);
    const found = await rpc.tool('search_code', { query: 'fifoServerMarker' }, 30_000);
    assert.not.ok(found.isError, JSON.stringify(found));
    assert.equal(
      (found.structuredContent!.results as Array<{ path: string }>).map((result) => result.path),
      ['plain.ts'],
    );
  } finally {
    await rpc.close();
  }
});

test('a search budget never pays for a worker cold start: first search, and the one after a killed search, answer within a 300 ms budget', async () => {
  // A worker's cold start (thread, modules, opening the index) takes 100-200 ms on an idle
  // machine of this kind and far more on a loaded one; a search of this tree about a millisecond.
  // The budget must cover only the search. 300 ms (as index-store's budget test) leaves a trivial
  // search room for a loaded machine's pauses, while a budget charged with the cold start fails
  // whenever that start is slow.
  const { buildIndex } = await import('../../../src/index/build/indexer.js');
  const { SearchService } = await import('../../../src/index/search/threads/service.js');
  const { PatternTooExpensiveError } = await import('../../../src/index/search/reader.js');
  const root = projectTree({ 'evil.txt': `${'a'.repeat(40)}!\n`, 'ok.txt': 'fine line\n' });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const service = new SearchService(root, { home, budgetMs: 300, workers: 2 });
  try {
    assert.equal(
      (await service.search({ pattern: 'fine' })).matches.map((match) => match.path),
      ['ok.txt'],
    );
    try {
      await service.search({ pattern: '(a+)+$', regex: true });
      assert.unreachable('this regex backtracks for ever');
    } catch (error) {
      assert.instance(error, PatternTooExpensiveError);
    }
    for (let i = 0; i < 3; i++)
      assert.equal(
        (await service.search({ pattern: 'fine' })).matches.map((match) => match.path),
        ['ok.txt'],
      );
  } finally {
    await service.close();
  }
});

test('the CLI stops a catastrophic regex at its budget with a clear error, and a file turned FIFO since indexing is no hang', async () => {
  const root = projectTree({ 'evil.txt': `${'a'.repeat(40)}!\n`, 'plain.ts': 'export const fifoMarker = 1;\n', 'pipe.ts': 'export const fifoMarker = 2;\n' });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  assert.is((await runCli(['index', root], '', { SEXTANT_HOME: home })).code, 0);
  const evil = await runCli(['search', '--regex', '(a+)+$', root], '', { SEXTANT_HOME: home });
  assert.is(evil.code, 2, evil.stdout);
  assert.match(evil.stderr, 'too expensive');
  // Replaced by a named pipe nobody writes to: reading it must not wait for ever.
  rmSync(join(root, 'pipe.ts'));
  execFileSync('mkfifo', [join(root, 'pipe.ts')]);
  const found = await runCli(['search', 'fifoMarker', root], '', { SEXTANT_HOME: home });
  assert.is(found.code, 0, found.stderr);
  assert.is(found.stdout, 'plain.ts:1:14: export const fifoMarker = 1;\n');
});

test.run();
