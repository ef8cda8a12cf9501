/**
 * The official SDK v2 client against the real server, in every mode it has: pinned to
 * 2026-07-28, `auto` (probe with server/discover, stay modern), and `legacy` (initialize), over
 * stdio and Streamable HTTP, and both eras at once on one HTTP listener.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestHttp } from './helpers/http.js';
import { stopAll } from './helpers/process.js';
import { v2Client, v2Conversation, type V2Mode } from './helpers/sdk-v2.js';

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
      assert.equal(seen.map((conversation) => conversation.version), ['2026-07-28', '2026-07-28', '2026-07-28', '2026-07-28', '2025-11-25', '2025-11-25']);
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

test.run();
