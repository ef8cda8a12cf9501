/**
 * Index generations' contract (src/coordination/contracts.ts), run against each implementation:
 * a commit is a compare and swap under a valid lease, read by every handle, heard by watchers;
 * a writer that lost its lease, or started from an old generation, is refused.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { GenerationConflictError, InvalidEntryError, LeaseLostError, openCoordination, type Generation } from '../../src/coordination/index.js';
import { deadPid } from '../helpers/process.js';
import { closeOpened, implementations, inProcesses } from './implementations.js';

const at = (n: number): string => new Date(Date.UTC(2026, 10, 27, 0, 0, n)).toISOString();

async function refusal(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  assert.unreachable('the commit must be refused');
  throw new Error('unreachable');
}

for (const implementation of implementations) {
  test(`${implementation.name}: generations count up from 1, each read whole by the other handle`, async () => {
    const [one, other] = await implementation.open();
    assert.is(await other.generations.current('web'), undefined);
    const lease = (await one.leases.acquire('project-web', 'one'))!;
    const first = await one.generations.commit(lease, undefined, { project: 'web', source: 'a'.repeat(40), committedAt: at(1) });
    assert.equal(first, { project: 'web', number: 1, source: 'a'.repeat(40), committedAt: at(1) });
    assert.equal(await other.generations.current('web'), first);
    const second = await one.generations.commit(lease, first, { project: 'web', committedAt: at(2) });
    assert.equal(second, { project: 'web', number: 2, committedAt: at(2) }, 'a generation with no source has none');
    assert.equal(await other.generations.current('WEB'), second, 'the project is found regardless of case');
    for (let n = 3; n <= 8; n++) await one.generations.commit(lease, await one.generations.current('web'), { project: 'web', committedAt: at(n) });
    assert.is((await other.generations.current('web'))!.number, 8, 'the current one stays the latest as old ones are let go');
    await one.leases.release(lease);
  });

  test(`${implementation.name}: a commit from an old generation is refused, and the current one stays`, async () => {
    const [one, other] = await implementation.open();
    const lease = (await one.leases.acquire('project-web', 'one'))!;
    const first = await one.generations.commit(lease, undefined, { project: 'web', committedAt: at(1) });
    const second = await one.generations.commit(lease, first, { project: 'web', committedAt: at(2) });
    for (const stale of [undefined, first]) {
      const error = await refusal(() => one.generations.commit(lease, stale, { project: 'web', committedAt: at(3) }));
      assert.instance(error, GenerationConflictError);
      assert.is((error as GenerationConflictError).code, 'generation_conflict');
      assert.match(error.message, new RegExp(`"web" is at generation 2, not ${stale?.number ?? 0}`));
    }
    assert.equal(await other.generations.current('web'), second);
    await one.leases.release(lease);
  });

  test(`${implementation.name}: a released lease commits nothing; bad entries are refused with what is wrong`, async () => {
    const [one] = await implementation.open();
    const lease = (await one.leases.acquire('project-web', 'one'))!;
    const first = await one.generations.commit(lease, undefined, { project: 'web', committedAt: at(1) });
    const bad: [() => Promise<unknown>, RegExp][] = [
      [() => one.generations.commit(lease, first, { project: 'web', committedAt: 'yesterday' }), /"committedAt" must be a date/],
      [() => one.generations.commit(lease, first, { project: 'web', source: '', committedAt: at(2) }), /"source" must be a non-empty string/],
      [() => one.generations.commit(lease, first, { project: 'other', committedAt: at(2) }), /cannot follow one of "web"/],
      [() => one.generations.commit(lease, undefined, { project: '../web', committedAt: at(2) }), /Invalid project name/],
    ];
    for (const [run, message] of bad) {
      const error = await refusal(run);
      assert.instance(error, InvalidEntryError);
      assert.match(error.message, message);
    }
    await one.leases.release(lease);
    const error = await refusal(() => one.generations.commit(lease, first, { project: 'web', committedAt: at(2) }));
    assert.instance(error, LeaseLostError);
    assert.is((error as LeaseLostError).code, 'lease_lost');
    assert.equal(await one.generations.current('web'), first);
  });

  test(`${implementation.name}: a watcher on the other handle hears each commit, and nothing after it stops`, async () => {
    const [one, other] = await implementation.open();
    const lease = (await one.leases.acquire('project-web', 'one'))!;
    const first = await one.generations.commit(lease, undefined, { project: 'web', committedAt: at(1) });
    const heard: Generation[] = [];
    let hear: (generation: Generation) => void = () => {};
    const stop = other.generations.watch('web', first.number, (generation) => {
      heard.push(generation);
      hear(generation);
    });
    const next = new Promise<Generation>((resolve) => (hear = resolve));
    const second = await one.generations.commit(lease, first, { project: 'web', source: 'b'.repeat(40), committedAt: at(2) });
    assert.equal(await next, second, 'the generation committed, not the one before');
    stop();
    const third = await one.generations.commit(lease, second, { project: 'web', committedAt: at(3) });
    // A watcher that was stopped hears nothing; a new one from nothing hears the current one at once.
    const caughtUp = new Promise<Generation>((resolve) => {
      const stopNew = other.generations.watch('web', 0, (generation) => {
        stopNew();
        resolve(generation);
      });
    });
    assert.equal(await caughtUp, third, 'the current one, not each one before it');
    // One from the current one hears the next commit only.
    const later = new Promise<Generation>((resolve) => {
      const stopLater = other.generations.watch('web', third.number, (generation) => {
        stopLater();
        resolve(generation);
      });
    });
    const fourth = await one.generations.commit(lease, third, { project: 'web', committedAt: at(4) });
    assert.equal(await later, fourth);
    assert.equal(heard, [second]);
    await one.leases.release(lease);
  });

  test(`${implementation.name}: a refresh asked by one handle is heard by the other's listener, once, by name`, async () => {
    const [one, other] = await implementation.open();
    const heard: string[] = [];
    let hear: () => void = () => {};
    const stop = await other.generations.onRefreshRequest((project) => {
      heard.push(project);
      hear();
    });
    const first = new Promise<void>((resolve) => (hear = resolve));
    await one.generations.requestRefresh('Web');
    await first;
    assert.equal(heard, ['web']);
    stop();
  });

  test(`${implementation.name}: processes racing to commit the same next generation: exactly one succeeds`, async () => {
    const [one] = await implementation.open();
    const outcomes = await inProcesses(
      implementation,
      6,
      (index) => `
        const lease = await coordination.leases.acquire('writer-${index}', 'writer-${index}');
        try {
          await coordination.generations.commit(lease, undefined, { project: 'race', source: 'writer-${index}', committedAt: new Date().toISOString() });
          console.log('committed writer-${index}');
        } catch (error) {
          console.log(error.code);
        } finally {
          await coordination.leases.release(lease);
        }`,
    );
    const committed = outcomes.filter((outcome) => outcome.startsWith('committed'));
    assert.is(committed.length, 1, outcomes.join(', '));
    assert.is(outcomes.filter((outcome) => outcome === 'generation_conflict').length, 5);
    const current = await one.generations.current('race');
    assert.is(current!.number, 1);
    assert.is(current!.source, committed[0]!.slice('committed '.length));
  });
}

test('files: a writer whose lease was taken over is refused, and its successor commits', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const [one, other] = [await openCoordination(home, { env: {} }), await openCoordination(home, { env: {} })];
  const paused = (await one.leases.acquire('project-web', 'one'))!;
  const first = await one.generations.commit(paused, undefined, { project: 'web', committedAt: at(1) });
  // The holder is taken for dead (as after kill -9, or a pause long enough) and replaced.
  writeFileSync(join(home, 'leases', 'project-web.lease'), `${await deadPid()} 0000000000000000 thread-0`);
  const successor = (await other.leases.acquire('project-web', 'other'))!;
  assert.ok(successor.token > paused.token);
  for (const expected of [first, undefined]) {
    const error = await refusal(() => one.generations.commit(paused, expected, { project: 'web', committedAt: at(2) }));
    assert.instance(error, LeaseLostError);
  }
  const second = await other.generations.commit(successor, first, { project: 'web', committedAt: at(3) });
  assert.equal(await one.generations.current('web'), second);
  await other.leases.release(successor);
});

test.after.each(closeOpened);

test.run();
