/**
 * What a model reads when its client passes on only `content`: every fact a tool promises is in
 * the text (candidates of an ambiguous name, context lines, the enclosing symbol, the next cursor,
 * where an outline continues); exact hits without fuzzy padding; counts in English; and symbol
 * answers that never name a file removed while no server ran.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IndexStore } from '../../src/index/store/store.js';
import { SymbolIndex } from '../../src/index/symbols/symbol-index.js';
import { rootsHint } from '../../src/workspace/detect.js';
import { call, projectHarness, projectTree, sdkClient, withIndexedProject } from '../helpers/projects.js';
import { type ToolResult, errorCode } from '../helpers/tool-result.js';
import { eventually } from '../helpers/wait.js';

type Client = Awaited<ReturnType<typeof sdkClient>>;
const text = (result: ToolResult): string => result.content.map((block) => block.text).join('\n');

const manyFunctions = Array.from({ length: 1500 }, (_, index) => `def handler_${index}(request, response, context):\n    return ${index}\n`).join('\n');

const FILES = {
  'token.py': '"""Token constants."""\n\nENDMARKER = 0\nNAME = 1\nRSQB = 10\n\n\ndef ISTERMINAL(x):\n    return x < 256\n',
  'look/alike.py': 'def rewrite_s_q_b(value):\n    return value\n\n\ndef R_S_Q_B_table():\n    return {}\n',
  'a/jobs.py': 'def run(job):\n    return job.start()\n',
  'b/jobs.py': 'def run(job):\n    return job.stop()\n',
  'app/service.py':
    'class Service:\n    def start(self):\n        first = 1\n        second = 2\n        marker_call(first, second)\n        third = 3\n        return third\n',
  'big/handlers.py': manyFunctions,
};

const withIndexed = (work: (client: Client, root: string) => Promise<void>): Promise<void> => withIndexedProject(FILES, work);

test('ambiguous_symbol lists its candidates in the text', async () => {
  await withIndexed(async (client) => {
    const result = await call(client, 'get_symbol_hierarchy', { symbol_name: 'run' });
    assert.ok(result.isError);
    assert.is(errorCode(result), 'ambiguous_symbol');
    assert.match(text(result), 'a/jobs.py:1: function run');
    assert.match(text(result), 'b/jobs.py:1: function run');
  });
});

test('search_code: context lines, the enclosing symbol and the next cursor are in the text', async () => {
  await withIndexed(async (client) => {
    const withContext = await call(client, 'search_code', { query: 'marker_call', context_lines: 1 });
    const lines = text(withContext).split('\n');
    assert.ok(lines.includes('app/service.py-4-        second = 2'), text(withContext));
    assert.ok(lines.includes('app/service.py:5:9:         marker_call(first, second)  [in method Service.start]'), text(withContext));
    assert.ok(lines.includes('app/service.py-6-        third = 3'), text(withContext));

    // Two pages, the second reached with the cursor as the text gives it.
    const first = await call(client, 'search_code', { query: 'return job', limit: 1 });
    const cursor = /cursor "([^"]+)"/.exec(text(first))?.[1];
    assert.ok(cursor, text(first));
    assert.is(cursor, first.structuredContent!.nextCursor);
    const second = await call(client, 'search_code', { query: 'return job', limit: 1, cursor });
    assert.not.ok(second.isError, text(second));
    assert.match(text(second), 'showing 2-2');
    assert.not.match(text(second), 'cursor "');
  });
});

test('get_file_outline pages a large file: the text says where to continue, and the pages cover every symbol once', async () => {
  await withIndexed(async (client) => {
    const names = new Set<string>();
    let startLine: number | undefined;
    for (let page = 0; page < 20; page++) {
      const result = await call(client, 'get_file_outline', { path: 'big/handlers.py', ...(startLine ? { start_line: startLine } : {}) });
      assert.not.ok(result.isError, text(result));
      for (const match of text(result).matchAll(/^function (handler_\d+) /gm)) {
        assert.not.ok(names.has(match[1]!), `${match[1]} listed twice`);
        names.add(match[1]!);
      }
      const next = /continue with start_line (\d+)/.exec(text(result))?.[1];
      assert.is(result.structuredContent!.next_start_line, next === undefined ? undefined : Number(next));
      if (next === undefined) break;
      assert.ok(page === 0 || Number(next) > startLine!, 'each page moves on');
      startLine = Number(next);
    }
    assert.ok(startLine !== undefined, 'the file needed more than one page');
    assert.is(names.size, 1500);
    const range = await call(client, 'get_file_outline', { path: 'big/handlers.py', start_line: 4, end_line: 8 });
    assert.match(text(range), 'lines 4-8: 2 symbols');
    const backwards = await call(client, 'get_file_outline', { path: 'big/handlers.py', start_line: 9, end_line: 8 });
    assert.is(errorCode(backwards), 'invalid_input');
  });
});

test('Python module variables: the definition line and its own range, not the whole module', async () => {
  await withIndexed(async (client) => {
    const found = await call(client, 'locate_symbol', { name: 'RSQB' });
    assert.match(text(found), 'token.py:5: variable RSQB [exact]  RSQB = 10');
    const outline = await call(client, 'get_file_outline', { path: 'token.py', depth: 'top' });
    assert.equal(text(outline).split('\n').slice(1, 5), [
      'variable ENDMARKER (3-3)  ENDMARKER = 0',
      'variable NAME (4-4)  NAME = 1',
      'variable RSQB (5-5)  RSQB = 10',
      'function ISTERMINAL (8-9)  def ISTERMINAL(x)',
    ]);
  });
});

test('locate_symbol: fuzzy look-alikes only when nothing closer exists; counts in English', async () => {
  await withIndexed(async (client) => {
    const exact = await call(client, 'locate_symbol', { name: 'RSQB' });
    assert.match(text(exact), /^1 definition for "RSQB":/);
    assert.not.match(text(exact), 'rewrite_s_q_b');
    assert.not.match(text(exact), '[fuzzy]');
    assert.match(text(exact), 'fuzzy look-alikes left out');
    assert.is(exact.structuredContent!.fuzzy_omitted, true);
    assert.equal(
      (exact.structuredContent!.symbols as Array<{ name: string }>).map((symbol) => symbol.name),
      ['RSQB'],
    );

    const fuzzy = await call(client, 'locate_symbol', { name: 'rsqbtable' });
    assert.match(text(fuzzy), 'R_S_Q_B_table [fuzzy]');
    assert.is(fuzzy.structuredContent!.fuzzy_omitted, undefined);
  });
});

test('a regex syntax error gets a regex remedy; a path outside the workspace a path remedy', async () => {
  await withIndexed(async (client) => {
    const regex = await call(client, 'search_code', { query: 'foo(', regex: true });
    assert.is(errorCode(regex), 'invalid_input');
    assert.match(text(regex), 'Remedy: Fix the regular expression');
    assert.not.match(text(regex), 'workspace');
    const path = await call(client, 'get_file_outline', { path: '../elsewhere.py' });
    assert.is(errorCode(path), 'invalid_input');
    assert.match(text(path), 'Remedy: Use a path inside the workspace');
  });
});

test('the roots hint names where the project came from', () => {
  assert.match(rootsHint('cwd'), "came from the server's working directory (--project-from-cwd)");
  assert.match(rootsHint('command_line'), "came from the server's --workspace option");
  assert.match(rootsHint('environment'), 'came from the SEXTANT_PROJECT environment variable');
});

test('fresh at open: a directory removed while no server ran is absent from the first answer, then from the index', async () => {
  const root = projectTree({ 'keep/a.py': 'def shared_name():\n    return 1\n', 'gone/b.py': 'def shared_name():\n    return 2\n' });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  try {
    const first = await projectHarness({ workspaces: [root] }, home);
    const firstClient = await sdkClient(first.http.urls.mcp);
    assert.not.ok((await call(firstClient, 'index_repo')).isError);
    assert.match(text(await call(firstClient, 'locate_symbol', { name: 'shared_name' })), 'gone/b.py');
    await firstClient.close();
    await first.close();

    rmSync(join(root, 'gone'), { recursive: true });

    const second = await projectHarness({ workspaces: [root] }, home, { watch: true });
    const client = await sdkClient(second.http.urls.mcp);
    try {
      const found = await call(client, 'locate_symbol', { name: 'shared_name' });
      assert.match(text(found), 'keep/a.py:1: function shared_name');
      assert.not.match(text(found), 'gone/b.py');
      const ambiguous = await call(client, 'get_symbol_hierarchy', { symbol_name: 'shared_name' });
      assert.not.ok(ambiguous.isError, text(ambiguous));
      // Opening the project reconciled the index with the disk: the removed file leaves the index itself.
      const store = new IndexStore(root, home);
      await eventually(() => !SymbolIndex.open(store)?.covers('gone/b.py'), 'the reconciliation at open dropped the removed file', 30_000, 50);
    } finally {
      await client.close();
      await second.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

test.run();
