import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ListRootsRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WebSocket } from 'ws';
import type { TapEntry } from '../../src/jsonrpc/index.js';
import { CodedError } from '../../src/errors.js';
import { createSextantServer, loadProfile } from '../../src/server.js';
import { startHttpServer, type RunningHttpServer } from '../../src/transports/http-listener.js';
import { JSON_AND_SSE, send } from '../helpers/http.js';
import { TrafficChecker } from '../helpers/schema.js';
import { eventually } from '../helpers/wait.js';

// The SDK's WebSocket client uses the global WebSocket, which Node 20 lacks.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

interface Harness {
  http: RunningHttpServer;
  checkers: Map<string, TrafficChecker>;
  /** Roots the server asked for on its own, outside any request, once each client was ready. */
  rootsSeen: Promise<unknown>;
  problems(): string[];
}

async function harness(extra: { pollAfterMs?: number } = {}): Promise<Harness> {
  let resolveRoots!: (roots: unknown) => void;
  const rootsSeen = new Promise((resolve) => (resolveRoots = resolve));
  const server = createSextantServer({
    profile: await loadProfile('conformance'),
    onSessionReady: (session) => {
      if (!session.clientCapabilities.roots) return;
      session.requestClient('roots/list').then(resolveRoots, (error: unknown) => resolveRoots(error));
    },
  });
  server.registries.tools.register({
    name: 'list_roots',
    description: 'Asks the client for its roots during the call.',
    inputSchema: { type: 'object' },
    async run(_args, context) {
      try {
        const result = await context.request('roots/list');
        return { content: [{ type: 'text', text: JSON.stringify(result) }] };
      } catch (error) {
        throw new CodedError((error as Error).message);
      }
    },
  });
  const checkers = new Map<string, TrafficChecker>();
  const tap = (label: string) => {
    const checker = new TrafficChecker();
    checkers.set(label, checker);
    return (direction: 'in' | 'out', entry: TapEntry) => {
      if (!('message' in entry)) return;
      if (direction === 'in') checker.incoming(entry.message);
      else checker.outgoing(entry.message);
    };
  };
  const http = await startHttpServer(server, { port: 0, tap, retryMs: 50, ...extra });
  return { http, checkers, rootsSeen, problems: () => [...checkers.values()].flatMap((c) => c.problems) };
}

function clientWithRoots(): Client {
  const client = new Client({ name: 'sextant-http-interop', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///tmp/project', name: 'project' }] }));
  return client;
}

/** The same conversation over any transport: tools, progress, logging, an error result. */
async function converse(client: Client, transportName: string): Promise<void> {
  const { tools } = await client.listTools();
  assert.ok(tools.some((t) => t.name === 'health_check'));
  const health = await client.callTool({ name: 'health_check', arguments: {} });
  assert.is((health.structuredContent as { transport: string }).transport, transportName);
  const progress: number[] = [];
  await client.callTool({ name: 'test_tool_with_progress' }, undefined, { onprogress: (p) => void progress.push(p.progress) });
  assert.equal(progress, [0, 50, 100]);
  const logs: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params.data));
  await client.setLoggingLevel('debug');
  await client.callTool({ name: 'test_tool_with_logging' });
  assert.equal(logs, ['Tool execution started', 'Tool processing data', 'Tool execution completed']);
  const failed = await client.callTool({ name: 'test_error_handling' });
  assert.is(failed.isError, true);
  assert.equal(await client.ping(), {});
}

test('official SDK client over Streamable HTTP: tools, progress, logging, roots both ways, DELETE', async () => {
  const h = await harness();
  try {
    const client = clientWithRoots();
    const transport = new StreamableHTTPClientTransport(new URL(h.http.urls.mcp));
    await client.connect(transport);
    await converse(client, 'streamable-http');
    // Asked outside any request: it waited for the client's GET stream and was answered there.
    assert.equal(await h.rootsSeen, { roots: [{ uri: 'file:///tmp/project', name: 'project' }] });
    // Asked during a call: it rode that call's stream.
    const inCall = await client.callTool({ name: 'list_roots' });
    assert.match((inCall.content as Array<{ text: string }>)[0]!.text, 'file:///tmp/project');
    const sessionId = transport.sessionId;
    assert.ok(sessionId);
    await transport.terminateSession();
    const after = await send(h.http.urls.mcp, { body: { jsonrpc: '2.0', id: 99, method: 'ping' }, headers: { ...JSON_AND_SSE, 'mcp-session-id': sessionId! } });
    assert.is(after.status, 404, 'DELETE ended the session');
    await client.close();
    assert.equal(h.problems(), []);
  } finally {
    await h.http.close();
  }
});

test('a client without the roots capability is never sent roots/list; the tool says why', async () => {
  const h = await harness();
  try {
    const client = new Client({ name: 'no-roots', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(h.http.urls.mcp)));
    const result = await client.callTool({ name: 'list_roots' });
    assert.is(result.isError, true);
    assert.match((result.content as Array<{ text: string }>)[0]!.text, 'did not declare the "roots" capability');
    await client.close();
  } finally {
    await h.http.close();
  }
});

test('official SDK client resumes a call whose stream the server closed (SSE polling): nothing lost', async () => {
  const h = await harness({ pollAfterMs: 60 });
  try {
    const client = clientWithRoots();
    const resumptions: string[] = [];
    const recordingFetch = (url: string | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      if ((init?.method ?? 'GET') === 'GET' && headers.has('last-event-id')) resumptions.push(headers.get('last-event-id')!);
      return fetch(url, init);
    };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(h.http.urls.mcp), {
        fetch: recordingFetch,
        reconnectionOptions: { initialReconnectionDelay: 20, maxReconnectionDelay: 100, reconnectionDelayGrowFactor: 1, maxRetries: 5 },
      }),
    );
    const progress: number[] = [];
    const result = await client.callTool({ name: 'test_tool_with_progress' }, undefined, { onprogress: (p) => void progress.push(p.progress) });
    assert.equal(result.content, [{ type: 'text', text: 'Progress complete' }]);
    assert.equal(progress, [0, 50, 100]);
    // The call's stream was closed mid-call and resumed with GET + Last-Event-ID, from a call-stream event.
    assert.ok(resumptions.length >= 1, 'the client resumed at least once');
    assert.ok(
      resumptions.every((id) => id.startsWith('p')),
      JSON.stringify(resumptions),
    );
    await client.close();
    assert.equal(h.problems(), []);
  } finally {
    await h.http.close();
  }
});

const legacyAndWs: Array<[string, (h: Harness) => Transport, string]> = [
  ['legacy HTTP+SSE at /sse', (h) => new SSEClientTransport(new URL(h.http.urls.sse)), 'sse'],
  ['legacy HTTP+SSE negotiated on /mcp', (h) => new SSEClientTransport(new URL(h.http.urls.mcp)), 'sse'],
  ['WebSocket at /ws', (h) => new WebSocketClientTransport(new URL(h.http.urls.ws)), 'websocket'],
];

for (const [name, makeTransport, transportName] of legacyAndWs) {
  test(`official SDK client over ${name}: tools, progress, logging, roots, ping`, async () => {
    const h = await harness();
    try {
      const client = clientWithRoots();
      await client.connect(makeTransport(h));
      await converse(client, transportName);
      assert.equal(await h.rootsSeen, { roots: [{ uri: 'file:///tmp/project', name: 'project' }] });
      await client.close();
      const sessions = async () => (await fetch(h.http.urls.health).then((r) => r.json() as Promise<{ sessions: { total: number } }>)).sessions.total;
      await eventually(async () => (await sessions()) === 0, 'closing the connection ends the session');
      assert.equal(h.problems(), []);
    } finally {
      await h.http.close();
    }
  });
}

test.run();
