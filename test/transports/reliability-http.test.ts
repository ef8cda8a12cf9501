/**
 * Reliability of the HTTP listener against clients that misbehave: abandoned sessions cannot
 * lock others out, half-open handshakes expire quickly, and a body that never arrives costs a
 * connection for seconds, not minutes.
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { request } from 'undici';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { initializeBody, JSON_AND_SSE, openSession, send, startTestHttp } from '../helpers/http.js';
import { eventually } from '../helpers/wait.js';

const health = async (url: string): Promise<number> => ((await send(url)).json().sessions as { 'streamable-http': number })['streamable-http'];
const ping = (url: string, session: string) =>
  send(url, { body: { jsonrpc: '2.0', id: 9, method: 'ping' }, headers: { ...JSON_AND_SSE, 'mcp-session-id': session } });

test('abandoned sessions at the limit cannot lock out a new client: the least recently used idle one is let go (it then gets 404)', async () => {
  const http = await startTestHttp({ maxSessions: 4 });
  try {
    const abandoned: string[] = [];
    for (let i = 0; i < 4; i++) abandoned.push(await openSession(http.urls.mcp));
    // The most recently used one stays.
    assert.is((await ping(http.urls.mcp, abandoned[0]!)).status, 200);
    for (let i = 0; i < 3; i++) {
      const fresh = await send(http.urls.mcp, { body: initializeBody() });
      assert.is(fresh.status, 200, fresh.text);
    }
    assert.is(await health(http.urls.health), 4);
    assert.is((await ping(http.urls.mcp, abandoned[0]!)).status, 200, 'recently used: kept');
    for (const gone of abandoned.slice(1)) assert.is((await ping(http.urls.mcp, gone)).status, 404);
  } finally {
    await http.close();
  }
});

test('a session that never finished initializing expires after a short idle time; an initialized one does not', async () => {
  const http = await startTestHttp({ uninitializedIdleMs: 200, sessionIdleMs: 60_000 });
  try {
    const ready = await openSession(http.urls.mcp);
    const halfOpen = String((await send(http.urls.mcp, { body: initializeBody() })).headers['mcp-session-id']);
    assert.is(await health(http.urls.health), 2);
    // Waits for the state, polling the public health endpoint, up to a generous deadline.
    await eventually(async () => (await health(http.urls.health)) === 1, 'the half-open session expired', 10_000, 50);
    assert.is((await ping(http.urls.mcp, halfOpen)).status, 404);
    assert.is((await ping(http.urls.mcp, ready)).status, 200);
  } finally {
    await http.close();
  }
});

test('a Content-Length larger than the body is answered 408 and the connection closed at the request timeout', async () => {
  const http = await startTestHttp({ requestTimeoutMs: 500, headersTimeoutMs: 500 });
  try {
    const { port } = http;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`,
        );
      });
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (received += chunk));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
      // Only a guard against hanging the run: Node's own default would keep it for 300 s.
      setTimeout(() => reject(new Error(`still open after 20 s; got ${JSON.stringify(received)}`)), 20_000).unref();
    });
    assert.match(answer, /^HTTP\/1\.1 408/);
    // The listener still serves everyone else.
    assert.is((await send(http.urls.health)).status, 200);
  } finally {
    await http.close();
  }
});

test('headers that never end are cut off at the headers timeout (slowloris)', async () => {
  const http = await startTestHttp({ requestTimeoutMs: 2_000, headersTimeoutMs: 400 });
  try {
    const closed = await new Promise<string>((resolve, reject) => {
      const socket = connect(http.port, '127.0.0.1', () => socket.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `));
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (received += chunk));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
      setTimeout(() => reject(new Error('still open after 20 s')), 20_000).unref();
    });
    assert.match(closed, /^HTTP\/1\.1 408/);
  } finally {
    await http.close();
  }
});

test('a request that reuses the id of one in flight is refused (400, -32600); the first still gets its answer and the session can go idle', async () => {
  const http = await startTestHttp();
  try {
    const response = await send(http.urls.mcp, { body: initializeBody(1, '2025-11-25', { elicitation: {} }) });
    const session = String(response.headers['mcp-session-id']);
    const headers = { ...JSON_AND_SSE, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    await send(http.urls.mcp, { body: { jsonrpc: '2.0', method: 'notifications/initialized' }, headers });
    // In flight until the client answers the elicitation it asks for: no clock involved.
    const first = await request(http.urls.mcp, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'test_elicitation', arguments: { message: 'who?' } } }),
    });
    const events = first.body[Symbol.asyncIterator]();
    let streamed = '';
    const next = async (pattern: RegExp): Promise<RegExpExecArray> => {
      for (;;) {
        const match = pattern.exec(streamed);
        if (match) return match;
        const chunk = await events.next();
        assert.not.ok(chunk.done, `the stream ended before ${pattern}: ${streamed}`);
        streamed += Buffer.from(chunk.value as Uint8Array).toString('utf8');
      }
    };
    const asked = JSON.parse((await next(/data: (\{[^\n]*"elicitation\/create"[^\n]*\})\n/))[1]!) as { id: number };
    const duplicate = await send(http.urls.mcp, { body: { jsonrpc: '2.0', id: 5, method: 'ping' }, headers });
    assert.is(duplicate.status, 400, duplicate.text);
    assert.is((duplicate.json().error as { code: number }).code, -32600);
    assert.match(duplicate.text, 'already in use');
    const answered = await send(http.urls.mcp, {
      body: { jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } } },
      headers,
    });
    assert.is(answered.status, 202);
    const answer = JSON.parse((await next(/data: (\{[^\n]*"id":5[^\n]*\})\n/))[1]!) as { result: { content: Array<{ text: string }> } };
    assert.match(answer.result.content[0]!.text, 'ada@example.com');
    // The first stream ends with its answer: nothing keeps the session from going idle.
    for (let chunk = await events.next(); !chunk.done; chunk = await events.next());
    assert.is((await ping(http.urls.mcp, session)).status, 200);
  } finally {
    await http.close();
  }
});

test('a batch is bounded: over 100 messages is refused whole (400, -32600); 100 are answered, each once', async () => {
  const http = await startTestHttp();
  try {
    const session = await openSession(http.urls.mcp, '2025-03-26');
    const headers = { ...JSON_AND_SSE, 'mcp-session-id': session };
    const batch = (count: number) => Array.from({ length: count }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' }));
    const refused = await send(http.urls.mcp, { body: batch(10_000), headers });
    assert.is(refused.status, 400);
    assert.is((refused.json().error as { code: number }).code, -32600);
    assert.match(refused.text, 'over the limit of 100');
    const answered = await send(http.urls.mcp, { body: batch(100), headers });
    assert.is(answered.status, 200, answered.text.slice(0, 300));
    const answers = JSON.parse(answered.text) as Array<{ id: number; result?: unknown }>;
    assert.is(answers.length, 100);
    assert.equal(new Set(answers.map((answer) => answer.id)).size, 100);
    assert.is((await ping(http.urls.mcp, session)).status, 200);
  } finally {
    await http.close();
  }
});

/** A WebSocket text frame from a client (masked, as the protocol requires). */
function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const mask = randomBytes(4);
  const length =
    payload.length < 126
      ? Buffer.from([0x80 | payload.length])
      : payload.length < 65_536
        ? Buffer.from([0x80 | 126, payload.length >> 8, payload.length & 255])
        : Buffer.concat([
            Buffer.from([0x80 | 127]),
            (() => {
              const b = Buffer.alloc(8);
              b.writeBigUInt64BE(BigInt(payload.length));
              return b;
            })(),
          ]);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!));
  return Buffer.concat([Buffer.from([0x81]), length, mask, masked]);
}

/** Opens a raw connection, sends `request`, and resolves once the response head (and `until`) arrived: the caller then stops reading. */
function rawConnection(port: number, request: string, until: RegExp): Promise<{ socket: Socket; seen: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString('latin1');
      if (!until.test(seen)) return;
      socket.off('data', onData);
      socket.pause();
      resolve({ socket, seen });
    };
    socket.on('data', onData);
    socket.on('error', reject);
  });
}

async function sessionsOf(healthUrl: string): Promise<Record<string, number>> {
  return (await send(healthUrl)).json().sessions as Record<string, number>;
}

/** Until the health endpoint shows `transport` with no session (the state a dropped client leads to). */
function dropped(healthUrl: string, transport: string): Promise<void> {
  return eventually(async () => (await sessionsOf(healthUrl))[transport] === 0, `the ${transport} client that does not read is dropped`);
}

const listTools = (id: number): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' });
const initialize = (protocolVersion: string): string => JSON.stringify(initializeBody(1, protocolVersion));

test('a WebSocket client that never reads is dropped once its queued output passes the bound', async () => {
  const http = await startTestHttp({ maxQueuedOutputBytes: 256 * 1024 });
  try {
    const port = Number(new URL(http.urls.ws).port);
    const { socket } = await rawConnection(
      port,
      `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: mcp\r\n\r\n`,
      /\r\n\r\n/,
    );
    socket.write(clientFrame(initialize('2025-06-18')));
    socket.write(clientFrame(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })));
    assert.is((await sessionsOf(http.urls.health)).websocket, 1);
    for (let id = 2; id < 4_000; id++) socket.write(clientFrame(listTools(id)));
    await dropped(http.urls.health, 'websocket');
    socket.destroy();
    // Others are served on.
    assert.is((await send(http.urls.health)).status, 200);
  } finally {
    await http.close();
  }
});

test('a legacy SSE client that never reads its stream is dropped once its queued output passes the bound', async () => {
  const http = await startTestHttp({ maxQueuedOutputBytes: 256 * 1024 });
  try {
    const port = Number(new URL(http.urls.sse).port);
    const { socket, seen } = await rawConnection(port, `GET /sse HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`, /sessionId=[\w-]+/);
    const endpoint = `http://127.0.0.1:${port}/messages?sessionId=${/sessionId=([\w-]+)/.exec(seen)![1]}`;
    const post = (body: string) => send(endpoint, { raw: body, headers: { 'content-type': 'application/json' } });
    assert.is((await post(initialize('2024-11-05'))).status, 202);
    await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    assert.is((await sessionsOf(http.urls.health)).sse, 1);
    for (let id = 2; ((await sessionsOf(http.urls.health)).sse ?? 0) > 0; id += 200) {
      assert.ok(id < 20_000, 'never dropped');
      await Promise.all(Array.from({ length: 200 }, (_, i) => post(listTools(id + i))));
    }
    await dropped(http.urls.health, 'sse');
    socket.destroy();
  } finally {
    await http.close();
  }
});

test.run();
