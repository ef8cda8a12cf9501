/**
 * find_related_symbols says how sure each call is: a definition found in the same file, through
 * an import, or through self/this is told apart from a guess by name, and built-ins and calls
 * into code outside the project name no definition. Checked in Python, TypeScript and Go.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { call, sdkClient, withIndexedProject } from '../helpers/projects.js';
import { type ToolResult } from '../helpers/tool-result.js';

type Client = Awaited<ReturnType<typeof sdkClient>>;
const text = (result: ToolResult): string => result.content.map((block) => block.text).join('\n');

const FILES = {
  'pkg/util.py': 'def helper():\n    return 1\n',
  'pkg/other.py': 'def helper():\n    return 2\n',
  'pkg/main.py':
    'from pkg.util import helper\nimport warnings\n\n\nclass Job:\n    def step(self):\n        return 1\n\n    def run(self):\n        helper()\n        self.step()\n        warnings.warn("x")\n        len([])\n        local()\n\n\ndef local():\n    return 0\n',
  'src/a.ts': 'export function fetchUser(): number {\n  return 1;\n}\n',
  'src/b.ts': 'export function fetchUser(): number {\n  return 2;\n}\n',
  'server/client.go': 'package server\n\ntype Client struct{}\n\nfunc (c *Client) Get() int { return 1 }\n',
  'cmd/main.go': 'package main\n\nimport "net/http"\n\nfunc fetch() {\n\thttp.Get("x")\n}\n',
  'src/c.ts': "import { fetchUser } from '../a';\n\nexport function main(): number {\n  return fetchUser();\n}\n",
};

const withIndexed = (work: (client: Client, root: string) => Promise<void>): Promise<void> => withIndexedProject(FILES, work);

type Related = { relation: string; resolution?: string; symbol?: { qualified_name: string; path: string }; detail?: string };

test('Python: imported, receiver, same file, builtin and unresolved calls, each said in text and structure', async () => {
  await withIndexed(async (client) => {
    const result = await call(client, 'find_related_symbols', { symbol_name: 'Job.run' });
    assert.not.ok(result.isError, text(result));
    const lines = text(result).split('\n');
    assert.ok(
      lines.some((line) => line.startsWith('calls: function helper (pkg/util.py:1) at line 10 [imported:')),
      text(result),
    );
    assert.ok(
      lines.some((line) => line.startsWith('calls: method Job.step (pkg/main.py:6) at line 11 [receiver:')),
      text(result),
    );
    assert.ok(
      lines.some((line) => line.startsWith('calls: warn at pkg/main.py:12 [unresolved:')),
      text(result),
    );
    assert.ok(
      lines.some((line) => line.startsWith('calls: len at pkg/main.py:13 [builtin:')),
      text(result),
    );
    assert.ok(
      lines.some((line) => line.startsWith('calls: function local (pkg/main.py:17) at line 14 [same_file:')),
      text(result),
    );
    const calls = (result.structuredContent!.related as Related[]).filter((entry) => entry.relation === 'calls');
    assert.equal(
      calls.map((entry) => `${entry.symbol?.qualified_name ?? entry.detail} ${entry.resolution}`),
      ['helper imported', 'Job.step receiver', 'warn unresolved', 'len builtin', 'local same_file'],
    );
    assert.ok(
      calls.filter((entry) => entry.resolution === 'builtin' || entry.resolution === 'unresolved').every((entry) => entry.symbol === undefined),
      'no definition for built-ins',
    );

    // The caller imports pkg.util: it calls util's helper, not other's.
    const util = await call(client, 'find_related_symbols', { symbol_name: 'helper', path: 'pkg/util.py' });
    assert.match(text(util), /called_by: method Job\.run \(pkg\/main\.py:9\) at line 10 \[imported:/);
    const other = await call(client, 'find_related_symbols', { symbol_name: 'helper', path: 'pkg/other.py' });
    assert.not.match(text(other), 'called_by');

    // Past the limit, entries are counted, not listed.
    const capped = await call(client, 'find_related_symbols', { symbol_name: 'Job.run', limit: 2 });
    assert.is((capped.structuredContent!.related as Related[]).length, 2);
    assert.ok((capped.structuredContent!.total_related as number) > 2);
    assert.match(text(capped), 'first 2 shown (raise limit for more)');
  });
});

test('TypeScript: a call resolved through its import, not to the namesake in another file', async () => {
  await withIndexed(async (client) => {
    const result = await call(client, 'find_related_symbols', { symbol_name: 'main' });
    assert.match(text(result), /calls: function fetchUser \(src\/a\.ts:1\) at line 4 \[imported:/);
    const namesake = await call(client, 'find_related_symbols', { symbol_name: 'fetchUser', path: 'src/b.ts' });
    assert.not.match(text(namesake), 'called_by');
  });
});

test('Go: a call through an imported package outside the project is unresolved, not a method of the same name', async () => {
  await withIndexed(async (client) => {
    const result = await call(client, 'find_related_symbols', { symbol_name: 'fetch' });
    assert.match(text(result), /calls: Get at cmd\/main\.go:6 \[unresolved:/);
    assert.not.match(text(result), 'Client.Get');
  });
});

test.run();
