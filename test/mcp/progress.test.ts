import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RequestCancelledError, type ProgressUpdate } from '../../src/jsonrpc/index.js';
import { createSextantServer, loadProfile } from '../../src/server.js';
import { connect } from '../helpers/connect.js';
import { REVISIONS } from '../helpers/schema.js';
import { tick } from '../helpers/wait.js';

const server = createSextantServer({ profile: await loadProfile('conformance') });

for (const revision of REVISIONS) {
  test(`${revision}: progress arrives with the request's token, increasing, before the result`, async () => {
    const c = connect(server);
    await c.initialize(revision);
    const updates: ProgressUpdate[] = [];
    const result = await c.client.request('tools/call', { name: 'test_tool_with_progress' }, { onProgress: (u) => updates.push(u) });
    assert.equal(result.content, [{ type: 'text', text: 'Progress complete' }]);
    assert.equal(
      updates.map((u) => u.progress),
      [0, 50, 100],
    );
    assert.ok(updates.every((u) => u.total === 100));
    // 2024-11-05 has no "message" on progress notifications.
    assert.is(
      updates.every((u) => 'message' in u),
      revision !== '2024-11-05',
    );
    const progressMessages = c.sent.filter((m) => (m as { method?: string }).method === 'notifications/progress');
    assert.ok(progressMessages.every((m) => (m as { params: { progressToken: unknown } }).params.progressToken === 2));
    const resultIndex = c.sent.findIndex((m) => (m as { id?: unknown }).id === 2);
    assert.ok(c.sent.indexOf(progressMessages.at(-1)!) < resultIndex);
    assert.equal(c.checker.problems, []);
    c.close();
  });
}

test('cancelling a tools/call stops the tool, sends no response, and the session carries on', async () => {
  const c = connect(server);
  await c.initialize();
  const controller = new AbortController();
  const call = c.client.request(
    'tools/call',
    { name: 'test_tool_with_progress' },
    {
      signal: controller.signal,
      onProgress: () => controller.abort('enough'),
    },
  );
  try {
    await call;
    assert.unreachable('should have been cancelled');
  } catch (error) {
    assert.instance(error, RequestCancelledError);
  }
  await tick(300); // longer than the tool would have taken
  const cancelled = c.sent.filter((m) => (m as { id?: unknown }).id === 2);
  assert.equal(cancelled, [], 'no response for a cancelled request');
  const progress = c.sent.filter((m) => (m as { method?: string }).method === 'notifications/progress');
  assert.is(progress.length, 1, 'no progress after cancellation');
  assert.equal(await c.client.request('ping'), {});
  c.close();
});

test('tool log messages follow the level set by the client and name the tool as logger', async () => {
  const c = connect(server);
  await c.initialize();
  const heard: Array<Record<string, unknown>> = [];
  c.client.onNotification('notifications/message', (params) => void heard.push(params));
  await c.client.request('logging/setLevel', { level: 'debug' });
  await c.client.request('tools/call', { name: 'test_tool_with_logging' });
  assert.is(heard.length, 3);
  assert.ok(heard.every((m) => m.logger === 'test_tool_with_logging' && m.level === 'info'));
  await c.client.request('logging/setLevel', { level: 'error' });
  await c.client.request('tools/call', { name: 'test_tool_with_logging' });
  assert.is(heard.length, 3, 'info messages are filtered at level error');
  assert.equal(c.checker.problems, []);
  c.close();
});

test('closing a session mid-call aborts the tool without a response', async () => {
  const c = connect(server);
  await c.initialize();
  void c.client.request('tools/call', { name: 'test_tool_with_progress' }).catch(() => {});
  await tick(20);
  const before = c.sent.length;
  c.session.close();
  await tick(300);
  assert.is(c.sent.length, before);
  c.client.close();
});

test.run();
