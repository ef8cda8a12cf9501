import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startHttpServer, UnsafeBindError } from '../../src/transports/http-listener.js';
import { createSextantServer } from '../../src/server.js';
import { initializeBody, JSON_AND_SSE, openSession, send, startTestHttp, type RawResponse } from '../helpers/http.js';
import { eventually } from '../helpers/wait.js';

/** Every gate rejection: the status, and an id-less JSON-RPC error body with the right code. */
function assertRejected(response: RawResponse, status: number, code: number, message: RegExp | string): void {
  assert.is(response.status, status, response.text);
  assert.is(response.headers['content-type'], 'application/json');
  const body = response.json();
  assert.is(body.jsonrpc, '2.0');
  assert.not.ok('id' in body, 'gate errors carry no id');
  const error = body.error as { code: number; message: string };
  assert.is(error.code, code);
  assert.match(error.message, message);
}

test('400: no session header, bad JSON, an unsupported protocol version header, a batch outside 2025-03-26', async () => {
  const http = await startTestHttp();
  try {
    const mcp = http.urls.mcp;
    assertRejected(await send(mcp, { body: { jsonrpc: '2.0', id: 1, method: 'ping' } }), 400, -32600, 'MCP-Session-Id');
    const session = await openSession(mcp);
    const withSession = { ...JSON_AND_SSE, 'mcp-session-id': session };
    assertRejected(await send(mcp, { raw: '{"jsonrpc":', headers: withSession }), 400, -32700, 'not valid JSON');
    assertRejected(
      await send(mcp, { body: { jsonrpc: '2.0', id: 2, method: 'ping' }, headers: { ...withSession, 'mcp-protocol-version': '1999-01-01' } }),
      400,
      -32600,
      'Unsupported MCP-Protocol-Version "1999-01-01"',
    );
    assertRejected(await send(mcp, { body: [{ jsonrpc: '2.0', id: 3, method: 'ping' }], headers: withSession }), 400, -32600, 'single message');
    assertRejected(await send(mcp, { body: { jsonrpc: '2.0', id: null, method: 'ping' }, headers: withSession }), 400, -32600, 'null is not allowed');
    assertRejected(await send(mcp, { body: initializeBody(), headers: withSession }), 400, -32600, 'without an MCP-Session-Id');
    // A valid header for another revision we speak is fine (the conformance suite sends 2025-03-26).
    const ok = await send(mcp, { body: { jsonrpc: '2.0', id: 4, method: 'ping' }, headers: { ...withSession, 'mcp-protocol-version': '2025-03-26' } });
    assert.is(ok.status, 200);
  } finally {
    await http.close();
  }
});

test('401: a configured token is required everywhere but /health; 200 with it', async () => {
  const http = await startTestHttp({ authToken: 's3cret-token' });
  try {
    const noToken = await send(http.urls.mcp, { body: initializeBody() });
    assertRejected(noToken, 401, -32012, 'Bearer');
    assert.is(noToken.headers['www-authenticate'], 'Bearer realm="sextant"');
    assertRejected(
      await send(http.urls.mcp, { body: initializeBody(), headers: { ...JSON_AND_SSE, authorization: 'Bearer wrong' } }),
      401,
      -32012,
      'Unauthorized',
    );
    assertRejected(await send(http.urls.sse, { headers: { accept: 'text/event-stream' } }), 401, -32012, 'Unauthorized');
    const withToken = await send(http.urls.mcp, { body: initializeBody(), headers: { ...JSON_AND_SSE, authorization: 'Bearer s3cret-token' } });
    assert.is(withToken.status, 200);
    assert.is((await send(http.urls.health)).status, 200);
  } finally {
    await http.close();
  }
});

test('403: a foreign Origin or Host (DNS rebinding); loopback ones pass', async () => {
  const http = await startTestHttp();
  try {
    const evilOrigin = await send(http.urls.mcp, { body: initializeBody(), headers: { ...JSON_AND_SSE, origin: 'http://evil.example.com' } });
    assertRejected(evilOrigin, 403, -32013, 'Origin "http://evil.example.com"');
    const evilHost = await send(http.urls.mcp, { body: initializeBody(), headers: { ...JSON_AND_SSE, host: 'evil.example.com' } });
    assertRejected(evilHost, 403, -32013, 'Host "evil.example.com"');
    const local = await send(http.urls.mcp, {
      body: initializeBody(),
      headers: { ...JSON_AND_SSE, origin: `http://localhost:${http.port}`, host: `localhost:${http.port}` },
    });
    assert.is(local.status, 200);
  } finally {
    await http.close();
  }
  const allowed = await startTestHttp({ allowedOrigins: ['https://ide.example.com'] });
  try {
    const response = await send(allowed.urls.mcp, { body: initializeBody(), headers: { ...JSON_AND_SSE, origin: 'https://ide.example.com' } });
    assert.is(response.status, 200);
  } finally {
    await allowed.close();
  }
});

test('404: unknown session, unknown path, and a session after DELETE', async () => {
  const http = await startTestHttp();
  try {
    const mcp = http.urls.mcp;
    const unknown = { ...JSON_AND_SSE, 'mcp-session-id': 'no-such-session' };
    assertRejected(await send(mcp, { body: { jsonrpc: '2.0', id: 1, method: 'ping' }, headers: unknown }), 404, -32011, 'Session not found');
    assertRejected(await send(`http://127.0.0.1:${http.port}/nope`), 404, -32600, 'Not found: /nope');
    const session = await openSession(mcp);
    const deleted = await send(mcp, { method: 'DELETE', headers: { 'mcp-session-id': session } });
    assert.is(deleted.status, 204);
    const after = await send(mcp, { body: { jsonrpc: '2.0', id: 2, method: 'ping' }, headers: { ...JSON_AND_SSE, 'mcp-session-id': session } });
    assertRejected(after, 404, -32011, 'Session not found');
    assertRejected(await send(mcp, { method: 'DELETE', headers: { 'mcp-session-id': session } }), 404, -32011, 'Session not found');
    assertRejected(
      await send(`${http.urls.sse.replace('/sse', '/messages')}?sessionId=gone`, { body: { jsonrpc: '2.0', id: 1, method: 'ping' } }),
      404,
      -32011,
      'Session not found',
    );
  } finally {
    await http.close();
  }
});

test('405: wrong methods, with an Allow header', async () => {
  const http = await startTestHttp();
  try {
    const put = await send(http.urls.mcp, { method: 'PUT', raw: '{}', headers: JSON_AND_SSE });
    assertRejected(put, 405, -32600, 'PUT');
    assert.is(put.headers.allow, 'GET, POST, DELETE');
    assertRejected(await send(http.urls.health, { method: 'POST', raw: '{}', headers: JSON_AND_SSE }), 405, -32600, 'POST');
    assertRejected(await send(http.urls.sse, { method: 'POST', raw: '{}', headers: JSON_AND_SSE }), 405, -32600, 'POST');
  } finally {
    await http.close();
  }
});

test('406, 415: Accept must list both types; Content-Type must be JSON', async () => {
  const http = await startTestHttp();
  try {
    const jsonOnly = await send(http.urls.mcp, { body: initializeBody(), headers: { 'content-type': 'application/json', accept: 'application/json' } });
    assertRejected(jsonOnly, 406, -32600, 'text/event-stream');
    const session = await openSession(http.urls.mcp);
    assertRejected(await send(http.urls.mcp, { headers: { accept: 'application/json', 'mcp-session-id': session } }), 406, -32600, 'text/event-stream');
    const text = await send(http.urls.mcp, { raw: JSON.stringify(initializeBody()), headers: { 'content-type': 'text/plain', accept: JSON_AND_SSE.accept } });
    assertRejected(text, 415, -32600, 'text/plain');
  } finally {
    await http.close();
  }
});

test('413: a body over the limit, whether declared or streamed', async () => {
  const http = await startTestHttp({ maxBodyBytes: 1024 });
  try {
    const big = JSON.stringify({ ...initializeBody(), pad: 'x'.repeat(2048) });
    assertRejected(await send(http.urls.mcp, { raw: big }), 413, -32600, '1024-byte limit');
    const session = await openSession(http.urls.mcp);
    assertRejected(await send(http.urls.mcp, { raw: big, headers: { ...JSON_AND_SSE, 'mcp-session-id': session } }), 413, -32600, '1024-byte limit');
  } finally {
    await http.close();
  }
});

test('503: past the session limit when every session is in use (an open stream), with an honest Retry-After, until a session ends', async () => {
  const http = await startTestHttp({ maxSessions: 2 });
  const { request } = await import('undici');
  const streams: Array<{ body: { destroy(): void; on(event: 'error', listener: () => void): unknown } }> = [];
  try {
    for (let i = 0; i < 2; i++) {
      const session = await openSession(http.urls.mcp);
      const stream = await request(http.urls.mcp, { headers: { accept: 'text/event-stream', 'mcp-session-id': session } });
      stream.body.on('error', () => undefined); // destroyed below, on purpose
      streams.push(stream);
      if (i === 1) {
        const refused = await send(http.urls.mcp, { body: initializeBody() });
        assertRejected(refused, 503, -32014, 'Too many sessions (limit 2)');
        // Sessions holding open streams are long-lived: retrying in a second would be a lie.
        assert.is(refused.headers['retry-after'], '60');
        await send(http.urls.mcp, { method: 'DELETE', headers: { 'mcp-session-id': session } });
      }
    }
    assert.is((await send(http.urls.mcp, { body: initializeBody() })).status, 200);
  } finally {
    for (const stream of streams) stream.body.destroy();
    await http.close();
  }
});

test('binding a non-loopback address without a token refuses to start; a busy port is named', async () => {
  try {
    await startHttpServer(createSextantServer(), { host: '0.0.0.0', port: 0 });
    assert.unreachable('should refuse');
  } catch (error) {
    assert.instance(error, UnsafeBindError);
    assert.match((error as Error).message, '--auth-token');
  }
  const http = await startTestHttp();
  try {
    await startHttpServer(createSextantServer(), { port: http.port });
    assert.unreachable('the port is taken');
  } catch (error) {
    assert.is((error as { code: string }).code, 'SEXTANT_ERR_PORT_IN_USE');
    assert.match((error as Error).message, `Port ${http.port}`);
  } finally {
    await http.close();
  }
});

test('/health reports status, version, uptime, transports and sessions', async () => {
  const http = await startTestHttp();
  try {
    await openSession(http.urls.mcp);
    const health = await send(http.urls.health);
    assert.is(health.status, 200);
    const body = health.json();
    assert.is(body.status, 'ready');
    assert.is(body.version, '0.1.0');
    assert.ok(typeof body.uptime_seconds === 'number');
    assert.equal(body.transports, ['streamable-http', 'sse', 'websocket']);
    assert.equal(body.sessions, { 'streamable-http': 1, sse: 0, websocket: 0, total: 1 });
    assert.equal(body.projects, [], 'no project configured, none detected yet');
  } finally {
    await http.close();
  }
});

test('idle sessions expire (then 404); a session holding an open stream does not', async () => {
  const http = await startTestHttp({ sessionIdleMs: 100 });
  try {
    const idle = await openSession(http.urls.mcp);
    const busy = await openSession(http.urls.mcp);
    const { request } = await import('undici');
    const stream = await request(http.urls.mcp, { headers: { accept: 'text/event-stream', 'mcp-session-id': busy } });
    // The state expiry leads to, seen on /health (a ping to the idle session would keep it alive).
    const sessions = async (): Promise<number> => ((await send(http.urls.health)).json().sessions as { 'streamable-http': number })['streamable-http'];
    await eventually(async () => (await sessions()) === 1, 'the idle session expired');
    const ping = (session: string) =>
      send(http.urls.mcp, { body: { jsonrpc: '2.0', id: 9, method: 'ping' }, headers: { ...JSON_AND_SSE, 'mcp-session-id': session } });
    assertRejected(await ping(idle), 404, -32011, 'Session not found');
    assert.is((await ping(busy)).status, 200);
    stream.body.destroy();
  } finally {
    await http.close();
  }
});

test('WebSocket upgrades pass the same gate: 403 for a foreign Origin, 401 without the token, 404 off /ws', async () => {
  const { WebSocket } = await import('ws');
  const statusOf = (url: string, headers: Record<string, string> = {}) =>
    new Promise<number>((resolve) => {
      const ws = new WebSocket(url, 'mcp', { headers });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => {
        ws.close();
        resolve(101);
      });
      ws.on('error', () => {});
    });
  const http = await startTestHttp({ authToken: 'tok' });
  try {
    assert.is(await statusOf(http.urls.ws, { origin: 'http://evil.example.com', authorization: 'Bearer tok' }), 403);
    assert.is(await statusOf(http.urls.ws), 401);
    assert.is(await statusOf(http.urls.ws.replace('/ws', '/elsewhere'), { authorization: 'Bearer tok' }), 404);
    assert.is(await statusOf(http.urls.ws, { authorization: 'Bearer tok' }), 101);
  } finally {
    await http.close();
  }
});

test.run();
