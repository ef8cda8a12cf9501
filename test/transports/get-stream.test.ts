/**
 * The GET stream of a Streamable HTTP session (transports §Listening for Messages): it opens with
 * its event id and `retry` and no `data` line (no client can take that for a message to parse:
 * the AI SDK's did, with the call streams' empty-data priming event); a session may hold several,
 * and each message goes on exactly one. Then the clients nobody here wrote, each against it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { request } from 'undici';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { McpServer } from '../../src/mcp/server.js';
import { createSextantServer, loadProfile } from '../../src/server.js';
import type { RunningHttpServer } from '../../src/transports/http-listener.js';
import { JSON_AND_SSE, openSession, parseSse, send, startTestHttp } from '../helpers/http.js';
import { inspectorCli, mcpRemoteCommand, runClientScript } from '../helpers/real-clients.js';
import { eventually } from '../helpers/wait.js';

const WATCHED = 'test://watched-resource';

async function withServer(work: (http: RunningHttpServer, server: McpServer) => Promise<void>): Promise<void> {
  const server = createSextantServer({ profile: await loadProfile('conformance') });
  const http = await startTestHttp({ server });
  try {
    await work(http, server);
  } finally {
    await http.close();
  }
}

/** An open GET stream of `session`: the text it has carried so far, and how to close it. */
async function getStream(url: string, session: string): Promise<{ text: () => string; close(): void }> {
  const response = await request(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } });
  assert.is(response.statusCode, 200);
  let text = '';
  response.body.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  response.body.on('error', () => undefined);
  await eventually(() => text.length > 0, 'the stream has opened');
  return { text: () => text, close: () => response.body.destroy() };
}

const updates = (text: string): number => parseSse(text).filter((event) => event.data.includes('notifications/resources/updated')).length;

test('a GET stream opens with its id and retry and no data line (a call stream keeps its empty-data priming event: http-resume)', async () => {
  await withServer(async (http) => {
    const session = await openSession(http.urls.mcp);
    const stream = await getStream(http.urls.mcp, session);
    try {
      assert.match(stream.text(), /^id: g\d+-0\nretry: \d+\n\n$/, JSON.stringify(stream.text()));
      assert.not.match(stream.text(), 'data:', 'nothing a parser dispatches');
    } finally {
      stream.close();
    }
  });
});

test('a session holds several GET streams; each message goes on exactly one, the newest still open', async () => {
  await withServer(async (http, server) => {
    const session = await openSession(http.urls.mcp);
    const headers = { ...JSON_AND_SSE, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const subscribed = await send(http.urls.mcp, { body: { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: WATCHED } }, headers });
    assert.is(subscribed.status, 200, subscribed.text);
    const first = await getStream(http.urls.mcp, session);
    const second = await getStream(http.urls.mcp, session);
    try {
      for (let i = 0; i < 3; i++) server.resourceUpdated(WATCHED);
      await eventually(() => updates(second.text()) === 3, 'the newest stream carries them');
      assert.is(updates(first.text()), 0, 'none twice');
      second.close();
      await eventually(() => {
        server.resourceUpdated(WATCHED);
        return updates(first.text()) > 0;
      }, 'with the newest gone, the other carries them');
    } finally {
      first.close();
      second.close();
    }
  });
});

test('the official SDK client (with resumption) gets server messages on its GET stream, with no transport error', async () => {
  await withServer(async (http, server) => {
    const errors: unknown[] = [];
    const received: string[] = [];
    const client = new Client({ name: 'get-stream-test', version: '1.0.0' });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void received.push(notification.params.uri));
    const transport = new StreamableHTTPClientTransport(new URL(http.urls.mcp), {
      reconnectionOptions: { initialReconnectionDelay: 50, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 },
    });
    transport.onerror = (error) => errors.push(error);
    await client.connect(transport);
    try {
      await client.subscribeResource({ uri: WATCHED });
      await eventually(() => {
        server.resourceUpdated(WATCHED);
        return received.length > 0;
      }, 'an update arrives on the GET stream');
      assert.equal(errors, []);
    } finally {
      await client.close();
    }
  });
});

test("Vercel's AI SDK client, in a 2025-11-25 session (GET stream open) and by 2026-07-28 discovery, reports no error", async () => {
  await withServer(async (http) => {
    for (const mode of ['legacy', 'discovery']) {
      const answer = await runClientScript('ai-sdk.mjs', [http.urls.mcp, mode]);
      assert.equal(answer.errors, [], `${mode}: ${JSON.stringify(answer)}`);
      assert.is(answer.text, 'This is a simple text response for testing.', mode);
      assert.ok((answer.tools as number) > 0);
    }
  });
});

test("LangChain's MCP adapters, mcp-remote and the Inspector's CLI (--strict) list and call tools", async () => {
  await withServer(async (http) => {
    const langchain = await runClientScript('langchain.mjs', [http.urls.mcp]);
    assert.ok((langchain.tools as number) > 0);
    assert.match(String(langchain.text), 'This is a simple text response for testing.');

    const config = mkdtempSync(join(tmpdir(), 'sextant-mcp-remote-'));
    const remote = new Client({ name: 'via-mcp-remote', version: '1.0.0' });
    try {
      await remote.connect(new StdioClientTransport({ ...mcpRemoteCommand(http.urls.mcp, config), stderr: 'pipe' }));
      assert.ok((await remote.listTools()).tools.length > 0);
      const called = (await remote.callTool({ name: 'test_simple_text', arguments: {} })) as { content: Array<{ text: string }> };
      assert.is(called.content[0]!.text, 'This is a simple text response for testing.');
    } finally {
      await remote.close();
      rmSync(config, { recursive: true, force: true });
    }

    const listed = JSON.parse(await inspectorCli([http.urls.mcp, '--transport', 'http', '--method', 'tools/list', '--strict'])) as { tools: unknown[] };
    assert.ok(listed.tools.length > 0);
    const called = await inspectorCli([http.urls.mcp, '--transport', 'http', '--method', 'tools/call', '--tool-name', 'test_simple_text']);
    assert.match(called, 'This is a simple text response for testing.');
  });
});

test.run();
