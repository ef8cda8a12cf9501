/**
 * Reliability of the index on disk: corrupt files are reported (index_corrupt) and --force
 * rebuilds from nothing; the job lock is taken atomically even over a dead holder; the symbol
 * phase is journaled; debris is collected at the next job.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IndexStore } from '../../../src/index/store/store.js';
import { BIN, ROOT, runCli, stopAll } from '../../helpers/process.js';
import { call, projectHarness, projectTree, sdkClient } from '../../helpers/projects.js';
import { errorCode } from '../../helpers/tool-result.js';
import { eventually } from '../../helpers/wait.js';

test.after.each(() => stopAll());

function project(files = 40): { root: string; home: string; store: IndexStore } {
  const tree: Record<string, string> = {};
  for (let i = 0; i < files; i++) tree[`src/m${i}.ts`] = `export function handler${i}(value: number): number {\n  return value + ${i};\n}\n`;
  const root = projectTree(tree);
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  return { root, home, store: new IndexStore(root, home) };
}

async function cli(args: string[], home: string) {
  return runCli(args, '', { SEXTANT_HOME: home });
}

test('a garbage manifest is index_corrupt everywhere (CLI, tools, health_check within its schema); index --force rebuilds from nothing', async () => {
  const { root, home, store } = project();
  assert.is((await cli(['index', root], home)).code, 0);
  writeFileSync(store.manifestPath, 'garbage, not JSON');
  const status = await cli(['status', root, '--json'], home);
  assert.is(status.code, 0, status.stderr);
  const reported = JSON.parse(status.stdout) as { error: { code: string; message: string } };
  assert.is(reported.error.code, 'index_corrupt');
  assert.match(reported.error.message, `sextant index --force ${root}`);
  for (const args of [
    ['search', 'handler1', root],
    ['sync', root],
    ['symbols', 'handler1', root],
  ]) {
    const run = await cli(args, home);
    assert.ok(run.code !== 0, `${args[0]} must fail`);
    assert.match(run.stderr, 'index is corrupt', `${args[0]}: ${run.stderr}`);
    assert.match(run.stderr, 'index --force');
  }

  const h = await projectHarness({ workspaces: [root] }, home);
  const client = await sdkClient(h.http.urls.mcp);
  try {
    assert.is(errorCode(await call(client, 'search_code', { query: 'handler1' })), 'index_corrupt');
    assert.is(errorCode(await call(client, 'locate_symbol', { name: 'handler1' })), 'index_corrupt');
    assert.is(errorCode(await call(client, 'sync_repo')), 'index_corrupt');
    const health = await call(client, 'health_check');
    assert.not.ok(health.isError, health.content[0]?.text);
    assert.is(health.structuredContent!.status, 'error');
    const indexStatus = await call(client, 'index_status');
    assert.not.ok(indexStatus.isError, indexStatus.content[0]?.text);
    assert.is((indexStatus.structuredContent!.error as { code: string }).code, 'index_corrupt');
    assert.is(indexStatus.structuredContent!.schema_status, 'reindex_required');
    assert.equal(h.problems(), []);
  } finally {
    await client.close();
    await h.close();
  }

  const rebuilt = await cli(['index', '--force', root], home);
  assert.is(rebuilt.code, 0, rebuilt.stderr);
  const found = await cli(['search', 'handler17(', root], home);
  assert.is(found.code, 0, found.stderr);
  assert.match(found.stdout, 'src/m17.ts:1:');
  assert.is((await cli(['symbols', 'handler17', root], home)).code, 0);
});

test('a manifest with wrongly typed fields is index_corrupt naming the field, never NaN, undefined or a path it names', async () => {
  const { root, home, store } = project(5);
  assert.is((await cli(['index', root], home)).code, 0);
  const manifest = JSON.parse(readFileSync(store.manifestPath, 'utf8')) as Record<string, unknown>;
  writeFileSync(store.manifestPath, JSON.stringify({ ...manifest, files: 'many', updatedAt: 7 }));
  const status = await cli(['status', root], home);
  assert.not.match(status.stdout, 'NaN');
  assert.not.match(status.stdout, 'undefined');
  assert.match(status.stdout, 'index_corrupt');
  writeFileSync(store.manifestPath, JSON.stringify({ ...manifest, segments: ['s', '../../../etc/passwd'] }));
  const sync = await cli(['sync', root], home);
  assert.is(sync.code, 2, 'an error is exit 2 for every command');
  assert.match(sync.stderr, '"segments"');
  assert.not.match(sync.stderr, 'ENOENT');
  // Without --force too: an unreadable index has nothing to keep.
  assert.is((await cli(['index', root], home)).code, 0);
  assert.is((await cli(['search', 'handler3', root], home)).code, 0);
});

test('segments carry a checksum: overwritten bytes are index_corrupt for the CLI and the tools, and --force repairs it', async () => {
  const { root, home, store } = project(60);
  assert.is((await cli(['index', root], home)).code, 0);
  const manifest = store.readManifest()!;
  const segment = join(store.dir, manifest.segments[0]!);
  const size = readFileSync(segment).length;
  const fd = openSync(segment, 'r+');
  writeSync(fd, Buffer.alloc(Math.min(2_000, size >> 1), 0x5a), 0, Math.min(2_000, size >> 1), size >> 2);
  closeSync(fd);
  const search = await cli(['search', 'handler1', root], home);
  assert.is(search.code, 2);
  assert.match(search.stderr, 'checksum');
  assert.match(search.stderr, 'index --force');
  const h = await projectHarness({ workspaces: [root] }, home);
  const client = await sdkClient(h.http.urls.mcp);
  try {
    const answer = await call(client, 'search_code', { query: 'handler1' });
    assert.is(errorCode(answer), 'index_corrupt', answer.content[0]?.text);
    const forced = await call(client, 'index_repo', { force: true });
    assert.not.ok(forced.isError, forced.content[0]?.text);
    assert.ok(((await call(client, 'search_code', { query: 'handler1' })).structuredContent!.results as unknown[]).length > 0);
  } finally {
    await client.close();
    await h.close();
  }
});

/** A child that waits for `at`, tries the lock once, and on success holds it `holdMs`, logging both ends. */
function lockContender(dir: string, at: number, log: string, holdMs: number) {
  const store = pathToFileURL(join(ROOT, 'build/src/index/store/store.js')).href;
  const script = `
    import { appendFileSync } from 'node:fs';
    import { IndexStore } from ${JSON.stringify(store)};
    const store = new IndexStore(${JSON.stringify(dir)}, ${JSON.stringify(join(dir, 'home'))});
    while (Date.now() < ${at}) {}
    try {
      store.lock();
      appendFileSync(${JSON.stringify(log)}, 'acquire ' + process.pid + '\\n');
      const until = Date.now() + ${holdMs};
      while (Date.now() < until) {}
      appendFileSync(${JSON.stringify(log)}, 'release ' + process.pid + '\\n');
      store.unlock();
    } catch (error) {
      if (error.code !== 'index_in_progress') { console.error(error); process.exit(3); }
      appendFileSync(${JSON.stringify(log)}, 'busy ' + process.pid + '\\n');
    }
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

test('a stale lock is taken over by exactly one of many racing writers: holders never overlap', async () => {
  for (let round = 0; round < 4; round++) {
    const dir = mkdtempSync(join(tmpdir(), 'sextant-lock-'));
    const store = new IndexStore(dir, join(dir, 'home'));
    store.lock();
    store.unlock();
    // A holder that died (kill -9) left its pid behind: a pid no process has.
    writeFileSync(store.lockPath, '4000000');
    const log = join(dir, 'log');
    writeFileSync(log, '');
    const at = Date.now() + 1_500;
    const exits = await Promise.all(Array.from({ length: 6 }, () => lockContender(dir, at, log, 150)));
    for (const exit of exits) assert.is(exit.code, 0, exit.stderr);
    const events = readFileSync(log, 'utf8').trim().split('\n');
    let holding = 0;
    for (const event of events) {
      if (event.startsWith('acquire')) holding++;
      if (event.startsWith('release')) holding--;
      assert.ok(holding <= 1, `two holders at once in round ${round}: ${events.join(', ')}`);
    }
    assert.ok(
      events.some((event) => event.startsWith('acquire')),
      'someone took the stale lock over',
    );
    assert.not.ok(existsSync(store.lockPath), 'released');
  }
});

test('two index --force over a stale lock: no orphan segments, and the index answers', async () => {
  const { root, home, store } = project(200);
  assert.is((await cli(['index', root], home)).code, 0);
  writeFileSync(store.lockPath, '4000000');
  const runs = await Promise.all([cli(['index', '--force', root], home), cli(['index', '--force', root], home)]);
  assert.ok(
    runs.some((run) => run.code === 0),
    runs.map((run) => run.stderr).join('\n'),
  );
  for (const run of runs) if (run.code !== 0) assert.match(run.stderr, 'Another index job');
  const named = new Set(store.readManifest()!.segments);
  const onDisk = readdirSync(store.dir).filter((name) => name.endsWith('.sxt'));
  assert.equal(onDisk.sort(), [...named].sort());
  assert.is((await cli(['search', 'handler150', root], home)).code, 0);
});

test('the symbol phase is journaled: killed mid-phase, status reports it, lookups say why, and sync finishes it', async () => {
  const { root, home, store } = project(3_000);
  const child = spawn(process.execPath, [BIN, 'index', root], { env: { ...process.env, SEXTANT_HOME: home }, stdio: 'ignore' });
  let journal = '';
  const inSymbolPhase = (): boolean => {
    try {
      journal = readFileSync(store.journalPath, 'utf8');
    } catch {
      journal = '';
    }
    return journal.includes('"mode":"symbols"');
  };
  await eventually(inSymbolPhase, 'the symbol phase has a journal', 60_000, 2);
  child.kill('SIGKILL');
  await new Promise((resolve) => child.on('exit', resolve));
  assert.match(journal, '"mode":"symbols"', 'the symbol phase has a journal');
  const status = JSON.parse((await cli(['status', root, '--json'], home)).stdout) as {
    interruptedJob: { mode: string; resumeCommand: string } | null;
    indexed: boolean;
  };
  assert.is(status.indexed, true, 'the text index is whole');
  assert.is(status.interruptedJob?.mode, 'symbols');
  assert.is(status.interruptedJob?.resumeCommand, `sextant sync ${root}`);
  const lookup = await cli(['symbols', 'handler7', root], home);
  if (!existsSync(join(store.dir, 'symbols-manifest.json'))) {
    assert.is(lookup.code, 2);
    assert.match(lookup.stderr, 'interrupted');
    const h = await projectHarness({ workspaces: [root] }, home, { watch: false });
    const client = await sdkClient(h.http.urls.mcp);
    try {
      const located = await call(client, 'locate_symbol', { name: 'handler7' });
      assert.is(errorCode(located), 'index_not_ready');
      assert.match(located.content[0]!.text, 'interrupted');
      const indexStatus = await call(client, 'index_status');
      assert.is((indexStatus.structuredContent!.interrupted_job as { mode: string }).mode, 'symbols');
    } finally {
      await client.close();
      await h.close();
    }
  }
  const sync = await cli(['sync', root], home);
  assert.is(sync.code, 0, sync.stderr);
  assert.is((await cli(['symbols', 'handler7', root], home)).code, 0);
  assert.is((JSON.parse((await cli(['status', root, '--json'], home)).stdout) as { interruptedJob: unknown }).interruptedJob, null);
});

test('debris is collected at the next job: temporary files of dead processes, orphan segments, a lock without a journal, stale claims', async () => {
  const { root, home, store } = project(5);
  assert.is((await cli(['index', root], home)).code, 0);
  const debris = [
    'manifest.json.tmp-4000000-1700000000000',
    'segment-zzzz-0.sxt',
    'segment-abc-def.sxt.tmp-4000001-1',
    'job.lock.takeover-0123456789abcdef01234567',
    'job.lock.4000002-abcd.new',
  ];
  for (const name of debris) writeFileSync(join(store.dir, name), 'left behind');
  writeFileSync(store.lockPath, '4000003 deadbeef'); // killed while writing its journal: a lock, no journal
  writeFileSync(join(root, 'src/new.ts'), 'export const fresh = 1;\n');
  const sync = await cli(['sync', root], home);
  assert.is(sync.code, 0, sync.stderr);
  const left = readdirSync(store.dir);
  for (const name of debris) assert.not.ok(left.includes(name), `${name} was collected`);
  assert.not.ok(left.includes('job.lock'));
  assert.equal(left.filter((name) => name.endsWith('.sxt')).sort(), [...store.readManifest()!.segments].sort());
  assert.is((await cli(['search', 'fresh', root], home)).code, 0);
});

test('the portable CRC-32 agrees with zlib', async () => {
  const { crc32, portableCrc32 } = await import('../../../src/index/text/checksum.js');
  const data = Buffer.from(Array.from({ length: 10_000 }, (_, i) => (i * 7919) & 0xff));
  assert.is(portableCrc32(data), crc32(data));
  assert.is(portableCrc32(Buffer.from('123456789')), 0xcbf43926);
});

test.run();
