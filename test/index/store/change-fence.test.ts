/**
 * change-fence.ts and the stamps it lets a project keep (workspace/watched-stamps.ts): a change
 * another process made before the fence is passed has reached its folder's watch by then, and
 * kept stamps are read again after it; the fence leaves no file behind. Linux only, as the fence.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ChangeFence } from '../../../src/index/store/change-fence.js';
import { IndexStore } from '../../../src/index/store/store.js';
import { WatchedStamps } from '../../../src/workspace/watched-stamps.js';
import { eventually } from '../../helpers/wait.js';

/** A rename into `dir` by another process, finished when this returns (as an index commit is). */
function renameElsewhere(dir: string, name: string): void {
  const script = `const fs = require('node:fs'); fs.writeFileSync(process.argv[1] + '.tmp', 'x'); fs.renameSync(process.argv[1] + '.tmp', process.argv[1]);`;
  const done = spawnSync(process.execPath, ['-e', script, join(dir, name)], { encoding: 'utf8' });
  if (done.status !== 0) throw new Error(done.stderr);
}

const fenceFiles = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith('sextant-fence-'));

/**
 * A fence that works: the first call after it opens only sees it settle (its own unlink's event).
 * Unless a test says otherwise, a write may take long to come back (a busy machine), not stall.
 */
async function openFence(options: { timeoutMs?: number } = {}): Promise<ChangeFence> {
  const fence = new ChangeFence({ timeoutMs: 30_000, ...options });
  await eventually(() => fence.passed(), 'the fence settles');
  return fence;
}

/** Stamps that count their reads; kept for `maxTrustMs`. */
function countedStamps(fence: ChangeFence, store: IndexStore, maxTrustMs: number) {
  let reads = 0;
  const stamps = new WatchedStamps<{ read: number; jobPid: number | undefined }>(fence, store, { maxTrustMs });
  return {
    stamps,
    read: (jobPid?: number) => stamps.current(() => ({ read: ++reads, jobPid })).read,
  };
}

/** The loop held for `ms`: timers fall due while no event is read. */
function holdLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** A project's index store in folders of its own and a working fence, removed and closed after `work`. */
async function withStore(fenceOptions: { timeoutMs?: number }, work: (fence: ChangeFence, store: IndexStore) => Promise<void>): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'sextant-root-'));
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const fence = await openFence(fenceOptions);
  try {
    await work(fence, new IndexStore(root, home));
  } finally {
    fence.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.platform === 'linux') {
  test('a change made by another process before the fence is known to the watch once the fence is passed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sextant-watched-'));
    const fence = await openFence();
    try {
      for (let round = 0; round < 5; round++) {
        const watch = fence.watchFolder(dir)!;
        assert.ok(watch, 'the folder is watched');
        assert.ok(await fence.passed());
        assert.ok(watch.unchanged);
        renameElsewhere(dir, `manifest-${round}.json`);
        // No turn of the loop has happened since the rename: its event has not been read yet.
        assert.ok(watch.unchanged, 'not known before the fence');
        assert.ok(await fence.passed());
        assert.not.ok(watch.unchanged, `round ${round}: known once the fence is passed`);
      }
      assert.equal(fenceFiles(), [], 'the fence file is unlinked once open');
    } finally {
      fence.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('many calls pass one fence together; a closed fence lets every caller read stamps', async () => {
    const fence = await openFence();
    const passed = await Promise.all(Array.from({ length: 50 }, () => fence.passed()));
    assert.ok(passed.every(Boolean));
    const waiting = fence.passed();
    fence.close();
    assert.is(await waiting, false, 'a caller waiting when the fence closes is told to read');
    assert.is(await fence.passed(), false);
    assert.is(fence.working, false);
    assert.is(fence.watchFolder(tmpdir()), undefined);
  });

  test('a fence overdue lets its callers read their stamps, and a fresh one serves the next, keeping nothing from before', async () => {
    await withStore({ timeoutMs: 200 }, async (fence, store) => {
      mkdirSync(store.dir, { recursive: true });
      const { stamps, read } = countedStamps(fence, store, 60_000);
      const kept = read();
      assert.is(read(), kept, 'kept under the first fence');
      // From the check phase (in an event's own callback, libuv would read the next event at once),
      // and the loop held past the timeout: the timer runs before the write's event is read.
      await new Promise((resolve) => setImmediate(resolve));
      const overdue = fence.passed();
      holdLoop(300);
      assert.is(await overdue, false, 'overdue: read the stamps');
      await eventually(() => fence.passed(), 'a fence opened afresh works');
      assert.ok(fence.working);
      assert.is(read(), kept + 1, 'stamps kept before the stall are read again: events may have been dropped');
      assert.equal(fenceFiles(), []);
      stamps.close();
    });
  });

  test('stamps are kept while the index folder is unchanged, and read again after a change, a job, or a let-go', async () => {
    await withStore({}, async (fence, store) => {
      const early = countedStamps(fence, store, 60_000);
      // No index folder yet: nothing to watch, so every call reads.
      assert.equal([early.read(), early.read()], [1, 2]);
      early.stamps.close();

      mkdirSync(store.dir, { recursive: true });
      const { stamps, read } = countedStamps(fence, store, 60_000);
      await fence.passed();
      const first = read();
      await fence.passed();
      assert.equal([read(), read()], [first, first], 'kept: the folder has not changed');

      renameElsewhere(store.dir, 'manifest.json');
      await fence.passed();
      const after = read();
      assert.is(after, first + 1, 'read again after the change');
      assert.is(read(), after, 'and kept again');

      // The folder removed and made again: a new folder to inotify, watched afresh.
      rmSync(store.dir, { recursive: true, force: true });
      mkdirSync(store.dir, { recursive: true });
      await fence.passed();
      const remade = read();
      assert.is(remade, after + 1);
      renameElsewhere(store.dir, 'manifest.json');
      await fence.passed();
      assert.is(read(), remade + 1, 'a change in the folder made again is seen');

      // A job running (its process can end without a change here): read each time.
      stamps.release();
      const running = read(process.pid);
      assert.is(read(process.pid), running + 1);
      writeFileSync(store.journalPath, '{}');
      await fence.passed();
      const withJournal = read();
      assert.is(read(), withJournal + 1, 'a journal is there: read each time');
      rmSync(store.journalPath);
      await fence.passed();
      const kept = read();
      assert.is(read(), kept);

      stamps.release();
      assert.is(read(), kept + 1, 'let go: read, and watched again');
      assert.is(read(), kept + 1);
      stamps.close();
      assert.equal([read(), read()], [kept + 2, kept + 3], 'closed: read each time, nothing watched');
    });
  });

  test('kept stamps are read again once they are older than the trust allows, whatever the watch says', async () => {
    await withStore({}, async (fence, store) => {
      mkdirSync(store.dir, { recursive: true });
      const { stamps, read } = countedStamps(fence, store, 50);
      const first = read();
      holdLoop(60);
      assert.is(read(), first + 1, 'older than 50 ms: read again');
      stamps.close();
    });
  });
} else {
  test('off Linux the fence never works, and callers read their stamps', async () => {
    const fence = new ChangeFence();
    assert.is(fence.working, false);
    assert.is(await fence.passed(), false);
    assert.equal(fenceFiles(), []);
  });
}

test.run();
