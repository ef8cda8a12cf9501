import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { discover } from '../../../src/index/files/walk.js';
import { buildIndex } from '../../../src/index/build/indexer.js';
import { IndexReader } from '../../../src/index/search/reader.js';
import { IndexStore } from '../../../src/index/store/store.js';
import { MAX_DELTA_SEGMENTS, mergeDeltas } from '../../../src/index/build/merge.js';
import { syncIndex } from '../../../src/index/build/sync.js';
import { killMidJob, ROOT, runCli } from '../../helpers/process.js';
import { storedSymbols } from '../../helpers/symbols.js';
import { eventually, tick } from '../../helpers/wait.js';

function copyOf(tree: string): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-sync-')));
  cpSync(join(ROOT, tree), root, { recursive: true });
  return root;
}

function lines(root: string, needle: string): string[] {
  const found: string[] = [];
  for (const file of discover(root).files) {
    readFileSync(join(root, file.path), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (line.toLowerCase().includes(needle.toLowerCase())) found.push(`${file.path}:${i + 1}`);
      });
  }
  return found;
}

test('sync re-reads only what changed: added, changed and deleted files are all reflected', async () => {
  const root = copyOf('src');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  writeFileSync(join(root, 'mcp/session.ts'), `${readFileSync(join(root, 'mcp/session.ts'), 'utf8')}\n// zebra_marker_changed\n`);
  writeFileSync(join(root, 'new-file.ts'), 'export const zebra_marker_added = 1;\n');
  rmSync(join(root, 'mcp/pagination.ts'));
  const summary = await syncIndex(root, { home });
  assert.equal([summary.added, summary.changed, summary.deleted, summary.mergeDue], [1, 1, 1, false]);
  const reader = IndexReader.open(root, home);
  assert.is(reader.manifest.segments.length, 2);
  assert.equal(
    reader.search({ pattern: 'zebra_marker' }).matches.map((m) => m.path),
    ['mcp/session.ts', 'new-file.ts'],
  );
  assert.equal(
    reader.search({ pattern: 'DEFAULT_PAGE_SIZE', limit: 1000 }).matches.map((m) => `${m.path}:${m.line}`),
    lines(root, 'DEFAULT_PAGE_SIZE'),
  );
  assert.is(reader.files.length, discover(root).files.length);
  // A second sync with nothing new writes nothing.
  const again = await syncIndex(root, { home });
  assert.equal([again.added, again.changed, again.deleted], [0, 0, 0]);
  assert.is(IndexReader.open(root, home).manifest.segments.length, 2);
});

test('files that are not text are read once: a sync skips them while they are unchanged, and notices when they change', async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-sync-')));
  writeFileSync(join(root, 'code.ts'), 'export const code = 1;\n');
  writeFileSync(join(root, 'blob.bin'), Buffer.from([0, 1, 2, 0, 255, 0, 7]));
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const store = new IndexStore(root, home);
  const manifest = readFileSync(store.manifestPath, 'utf8');
  assert.equal([...store.readNonText().keys()], ['blob.bin']);
  const noop = await syncIndex(root, { home });
  assert.equal([noop.read, noop.added, noop.changed, noop.deleted], [0, 0, 0, 0], 'the binary file is not read again');
  assert.is(readFileSync(store.manifestPath, 'utf8'), manifest, 'nothing written');
  // Changed but still binary: read once, then skipped again.
  writeFileSync(join(root, 'blob.bin'), Buffer.from([0, 9, 9, 0, 9]));
  utimesSync(join(root, 'blob.bin'), new Date(), new Date(Date.now() + 5_000));
  assert.is((await syncIndex(root, { home })).read, 1);
  assert.is((await syncIndex(root, { home })).read, 0);
  // Now text: it joins the index and leaves the list.
  writeFileSync(join(root, 'blob.bin'), 'plain_text_now\n');
  utimesSync(join(root, 'blob.bin'), new Date(), new Date(Date.now() + 10_000));
  const text = await syncIndex(root, { home });
  assert.equal([text.read, text.added], [1, 1]);
  assert.equal([...store.readNonText().keys()], []);
  assert.is(IndexReader.open(root, home).search({ pattern: 'plain_text_now' }).matches.length, 1);
  // A binary file that is removed leaves the list too.
  writeFileSync(join(root, 'other.bin'), Buffer.from([0, 0, 0, 1]));
  await syncIndex(root, { home });
  assert.equal([...store.readNonText().keys()], ['other.bin']);
  rmSync(join(root, 'other.bin'));
  assert.is((await syncIndex(root, { home })).read, 0);
  assert.equal([...store.readNonText().keys()], []);
});

test('deltas gathered by many syncs are merged into one, from the segments alone, and results stay exact', async () => {
  const root = copyOf('src');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const base = IndexReader.open(root, home).manifest.segments;
  for (let i = 0; i < MAX_DELTA_SEGMENTS; i++) {
    writeFileSync(join(root, `round-${i}.ts`), `export const round_${i} = 'okapi';\n`);
    // The same file changed in several rounds, then deleted: only its last state may survive.
    if (i < 5) writeFileSync(join(root, 'churn.ts'), `// okapi churn ${i}\n`);
    if (i === 5) rmSync(join(root, 'churn.ts'));
    if (i === 6) rmSync(join(root, 'mcp/pagination.ts')); // a base file deleted: its tombstone must outlive the merge
    if (i === 7) rmSync(join(root, 'round-2.ts'));
    const summary = await syncIndex(root, { home });
    assert.is(summary.mergeDue, i === MAX_DELTA_SEGMENTS - 1, `round ${i}`);
  }
  const before = IndexReader.open(root, home);
  const expected = before.search({ pattern: 'okapi', limit: 100 }).matches;
  // Reading files is not allowed to be how a merge works: hide one that is indexed.
  const hidden = join(root, 'round-0.ts');
  const content = readFileSync(hidden, 'utf8');
  rmSync(hidden);
  const merge = mergeDeltas(root, { home });
  writeFileSync(hidden, content);
  assert.is(merge.merged, MAX_DELTA_SEGMENTS);
  const reader = IndexReader.open(root, home);
  assert.equal(reader.manifest.segments.slice(0, base.length), base, 'base segments untouched');
  assert.is(reader.manifest.segments.length, base.length + 1);
  assert.equal(reader.search({ pattern: 'okapi', limit: 100 }).matches, expected);
  assert.equal(
    expected.map((m) => `${m.path}:${m.line}`),
    lines(root, 'okapi'),
  );
  assert.equal(
    reader.files.map((f) => f.path),
    before.files.map((f) => f.path),
  );
  assert.equal(
    reader.search({ pattern: 'DEFAULT_PAGE_SIZE', limit: 1000 }).matches.map((m) => `${m.path}:${m.line}`),
    lines(root, 'DEFAULT_PAGE_SIZE'),
  );
  // Nothing left to merge; a later sync builds on the merged segment.
  assert.is(mergeDeltas(root, { home }).merged, 0);
  writeFileSync(join(root, 'after.ts'), 'okapi after\n');
  await syncIndex(root, { home });
  assert.equal(
    IndexReader.open(root, home)
      .search({ pattern: 'okapi', limit: 100 })
      .matches.map((m) => `${m.path}:${m.line}`),
    lines(root, 'okapi'),
  );
});

test('the watcher merges due deltas in a quiet moment after saves', async () => {
  const { IndexWatcher } = await import('../../../src/index/watch/watcher.js');
  const root = copyOf('src/jsonrpc');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const merged: number[] = [];
  const watcher = new IndexWatcher(root, { home, debounceMs: 20, mergeIdleMs: 50, onMerge: (summary) => merged.push(summary.merged) });
  watcher.start();
  try {
    for (let i = 0; i < MAX_DELTA_SEGMENTS; i++) {
      writeFileSync(join(root, `saved-${i}.ts`), `export const saved_${i} = 'numbat';\n`);
      await eventually(() => IndexReader.open(root, home).search({ pattern: `saved_${i}` }).matches.length > 0, `save ${i} indexed`, 5_000);
    }
    await eventually(() => merged.length > 0, 'merge ran', 5_000);
    const reader = IndexReader.open(root, home);
    assert.is(reader.manifest.segments.length, (reader.manifest.baseSegments ?? 1) + 1);
    assert.is(reader.search({ pattern: 'numbat', limit: 100 }).matches.length, MAX_DELTA_SEGMENTS);
  } finally {
    watcher.close();
  }
});

test('kill -9 during sync: the previous index answers and status reports the interrupted sync', async () => {
  const root = copyOf('node_modules/typescript/lib');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const before = IndexReader.open(root, home).files.length;
  // Touch everything so the sync has real work to be killed in.
  const later = new Date(Date.now() + 60_000);
  for (const file of discover(root).files) utimesSync(join(root, file.path), later, later);
  const store = new IndexStore(root, home);
  await killMidJob('sync', root, home, store.journalPath);
  const status = JSON.parse((await runCli(['status', root, '--json'], '', { SEXTANT_HOME: home })).stdout) as {
    files: number;
    interruptedJob: { mode: string } | null;
  };
  assert.is(status.files, before);
  assert.is(status.interruptedJob?.mode, 'sync');
  const search = await runCli(['search', 'interface', root, '--limit', '1', '--json'], '', { SEXTANT_HOME: home });
  assert.is(search.code, 0, search.stderr);
  // And a sync after the crash completes the job.
  const synced = await runCli(['sync', root], '', { SEXTANT_HOME: home });
  assert.is(synced.code, 0, synced.stderr);
  assert.match(synced.stdout, /Synced .*: 0 added, \d+ changed, 0 deleted/);
  assert.is(JSON.parse((await runCli(['status', root, '--json'], '', { SEXTANT_HOME: home })).stdout).interruptedJob, null);
});

test('the watcher makes a saved file searchable within a second, forgets deleted files, ignores ignored ones', async () => {
  const { IndexWatcher } = await import('../../../src/index/watch/watcher.js');
  const root = copyOf('src');
  writeFileSync(join(root, '.gitignore'), '*.log\n');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const updates: unknown[] = [];
  let notify: (() => void) | undefined;
  const watcher = new IndexWatcher(root, {
    home,
    onUpdate: (summary) => {
      updates.push(summary);
      notify?.();
    },
  });
  watcher.start();
  const nextUpdate = () =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no update within 1 s')), 1_000);
      notify = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  try {
    let update = nextUpdate();
    const saved = Date.now();
    writeFileSync(join(root, 'fresh.ts'), 'export const quokka_token = 1;\n');
    writeFileSync(join(root, 'debug.log'), 'quokka_token in a log\n');
    await update;
    assert.ok(Date.now() - saved < 1_000);
    assert.equal(
      IndexReader.open(root, home)
        .search({ pattern: 'quokka_token' })
        .matches.map((m) => m.path),
      ['fresh.ts'],
    );
    update = nextUpdate();
    rmSync(join(root, 'fresh.ts'));
    await update;
    assert.equal(IndexReader.open(root, home).search({ pattern: 'quokka_token' }).matches, []);
  } finally {
    watcher.close();
  }
});

test('the watcher refreshes symbols once a burst of saves pauses, not after each save', async () => {
  const { IndexWatcher } = await import('../../../src/index/watch/watcher.js');
  const { buildSymbols } = await import('../../../src/index/symbols/build.js');
  const root = copyOf('src/jsonrpc');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  await buildSymbols(root, IndexReader.open(root, home).files, { home });
  let refreshes = 0;
  const watcher = new IndexWatcher(root, { home, symbols: true, debounceMs: 20, symbolsIdleMs: 300, onSymbols: () => refreshes++ });
  watcher.start();
  try {
    for (let i = 0; i < 5; i++) {
      writeFileSync(join(root, `burst-${i}.ts`), `export function burstFunction${i}(): number { return ${i}; }\n`);
      await tick(60); // the burst is spread over time, as a user saving would
    }
    // No time target for symbols; parser threads start slowly on a cold machine.
    await eventually(() => refreshes > 0, 'symbols refreshed', 20_000);
    // Settled: nothing pending or scheduled. A second refresh for the burst would have kept the
    // watcher busy until it ran, and then counted.
    await eventually(() => watcher.idle, 'the watcher settled');
    assert.is(refreshes, 1, 'one refresh for the burst');
    const names = storedSymbols(root, home).flatMap((file) => file.symbols.map((symbol) => symbol.name));
    for (let i = 0; i < 5; i++) assert.ok(names.includes(`burstFunction${i}`), `burstFunction${i}`);
  } finally {
    watcher.close();
  }
});

test('a due merge waiting on more saves never cancels a symbol refresh that was waiting too', async () => {
  const { IndexWatcher } = await import('../../../src/index/watch/watcher.js');
  const { buildSymbols } = await import('../../../src/index/symbols/build.js');
  const root = copyOf('src/jsonrpc');
  writeFileSync(join(root, '.gitignore'), 'noise.log\n');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  await buildSymbols(root, IndexReader.open(root, home).files, { home });
  for (let i = 0; i < MAX_DELTA_SEGMENTS - 1; i++) {
    writeFileSync(join(root, `delta-${i}.ts`), `export const delta${i} = ${i};\n`);
    await syncIndex(root, { home });
  }
  let merges = 0;
  let refreshes = 0;
  const watcher = new IndexWatcher(root, {
    home,
    symbols: true,
    debounceMs: 20,
    mergeIdleMs: 40,
    symbolsIdleMs: 300,
    onMerge: () => merges++,
    onSymbols: () => refreshes++,
  });
  watcher.start();
  try {
    writeFileSync(join(root, 'late.ts'), 'export function lateArrival(): number { return 1; }\n');
    // Ignored saves keep the watcher busy (the merge waits on them) without changing the index.
    for (let i = 0; i < 8; i++) {
      await tick(35); // spread over time, as a user saving would
      writeFileSync(join(root, 'noise.log'), `noise ${i}\n`);
    }
    await eventually(() => merges > 0 && refreshes > 0, 'the merge ran and symbols were refreshed', 20_000);
    assert.ok(storedSymbols(root, home).some((file) => file.symbols.some((symbol) => symbol.name === 'lateArrival')));
  } finally {
    watcher.close();
  }
});

test.run();
