/**
 * The official SDK v2 client against the real server, in every mode it has: pinned to
 * 2026-07-28, `auto` (probe with server/discover, stay modern), and `legacy` (initialize), over
 * stdio and Streamable HTTP, and both eras at once on one HTTP listener.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestHttp } from '../helpers/http.js';
import { stopAll } from '../helpers/process.js';
import { v2Client, v2Conversation, type V2Mode } from '../helpers/sdk-v2.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fixtureCopy } from '../helpers/projects.js';
import { serveProcess } from '../helpers/serve-http.js';

test.after.each(() => stopAll());

const MODES: Array<[string, V2Mode, string]> = [
  ['pinned', { pin: '2026-07-28' }, '2026-07-28'],
  ['auto', 'auto', '2026-07-28'],
  ['legacy', 'legacy', '2025-11-25'],
];

for (const [label, mode, expected] of MODES) {
  test(`SDK v2 client, ${label}, over stdio: connects at ${expected}, lists, calls, follows progress, meets errors`, async () => {
    const client = await v2Client(mode, 'stdio');
    try {
      const seen = await v2Conversation(client);
      assert.is(seen.version, expected);
      assert.is(seen.serverName, 'sextant');
      assert.ok(seen.toolNames.includes('test_simple_text'));
      assert.ok(seen.text.length > 0);
      assert.ok(seen.progress.length > 0, 'progress notifications reached the client');
      assert.ok(seen.toolError);
      // -32602 on the wire in 2026-07-28, -32002 before (the raw tests check the codes): the client knows both.
      assert.is(seen.missingResource, 'ResourceNotFoundError');
    } finally {
      await client.close();
    }
  });
}

test('SDK v2 clients of both eras at once on one HTTP listener, pinned, auto and legacy side by side', async () => {
  const http = await startTestHttp();
  try {
    const clients = await Promise.all(MODES.flatMap(([, mode]) => [v2Client(mode, new URL(http.urls.mcp)), v2Client(mode, new URL(http.urls.mcp))]));
    try {
      const seen = await Promise.all(clients.map((client) => v2Conversation(client)));
      assert.equal(
        seen.map((conversation) => conversation.version),
        ['2026-07-28', '2026-07-28', '2026-07-28', '2026-07-28', '2025-11-25', '2025-11-25'],
      );
      for (const conversation of seen) {
        assert.ok(conversation.progress.length > 0);
        assert.ok(conversation.toolError);
      }
      // Only the legacy clients hold sessions.
      const { request } = await import('undici');
      const health = (await (await request(http.urls.health)).body.json()) as { sessions: Record<string, number> };
      assert.is(health.sessions['streamable-http'], 2);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  } finally {
    await http.close();
  }
});

test('SDK v2 client whose requests alternate between two processes sharing SEXTANT_HOME: its multi round-trip rounds (roots, a three-round elicitation) complete across them', async () => {
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const root = fixtureCopy('polyglot');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  // a and a2 serve the code tools, b and c the conformance fixtures: each client alternates between a pair.
  const [a, a2, b, c] = await Promise.all([
    serveProcess(home, {}, ['--no-watch']),
    serveProcess(home, {}, ['--no-watch']),
    serveProcess(home, {}, ['--profile', 'conformance', '--no-watch']),
    serveProcess(home, {}, ['--profile', 'conformance', '--no-watch']),
  ]);
  const seen: string[] = [];
  const alternating = (targets: string[]) => {
    let next = 0;
    return (_input: string | URL | Request, init?: RequestInit) => {
      const url = targets[next++ % targets.length]!;
      seen.push(url);
      return fetch(url, init);
    };
  };
  const connect = async (targets: string[]) => {
    const client = new Client(
      { name: 'sextant-v2-split', version: '1.0.0' },
      { capabilities: { roots: {}, elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('roots/list', () => ({ roots: [{ uri: pathToFileURL(root).href, name: 'project' }] }));
    let step = 0;
    client.setRequestHandler(
      'elicitation/create',
      () => ({ action: 'accept' as const, content: step++ === 0 ? { name: 'Ada' } : { color: 'green' } }) as never,
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(targets[0]!), { fetch: alternating(targets) as typeof fetch }));
    return client;
  };
  try {
    const code = await connect([a.url, a2.url]);
    try {
      const status = await code.callTool({ name: 'index_status', arguments: {} });
      const structured = status.structuredContent as { workspace: string; source: string };
      assert.is(structured.workspace, root);
      assert.is(structured.source, 'roots');
    } finally {
      await code.close();
    }
    const fixtures = await connect([b.url, c.url]);
    try {
      const done = await fixtures.callTool({ name: 'test_input_required_result_multi_round', arguments: {} });
      assert.equal((done.content as Array<{ text: string }>)[0]!.text, 'Ada likes green');
    } finally {
      await fixtures.close();
    }
    assert.is(new Set(seen).size, 4, `the rounds went to every process: ${[...new Set(seen)].join(', ')}`);
  } finally {
    await Promise.all([a.stop(), a2.stop(), b.stop(), c.stop()]);
  }
});

test.run();
