import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { call, fixtureCopy, projectHarness, sdkClient } from '../helpers/projects.js';
import { type ToolResult, errorCode } from '../helpers/tool-result.js';
import { eventually, tick } from '../helpers/wait.js';

type Json = Record<string, unknown>;
const results = (result: ToolResult) => result.structuredContent!.results as Json[];

/** One indexed copy of the fixture repository, served over Streamable HTTP, for the read-only tools. */
async function indexedFixture() {
  const root = fixtureCopy('polyglot');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const h = await projectHarness({ workspaces: [root] }, home);
  const client = await sdkClient(h.http.urls.mcp);
  const indexed = await call(client, 'index_repo');
  assert.not.ok(indexed.isError, indexed.content[0]?.text);
  return { root, home, h, client, close: async () => (await client.close(), await h.close()) };
}

test('tools/list: every code tool with title, input and output schemas, truthful annotations', async () => {
  const f = await indexedFixture();
  try {
    const { tools } = await f.client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    assert.equal(names, [
      'find_related_symbols',
      'get_code_context',
      'get_file_outline',
      'get_symbol_hierarchy',
      'health_check',
      'index_repo',
      'index_status',
      'list_files',
      'list_projects',
      'locate_symbol',
      'read_file',
      'search_code',
      'sync_repo',
    ]);
    for (const tool of tools) {
      assert.ok(tool.title && (tool.description ?? '').length > 40, tool.name);
      assert.ok(tool.outputSchema, `${tool.name} has an outputSchema`);
      const readOnly = !['index_repo', 'sync_repo'].includes(tool.name);
      assert.is(tool.annotations?.readOnlyHint, readOnly, tool.name);
      if (tool.name !== 'health_check' && tool.name !== 'list_projects')
        assert.ok((tool.inputSchema.properties as Json).workspace, `${tool.name} takes workspace`);
    }
    assert.equal(f.h.problems(), []);
  } finally {
    await f.close();
  }
});

test('search_code: definitions and whole identifiers first, tests and vendored code last, enclosing symbols, cursor paging', async () => {
  const f = await indexedFixture();
  try {
    const found = await call(f.client, 'search_code', { query: 'getUserById' });
    assert.equal(
      results(found).map((r) => `${r.path}:${r.line}`),
      [
        'src/store/user-store.ts:12', // the definition
        'src/api/routes.ts:6', // a call, whole identifier
        'tests/user-store.test.ts:6', // a call in a test
        'vendor/leftpad/index.js:1', // vendored
        'tests/user-store.test.ts:3', // a test whose name only contains it
      ],
    );
    assert.is(results(found)[0]!.definition, true);
    assert.equal(results(found)[1]!.symbol, { name: 'handleGetUser', kind: 'function', qualified_name: 'handleGetUser', line: 5 });
    const structured = found.structuredContent!;
    assert.equal([structured.indexing_status, structured.result_completeness, structured.total_matches], ['ready', 'complete', 5]);
    assert.ok(typeof structured.updated_at === 'string');
    assert.match(found.content[0]!.text, 'src/store/user-store.ts:12:3:   getUserById(id: string)');
    // Pages: two at a time, following nextCursor, give the same five in the same order.
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(f.client, 'search_code', { query: 'getUserById', limit: 2, ...(cursor ? { cursor } : {}) });
      paged.push(...results(page).map((r) => `${r.path}:${r.line}`));
      cursor = page.structuredContent!.nextCursor as string | undefined;
    } while (cursor);
    assert.equal(
      paged,
      results(found).map((r) => `${r.path}:${r.line}`),
    );
    assert.is(errorCode(await call(f.client, 'search_code', { query: 'getUserById', cursor: 'bm9wZQ' })), 'invalid_input');
    // Filters, regex, context lines.
    assert.equal(
      results(await call(f.client, 'search_code', { query: 'def \\w+\\(', regex: true, language: 'python' })).map((r) => r.path),
      ['tools/audit.py', 'tools/report.py', 'tools/report.py', 'tools/report.py'],
    );
    const withContext = results(await call(f.client, 'search_code', { query: 'SALT_ROUNDS', case_sensitive: true, context_lines: 1, path: 'src/**' }))[0]!;
    assert.equal([withContext.path, withContext.before, withContext.after], ['src/store/crypto.ts', [''], []], 'no line after the last one');
    assert.is(errorCode(await call(f.client, 'search_code', { query: 'a(b', regex: true })), 'invalid_input');
    const unknownLanguage = await call(f.client, 'search_code', { query: 'x', language: 'klingon' });
    assert.is(errorCode(unknownLanguage), 'invalid_input');
    assert.match(unknownLanguage.content[0]!.text, 'typescript');
    assert.equal(f.h.problems(), []);
  } finally {
    await f.close();
  }
});

test('locate_symbol: exact, then case-insensitive, prefix and fuzzy; kind and language filters; symbol_not_found', async () => {
  const f = await indexedFixture();
  try {
    const exact = (await call(f.client, 'locate_symbol', { name: 'getUserById' })).structuredContent!.symbols as Json[];
    assert.equal(
      [exact[0]!.path, exact[0]!.line, exact[0]!.end_line, exact[0]!.kind, exact[0]!.qualified_name, exact[0]!.match],
      ['src/store/user-store.ts', 12, 14, 'method', 'UserStore.getUserById', 'exact'],
    );
    const fuzzy = (await call(f.client, 'locate_symbol', { name: 'gubi' })).structuredContent!.symbols as Json[];
    assert.equal(
      fuzzy.map((s) => [s.name, s.match]),
      [
        ['getUserById', 'fuzzy'],
        ['testGetUserById', 'fuzzy'],
      ],
    );
    const insensitive = (await call(f.client, 'locate_symbol', { name: 'userstore' })).structuredContent!.symbols as Json[];
    assert.equal(insensitive[0]!.match, 'case_insensitive');
    assert.equal(
      ((await call(f.client, 'locate_symbol', { name: 'audit', kind: 'function', language: 'python' })).structuredContent!.symbols as Json[]).map(
        (s) => s.path,
      ),
      ['tools/audit.py'],
    );
    assert.equal(((await call(f.client, 'locate_symbol', { name: 'Serv' })).structuredContent!.symbols as Json[])[0]!.match, 'prefix');
    assert.is(errorCode(await call(f.client, 'locate_symbol', { name: '._' })), 'symbol_not_found', 'separators alone match nothing');
    const missing = await call(f.client, 'locate_symbol', { name: 'qqqqzzzz' });
    assert.ok(missing.isError);
    assert.is(errorCode(missing), 'symbol_not_found');
    assert.equal(f.h.problems(), []);
  } finally {
    await f.close();
  }
});

test('get_file_outline: a nested tree; depth top; relative or absolute paths inside the workspace; escapes are invalid_input; file_not_found', async () => {
  const f = await indexedFixture();
  try {
    const outline = await call(f.client, 'get_file_outline', { path: 'src/store/user-store.ts' });
    const symbols = outline.structuredContent!.symbols as Json[];
    assert.equal(
      symbols.map((s) => s.name),
      ['User', 'UserStore', 'auditLog'],
    );
    assert.equal(
      (symbols[1]!.children as Json[]).map((s) => `${s.kind} ${s.name} ${s.line}-${s.end_line}`),
      ['method getUserById 12-14', 'method saveUser 16-20', 'method removeUser 22-25'],
    );
    assert.match(outline.content[0]!.text, '  method saveUser (16-20)');
    const top = (await call(f.client, 'get_file_outline', { path: join(f.root, 'src/store/user-store.ts'), depth: 'top' })).structuredContent!
      .symbols as Json[];
    assert.equal(
      top.map((s) => [s.name, 'children' in s]),
      [
        ['User', false],
        ['UserStore', false],
        ['auditLog', false],
      ],
    );
    symlinkSync('/etc', join(f.root, 'escape'));
    for (const path of ['../outside.ts', '/etc/passwd', 'src/../../x.ts', 'escape/passwd']) {
      const refused = await call(f.client, 'get_file_outline', { path });
      assert.is(errorCode(refused), 'invalid_input', path);
    }
    assert.is(errorCode(await call(f.client, 'get_file_outline', { path: 'src/nope.ts' })), 'file_not_found');
    assert.is(errorCode(await call(f.client, 'get_file_outline', { path: 'README.md' })), 'file_not_found');
    assert.equal(f.h.problems(), []);
  } finally {
    await f.close();
  }
});

test('get_symbol_hierarchy: ancestors and descendants; ambiguous_symbol lists candidates; path or a qualified name picks one', async () => {
  const f = await indexedFixture();
  try {
    const up = (await call(f.client, 'get_symbol_hierarchy', { symbol_name: 'saveUser' })).structuredContent!;
    assert.equal(
      (up.ancestors as Json[]).map((s) => s.qualified_name),
      ['UserStore'],
    );
    const down = (await call(f.client, 'get_symbol_hierarchy', { symbol_name: 'UserStore', direction: 'descendants' })).structuredContent!;
    assert.equal(
      (down.descendants as Json[]).map((s) => s.name),
      ['getUserById', 'saveUser', 'removeUser'],
    );
    const ambiguous = await call(f.client, 'get_symbol_hierarchy', { symbol_name: 'auditLog' });
    assert.is(errorCode(ambiguous), 'ambiguous_symbol');
    const candidates = (ambiguous._meta!['dev.sextant/error'] as { candidates: Json[] }).candidates;
    assert.equal(candidates.map((c) => c.path).sort(), ['src/store/user-store.ts', 'tools/audit.py']);
    const picked = (await call(f.client, 'get_symbol_hierarchy', { symbol_name: 'auditLog', path: 'tools/audit.py' })).structuredContent!;
    assert.is((picked.symbol as Json).language, 'python');
    assert.is(((await call(f.client, 'get_symbol_hierarchy', { symbol_name: 'Server.Start' })).structuredContent!.symbol as Json).path, 'service/main.go');
    assert.is(errorCode(await call(f.client, 'get_symbol_hierarchy', { symbol_name: 'noSuchThing' })), 'symbol_not_found');
    assert.equal(f.h.problems(), []);
  } finally {
    await f.close();
  }
});

test('find_related_symbols: calls, callers, siblings, imports, same file/module/package, each named', async () => {
  const f = await indexedFixture();
  try {
    const related = (args: Json) => call(f.client, 'find_related_symbols', args).then((r) => r.structuredContent!.related as Json[]);
    const save = await related({ symbol_name: 'saveUser', limit: 100 });
    const of = (relation: string) =>
      save.filter((r) => r.relation === relation).map((r) => (r.symbol ? `${(r.symbol as Json).qualified_name}@${r.path}` : `${r.detail}`));
    assert.ok(of('calls').includes('hashPassword@src/store/crypto.ts'), JSON.stringify(of('calls')));
    assert.ok(of('calls').includes('auditLog@src/store/user-store.ts'));
    assert.equal(of('called_by'), ['testGetUserById@tests/user-store.test.ts']);
    assert.equal(of('sibling'), ['UserStore.getUserById@src/store/user-store.ts', 'UserStore.removeUser@src/store/user-store.ts']);
    assert.equal(of('imports'), ["'./crypto'"]);
    assert.equal(of('same_module'), []);
    const byId = await related({ symbol_name: 'getUserById' });
    assert.equal(
      byId.filter((r) => r.relation === 'called_by').map((r) => (r.symbol as Json).name),
      ['handleGetUser', 'testGetUserById'],
    );
    const module = await related({ symbol_name: 'saveUser', scope: 'module', limit: 100 });
    assert.ok(module.some((r) => r.relation === 'same_module' && (r.symbol as Json).name === 'hashPassword'));
    const pkg = await related({ symbol_name: 'saveUser', scope: 'package', limit: 100 });
    assert.ok(pkg.some((r) => r.relation === 'same_package' && (r.symbol as Json).name === 'handleGetUser'));
    const limited = await call(f.client, 'find_related_symbols', { symbol_name: 'saveUser', scope: 'package', limit: 3 });
    assert.equal([(limited.structuredContent!.related as Json[]).length, limited.structuredContent!.result_completeness], [3, 'truncated']);
    assert.equal(f.h.problems(), []);
  } finally {
    await f.close();
  }
});

test('get_code_context: relevant definitions with their code, within max_tokens; truncation reported', async () => {
  const f = await indexedFixture();
  try {
    const context = (await call(f.client, 'get_code_context', { query: 'how does saveUser hash the password' })).structuredContent!;
    const items = context.context_items as Json[];
    assert.is(items[0]!.qualified_name, 'UserStore.saveUser');
    assert.ok(items.some((item) => item.name === 'hashPassword'));
    assert.match(items[0]!.code as string, 'hashPassword(password)');
    assert.ok((context.estimated_tokens as number) <= (context.max_tokens as number));
    assert.is(context.truncated, false);
    const small = (await call(f.client, 'get_code_context', { query: 'saveUser hashPassword UserStore auditLog', max_tokens: 150, strategy: 'depth' }))
      .structuredContent!;
    assert.ok((small.estimated_tokens as number) <= 150);
    assert.is(small.truncated, true);
    assert.ok((small.remaining_candidates as number) > 0);
    assert.is(small.result_completeness, 'truncated');
    assert.is(errorCode(await call(f.client, 'get_code_context', { query: '?? !!' })), 'invalid_input');
    assert.equal(f.h.problems(), []);
  } finally {
    await f.close();
  }
});

test('index_incompatible: an index of another format is reported, never read; index_repo with force rebuilds it', async () => {
  const f = await indexedFixture();
  try {
    const { IndexStore } = await import('../../src/index/store/store.js');
    const { readFileSync } = await import('node:fs');
    const store = new IndexStore(f.root, f.home);
    const manifest = JSON.parse(readFileSync(store.manifestPath, 'utf8')) as Json;
    writeFileSync(store.manifestPath, JSON.stringify({ ...manifest, format: 999 }));
    assert.is(errorCode(await call(f.client, 'search_code', { query: 'User' })), 'index_incompatible');
    assert.is(errorCode(await call(f.client, 'index_repo')), 'index_incompatible');
    assert.is((await call(f.client, 'index_status')).structuredContent!.indexing_status, 'failed');
    const rebuilt = await call(f.client, 'index_repo', { force: true });
    assert.not.ok(rebuilt.isError, rebuilt.content[0]?.text);
    assert.is(results(await call(f.client, 'search_code', { query: 'SALT_ROUNDS' })).length, 1);
    assert.equal(f.h.problems(), []);
  } finally {
    await f.close();
  }
});

test('pattern_too_expensive: a regex that backtracks for ever is stopped at the budget; the next search works', async () => {
  const root = fixtureCopy('polyglot');
  writeFileSync(join(root, 'evil.txt'), `${'a'.repeat(40)}!\n`);
  const h = await projectHarness({ workspaces: [root] }, mkdtempSync(join(tmpdir(), 'sextant-home-')), { searchBudgetMs: 300 });
  const client = await sdkClient(h.http.urls.mcp);
  try {
    await call(client, 'index_repo');
    const stopped = await call(client, 'search_code', { query: '(a+)+$', regex: true });
    assert.is(errorCode(stopped), 'pattern_too_expensive');
    assert.is(results(await call(client, 'search_code', { query: 'hashPassword' })).length, 3);
  } finally {
    await client.close();
    await h.close();
  }
});

test('output budget: a result that would be too large is cut whole items at a time, with a note and a cursor', async () => {
  const root = fixtureCopy('polyglot');
  const long = `${'x'.repeat(390)} budget_marker\n`;
  writeFileSync(join(root, 'big.txt'), long.repeat(400));
  const methods = Array.from({ length: 3_000 }, (_, i) => `  method${i}(value: number, other: string): number { return value + other.length + ${i}; }`).join(
    '\n',
  );
  writeFileSync(join(root, 'src/huge.ts'), `export class Huge {\n${methods}\n}\n`);
  const h = await projectHarness({ workspaces: [root] }, mkdtempSync(join(tmpdir(), 'sextant-home-')));
  const client = await sdkClient(h.http.urls.mcp);
  try {
    await call(client, 'index_repo');
    const { MAX_OUTPUT_CHARS } = await import('../../src/tools/limits.js');
    const big = await call(client, 'search_code', { query: 'budget_marker', limit: 200, context_lines: 5 });
    const size = JSON.stringify(big.structuredContent).length + big.content.reduce((sum, block) => sum + block.text.length, 0);
    assert.ok(size <= MAX_OUTPUT_CHARS, `${size} characters`);
    assert.ok(results(big).length < 200 && results(big).length > 0);
    assert.match(big.structuredContent!.note as string, 'output budget');
    assert.ok(big.structuredContent!.nextCursor);
    // A class with thousands of methods: the outline and the hierarchy are cut whole nodes at a time.
    for (const [name, args] of [
      ['get_file_outline', { path: 'src/huge.ts' }],
      ['get_symbol_hierarchy', { symbol_name: 'Huge', direction: 'descendants' }],
    ] as const) {
      const cut = await call(client, name, args);
      assert.not.ok(cut.isError, cut.content[0]?.text);
      const chars = JSON.stringify(cut.structuredContent).length + cut.content.reduce((sum, block) => sum + block.text.length, 0);
      assert.ok(chars <= MAX_OUTPUT_CHARS, `${name}: ${chars} characters`);
      assert.is(cut.structuredContent!.result_completeness, 'truncated', name);
      assert.match(cut.content[0]!.text, 'to stay within the output budget');
    }
    assert.equal(h.problems(), []);
  } finally {
    await client.close();
    await h.close();
  }
});

test('search_code says when files it could not search (over the size limit) may hold matches: partial, with the files named', async () => {
  const root = fixtureCopy('polyglot');
  writeFileSync(join(root, 'src/oversized.ts'), `export const getUserById_shadow = 1;\n${'// filler line\n'.repeat(300)}`);
  const saved = process.env.SEXTANT_MAX_FILE_BYTES;
  process.env.SEXTANT_MAX_FILE_BYTES = '3000';
  const h = await projectHarness({ workspaces: [root] }, mkdtempSync(join(tmpdir(), 'sextant-home-')));
  const client = await sdkClient(h.http.urls.mcp);
  try {
    await call(client, 'index_repo');
    const found = await call(client, 'search_code', { query: 'getUserById' });
    assert.is(found.structuredContent!.result_completeness, 'partial');
    assert.equal(found.structuredContent!.unsearched_files, { count: 1, examples: ['src/oversized.ts'] });
    assert.match(found.structuredContent!.note as string, 'not indexed (too large or unreadable), so not searched: src/oversized.ts');
    assert.ok(results(found).length > 0, 'the rest is still found');
    const status = await call(client, 'index_status');
    assert.equal((status.structuredContent!.skipped_files as Record<string, unknown>).tooLarge, { count: 1, examples: ['src/oversized.ts'] });
    assert.match(status.content[0]!.text, 'Skipped: 1 tooLarge (src/oversized.ts)');
    assert.equal(h.problems(), [], 'the new field is in the output schema');
  } finally {
    if (saved === undefined) delete process.env.SEXTANT_MAX_FILE_BYTES;
    else process.env.SEXTANT_MAX_FILE_BYTES = saved;
    await client.close();
    await h.close();
  }
});

test('--auto-index: an unindexed project starts indexing; searches answer from a direct scan, marked partial, then from the index', async () => {
  const root = fixtureCopy('polyglot');
  const h = await projectHarness({ workspaces: [root] }, mkdtempSync(join(tmpdir(), 'sextant-home-')), { autoIndex: true });
  const client = await sdkClient(h.http.urls.mcp);
  try {
    const first = await call(client, 'search_code', { query: 'hashPassword' });
    assert.not.ok(first.isError, first.content[0]?.text);
    assert.equal([first.structuredContent!.result_completeness, first.structuredContent!.indexing_status], ['partial', 'indexing']);
    assert.equal(
      results(first).map((r) => r.path),
      ['src/store/crypto.ts', 'src/store/user-store.ts', 'src/store/user-store.ts'],
    );
    assert.match(first.structuredContent!.note as string, 'direct scan');
    await eventually(async () => (await call(client, 'index_status')).structuredContent!.indexing_status === 'ready', 'indexing finished', 10_000, 50);
    const later = await call(client, 'search_code', { query: 'hashPassword' });
    assert.equal([later.structuredContent!.result_completeness, results(later)[0]!.definition], ['complete', true]);
    assert.equal(h.problems(), []);
  } finally {
    await client.close();
    await h.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('internal_error: a job that fails for a reason the caller cannot fix says so, and index_status keeps the failure', async () => {
  const root = fixtureCopy('polyglot');
  const notADirectory = join(mkdtempSync(join(tmpdir(), 'sextant-home-')), 'file');
  writeFileSync(notADirectory, 'the index home cannot live under a file\n');
  const h = await projectHarness({ workspaces: [root] }, notADirectory);
  const client = await sdkClient(h.http.urls.mcp);
  try {
    const failed = await call(client, 'index_repo');
    assert.is(errorCode(failed), 'internal_error');
    assert.match(failed.content[0]!.text, 'failed');
    const status = (await call(client, 'index_status')).structuredContent!;
    assert.equal([status.indexing_status, (status.last_job as Json).status], ['failed', 'failed']);
    assert.equal(h.problems(), []);
  } finally {
    await client.close();
    await h.close();
  }
});

test('revisions before structuredContent (2024-11-05, 2025-03-26) get the readable text and, after it, every field as JSON', async () => {
  const { connect } = await import('../helpers/connect.js');
  const { createSextantServer } = await import('../../src/server.js');
  const { ProjectService } = await import('../../src/workspace/projects.js');
  const { resolveWorkspaceConfig } = await import('../../src/workspace/config.js');
  const root = fixtureCopy('polyglot');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const projects = new ProjectService({ config: resolveWorkspaceConfig({ env: {}, workspaces: [root] }), home });
  try {
    for (const revision of ['2024-11-05', '2025-03-26', '2025-11-25'] as const) {
      const c = connect(createSextantServer({ projects }));
      await c.initialize(revision);
      // Every tool described as this revision defines tools (checked against its schema below).
      const listed = (await c.client.request('tools/list')) as { tools: Json[] };
      assert.is(listed.tools.length, 13);
      assert.is(
        listed.tools.every((tool) => 'outputSchema' in tool),
        revision >= '2025-06-18',
      );
      if (revision === '2024-11-05') await c.client.request('tools/call', { name: 'index_repo', arguments: {} });
      const result = (await c.client.request('tools/call', { name: 'search_code', arguments: { query: 'getUserById', limit: 2 } })) as unknown as ToolResult;
      const texts = result.content.map((block) => block.text);
      assert.match(texts[0]!, 'src/store/user-store.ts:12:3:');
      // (A session's first answer may also carry the one-time roots hint.)
      const hinted = texts.some((text) => text.startsWith('Hint:')) ? 1 : 0;
      if (revision === '2025-11-25') {
        assert.is(texts.length, 1 + hinted);
        assert.ok(result.structuredContent!.nextCursor);
      } else {
        assert.not.ok('structuredContent' in result);
        assert.is(texts.length, 2 + hinted);
        const fields = JSON.parse(texts.at(-1)!) as Json;
        assert.ok(fields.nextCursor, 'the cursor reaches older clients too');
        assert.is((fields.results as Json[]).length, 2);
      }
      await tick(); // what was queued on the in-memory link is delivered
      assert.equal(c.checker.problems, [], revision);
      c.close();
    }
  } finally {
    await projects.close();
  }
});

test.run();
