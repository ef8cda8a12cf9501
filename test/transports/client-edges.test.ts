/**
 * The edges real clients hit (issue 25): server-to-client requests on the stream of the request
 * that needs them, session-less GETs of the new era, OAuth discovery under a static token.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { request } from 'undici';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { initializeBody, JSON_AND_SSE, send } from '../helpers/http.js';
import { runCli, stopAll } from '../helpers/process.js';
import { projectTree } from '../helpers/projects.js';
import { serveProcess } from '../helpers/serve-http.js';

test.after.each(() => stopAll());

test("a 2025-11-25 client that declares roots and opens no GET stream is asked on its call's own stream, and gets its project at once", async () => {
  const mine = projectTree({ 'mine.go': 'package mine\n\nfunc OnlyInTheRoot() {}\n' });
  const other = projectTree({ 'other.go': 'package other\n\nfunc SomethingElse() {}\n' });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  for (const root of [mine, other]) assert.is((await runCli(['index', root], '', { SEXTANT_HOME: home })).code, 0);
  const server = await serveProcess(home, { SEXTANT_PROJECT: other }, ['--no-watch']);
  try {
    const init = await send(server.url, { body: initializeBody(1, '2025-11-25', { roots: { listChanged: true } }) });
    const session = String(init.headers['mcp-session-id']);
    const headers = { ...JSON_AND_SSE, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    await send(server.url, { body: { jsonrpc: '2.0', method: 'notifications/initialized' }, headers });
    const started = Date.now();
    const call = await request(server.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search_code', arguments: { query: 'OnlyInTheRoot' } } }),
    });
    assert.match(String(call.headers['content-type']), 'text/event-stream', 'the call answers as a stream: it has a request to make first');
    const events = call.body[Symbol.asyncIterator]();
    let streamed = '';
    const next = async (pattern: RegExp): Promise<string> => {
      for (;;) {
        const match = pattern.exec(streamed);
        if (match) return match[1]!;
        const chunk = await events.next();
        assert.not.ok(chunk.done, `the stream ended before ${pattern}: ${streamed}`);
        streamed += Buffer.from(chunk.value as Uint8Array).toString('utf8');
      }
    };
    const asked = JSON.parse(await next(/data: (\{[^\n]*"roots\/list"[^\n]*\})\n/)) as { id: number };
    const answered = await send(server.url, { body: { jsonrpc: '2.0', id: asked.id, result: { roots: [{ uri: pathToFileURL(mine).href }] } }, headers });
    assert.is(answered.status, 202);
    const result = JSON.parse(await next(/data: (\{[^\n]*"id":7[^\n]*\})\n/)) as {
      result: { structuredContent: { workspace: string; results: Array<{ path: string }> } };
    };
    assert.is(result.result.structuredContent.workspace, mine);
    assert.equal(
      result.result.structuredContent.results.map((item) => item.path),
      ['mine.go'],
    );
    assert.ok(Date.now() - started < 4_000, 'no wait for a roots timeout');
  } finally {
    await server.stop();
  }
});

test('a session-less GET with MCP-Protocol-Version is refused (405), not taken for a legacy SSE client; one without it still is', async () => {
  const { startTestHttp } = await import('../helpers/http.js');
  const http = await startTestHttp();
  try {
    // Only the head is awaited: a stream taken for a legacy one would never end.
    const modern = await request(http.urls.mcp, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25' } });
    assert.is(modern.statusCode, 405);
    assert.is(modern.headers.allow, 'POST');
    assert.is(((await modern.body.json()) as { error: { code: number } }).error.code, -32600);
    assert.is(((await send(http.urls.health)).json().sessions as { sse: number }).sse, 0, 'no stray legacy session');
    // A 2024-11-05 client sends no such header: it still gets its legacy stream and endpoint event.
    const legacy = await request(http.urls.mcp, { method: 'GET', headers: { accept: 'text/event-stream' } });
    assert.is(legacy.statusCode, 200);
    const first = await legacy.body[Symbol.asyncIterator]().next();
    assert.match(Buffer.from(first.value as Uint8Array).toString('utf8'), 'event: endpoint');
    legacy.body.destroy();
  } finally {
    await http.close();
  }
});

test('with --auth-token, OAuth discovery paths answer 404 (a static token is not OAuth), other paths still 401', async () => {
  const { startTestHttp } = await import('../helpers/http.js');
  const http = await startTestHttp({ authToken: 'secret-token' });
  try {
    const base = new URL(http.urls.mcp).origin;
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ]) {
      const answer = await send(`${base}${path}`);
      assert.is(answer.status, 404, `${path}: ${answer.status}`);
      assert.is(answer.headers['www-authenticate'], undefined);
    }
    assert.is((await send(http.urls.mcp, { body: initializeBody() })).status, 401);
    assert.is((await send(http.urls.mcp, { body: initializeBody(), headers: { ...JSON_AND_SSE, authorization: 'Bearer secret-token' } })).status, 200);
  } finally {
    await http.close();
  }
});

test.run();
