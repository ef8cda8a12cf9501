import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { counted, IdleHeapTrimmer } from '../src/platform/idle-heap.js';
import { Project } from '../src/workspace/project.js';
import { initializeLine, startServer, stopAll } from './helpers/process.js';
import { tick } from './helpers/wait.js';

test.after.each(stopAll);

/** A trimmer whose trims are awaited as events. */
function watchedTrimmer(quietMs: number): { heap: IdleHeapTrimmer; trims: number[]; nextTrim(): Promise<void> } {
  const trims: number[] = [];
  let wake: (() => void) | undefined;
  const heap = new IdleHeapTrimmer({
    quietMs,
    onTrim: (ms) => {
      trims.push(ms);
      wake?.();
    },
  });
  // The trim's timer never holds a process open (unref): the wait for it does, here.
  const nextTrim = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const open = setInterval(() => {}, 1_000);
      wake = () => {
        clearInterval(open);
        resolve();
      };
    });
  return { heap, trims, nextTrim };
}

test('a quiet thread trims its heap once after the last call ends: the garbage of the calls is gone', async () => {
  const { heap, trims, nextTrim } = watchedTrimmer(10);
  assert.ok(heap.available, 'Node lets a thread collect on demand');
  const trimmed = nextTrim();
  let during = 0;
  await counted(heap, async () => {
    // Tens of MB of short-lived objects, unreachable once the call ends.
    let held: Array<{ n: number; text: string }> | undefined = [];
    for (let n = 0; n < 400_000; n++) held.push({ n, text: `line ${n} of a file read by a search` });
    during = getHeapStatistics().used_heap_size;
    assert.is(held.length, 400_000);
    // eslint-disable-next-line no-useless-assignment -- let the garbage go: the test measures its collection
    held = undefined;
  });
  assert.is(trims.length, 0, 'not before the quiet time');
  await trimmed;
  const after = getHeapStatistics().used_heap_size;
  assert.is(trims.length, 1);
  assert.ok(after < during - 10 * 1024 * 1024, `used heap ${during} while held → ${after} after the trim`);
  heap.close();
});

/** With one call still in hand: no trim for `waitMs` (however long), then one once it ends. */
async function trimsOnlyAfterTheLastEnds(watched: ReturnType<typeof watchedTrimmer>, waitMs: number): Promise<void> {
  await tick(waitMs); // an absence is shown over a span of time: nothing may happen in it
  assert.is(watched.trims.length, 0);
  const trimmed = watched.nextTrim();
  watched.heap.end();
  await trimmed;
  assert.is(watched.trims.length, 1);
}

test('no trim while any call is in hand, however long; the last one to end starts the quiet time', async () => {
  const watched = watchedTrimmer(5);
  const { heap, trims } = watched;
  heap.begin();
  heap.begin();
  heap.end();
  // Ten quiet times pass with one call still in hand.
  await trimsOnlyAfterTheLastEnds(watched, 50);
  // An end() without a begin() (a settled task after close, say) neither throws nor goes negative.
  heap.close();
  heap.end();
  heap.begin();
  assert.is(trims.length, 1);
});

test('a call that starts during the quiet time puts the trim off until it ends', async () => {
  const watched = watchedTrimmer(30);
  watched.heap.end(); // nothing in hand: a quiet time starts
  watched.heap.begin(); // ...and a call cancels it
  await trimsOnlyAfterTheLastEnds(watched, 90);
  watched.heap.close();
});

test('an index job counts as work from its start until it settles, as a tool call does', async () => {
  const root = mkdtempSync(join(tmpdir(), 'sextant-idle-heap-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'main.go'), 'package main\n\nfunc main() { println("hi") }\n');
  let active = 0;
  let begun = 0;
  const seenWhileRunning: number[] = [];
  const project = new Project(root, {
    home: mkdtempSync(join(tmpdir(), 'sextant-home-')),
    activity: {
      begin: () => {
        active++;
        begun++;
      },
      end: () => void active--,
    },
  });
  const job = project.startJob('index');
  job.onUpdate(() => seenWhileRunning.push(active));
  await job.finished;
  assert.is(job.status, 'completed');
  assert.is(begun, 1);
  assert.is(active, 0);
  assert.ok(seenWhileRunning.length > 0 && seenWhileRunning.slice(0, -1).every((count) => count === 1), `active while running: ${seenWhileRunning}`);
  await project.close();
});

test('real process: the server trims its heap once its tool calls stop (logged at debug level)', async () => {
  const server = startServer(['serve', '--profile', 'conformance', '--log-level', 'debug']);
  server.send(initializeLine());
  server.send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  server.send(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_simple_text', arguments: {} } })}\n`);
  const [, answer] = (await server.waitForLines(2)) as Array<{ id: number; result: { content: unknown[] } }>;
  assert.is(answer!.id, 2);
  assert.ok(answer!.result.content.length > 0);
  const [, ms] = (await server.waitForStderr(/Heap trimmed once quiet \(([\d.]+) ms\)/, 10_000))!;
  assert.ok(Number(ms) >= 0);
  // Still serving after it.
  server.send(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' })}\n`);
  const lines = (await server.waitForLines(3)) as Array<{ id: number; result: object }>;
  assert.equal(lines[2], { jsonrpc: '2.0', id: 3, result: {} });
  server.child.stdin.end();
  assert.is((await server.exit).code, 0);
});

test.run();
