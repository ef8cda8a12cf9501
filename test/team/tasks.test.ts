/**
 * Tasks across replicas that share a real PostgreSQL: a task created on one is in the database
 * before its CreateTaskResult goes out, so the other answers tasks/get for it at once; the other
 * replica's tasks/update and tasks/cancel reach the owner and act on the work; a listen stream on
 * the other replica hears it change; and a task is invisible to any principal but its creator's.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { JSON_AND_SSE } from '../helpers/http.js';
import { sharedPostgres } from '../helpers/postgres.js';
import { serveProcess } from '../helpers/serve-http.js';
import { sseReader, statelessCall, type StatelessAnswer } from '../helpers/stateless.js';
import { eventually } from '../helpers/wait.js';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const ALICE = { authorization: 'Bearer alice' };
const BOB = { authorization: 'Bearer bob' };

const call = (url: string, method: string, params: Record<string, unknown>, headers: Record<string, string> = ALICE): Promise<StatelessAnswer> =>
  statelessCall(url, method, params, TASKS, headers);

const confirmed = { action: 'accept', content: { confirm: true } };

/** A `subscriptions/listen` stream for `taskIds`: every message it carries, and how to end it. */
async function listen(url: string, taskIds: string[]): Promise<{ messages: Array<Record<string, unknown>>; close(): void }> {
  const response = await request(url, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, ...ALICE, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'follow',
      method: 'subscriptions/listen',
      params: {
        notifications: { taskIds },
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': TASKS },
      },
    }),
  });
  assert.is(response.statusCode, 200);
  const messages: Array<Record<string, unknown>> = [];
  response.body.on(
    'data',
    sseReader((message) => messages.push(message)),
  );
  response.body.on('error', () => undefined);
  await eventually(() => messages.length > 0, 'the stream is acknowledged');
  return { messages, close: () => response.body.destroy() };
}

type Replica = Awaited<ReturnType<typeof serveProcess>>;

/** Two replicas (the conformance profile: its task tools) on a database of their own. */
async function twoReplicas(): Promise<[Replica, Replica]> {
  const databaseUrl = await (await sharedPostgres()).database();
  const args = ['--profile', 'conformance', '--no-watch', '--database-url', databaseUrl];
  return [
    await serveProcess(mkdtempSync(join(tmpdir(), 'sextant-home-')), {}, args),
    await serveProcess(mkdtempSync(join(tmpdir(), 'sextant-home-')), {}, args),
  ];
}

test('a task started on one replica is read, answered, followed and cancelled from another; another principal never sees it', async () => {
  const [owner, other] = await twoReplicas();
  try {
    const created = (await call(owner.url, 'tools/call', { name: 'multi_input', arguments: {} })).result!;
    assert.is(created.resultType, 'task', JSON.stringify(created));
    const taskId = created.taskId as string;
    // Asked of the other replica right after the handle came back: it is in the database already.
    const seen = await call(other.url, 'tasks/get', { taskId });
    assert.ok(seen.result, `found at once on the other replica: ${JSON.stringify(seen)}`);

    for (const [who, headers] of [
      ['bob', BOB],
      ['nobody', {}],
    ] as const) {
      for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
        const refused = await call(other.url, method, { taskId, inputResponses: {} }, headers);
        assert.is(refused.error?.code, -32602, `${method} by ${who}: ${JSON.stringify(refused)}`);
        assert.match(refused.error!.message, 'no task');
      }
    }
    const stream = await listen(other.url, [taskId]);
    assert.equal((stream.messages[0]!.params as { notifications: unknown }).notifications, { taskIds: [taskId] }, 'honored on a replica that does not run it');

    await eventually(async () => (await call(other.url, 'tasks/get', { taskId })).result?.status === 'input_required', 'it waits for input');
    const ack = await call(other.url, 'tasks/update', { taskId, inputResponses: { first: confirmed, second: confirmed } });
    assert.is(ack.error, undefined, JSON.stringify(ack));
    await eventually(async () => (await call(other.url, 'tasks/get', { taskId })).result?.status === 'completed', 'the owner got the answers and finished');
    const done = (await call(other.url, 'tasks/get', { taskId })).result!;
    assert.match((done.result as { content: Array<{ text: string }> }).content[0]!.text, 'Answered: first, second');
    await eventually(
      () => stream.messages.some((message) => message.method === 'notifications/tasks' && (message.params as { status: string }).status === 'completed'),
      'the stream on the other replica hears it complete',
    );
    stream.close();

    const slow = (await call(owner.url, 'tools/call', { name: 'slow_compute', arguments: { seconds: 600 } })).result!;
    const slowId = slow.taskId as string;
    assert.is((await call(other.url, 'tasks/cancel', { taskId: slowId })).error, undefined);
    await eventually(async () => (await call(owner.url, 'tasks/get', { taskId: slowId })).result?.status === 'cancelled', 'the owner stopped it');
    // The owner answers from memory at once; the ledger has it once the owner's write lands, which
    // is what the other replica reads: it is waited for, not raced.
    await eventually(
      async () => (await call(other.url, 'tasks/get', { taskId: slowId })).result?.status === 'cancelled',
      'the other replica reads it cancelled',
    );
  } finally {
    await Promise.all([owner.stop(), other.stop()]);
  }
});

test('a replica killed (-9) while its task runs: the task is failed for the others once the replica is taken for dead (20 s)', async () => {
  const [owner, other] = await twoReplicas();
  try {
    const taskId = (await call(owner.url, 'tools/call', { name: 'slow_compute', arguments: { seconds: 600 } })).result!.taskId as string;
    owner.child.kill('SIGKILL');
    const killedAt = Date.now();
    assert.is((await call(other.url, 'tasks/get', { taskId })).result!.status, 'working', 'its heartbeat is recent: not dead yet');
    // The bound is the replica's: dead after 20 s without a heartbeat (every 5 s); a margin for a busy machine.
    await eventually(
      async () => (await call(other.url, 'tasks/get', { taskId })).result?.status === 'failed',
      'failed once the owner is taken for dead',
      45_000,
      500,
    );
    assert.ok(Date.now() - killedAt >= 15_000, 'not before its heartbeat could have been missed');
    const failed = (await call(other.url, 'tasks/get', { taskId })).result!;
    assert.match(JSON.stringify(failed.error), /The process running this task \(.+:\d+:[0-9a-f]{6}\) stopped before it finished/);
  } finally {
    await Promise.all([owner.stop(), other.stop()]);
  }
});

test.run();
