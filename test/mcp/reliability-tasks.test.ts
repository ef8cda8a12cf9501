/**
 * Reliability of 2026-07-28 tasks across the life of their process: every task reaches a true
 * terminal state, in its process or after a restart, and the task files of ended processes do
 * not pile up.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { statelessCall } from '../helpers/stateless.js';
import { stopAll } from '../helpers/process.js';
import { serveProcess } from '../helpers/serve-http.js';
import { eventually } from '../helpers/wait.js';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

test.after.each(() => stopAll());

function rpc(url: string, method: string, params: Record<string, unknown>) {
  return statelessCall(url, method, params, TASKS);
}

/** The pid of a process that has ended (a real one, so no live process is likely to have it). */
function endedPid(): number {
  return Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }));
}

function taskFile(dir: string, fields: Record<string, unknown>): string {
  const taskId = randomUUID();
  const now = Date.now();
  const file = {
    taskId,
    status: 'working',
    createdAt: new Date(now - 1_000).toISOString(),
    lastUpdatedAt: new Date(now - 1_000).toISOString(),
    ttlMs: 600_000,
    pollIntervalMs: 500,
    expiresAt: now + 600_000,
    pending: [],
    ...fields,
  };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${taskId}.json`), JSON.stringify(file));
  return taskId;
}

test('a task whose process was killed (-9) is failed by the next server; tasks/cancel then leaves it failed', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const dir = join(home, 'tasks');
  const orphan = taskFile(dir, { ownerPid: endedPid() });
  const server = await serveProcess(home, {}, ['--no-watch']);
  try {
    const seen = await rpc(server.url, 'tasks/get', { taskId: orphan });
    assert.is(seen.result?.status, 'failed', JSON.stringify(seen));
    assert.match(JSON.stringify(seen.result?.error), /stopped before it finished/);
    const cancel = await rpc(server.url, 'tasks/cancel', { taskId: orphan });
    assert.is(cancel.error, undefined, 'acknowledged');
    assert.is((await rpc(server.url, 'tasks/get', { taskId: orphan })).result?.status, 'failed', 'terminal for good');
  } finally {
    await server.stop();
  }
});

test('SIGTERM while a task runs: the task is failed, not completed, for a server that reads it after', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  // A task that works for ten minutes: still working when the signal comes, whatever the machine's
  // speed (an index job of a large tree could finish first on a fast one). Every task of the
  // process, an index job's included, ends through the same TaskStore.close.
  const first = await serveProcess(home);
  const created = (await rpc(first.url, 'tools/call', { name: 'slow_compute', arguments: { seconds: 600 } })).result!;
  assert.is(created.resultType, 'task', JSON.stringify(created));
  const taskId = created.taskId as string;
  assert.is((await rpc(first.url, 'tasks/get', { taskId })).result!.status, 'working');
  await first.stop();
  const second = await serveProcess(home);
  try {
    const after = (await rpc(second.url, 'tasks/get', { taskId })).result!;
    assert.is(after.status, 'failed', JSON.stringify(after).slice(0, 400));
    assert.match(JSON.stringify(after.error), /server stopped before the task finished/);
  } finally {
    await second.stop();
  }
});

test('task files of ended processes are removed once past their ttlMs; those still readable stay', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const dir = join(home, 'tasks');
  const dead = endedPid();
  const past = Date.now() - 1_000;
  const expired = [
    taskFile(dir, { status: 'completed', expiresAt: past, ownerPid: dead }),
    taskFile(dir, { status: 'failed', expiresAt: past, ownerPid: dead }),
    taskFile(dir, { status: 'cancelled', expiresAt: past }),
  ];
  const readable = taskFile(dir, { status: 'completed', ownerPid: dead, result: { content: [] } });
  writeFileSync(join(dir, `${randomUUID()}.json.tmp-${dead}`), '{"partial');
  const server = await serveProcess(home, {}, ['--no-watch']);
  try {
    // Any task request looks through the directory (at most once a minute).
    assert.is((await rpc(server.url, 'tasks/get', { taskId: readable })).result?.status, 'completed');
    const left = readdirSync(dir);
    for (const id of expired) assert.not.ok(left.includes(`${id}.json`), `${id} was removed`);
    assert.ok(left.includes(`${readable}.json`), 'a finished task within its ttlMs stays');
    assert.equal(
      left.filter((name) => name.includes('.tmp-')),
      [],
    );
  } finally {
    await server.stop();
  }
});

test('processes sharing a home: a cancel sent to another reaches the one running the task; an idle server listens for nothing', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const [owner, other] = [await serveProcess(home), await serveProcess(home)];
  try {
    assert.is((await rpc(owner.url, 'tools/list', {})).error, undefined);
    assert.not.ok(existsSync(join(home, 'tasks', '.messages')), 'no task ran: nothing listened for, nothing made');
    const taskId = (await rpc(owner.url, 'tools/call', { name: 'slow_compute', arguments: { seconds: 600 } })).result!.taskId as string;
    assert.is((await rpc(other.url, 'tasks/cancel', { taskId })).error, undefined);
    await eventually(async () => (await rpc(owner.url, 'tasks/get', { taskId })).result?.status === 'cancelled', 'the owner stopped it');
    assert.is((await rpc(other.url, 'tasks/get', { taskId })).result!.status, 'cancelled');
  } finally {
    await Promise.all([owner.stop(), other.stop()]);
  }
});

test.run();
