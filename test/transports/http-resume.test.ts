import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import { JSON_AND_SSE, openSession, parseSse, send, startTestHttp, type SseEvent } from '../helpers/http.js';
import { TrafficChecker } from '../helpers/schema.js';

const progressCall = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'test_tool_with_progress', _meta: { progressToken: `tok-${id}` } },
});

/** Reads an SSE body until `enough` says stop, then drops the connection. */
async function readUntil(body: AsyncIterable<Buffer> & { destroy(): void }, enough: (events: SseEvent[]) => boolean): Promise<SseEvent[]> {
  let text = '';
  for await (const chunk of body) {
    text += chunk.toString('utf8');
    const complete = text.slice(0, text.lastIndexOf('\n\n') + 2);
    if (enough(parseSse(complete))) {
      body.destroy();
      return parseSse(complete);
    }
  }
  return parseSse(text);
}

const messagesOf = (events: SseEvent[]) => events.filter((e) => e.data !== '').map((e) => JSON.parse(e.data) as Record<string, unknown>);

test('a dropped call stream is resumed with Last-Event-ID: nothing lost, nothing twice, nothing from other streams', async () => {
  // The server's own record of what it sent: the answer to call 7 going out, with nobody listening.
  let answered!: () => void;
  const answerSent = new Promise<void>((resolve) => (answered = resolve));
  const http = await startTestHttp({
    tap: () => (direction, entry) => {
      if (direction === 'out' && 'message' in entry && (entry.message as { id?: unknown }).id === 7) answered();
    },
  });
  try {
    const session = await openSession(http.urls.mcp);
    const headers = { ...JSON_AND_SSE, 'mcp-session-id': session };
    const call = await request(http.urls.mcp, { method: 'POST', headers, body: JSON.stringify(progressCall(7)) });
    assert.is(call.statusCode, 200);
    assert.is(call.headers['content-type'], 'text/event-stream');
    // Priming event first: an id, a retry, and empty data (2025-11-25 transports §Sending Messages).
    const before = await readUntil(call.body, (events) => messagesOf(events).length >= 1);
    assert.is(before[0]!.data, '');
    assert.ok(before[0]!.id);
    assert.is(before[0]!.retry, 1000);
    const lastSeen = before.at(-1)!.id!;
    assert.equal(
      messagesOf(before).map((m) => (m.params as { progress: number }).progress),
      [0],
    );

    // Meanwhile another call on its own stream, which must never leak into the resumed one.
    const other = await send(http.urls.mcp, { body: { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'test_simple_text' } }, headers });
    assert.is(other.status, 200);

    await answerSent; // the tool finishes while nobody listens
    const resumed = await send(http.urls.mcp, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': lastSeen } });
    assert.is(resumed.status, 200);
    const after = parseSse(resumed.text);
    const stream = lastSeen.split('-')[0];
    assert.ok(
      after.every((event) => event.id?.startsWith(`${stream}-`)),
      'only events of the resumed stream',
    );
    const messages = messagesOf(after);
    assert.equal(
      messages.slice(0, 2).map((m) => (m.params as { progress: number }).progress),
      [50, 100],
    );
    assert.is(messages.length, 3);
    assert.equal(messages[2]!.id, 7);
    assert.equal((messages[2]!.result as { content: unknown }).content, [{ type: 'text', text: 'Progress complete' }]);
    const ids = [...before, ...after].map((event) => Number(event.id!.split('-')[1]));
    assert.equal(
      ids,
      [...ids].sort((a, b) => a - b),
      'event ids only increase',
    );
    assert.is(new Set(ids).size, ids.length, 'no event twice');

    const checker = new TrafficChecker();
    checker.incoming({ jsonrpc: '2.0', id: 1, method: 'initialize' });
    checker.outgoing({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } });
    checker.incoming(progressCall(7));
    for (const message of [...messagesOf(before), ...messages]) checker.outgoing(message);
    assert.equal(checker.problems, []);
  } finally {
    await http.close();
  }
});

test('resuming from an unknown event id is a 400, not a silent empty stream', async () => {
  const http = await startTestHttp();
  try {
    const session = await openSession(http.urls.mcp);
    for (const lastEventId of ['p99-1', 'nonsense', 'p1-999']) {
      const response = await send(http.urls.mcp, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': lastEventId } });
      assert.is(response.status, 400, lastEventId);
      assert.match((response.json().error as { message: string }).message, 'Cannot resume');
    }
  } finally {
    await http.close();
  }
});

test('no priming event for revisions before 2025-11-25; plain JSON for quick requests', async () => {
  const http = await startTestHttp();
  try {
    const session = await openSession(http.urls.mcp, '2025-06-18');
    const headers = { ...JSON_AND_SSE, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    const call = await send(http.urls.mcp, { body: progressCall(3), headers });
    const events = parseSse(call.text);
    assert.ok(
      events.every((event) => event.data !== ''),
      'no empty-data event',
    );
    assert.is(messagesOf(events).length, 4);
    const list = await send(http.urls.mcp, { body: { jsonrpc: '2.0', id: 4, method: 'tools/list' }, headers });
    assert.is(list.headers['content-type'], 'application/json');
    assert.is(list.json().id, 4);
    const note = await send(http.urls.mcp, { body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } }, headers });
    assert.is(note.status, 202);
    assert.is(note.text, '', '202 carries no body');
  } finally {
    await http.close();
  }
});

test('2025-03-26 sessions take batches over HTTP and answer them as one JSON array', async () => {
  const http = await startTestHttp();
  try {
    const session = await openSession(http.urls.mcp, '2025-03-26');
    const headers = { ...JSON_AND_SSE, 'mcp-session-id': session };
    const batch = await send(http.urls.mcp, {
      body: [
        { jsonrpc: '2.0', id: 'a', method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/x' },
        { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
      ],
      headers,
    });
    assert.is(batch.status, 200);
    const answers = JSON.parse(batch.text) as Array<{ id: string }>;
    assert.equal(
      answers.map((a) => a.id),
      ['a', 'b'],
    );
    const notesOnly = await send(http.urls.mcp, { body: [{ jsonrpc: '2.0', method: 'notifications/x' }], headers });
    assert.is(notesOnly.status, 202);
  } finally {
    await http.close();
  }
});

test('a long session keeps a bounded number of finished streams: the oldest can no longer be resumed', async () => {
  const { serverWith } = await import('../helpers/server.js');
  const { DEFAULT_MAX_KEPT_STREAMS } = await import('../../src/transports/http-session.js');
  const server = serverWith({
    name: 'chatty',
    description: 'Logs once, which puts its answer on an SSE stream.',
    inputSchema: { type: 'object' },
    run: (_args, context) => {
      context.log('info', 'hello');
      return { content: [{ type: 'text', text: 'done' }] };
    },
  });
  const http = await startTestHttp({ server });
  try {
    const session = await openSession(http.urls.mcp);
    const headers = { ...JSON_AND_SSE, 'mcp-session-id': session };
    const firstIds: string[] = [];
    for (let i = 0; i < DEFAULT_MAX_KEPT_STREAMS + 5; i++) {
      const call = await send(http.urls.mcp, { body: { jsonrpc: '2.0', id: 100 + i, method: 'tools/call', params: { name: 'chatty' } }, headers });
      assert.is(call.headers['content-type'], 'text/event-stream');
      firstIds.push(parseSse(call.text)[1]!.id!);
    }
    const resume = (id: string) => send(http.urls.mcp, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': id } });
    assert.is((await resume(firstIds[0]!)).status, 400, 'the oldest stream was forgotten');
    const recent = await resume(firstIds.at(-1)!);
    assert.is(recent.status, 200, 'a recent one still replays');
    assert.is(messagesOf(parseSse(recent.text)).length, 1, 'the answer after the log message');
  } finally {
    await http.close();
  }
});

test.run();
