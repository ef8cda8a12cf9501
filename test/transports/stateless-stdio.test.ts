/**
 * The 2026-07-28 revision over stdio, beside the handshake revisions on the same process: a
 * request that carries its version in `_meta` is served from that request alone; an
 * `initialize` still begins a session exactly as before. Every message the server sends is
 * checked against the official schema of its revision.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, stopAll, type ServerProcess } from '../helpers/process.js';
import { TrafficChecker } from '../helpers/schema.js';
import { CACHE_STATIC } from '../../src/mcp/stateless/request.js';

test.after.each(() => stopAll());

const MODERN = '2026-07-28';
type Answer = {
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
  method?: string;
  params?: Record<string, unknown>;
};

function meta(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'modern-test', version: '1' },
    ...extra,
  };
}

/** A conversation over the real process; every line the server writes goes through the schema checker. */
function conversation(server: ServerProcess) {
  const checker = new TrafficChecker();
  let nextId = 1;
  let seen = 0;
  const drain = (): void => {
    for (; seen < server.lines.length; seen++) checker.outgoing(server.lines[seen]);
  };
  const send = async (method: string, params: Record<string, unknown>, id: number | string = nextId++): Promise<Answer> => {
    const message = { jsonrpc: '2.0', id, method, params };
    checker.incoming(message);
    server.send(`${JSON.stringify(message)}\n`);
    const deadline = Date.now() + 15_000;
    for (;;) {
      drain();
      const answer = (server.lines as Answer[]).find((line) => line.id === id && ('result' in line || 'error' in line));
      if (answer) return answer;
      assert.ok(Date.now() < deadline, `no answer to ${method}; stderr: ${server.stderr()}`);
      await server.waitForLines(server.lines.length + 1, Math.max(1, deadline - Date.now())).catch(() => undefined);
    }
  };
  return {
    checker,
    send,
    drain,
    notificationsFor: (token: unknown) => (server.lines as Answer[]).filter((line) => line.method && line.params?.progressToken === token),
  };
}

test('server/discover answers before and without initialize: versions of both eras, capabilities, identity, caching hints', async () => {
  const server = startServer(['serve', '--profile', 'conformance']);
  const { checker, send } = conversation(server);
  const answer = await send('server/discover', { _meta: meta() });
  const result = answer.result!;
  assert.is(result.resultType, 'complete');
  assert.equal(result.supportedVersions, ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
  assert.is(((result._meta as Record<string, unknown>)['io.modelcontextprotocol/serverInfo'] as { name: string }).name, 'sextant');
  // What discovery says changes only with a new build: anyone may cache it, for an hour.
  assert.is(result.ttlMs, CACHE_STATIC.ttlMs);
  assert.is(result.cacheScope, 'public');
  const capabilities = result.capabilities as Record<string, Record<string, unknown>>;
  assert.ok(capabilities.tools && capabilities.resources && capabilities.prompts);
  assert.is(capabilities.resources!.subscribe, true, 'resources are followed through subscriptions/listen');
  assert.ok((capabilities as Record<string, Record<string, unknown>>).extensions!['io.modelcontextprotocol/tasks']);
  assert.equal(checker.problems, []);
  server.child.stdin.end();
  assert.is((await server.exit).code, 0);
});

test('modern requests are served statelessly: tools/list in name order with hints, tools/call, resources and prompts; results say complete', async () => {
  const server = startServer(['serve', '--profile', 'conformance']);
  const { checker, send } = conversation(server);
  const tools = (await send('tools/list', { _meta: meta() })).result!;
  assert.is(tools.resultType, 'complete');
  const names = (tools.tools as Array<{ name: string; execution?: unknown }>).map((tool) => tool.name);
  assert.equal(names, [...names].sort(), 'deterministic order');
  assert.ok(
    (tools.tools as Array<{ execution?: unknown }>).every((tool) => tool.execution === undefined),
    'no execution field in 2026-07-28',
  );
  assert.ok(typeof tools.ttlMs === 'number' && typeof tools.cacheScope === 'string');
  const called = (await send('tools/call', { name: 'test_simple_text', arguments: {}, _meta: meta() })).result!;
  assert.is(called.resultType, 'complete');
  assert.ok(Array.isArray(called.content));
  assert.ok(!('ttlMs' in called), 'a tool result carries no caching hints');
  for (const method of ['resources/list', 'resources/templates/list', 'prompts/list']) {
    const listed = (await send(method, { _meta: meta() })).result!;
    assert.is(listed.resultType, 'complete', method);
    assert.ok(typeof listed.ttlMs === 'number', method);
  }
  const uri = ((await send('resources/list', { _meta: meta() })).result!.resources as Array<{ uri: string }>)[0]!.uri;
  const read = (await send('resources/read', { uri, _meta: meta() })).result!;
  assert.is(read.resultType, 'complete');
  assert.is(read.ttlMs, 0);
  assert.is(read.cacheScope, 'private');
  const prompt = (await send('prompts/get', { name: 'test_simple_prompt', _meta: meta() })).result!;
  assert.is(prompt.resultType, 'complete');
  assert.equal(checker.problems, []);
  server.child.stdin.end();
  await server.exit;
});

test('modern errors: unsupported version -32022 with the list, missing fields -32602, removed methods -32601, unknown resource -32602', async () => {
  const server = startServer(['serve', '--profile', 'conformance']);
  const { checker, send } = conversation(server);
  const unsupported = await send('tools/list', { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': '1900-01-01' }) });
  assert.is(unsupported.error!.code, -32022);
  assert.equal(unsupported.error!.data, { supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'], requested: '1900-01-01' });
  const noCapabilities = await send('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } });
  assert.is(noCapabilities.error!.code, -32602);
  assert.match(noCapabilities.error!.message, 'clientCapabilities');
  const discoverBare = await send('server/discover', {});
  assert.is(discoverBare.error!.code, -32602, 'server/discover needs its _meta too');
  for (const method of ['ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe', 'initialize']) {
    const removed = await send(method, { level: 'info', uri: 'test://static-text', _meta: meta() });
    assert.is(removed.error!.code, -32601, method);
  }
  const missing = await send('resources/read', { uri: 'test://nope', _meta: meta() });
  assert.is(missing.error!.code, -32602);
  assert.equal(checker.problems, []);
  server.child.stdin.end();
  await server.exit;
});

test('subscriptions/listen: acknowledged first with what it will honor, every notification tagged, until notifications/cancelled', async () => {
  const server = startServer(['serve', '--profile', 'conformance']);
  const { checker, send, drain } = conversation(server);
  server.send(
    `${JSON.stringify({ jsonrpc: '2.0', id: 'listen-1', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true, resourceSubscriptions: ['test://watched-resource'] }, _meta: meta() } })}\n`,
  );
  checker.incoming({ jsonrpc: '2.0', id: 'listen-1', method: 'subscriptions/listen', params: { _meta: meta() } });
  await server.waitForLines(1);
  const ack = server.lines[0] as Answer;
  assert.is(ack.method, 'notifications/subscriptions/acknowledged');
  assert.equal(ack.params, {
    _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' },
    notifications: { resourceSubscriptions: ['test://watched-resource'] },
  });
  // Other requests go on meanwhile; the stream stays open.
  assert.is((await send('tools/list', { _meta: meta() })).result!.resultType, 'complete');
  server.send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-1' } })}\n`);
  assert.is((await send('server/discover', { _meta: meta() })).result!.resultType, 'complete');
  drain();
  assert.not.ok(
    (server.lines as Answer[]).some((line) => line.id === 'listen-1'),
    'a cancelled listen gets no response',
  );
  assert.equal(checker.problems, []);
  server.child.stdin.end();
  await server.exit;
});

test('log messages go out only for a request that named a level, at or above it', async () => {
  const server = startServer(['serve', '--profile', 'conformance']);
  const { checker, send } = conversation(server);
  const before = server.lines.length;
  await send('tools/call', { name: 'test_tool_with_logging', arguments: {}, _meta: meta() });
  assert.equal(
    (server.lines.slice(before) as Answer[]).filter((line) => line.method === 'notifications/message'),
    [],
    'no level, no messages',
  );
  const middle = server.lines.length;
  await send('tools/call', { name: 'test_tool_with_logging', arguments: {}, _meta: meta({ 'io.modelcontextprotocol/logLevel': 'debug' }) });
  assert.ok((server.lines.slice(middle) as Answer[]).some((line) => line.method === 'notifications/message'));
  const progress = await send('tools/call', { name: 'test_tool_with_progress', arguments: {}, _meta: meta({ progressToken: 'p-1' }) });
  assert.is(progress.result!.resultType, 'complete');
  assert.ok((server.lines as Answer[]).some((line) => line.method === 'notifications/progress' && line.params?.progressToken === 'p-1'));
  assert.equal(checker.problems, []);
  server.child.stdin.end();
  await server.exit;
});

test('both eras on one process: a handshake session is served exactly as before, interleaved with modern requests', async () => {
  const server = startServer(['serve', '--profile', 'conformance']);
  const { checker, send } = conversation(server);
  const modernFirst = await send('tools/list', { _meta: meta() });
  assert.is(modernFirst.result!.resultType, 'complete');
  const init = await send('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'legacy', version: '1' } });
  assert.is(init.result!.protocolVersion, '2025-11-25');
  server.send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  const legacyList = (await send('tools/list', {})).result!;
  assert.not.ok('resultType' in legacyList, 'no 2026 field in a 2025 session');
  assert.not.ok('ttlMs' in legacyList);
  assert.equal((await send('ping', {})).result, {});
  const modernAgain = await send('tools/call', { name: 'test_simple_text', arguments: {}, _meta: meta() });
  assert.is(modernAgain.result!.resultType, 'complete');
  assert.equal(checker.problems, []);
  server.child.stdin.end();
  await server.exit;
});

test.run();
