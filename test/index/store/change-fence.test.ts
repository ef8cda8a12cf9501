/**
 * change-fence.ts and the stamps it lets a project keep (workspace/watched-stamps.ts): a change
 * another process made before the fence is passed has reached its folder's watch by then, and
 * kept stamps are read again after it; the fence leaves no file behind.
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

test('a change made by another process before the fence is known to the watch once the fence is passed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-watched-'));
  const fence = new ChangeFence();
  try {
    const watch = fence.watchFolder(dir)!;
    assert.ok(watch, 'the folder is watched');
    for (let round = 0; round < 5; round++) {
      const again = round === 0 ? watch : fence.watchFolder(dir)!;
      assert.ok(await fence.passed(), 'the fence works here');
      assert.ok(again.unchanged);
      renameElsewhere(dir, `manifest-${round}.json`);
      // No turn of the loop has happened since the rename: its event has not been read yet.
      assert.ok(again.unchanged, 'not known before the fence');
      assert.ok(await fence.passed());
      assert.not.ok(again.unchanged, `round ${round}: known once the fence is passed`);
    }
    assert.equal(fenceFiles(), [], 'the fence file is unlinked once open');
  } finally {
    fence.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('many calls pass one fence together; a closed fence lets every caller read stamps', async () => {
  const fence = new ChangeFence();
  const passed = await Promise.all(Array.from({ length: 50 }, () => fence.passed()));
  assert.ok(passed.every(Boolean));
  const waiting = fence.passed();
  fence.close();
  assert.is(await waiting, false, 'a caller waiting when the fence closes is told to read');
  assert.is(await fence.passed(), false);
  assert.is(fence.working, false);
  assert.is(fence.watchFolder(tmpdir()), undefined);
});

test('a fence overdue lets its callers read their stamps, and works again once its write comes back', async () => {
  const fence = new ChangeFence({ timeoutMs: 20 });
  try {
    assert.ok(await fence.passed());
    // From the check phase (in an event's own callback, libuv would read the next event at once),
    // and the loop held past the timeout: the timer runs before the write's event is read.
    await new Promise((resolve) => setImmediate(resolve));
    const overdue = fence.passed();
    const until = performance.now() + 60;
    while (performance.now() < until);
    assert.is(await overdue, false, 'overdue: read the stamps');
    assert.is(await fence.passed(), false, 'still overdue: read the stamps, at once');
    await eventually(() => fence.passed(), 'the late event comes back, and the fence works again');
    assert.ok(fence.working);
  } finally {
    fence.close();
  }
});

test('stamps are kept while the index folder is unchanged, and read again after a change or while a journal is there', async () => {
  const root = mkdtempSync(join(tmpdir(), 'sextant-root-'));
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const fence = new ChangeFence();
  try {
    const store = new IndexStore(root, home);
    let reads = 0;
    const read = () => ({ read: ++reads, jobPid: undefined });
    const stamps = new WatchedStamps<{ read: number; jobPid: undefined }>(fence, store);
    // No index folder yet: nothing to watch, so every call reads.
    stamps.current(read);
    stamps.current(read);
    assert.is(reads, 2);

    mkdirSync(store.dir, { recursive: true });
    const late = new WatchedStamps<{ read: number; jobPid: undefined }>(fence, store);
    await fence.passed();
    const first = late.current(read).read;
    await fence.passed();
    assert.is(late.current(read).read, first, 'kept: the folder has not changed');
    assert.is(late.current(read).read, first);

    renameElsewhere(store.dir, 'manifest.json');
    await fence.passed();
    const after = late.current(read).read;
    assert.is(after, first + 1, 'read again after the change');
    await fence.passed();
    assert.is(late.current(read).read, after, 'and kept again');

    writeFileSync(store.journalPath, '{}');
    await fence.passed();
    const withJournal = late.current(read).read;
    await fence.passed();
    assert.is(late.current(read).read, withJournal + 1, 'a journal is there: read each time');
    late.close();
    stamps.close();
  } finally {
    fence.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

test.run();
