import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HANDSHAKE_PROTOCOL_VERSIONS } from '../../src/mcp/versions.js';
import { createSextantServer } from '../../src/server.js';
import { connect } from '../helpers/connect.js';
import { expectRpcError } from '../helpers/errors.js';
import { REVISIONS } from '../helpers/schema.js';
import { tick } from '../helpers/wait.js';

const server = createSextantServer();
const clientInfo = { name: 'raw', version: '0' };

test('the supported revisions are exactly the four the issue names, newest first', () => {
  assert.equal([...HANDSHAKE_PROTOCOL_VERSIONS], ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
});

for (const revision of REVISIONS) {
  test(`initialize ${revision}: echoes the version, declares its capabilities, schema-valid`, async () => {
    const c = connect(server);
    const result = await c.initialize(revision);
    assert.is(result.protocolVersion, revision);
    const capabilities = result.capabilities as Record<string, unknown>;
    assert.equal(
      Object.keys(capabilities).sort(),
      revision === '2024-11-05' ? ['logging', 'prompts', 'resources', 'tools'] : ['completions', 'logging', 'prompts', 'resources', 'tools'],
    );
    const info = result.serverInfo as Record<string, unknown>;
    assert.is(info.name, 'sextant');
    assert.is('title' in info, revision >= '2025-06-18');
    assert.is('description' in info, revision === '2025-11-25');
    assert.equal(await c.client.request('ping'), {});
    await tick();
    assert.equal(c.checker.problems, []);
    assert.ok(c.checker.checked >= 2);
    c.close();
  });
}

test('an unknown version is answered with the latest one, not an error', async () => {
  const c = connect(server);
  const result = await c.initialize('2099-01-01');
  assert.is(result.protocolVersion, '2025-11-25');
  const older = connect(server);
  assert.is((await older.initialize('2024-10-07')).protocolVersion, '2025-11-25');
  c.close();
  older.close();
});

test('initialize with malformed params is -32602', async () => {
  const c = connect(server);
  for (const params of [
    {},
    { protocolVersion: 1, capabilities: {}, clientInfo },
    { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x' } },
  ]) {
    await expectRpcError(c.client.request('initialize', params), -32602);
  }
  // The failed attempts did not initialize the session.
  assert.is(c.session.protocolVersion, undefined);
  c.close();
});

test('requests before initialize get -32010 naming the method; ping works at any time', async () => {
  const c = connect(server);
  assert.equal(await c.client.request('ping'), {});
  for (const method of ['tools/list', 'tools/call', 'logging/setLevel', 'resources/list']) {
    await expectRpcError(c.client.request(method, {}), -32010, method);
  }
  // An unknown method is still "not found", whatever the state.
  await expectRpcError(c.client.request('no/such/method'), -32601);
  await tick();
  assert.equal(c.checker.problems, []);
  c.close();
});

test('a second initialize is refused with -32600 and changes nothing', async () => {
  const c = connect(server);
  await c.initialize('2025-06-18');
  await expectRpcError(c.client.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo }), -32600);
  assert.is(c.session.protocolVersion, '2025-06-18');
  c.close();
});

test('notifications/initialized is recorded and never answered', async () => {
  const c = connect(server);
  await c.initialize();
  await tick();
  assert.ok(c.session.clientReady);
  const answers = await c.raw({ jsonrpc: '2.0', method: 'notifications/initialized' });
  assert.equal(answers, []);
  assert.equal(await c.raw({ jsonrpc: '2.0', method: 'notifications/whatever', params: { a: 1 } }), []);
  c.close();
});

test('malformed messages: id-less error when the id cannot be read, never "id": null', async () => {
  const c = connect(server);
  await c.initialize();
  const cases: Array<[unknown, number, boolean]> = [
    [{ jsonrpc: '2.0', id: null, method: 'ping' }, -32600, false],
    [{ jsonrpc: '1.0', id: 7, method: 'ping' }, -32600, true],
    ['just a string', -32600, false],
    [{ jsonrpc: '2.0', id: 8, method: 'ping', params: 'x' }, -32600, true],
  ];
  for (const [value, code, hasId] of cases) {
    const [answer] = (await c.raw(value)) as Array<Record<string, unknown>>;
    assert.is((answer!.error as { code: number }).code, code, JSON.stringify(value));
    assert.is('id' in answer!, hasId, JSON.stringify(value));
  }
  await c.session.receiveText('{not json', { transport: 'memory' });
  const parseError = c.sent.at(-1) as Record<string, unknown>;
  assert.equal(Object.keys(parseError).sort(), ['error', 'jsonrpc']);
  assert.is((parseError.error as { code: number }).code, -32700);
  assert.equal(c.checker.problems, []);
  c.close();
});

test('logging/setLevel filters notifications/message; an invalid level is -32602', async () => {
  const c = connect(server);
  await c.initialize();
  const heard: unknown[] = [];
  c.client.onNotification('notifications/message', (params) => void heard.push(params));
  assert.equal(await c.client.request('logging/setLevel', { level: 'warning' }), {});
  assert.is(c.session.log('info', 'quiet'), false);
  assert.is(c.session.log('error', { detail: 'loud' }, 'index'), true);
  await tick();
  assert.equal(heard, [{ level: 'error', logger: 'index', data: { detail: 'loud' } }]);
  await expectRpcError(c.client.request('logging/setLevel', { level: 'verbose' }), -32602, 'debug, info, notice');
  assert.equal(c.checker.problems, []);
  c.close();
});

test('batches: accepted in 2025-03-26 (answered as one array), refused elsewhere and with initialize', async () => {
  const c = connect(server);
  await c.initialize('2025-03-26');
  const [answer] = await c.raw([
    { jsonrpc: '2.0', id: 'p', method: 'ping' },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 't', method: 'tools/list' },
  ]);
  assert.ok(Array.isArray(answer));
  assert.equal(
    (answer as Array<{ id: string }>).map((r) => r.id),
    ['p', 't'],
  );
  const [refused] = (await c.raw([
    { jsonrpc: '2.0', id: 9, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo } },
  ])) as Array<{ error: { code: number; message: string } }>;
  assert.is(refused!.error.code, -32600);
  assert.match(refused!.error.message, 'initialize');
  assert.equal(c.checker.problems, []);
  c.close();

  for (const revision of ['2024-11-05', '2025-06-18', '2025-11-25']) {
    const other = connect(server);
    await other.initialize(revision);
    const [error] = (await other.raw([{ jsonrpc: '2.0', id: 1, method: 'ping' }])) as Array<Record<string, unknown>>;
    assert.is((error!.error as { code: number }).code, -32600, revision);
    assert.not.ok('id' in error!);
    other.close();
  }
  const fresh = connect(server);
  const [beforeInit] = (await fresh.raw([{ jsonrpc: '2.0', id: 1, method: 'ping' }])) as Array<{ error: { code: number } }>;
  assert.is(beforeInit!.error.code, -32600);
  fresh.close();
});

test('resources, templates, prompts and completion answer correctly while empty', async () => {
  for (const revision of REVISIONS) {
    const c = connect(server);
    await c.initialize(revision);
    assert.equal(await c.client.request('resources/list'), { resources: [] });
    assert.equal(await c.client.request('resources/templates/list', {}), { resourceTemplates: [] });
    assert.equal(await c.client.request('prompts/list'), { prompts: [] });
    const failures: Array<[string, Record<string, unknown>, number]> = [
      ['resources/read', { uri: 'file:///nope' }, -32002],
      ['resources/read', {}, -32602],
      ['prompts/get', { name: 'nope' }, -32602],
      ['completion/complete', { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: '' } }, -32602],
      ['completion/complete', { ref: { type: 'ref/resource', uri: 'x://{id}' }, argument: { name: 'id', value: '' } }, -32602],
      ['resources/list', { cursor: 'bogus' }, -32602],
    ];
    for (const [method, params, code] of failures) {
      await expectRpcError(c.client.request(method, params), code);
    }
    await tick();
    assert.equal(c.checker.problems, [], revision);
    c.close();
  }
});

test('sessions share nothing: levels, versions and ids are per connection', async () => {
  const a = connect(server);
  const b = connect(server);
  await a.initialize('2024-11-05');
  await b.initialize('2025-11-25');
  await a.client.request('logging/setLevel', { level: 'emergency' });
  assert.is(a.session.logLevel, 'emergency');
  assert.is(b.session.logLevel, 'info');
  assert.is(a.session.protocolVersion, '2024-11-05');
  assert.is(b.session.protocolVersion, '2025-11-25');
  a.close();
  b.close();
});

test.run();
