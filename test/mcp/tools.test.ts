import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Result } from '../../src/jsonrpc/index.js';
import { DEFAULT_PAGE_SIZE } from '../../src/mcp/pagination.js';
import { UnsupportedSchemaDialectError } from '../../src/mcp/schema-validator.js';
import { CodedError } from '../../src/errors.js';
import { ToolRegistry, type ToolDefinition } from '../../src/mcp/tools.js';
import { createSextantServer, loadProfile, PROFILES } from '../../src/server.js';
import { connect } from '../helpers/connect.js';
import { expectRpcError } from '../helpers/errors.js';
import { REVISIONS } from '../helpers/schema.js';
import { serverWith } from '../helpers/server.js';
import { tick } from '../helpers/wait.js';

const OBJECT = { type: 'object', properties: {}, additionalProperties: false };

function tool(name: string, overrides: Partial<ToolDefinition> = {}): ToolDefinition {
  return { name, description: `The ${name} tool`, inputSchema: OBJECT, run: () => ({ content: [{ type: 'text', text: name }] }), ...overrides };
}

test('tools/list pages through every tool once, in name order, with stable cursors', async () => {
  const names = Array.from({ length: 2 * DEFAULT_PAGE_SIZE + 20 }, (_, i) => `tool_${String(i).padStart(3, '0')}`);
  const c = connect(serverWith(...[...names].reverse().map((name) => tool(name))));
  await c.initialize();
  const seen: string[] = [];
  const pageSizes: number[] = [];
  let cursor: string | undefined;
  do {
    const page: Result = await c.client.request('tools/list', cursor === undefined ? {} : { cursor });
    const tools = page.tools as Array<{ name: string }>;
    pageSizes.push(tools.length);
    seen.push(...tools.map((t) => t.name));
    cursor = page.nextCursor as string | undefined;
  } while (cursor !== undefined);
  assert.equal(seen, names);
  assert.equal(pageSizes, [DEFAULT_PAGE_SIZE, DEFAULT_PAGE_SIZE, 20]);
  // The same cursor gives the same page again.
  const first = await c.client.request('tools/list');
  const again = await c.client.request('tools/list', { cursor: first.nextCursor });
  const twice = await c.client.request('tools/list', { cursor: first.nextCursor });
  assert.equal(again, twice);
  await tick();
  assert.equal(c.checker.problems, []);
  c.close();
});

test('an invalid cursor is -32602', async () => {
  const c = connect(serverWith(tool('a')));
  await c.initialize();
  const forged = Buffer.from(JSON.stringify({ after: 'no-such-tool' })).toString('base64url');
  for (const cursor of ['%%%', '', 42, forged]) await expectRpcError(c.client.request('tools/list', { cursor }), -32602, /cursor/);
  c.close();
});

for (const revision of REVISIONS) {
  test(`tools/list and health_check shaped for ${revision}`, async () => {
    const c = connect(createSextantServer());
    await c.initialize(revision);
    const { tools } = (await c.client.request('tools/list')) as { tools: Array<Record<string, unknown>> };
    const health = tools.find((t) => t.name === 'health_check')!;
    assert.is('title' in health, revision >= '2025-06-18');
    assert.is('outputSchema' in health, revision >= '2025-06-18');
    assert.is('annotations' in health, revision >= '2025-03-26');
    const result = await c.client.request('tools/call', { name: 'health_check', arguments: {} });
    const content = result.content as Array<{ type: string; text: string }>;
    // The readable line first; the fields as JSON last where the revision has no structuredContent.
    assert.match(content[0]!.text, /^Sextant \d+\.\d+\.\d+: ready; up /);
    const reported = (revision >= '2025-06-18' ? result.structuredContent : JSON.parse(content.at(-1)!.text)) as Record<string, unknown>;
    assert.is(reported.status, 'ready');
    assert.is(reported.protocol_version, revision);
    assert.is(reported.transport, 'memory');
    if (revision >= '2025-06-18') assert.equal(result.structuredContent, reported);
    else assert.not.ok('structuredContent' in result);
    await tick();
    assert.equal(c.checker.problems, []);
    c.close();
  });
}

test('tools/call without "arguments" works; unknown tool and non-object arguments are -32602', async () => {
  const c = connect(createSextantServer());
  await c.initialize();
  const result = await c.client.request('tools/call', { name: 'health_check' });
  assert.not.ok(result.isError);
  await expectRpcError(c.client.request('tools/call', { name: 'no_such_tool' }), -32602, 'Unknown tool: no_such_tool');
  await expectRpcError(c.client.request('tools/call', { name: 'health_check', arguments: [1] }), -32602, /arguments/);
  await expectRpcError(c.client.request('tools/call', { arguments: {} }), -32602, /name/);
  c.close();
});

const strictTool = tool('needs_query', {
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string', minLength: 1 }, limit: { type: 'integer', minimum: 1 } },
    required: ['query'],
    additionalProperties: false,
  },
  run: (args) => ({ content: [{ type: 'text', text: `searched ${String(args.query)}` }] }),
});

test('2025-11-25: invalid arguments are a tool execution error the model can read', async () => {
  const c = connect(serverWith(strictTool));
  await c.initialize('2025-11-25');
  const result = await c.client.request('tools/call', { name: 'needs_query', arguments: { limit: 0, extra: true } });
  assert.is(result.isError, true);
  const text = (result.content as Array<{ text: string }>)[0]!.text;
  assert.match(text, 'missing required argument "query"');
  assert.match(text, 'unknown argument "extra"');
  assert.match(text, 'argument "limit" must be >= 1');
  const ok = await c.client.request('tools/call', { name: 'needs_query', arguments: { query: 'x' } });
  assert.equal(ok, { content: [{ type: 'text', text: 'searched x' }] });
  await tick();
  assert.equal(c.checker.problems, []);
  c.close();
});

for (const revision of ['2024-11-05', '2025-03-26', '2025-06-18']) {
  test(`${revision}: invalid arguments are a protocol error, -32602, as that revision says`, async () => {
    const c = connect(serverWith(strictTool));
    await c.initialize(revision);
    const error = await expectRpcError(c.client.request('tools/call', { name: 'needs_query', arguments: {} }), -32602, 'query');
    assert.equal(error.data, { errors: ['missing required argument "query"'] });
    c.close();
  });
}

test('tool failures: CodedError and crashes become isError results; bad structured output too', async () => {
  const crashes: string[] = [];
  const registry = new ToolRegistry({ onToolCrash: (name, error) => void crashes.push(`${name}: ${(error as Error).message}`) });
  registry.register(
    tool('refuses', {
      run: () => {
        throw new CodedError('no index yet: run "sextant index" first');
      },
    }),
  );
  registry.register(
    tool('crashes', {
      run: () => {
        throw new TypeError('cannot read x of undefined');
      },
    }),
  );
  registry.register(
    tool('lies', {
      outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      run: () => ({ structuredContent: { n: 'three' } }),
    }),
  );
  const { McpServer } = await import('../../src/mcp/server.js');
  const c = connect(new McpServer({ identity: { name: 't', version: '1' }, registries: { tools: registry } }));
  await c.initialize();
  const refused = await c.client.request('tools/call', { name: 'refuses' });
  assert.equal(refused, { content: [{ type: 'text', text: 'no index yet: run "sextant index" first' }], isError: true });
  const crashed = await c.client.request('tools/call', { name: 'crashes' });
  assert.is(crashed.isError, true);
  assert.match((crashed.content as Array<{ text: string }>)[0]!.text, 'cannot read x of undefined');
  const lied = await c.client.request('tools/call', { name: 'lies' });
  assert.is(lied.isError, true);
  assert.not.ok('structuredContent' in lied);
  assert.equal(crashes.length, 2);
  assert.match(crashes[1]!, 'outputSchema');
  await tick();
  assert.equal(c.checker.problems, []);
  c.close();
});

test('registration refuses bad names, duplicates, non-object schemas and unknown dialects', () => {
  const registry = new ToolRegistry();
  assert.throws(() => registry.register(tool('has space')), /Invalid tool name/);
  assert.throws(() => registry.register(tool('x'.repeat(129))), /Invalid tool name/);
  registry.register(tool('ok.name-1_2'));
  assert.throws(() => registry.register(tool('ok.name-1_2')), /already registered/);
  assert.throws(() => registry.register(tool('arr', { inputSchema: { type: 'array' } })), /type "object"/);
  assert.throws(
    () => registry.register(tool('old', { inputSchema: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' } })),
    (error: unknown) => error instanceof UnsupportedSchemaDialectError,
  );
  // draft-07, when declared, is honoured.
  registry.register(
    tool('seven', { inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { type: 'string' } } } }),
  );
  assert.equal(registry.names(), ['ok.name-1_2', 'seven']);
});

test('JSON Schema 2020-12 keywords work in inputSchema ($defs, prefixItems)', async () => {
  const c = connect(
    serverWith(
      tool('geo', {
        inputSchema: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          $defs: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false } },
          properties: { at: { $ref: '#/$defs/point' } },
          required: ['at'],
        },
      }),
    ),
  );
  await c.initialize();
  assert.not.ok((await c.client.request('tools/call', { name: 'geo', arguments: { at: [1, 2] } })).isError);
  assert.is((await c.client.request('tools/call', { name: 'geo', arguments: { at: [1, 2, 3] } })).isError, true);
  c.close();
});

test('every tool schema of every profile compiles (schemas are compiled on first use, so this is where a broken one shows)', async () => {
  for (const name of PROFILES) createSextantServer({ profile: await loadProfile(name) }).registries.tools.compileAll();
  const registry = new ToolRegistry();
  registry.register(tool('broken', { inputSchema: { type: 'object', properties: { a: { type: 'no-such-type' } } } }));
  assert.throws(() => registry.compileAll(), /Tool "broken": invalid schema/);
});

test.run();
