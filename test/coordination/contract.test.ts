/**
 * The contract of what processes share (src/coordination): keys, tasks and leases, run against
 * each implementation (implementations.ts). Generations and the catalog have files of their own.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openCoordination, type TaskEntry } from '../../src/coordination/index.js';
import { deadPid } from '../helpers/process.js';
import { closeOpened, holdInProcess, implementations } from './implementations.js';

const entry = (taskId: string, owner: string, status: TaskEntry['status'] = 'working'): TaskEntry => ({
  taskId,
  status,
  createdAt: '2026-11-27T00:00:00.000Z',
  lastUpdatedAt: '2026-11-27T00:00:00.000Z',
  ttlMs: 60_000,
  pollIntervalMs: 500,
  expiresAt: Date.now() + 60_000, // computed once per entry: compare an entry with itself
  pending: [['ask', { method: 'elicitation/create', params: {} }]],
  owner,
});

for (const implementation of implementations) {
  test(`${implementation.name}: both handles seal and open with the same key, named by a stable id`, async () => {
    const [one, other] = await implementation.open();
    const [a, b] = [await one.keys.ring(), await other.keys.ring()];
    assert.equal(a.current, b.current);
    assert.match(a.current.id, /^[A-Za-z0-9_-]{8,}$/);
    assert.is(a.find(a.current.id), a.current);
    assert.is(a.find('no-such-key'), undefined);
  });

  test(`${implementation.name}: a task put by one handle is read, listed and removed by the other, whole`, async () => {
    const [one, other] = await implementation.open();
    const id = '00000000-0000-4000-8000-000000000001';
    const written = entry(id, one.tasks.self);
    await one.tasks.put(written);
    const read = await other.tasks.get(id);
    assert.equal(read, written, 'every field, pending requests included');
    await one.tasks.put({ ...read!, status: 'completed', result: { content: [] }, pending: [] });
    assert.is((await other.tasks.get(id))!.status, 'completed');
    assert.equal(
      (await other.tasks.list()).map((task) => task.taskId),
      [id],
    );
    await other.tasks.remove(id);
    assert.is(await one.tasks.get(id), undefined);
    assert.is(await one.tasks.get('../../etc/passwd'), undefined, 'an id that is not one is never looked up');
  });

  test(`${implementation.name}: an owner is alive while its process runs, and not after it ends; messages reach it, in order`, async () => {
    const [one, other] = await implementation.open();
    assert.not.ok(await one.tasks.ownerAlive(one.tasks.self), "a handle's own tasks in the ledger but not in its memory are orphans");
    assert.not.ok(await other.tasks.ownerAlive(String(await deadPid())), 'an owner that never was, or is gone');
    const id = '00000000-0000-4000-8000-000000000002';
    const owner = await holdInProcess(
      implementation,
      `let n = 0; await coordination.tasks.onMessage((message) => console.log('message ' + ++n + ' ' + JSON.stringify(message)));`,
    );
    try {
      assert.ok(await other.tasks.ownerAlive(owner.self), `${owner.self} runs`);
      await one.tasks.put(entry(id, owner.self));
      assert.ok(await other.tasks.send({ taskId: id, inputResponses: { confirm_1: { action: 'accept' } } }), 'left for its owner');
      assert.ok(await other.tasks.send({ taskId: id, cancel: true }));
      assert.is(await owner.line((line) => line.startsWith('message 1 ')), `message 1 {"taskId":"${id}","inputResponses":{"confirm_1":{"action":"accept"}}}`);
      assert.is(await owner.line((line) => line.startsWith('message 2 ')), `message 2 {"taskId":"${id}","cancel":true}`, 'each once, in the order sent');
    } finally {
      await owner.finish();
    }
    assert.not.ok(await other.tasks.ownerAlive(owner.self), 'its process ended');
    assert.not.ok(await other.tasks.send({ taskId: id, cancel: true }), 'an owner that is gone is not told');
    assert.not.ok(await other.tasks.send({ taskId: '00000000-0000-4000-8000-00000000000f', cancel: true }), 'nor is a task nobody has');
  });

  test(`${implementation.name}: a message sent while its owner was not listening is heard when it listens`, async () => {
    const [one] = await implementation.open();
    const id = '00000000-0000-4000-8000-000000000005';
    const owner = await holdInProcess(
      implementation,
      `process.on('SIGUSR2', () => coordination.tasks.onMessage((message) => console.log('message ' + JSON.stringify(message))));`,
    );
    try {
      await one.tasks.put(entry(id, owner.self));
      assert.ok(await one.tasks.send({ taskId: id, cancel: true }), 'left for it');
      owner.signal();
      assert.is(await owner.line((line) => line.startsWith('message ')), `message {"taskId":"${id}","cancel":true}`);
    } finally {
      await owner.finish();
    }
  });

  test(`${implementation.name}: every write of a task, by any handle, is heard by those listening for changes`, async () => {
    const [one, other] = await implementation.open();
    const id = '00000000-0000-4000-8000-000000000006';
    const heard: string[] = [];
    let wake: () => void = () => {};
    const stop = await other.tasks.onChange((taskId) => {
      heard.push(taskId);
      wake();
    });
    try {
      const twice = new Promise<void>((resolve) => (wake = () => heard.length >= 1 && resolve()));
      await one.tasks.put(entry(id, one.tasks.self));
      await twice;
      assert.is(heard[0], id);
    } finally {
      stop();
    }
  });
}

for (const implementation of implementations) {
  test(`${implementation.name}: a lease has one holder at a time; each grant's token is greater; a released lease is granted again`, async () => {
    const [one, other] = await implementation.open();
    const first = await one.leases.acquire('controller', 'one');
    assert.ok(first, 'granted');
    assert.is(await other.leases.acquire('controller', 'other'), undefined, 'held: not granted to another');
    assert.ok(await one.leases.valid(first!));
    await one.leases.release(first!);
    assert.not.ok(await one.leases.valid(first!), 'released: no longer valid');
    const second = await other.leases.acquire('controller', 'other');
    assert.ok(second && second.token > first!.token, `tokens grow: ${first!.token} then ${second?.token}`);
    await other.leases.release(second!);
  });
}

test('files: a lease whose holder died is taken over, and the old grant is fenced off by its token', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const [one, other] = [await openCoordination(home, { env: {} }), await openCoordination(home, { env: {} })];
  const old = (await one.leases.acquire('controller', 'one'))!;
  // The holder is taken for dead: its pid is gone (as after kill -9, or a pause long enough).
  writeFileSync(join(home, 'leases', 'controller.lease'), `${await deadPid()} 0000000000000000 thread-0`);
  const next = await other.leases.acquire('controller', 'other');
  assert.ok(next && next.token > old.token, 'taken over with a greater token');
  assert.not.ok(await one.leases.valid(old), 'the old grant is no longer valid: its writes are refused');
  assert.ok(await other.leases.valid(next!));
});

test('files: a temporary task file left by a dead writer is removed when the ledger is listed', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const coordination = await openCoordination(home, { env: {} });
  await coordination.tasks.put(entry('00000000-0000-4000-8000-000000000003', coordination.tasks.self));
  const gone = await deadPid();
  writeFileSync(join(home, 'tasks', `00000000-0000-4000-8000-000000000004.json.tmp-${gone}`), '{');
  assert.is((await coordination.tasks.list()).length, 1);
  assert.equal(readdirSync(join(home, 'tasks')), ['00000000-0000-4000-8000-000000000003.json']);
});

test.after.each(closeOpened);

test.run();
