/**
 * Reliability: what an answer may cost. Every answer respects the output cap, errors included
 * (an error quotes its input only in part); a page always moves on; a recording that cannot be
 * written stops the server at once with a clear error instead of a server that answers nothing.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli, stopAll } from '../helpers/process.js';
import { projectTree } from '../helpers/projects.js';
import { stdioRpc } from '../helpers/stdio-rpc.js';
import { errorCode } from '../helpers/tool-result.js';

test.after.each(() => stopAll());

const CAP = 48_000;

async function indexedServer(files: Record<string, string>) {
  const root = projectTree(files);
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const indexed = await runCli(['index', root], '', { SEXTANT_HOME: home });
  assert.is(indexed.code, 0, indexed.stderr);
  return { root, home, rpc: await stdioRpc({ SEXTANT_HOME: home, SEXTANT_PROJECT: root }) };
}

const textOf = (result: { content: Array<{ text: string }> }): string => result.content.map((item) => item.text).join('\n');

test('a definition at the end of a 117,751-character line is shown, clipped around it; paging over long lines moves on', async () => {
  const long = `var data = "${'x'.repeat(117_700)}"; function targetAtEnd() { return 1; }`;
  // Hand-written lines after it: not minified, so its symbols are parsed and the definition is seeded from them.
  const files: Record<string, string> = { 'bundle.js': `${long}\n${Array.from({ length: 400 }, (_, i) => `var short${i} = ${i};`).join('\n')}\n` };
  for (let i = 0; i < 30; i++) files[`many/f${i}.js`] = `var pad${i} = "${'y'.repeat(60_000)}"; var longMarker${i} = ${i};\n`;
  const { rpc } = await indexedServer(files);
  const found = await rpc.tool('search_code', { query: 'targetAtEnd' });
  const results = found.structuredContent!.results as Array<{ line: number; column: number; text: string; clipped?: boolean }>;
  assert.is(results.length, 1, textOf(found).slice(0, 500));
  assert.is(found.structuredContent!.nextCursor, undefined);
  assert.ok(results[0]!.clipped);
  assert.ok(results[0]!.text.length <= 1_002, `clipped to about 1,000 characters, not ${results[0]!.text.length}`);
  assert.match(results[0]!.text, 'function targetAtEnd()');
  assert.is(long.indexOf('targetAtEnd') + 1, results[0]!.column, 'the column is the real one');
  assert.match(textOf(found), /showing 1-1:/);
  // Thirty matches on 60,000-character lines: every page shows some, and the cursor moves on to the end.
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < 40; page++) {
    const answer = await rpc.tool('search_code', { query: 'longMarker', limit: 7, ...(cursor ? { cursor } : {}) });
    const items = answer.structuredContent!.results as Array<{ path: string }>;
    assert.ok(items.length > 0, `page ${page} showed nothing`);
    assert.ok(textOf(answer).length + JSON.stringify(answer.structuredContent).length < CAP + 2_000);
    for (const item of items) seen.add(item.path);
    cursor = answer.structuredContent!.nextCursor as string | undefined;
    if (!cursor) break;
  }
  assert.is(seen.size, 30);
  await rpc.close();
});

test('errors quote their input only in part: huge names, paths, queries, globs and unknown arguments give small answers', async () => {
  const { rpc } = await indexedServer({ 'a.go': 'package a\n\nfunc Alpha() {}\n' });
  const mega = 'N'.repeat(1 << 20);
  for (const [name, args] of [
    ['locate_symbol', { name: mega }],
    ['get_file_outline', { path: mega }],
    ['get_symbol_hierarchy', { symbol_name: mega }],
    ['find_related_symbols', { symbol_name: mega }],
    ['get_code_context', { query: mega }],
    ['index_status', { workspace: `/${mega}` }],
    ['search_code', { query: 'Alpha', path: `${'*'.repeat(100_000)}.go` }],
  ] as Array<[string, Record<string, unknown>]>) {
    const result = await rpc.tool(name, args, 60_000);
    assert.ok(result.isError, `${name}: refused`);
    assert.is(errorCode(result), 'invalid_input', `${name}: ${textOf(result).slice(0, 200)}`);
    assert.ok(JSON.stringify(result).length < 5_000, `${name}: ${JSON.stringify(result).length} characters`);
  }
  // A megabyte literal is searched (as a literal), and only a part of it quoted.
  const literal = await rpc.tool('search_code', { query: mega }, 60_000);
  assert.not.ok(literal.isError);
  assert.ok(JSON.stringify(literal).length < 5_000, `${JSON.stringify(literal).length} characters`);
  const unknown: Record<string, unknown> = { query: 'Alpha' };
  for (let i = 0; i < 100_000; i++) unknown[`k${i}`] = i;
  const many = await rpc.tool('search_code', unknown, 60_000);
  assert.is(errorCode(many), 'invalid_input');
  assert.match(textOf(many), /and 99990 more unknown arguments/);
  assert.ok(JSON.stringify(many).length < 2_000);
  // A protocol error quotes in part too.
  const tool = await rpc.request('tools/call', { name: `nope${mega}`, arguments: {} });
  assert.is(tool.error?.code, -32602);
  assert.ok(JSON.stringify(tool.error).length < 6_000, `${JSON.stringify(tool.error).length} characters`);
  assert.equal((await rpc.request('ping')).result, {});
  await rpc.close();
});

test('serve --record to a file that cannot be written: a clear error and exit code 2, at once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-record-'));
  for (const file of [join(dir, 'missing', 'session.jsonl'), dir]) {
    const run = await runCli(['serve', '--record', file], '', { SEXTANT_HOME: join(dir, 'home') });
    assert.is(run.code, 2, run.stderr);
    assert.match(run.stderr, `Cannot record to ${file}`);
    assert.is(run.stdout, '');
  }
});

test('a minified bundle and a file past the parse limit are searched as text, given no symbols, and named by index_status', async () => {
  const bundle = Array.from({ length: 60_000 }, (_, i) => `var a${i}=function(b){return b+${i}},k${i}={x:a${i}};`).join('');
  const huge = Array.from({ length: 400_000 }, (_, i) => `function huge${i}() { return ${i}; }`).join('\n');
  assert.ok(huge.length > 10 * 1024 * 1024);
  const { root, home, rpc } = await indexedServer({
    'bundle.js': `${bundle}\n`,
    'huge.js': `${huge}\n`,
    'app.js': 'export function appMain() {\n  return 1;\n}\n',
  });
  const status = await rpc.tool('index_status');
  const skipped = status.structuredContent!.skipped_files as Record<string, { count: number; examples: string[] }>;
  assert.equal(skipped.minified, { count: 1, examples: ['bundle.js'] });
  assert.equal(skipped.tooLargeToParse, { count: 1, examples: ['huge.js'] });
  assert.match(textOf(status), 'Searched as text, without symbols: 1 minified (bundle.js), 1 tooLargeToParse (huge.js).');
  // As text, both are searched; the hand-written file has its symbols.
  assert.is(((await rpc.tool('search_code', { query: 'k59999={x:a59999}' })).structuredContent!.results as unknown[]).length, 1);
  assert.is(((await rpc.tool('search_code', { query: 'function huge399999' })).structuredContent!.results as unknown[]).length, 1);
  const located = await rpc.tool('locate_symbol', { name: 'appMain' });
  assert.not.ok(located.isError, textOf(located));
  await rpc.close();
  // A sync keeps the account: the bundle edited is still unparsed, once; gone, it leaves the list.
  const { writeFileSync, rmSync } = await import('node:fs');
  writeFileSync(join(root, 'bundle.js'), `${bundle}var more=1;\n`);
  rmSync(join(root, 'huge.js'));
  assert.is((await runCli(['sync', root], '', { SEXTANT_HOME: home })).code, 0);
  const again = await stdioRpc({ SEXTANT_HOME: home, SEXTANT_PROJECT: root });
  const after = (await again.tool('index_status')).structuredContent!.skipped_files as Record<string, { count: number; examples: string[] }>;
  assert.equal(after.minified, { count: 1, examples: ['bundle.js'] });
  assert.is(after.tooLargeToParse, undefined);
  await again.close();
});

test.run();
