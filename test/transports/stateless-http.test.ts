/**
 * The 2026-07-28 revision over Streamable HTTP: no session, the mirrored headers checked against
 * the body, statuses as the transport page says, and the handshake era on the same endpoint at
 * the same time. Every answer is checked against the official schema of its revision.
 */
import { request } from 'undici';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { initializeBody, JSON_AND_SSE, openSession, startTestHttp } from '../helpers/http.js';
import { checkOutgoing } from '../helpers/schema.js';
import { eventually } from '../helpers/wait.js';
import { sseReader } from '../helpers/stateless.js';

const MODERN = '2026-07-28';
const meta = (extra: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'modern-http', version: '1' },
  ...extra,
});

interface Exchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Every JSON-RPC message in the body (one for JSON, each event for SSE). */
  messages: Array<Record<string, unknown>>;
}

let nextId = 1;

/** POSTs a modern request with the headers a conforming client sends, unless `headers` overrides them. */
async function post(url: string, method: string, params: Record<string, unknown>, headers: Record<string, string | undefined> = {}): Promise<Exchange> {
  const id = nextId++;
  const named = (params.name ?? params.uri) as string | undefined;
  const all: Record<string, string | undefined> = {
    ...JSON_AND_SSE,
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...(named !== undefined && ['tools/call', 'prompts/get', 'resources/read'].includes(method) ? { 'mcp-name': named } : {}),
    ...headers,
  };
  const sent = Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined)) as Record<string, string>;
  const response = await request(url, { method: 'POST', headers: sent, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
  const text = await response.body.text();
  const type = String(response.headers['content-type'] ?? '');
  const messages = type.startsWith('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data: ') && line.length > 7)
        .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>)
    : text
      ? [JSON.parse(text) as Record<string, unknown>]
      : [];
  for (const message of messages) {
    const problems = checkOutgoing(message, MODERN as never, () => method);
    assert.equal(problems, [], `${method}: ${JSON.stringify(message).slice(0, 300)}`);
  }
  return { status: response.statusCode, headers: response.headers, messages };
}

const answerOf = (exchange: Exchange) => exchange.messages.at(-1)!;

test('modern requests need no session: discover, tools/list, tools/call over plain POSTs, no Mcp-Session-Id minted', async () => {
  const http = await startTestHttp();
  try {
    const discovered = await post(http.urls.mcp, 'server/discover', { _meta: meta() });
    assert.is(discovered.status, 200);
    assert.is(discovered.headers['mcp-session-id'], undefined);
    assert.ok((answerOf(discovered).result as { supportedVersions: string[] }).supportedVersions.includes(MODERN));
    const listed = await post(http.urls.mcp, 'tools/list', { _meta: meta() });
    assert.is((answerOf(listed).result as { resultType: string }).resultType, 'complete');
    const called = await post(http.urls.mcp, 'tools/call', { name: 'test_simple_text', arguments: {}, _meta: meta() });
    assert.is(called.status, 200);
    assert.is((answerOf(called).result as { resultType: string }).resultType, 'complete');
    // Progress goes first on an SSE response to the same POST, then the result ends it.
    const progress = await post(http.urls.mcp, 'tools/call', { name: 'test_tool_with_progress', arguments: {}, _meta: meta({ progressToken: 'tok' }) });
    assert.match(String(progress.headers['content-type']), 'text/event-stream');
    assert.ok(progress.messages.some((message) => message.method === 'notifications/progress'));
    assert.ok('result' in answerOf(progress));
  } finally {
    await http.close();
  }
});

test('headers are checked against the body: missing or mismatched is 400 HeaderMismatch (-32020), Base64 names decoded', async () => {
  const http = await startTestHttp();
  try {
    const cases: Array<[string, Record<string, string | undefined>]> = [
      ['no MCP-Protocol-Version', { 'mcp-protocol-version': undefined }],
      ['another MCP-Protocol-Version', { 'mcp-protocol-version': '2025-11-25' }],
      ['no Mcp-Method', { 'mcp-method': undefined }],
      ['another Mcp-Method', { 'mcp-method': 'tools/list' }],
      ['no Mcp-Name', { 'mcp-name': undefined }],
      ['another Mcp-Name', { 'mcp-name': 'test_error_handling' }],
      ['a broken Base64 name', { 'mcp-name': '=?base64?@@@?=' }],
    ];
    for (const [what, headers] of cases) {
      const refused = await post(http.urls.mcp, 'tools/call', { name: 'test_simple_text', arguments: {}, _meta: meta() }, headers);
      assert.is(refused.status, 400, what);
      assert.is((answerOf(refused).error as { code: number }).code, -32020, what);
      assert.ok('id' in answerOf(refused), `${what}: the error names the request`);
    }
    const encoded = await post(
      http.urls.mcp,
      'tools/call',
      { name: 'test_simple_text', arguments: {}, _meta: meta() },
      { 'mcp-name': `=?base64?${Buffer.from('test_simple_text').toString('base64')}?=` },
    );
    assert.is(encoded.status, 200);
  } finally {
    await http.close();
  }
});

test('x-mcp-header parameters: the Mcp-Param header must be there and match the body, Base64 strictly decoded', async () => {
  const http = await startTestHttp();
  try {
    const call = (headers: Record<string, string | undefined>, args: Record<string, unknown> = { region: 'us-west1' }) =>
      post(http.urls.mcp, 'tools/call', { name: 'test_custom_header', arguments: args, _meta: meta() }, headers);
    assert.is((await call({ 'mcp-param-region': 'us-west1' })).status, 200);
    assert.is((await call({ 'mcp-param-region': `=?base64?${Buffer.from('us-west1').toString('base64')}?=` })).status, 200);
    assert.is((await call({ 'mcp-param-region': '=?base64?dXMtd2VzdDE?=' })).status, 400, 'unpadded Base64 is refused');
    const unicode = 'Hello, 世界';
    assert.is((await call({ 'mcp-param-region': `=?base64?${Buffer.from(unicode).toString('base64')}?=` }, { region: unicode })).status, 200);
    for (const headers of [{}, { 'mcp-param-region': 'eu-central1' }]) {
      const refused = await call(headers);
      assert.is(refused.status, 400);
      assert.is((answerOf(refused).error as { code: number }).code, -32020);
    }
    // The parameter absent from the body: no header expected.
    const listed = await post(http.urls.mcp, 'tools/list', { _meta: meta() });
    const tool = (answerOf(listed).result as { tools: Array<{ name: string; inputSchema: Record<string, unknown> }> }).tools.find(
      (t) => t.name === 'json_schema_2020_12_tool',
    )!;
    assert.ok('allOf' in tool.inputSchema && 'if' in tool.inputSchema, '2026 requests see the 2020-12 vocabulary');
  } finally {
    await http.close();
  }
});

test('subscriptions/listen over HTTP: a long SSE response, acknowledged first, resource updates tagged; closing it ends the subscription', async () => {
  const { createSextantServer, loadProfile } = await import('../../src/server.js');
  const server = createSextantServer({ profile: await loadProfile('conformance') });
  const http = await startTestHttp({ server });
  try {
    const response = await request(http.urls.mcp, {
      method: 'POST',
      headers: { ...JSON_AND_SSE, 'mcp-protocol-version': MODERN, 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'sub-1',
        method: 'subscriptions/listen',
        params: { notifications: { resourceSubscriptions: ['test://watched-resource'] }, _meta: meta() },
      }),
    });
    assert.match(String(response.headers['content-type']), 'text/event-stream');
    const events: Array<Record<string, unknown>> = [];
    const read = sseReader((message) => events.push(message));
    const arrived = (count: number) =>
      new Promise<void>((resolve, reject) => {
        // A guard against hanging the run if the events never come, not a timing expectation.
        const guard = setTimeout(() => reject(new Error(`only ${events.length} of ${count} events arrived`)), 20_000);
        const check = (): void => {
          if (events.length >= count) {
            clearTimeout(guard);
            response.body.off('data', onData);
            resolve();
          }
        };
        const onData = (chunk: Buffer): void => {
          read(chunk);
          check();
        };
        response.body.on('data', onData);
        check();
      });
    await arrived(1);
    assert.is(events[0]!.method, 'notifications/subscriptions/acknowledged');
    // A resource update reaches the stream that asked for it, tagged with its id; others are not told.
    assert.is(server.resourceUpdated('test://watched-resource'), 1);
    assert.is(server.resourceUpdated('test://static-text'), 0);
    await arrived(2);
    assert.equal(events[1], {
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'test://watched-resource', _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } },
    });
    for (const event of events)
      assert.equal(
        checkOutgoing(event, MODERN as never, () => 'subscriptions/listen'),
        [],
      );
    response.body.on('error', () => undefined);
    response.body.destroy();
    // The listener is gone once the client closed the stream: nobody is told any more.
    await eventually(() => server.resourceUpdated('test://watched-resource') === 0, 'the listener went with its stream', 5_000);
  } finally {
    await http.close();
  }
});

test('/ws: 2026-07-28 requests and a handshake session share one WebSocket, each message served by its own era', async () => {
  const { WebSocket } = await import('ws');
  const http = await startTestHttp();
  try {
    const ws = new WebSocket(http.urls.ws, 'mcp');
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const answers = new Map<unknown, Record<string, unknown>>();
    const waiters = new Map<unknown, () => void>();
    ws.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as Record<string, unknown>;
      if ('id' in message && !('method' in message)) {
        answers.set(message.id, message);
        waiters.get(message.id)?.();
      }
    });
    const ask = (id: number, method: string, params: Record<string, unknown>) =>
      new Promise<Record<string, unknown>>((resolve) => {
        waiters.set(id, () => resolve(answers.get(id)!));
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      });
    const discovered = await ask(1, 'server/discover', { _meta: meta() });
    assert.equal(
      checkOutgoing(discovered, MODERN as never, () => 'server/discover'),
      [],
    );
    const init = await ask(2, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'ws', version: '1' } });
    assert.is((init.result as { protocolVersion: string }).protocolVersion, '2025-11-25');
    ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const legacy = await ask(3, 'tools/list', {});
    assert.not.ok('resultType' in (legacy.result as object));
    const modern = await ask(4, 'tools/list', { _meta: meta() });
    assert.is((modern.result as { resultType: string }).resultType, 'complete');
    ws.close();
  } finally {
    await http.close();
  }
});

test('statuses: unsupported version 400 -32022, missing capabilities 400 -32602, a removed or unknown method 404 -32601', async () => {
  const http = await startTestHttp();
  try {
    const unsupported = await post(
      http.urls.mcp,
      'tools/list',
      { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }) },
      { 'mcp-protocol-version': '2099-01-01' },
    );
    assert.is(unsupported.status, 400);
    assert.is((answerOf(unsupported).error as { code: number }).code, -32022);
    assert.ok((answerOf(unsupported).error as { data: { supported: string[] } }).data.supported.includes(MODERN));
    const bare = await post(http.urls.mcp, 'tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } });
    assert.is(bare.status, 400);
    assert.is((answerOf(bare).error as { code: number }).code, -32602);
    for (const removed of ['ping', 'initialize', 'logging/setLevel']) {
      const answer = await post(http.urls.mcp, removed, { _meta: meta() });
      assert.is(answer.status, 404, removed);
      assert.is((answerOf(answer).error as { code: number }).code, -32601, removed);
    }
    // A capability the request did not declare: 400 -32021 naming it as ClientCapabilities.
    const undeclared = await post(http.urls.mcp, 'tools/call', { name: 'test_missing_capability', arguments: {}, _meta: meta() });
    assert.is(undeclared.status, 400);
    assert.equal((answerOf(undeclared).error as { code: number; data: unknown }).data, { requiredCapabilities: { sampling: {} } });
    const declared = await post(http.urls.mcp, 'tools/call', {
      name: 'test_missing_capability',
      arguments: {},
      _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } }),
    });
    assert.is(declared.status, 200);
  } finally {
    await http.close();
  }
});

test('both eras on one endpoint at once: a handshake session keeps its session id and shapes while modern requests interleave', async () => {
  const http = await startTestHttp();
  try {
    const session = await openSession(http.urls.mcp);
    const legacyHeaders = { ...JSON_AND_SSE, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const runs = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        if (i % 2) return (await post(http.urls.mcp, 'tools/list', { _meta: meta() })).messages.at(-1)!;
        const response = await request(http.urls.mcp, {
          method: 'POST',
          headers: legacyHeaders,
          body: JSON.stringify({ jsonrpc: '2.0', id: 1000 + i, method: 'tools/list' }),
        });
        return JSON.parse(await response.body.text()) as Record<string, unknown>;
      }),
    );
    runs.forEach((answer, i) => {
      const result = answer.result as Record<string, unknown>;
      if (i % 2) assert.is(result.resultType, 'complete');
      else {
        assert.not.ok('resultType' in result, 'a 2025 session never sees a 2026 field');
        assert.equal(
          checkOutgoing(answer, '2025-11-25', () => 'tools/list'),
          [],
        );
      }
    });
    // initialize still mints a session, as before.
    const init = await request(http.urls.mcp, { method: 'POST', headers: JSON_AND_SSE, body: JSON.stringify(initializeBody()) });
    await init.body.text();
    assert.ok(init.headers['mcp-session-id']);
  } finally {
    await http.close();
  }
});

test.run();
