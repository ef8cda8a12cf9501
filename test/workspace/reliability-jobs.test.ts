/**
 * Reliability of index jobs that stop early: a symbol phase cancelled mid-way, index writes that
 * fail. Whatever stops a job releases its lock and records its stop (or leaves a state the next
 * job repairs), no saved change is lost, and no temporary file is left for ever.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildIndex } from '../../src/index/build/indexer.js';
import { IndexReader } from '../../src/index/search/reader.js';
import { IndexStore } from '../../src/index/store/store.js';
import { syncIndex } from '../../src/index/build/sync.js';
import { IndexWatcher } from '../../src/index/watch/watcher.js';
import { runCli, stopAll } from '../helpers/process.js';
import { projectTree } from '../helpers/projects.js';
import { stdioRpc } from '../helpers/stdio-rpc.js';
import { eventually } from '../helpers/wait.js';

test.after.each(() => stopAll());

/** Enough Go files that the symbol phase reports progress several times before it ends. */
function goTree(count: number): string {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const body = Array.from({ length: 12 }, (_, j) => `func F${i}_${j}(x int) int {\n\treturn x + ${j}\n}\n`).join('\n');
    files[`pkg${i % 40}/f${i}.go`] = `package pkg${i % 40}\n\n${body}`;
  }
  return projectTree(files);
}

interface Line {
  id?: number;
  method?: string;
  params?: { progressToken?: string; message?: string };
  result?: { structuredContent?: Record<string, unknown>; isError?: boolean; content?: Array<{ text: string }> };
}

test('index_repo cancelled in its symbol phase leaves the project free: status, sync and the watcher go on', async () => {
  const root = goTree(2_500);
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const rpc = await stdioRpc({ SEXTANT_HOME: home, SEXTANT_PROJECT: root });
  const lines = rpc.server.lines as Line[];
  rpc.server.send(
    `${JSON.stringify({ jsonrpc: '2.0', id: 900, method: 'tools/call', params: { name: 'index_repo', arguments: {}, _meta: { progressToken: 'job' } } })}\n`,
  );
  // The symbol phase has begun (its progress says "Indexing: n/m files"), and the lock is its own.
  for (;;) {
    if (
      lines.some(
        (line) =>
          line.method === 'notifications/progress' && line.params?.progressToken === 'job' && /^Indexing: \d+\/\d+ files/.test(line.params.message ?? ''),
      )
    )
      break;
    assert.not.ok(
      lines.some((line) => line.id === 900),
      'the job ended before its symbol phase could be cancelled: make the tree larger',
    );
    await rpc.server.waitForLines(lines.length + 1, 60_000);
  }
  rpc.server.send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 900, reason: 'test' } })}\n`);
  // The state the cancellation leads to: no job running (looked at until it holds; a wedged project never gets there).
  await eventually(
    async () => (await rpc.tool('index_status')).structuredContent!.indexing_status !== 'indexing',
    'index_status stops saying indexing',
    60_000,
  );
  const store = new IndexStore(root, home);
  assert.is(store.runningJob(), undefined, 'no journal says a job runs');
  const sync = await rpc.tool('sync_repo', {}, 120_000);
  assert.not.ok(sync.isError, sync.content.map((item) => item.text).join('\n'));
  // A save after the cancellation is indexed by the watcher.
  writeFileSync(join(root, 'pkg0/after.go'), 'package pkg0\n\nfunc SavedAfterCancel() {}\n');
  await eventually(
    async () => ((await rpc.tool('search_code', { query: 'SavedAfterCancel' })).structuredContent!.results as unknown[]).length > 0,
    'the save is indexed',
    60_000,
  );
  await rpc.close();
});

test('saves made while index writes fail are kept and indexed once writes work again; no temporary file is left', async () => {
  const root = projectTree({ 'a.ts': 'export const a = 1;\n' });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const store = new IndexStore(root, home);
  const failures: unknown[] = [];
  const wakers = new Set<() => void>();
  const wake = (): void => wakers.forEach((fn) => fn());
  const watcher = new IndexWatcher(root, { home, reconcileMs: 0, onUpdate: wake, onError: (error) => (failures.push(error), wake()) });
  const until = async (done: () => boolean): Promise<void> => {
    // Woken by each update or failure; bounded so that a lost save fails the test.
    const deadline = Date.now() + 30_000;
    while (!done()) {
      if (Date.now() > deadline) assert.unreachable('the kept save was never indexed');
      await new Promise<void>((resolve) => {
        wakers.add(resolve);
        setTimeout(resolve, 1_000).unref();
      });
    }
  };
  watcher.start();
  try {
    // Something stands where the journal goes: every write of a job fails.
    mkdirSync(join(store.dir, 'job.json'));
    writeFileSync(join(store.dir, 'job.json', 'keep'), '');
    writeFileSync(join(root, 'b.ts'), 'export const saved_while_failing = 1;\n');
    await until(() => failures.length >= 1);
    rmSync(join(store.dir, 'job.json'), { recursive: true });
    // No other event comes, and no periodic reconcile runs: the kept paths alone bring it in.
    await until(() => IndexReader.open(root, home).search({ pattern: 'saved_while_failing' }).matches.length === 1);
  } finally {
    watcher.close();
  }
  assert.equal(
    readdirSync(store.dir).filter((name) => name.includes('.tmp-')),
    [],
    'no temporary file left',
  );
  assert.is(store.runningJob(), undefined);
});

test('a job whose stop record cannot be written shows no phantom job, and its temporary files are collected', async () => {
  const root = projectTree({ 'a.ts': 'export const a = 1;\n' });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const store = new IndexStore(root, home);
  const journal = { mode: 'sync' as const, pid: process.pid, startedAt: new Date().toISOString(), stage: 'indexing', done: 0, total: 1 };
  // The stop record itself fails (something stands where it goes): the lock is released all the same, and no journal says "running".
  store.lock();
  mkdirSync(join(store.journalPath, 'in-the-way'), { recursive: true });
  store.stopJob({ ...journal, stopped: 'ENOSPC' });
  assert.not.ok(readdirSync(store.dir).includes('job.lock'), 'the lock was released');
  assert.is(store.runningJob(), undefined);
  // What a disk that filled up after the journal was written leaves: a journal saying "running", no lock.
  writeFileSync(store.journalPath, JSON.stringify(journal));
  assert.is(store.runningJob(), undefined, 'a journal without its lock is no running job');
  assert.is(store.interruptedJob()?.mode, 'sync', 'it is an interrupted one');
  // Temporary files this very process left (writes cut short): collected by its next job.
  writeFileSync(join(store.dir, `manifest.json.tmp-${process.pid}-1`), 'partial');
  writeFileSync(join(store.dir, `segment-abc-def.sxt.tmp-${process.pid}-2`), 'partial');
  writeFileSync(join(root, 'b.ts'), 'export const b = 2;\n');
  await syncIndex(root, { home });
  assert.equal(
    readdirSync(store.dir).filter((name) => name.includes('.tmp-')),
    [],
    'temporary files of this process are collected',
  );
  assert.is(store.interruptedJob(), undefined, 'the next job ended cleanly');
  assert.is(IndexReader.open(root, home).search({ pattern: 'b = 2' }).matches.length, 1);
});

test('a server stopped as soon as index_repo said its job started leaves an interrupted job that status names', async () => {
  const root = goTree(2_000);
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  try {
    const rpc = await stdioRpc({ SEXTANT_HOME: home, SEXTANT_PROJECT: root });
    const store = new IndexStore(root, home);
    const started = await rpc.tool('index_repo', { wait: false });
    assert.is(started.structuredContent?.status, 'running', JSON.stringify(started));
    // Recorded before the answer went out: the job's journal is on disk already.
    assert.ok(existsSync(store.journalPath), 'the job is on disk before it is acknowledged');
    rpc.server.child.kill('SIGTERM');
    await rpc.server.exit;
    const status = await runCli(['status', root], '', { SEXTANT_HOME: home });
    const said = status.stdout + status.stderr;
    assert.match(said, 'interrupted index job', said);
    assert.match(said, `run "sextant index ${root}" to redo it`);
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

test.run();
