/**
 * Node refuses some of its own flags in a worker's execArgv (a V8 flag of the whole process such
 * as --max-semi-space-size), and workers inherit the parent's: one such flag given to node made
 * every worker fail, so an index read no symbols and a server searched nothing
 * (src/platform/worker-flags.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BIN, ROOT } from '../helpers/process.js';
import { fixtureCopy } from '../helpers/projects.js';
import { stdioRpc } from '../helpers/stdio-rpc.js';

const V8_FLAG = '--max-semi-space-size=16';

test('sextant index under a V8 flag of the whole process reads its symbols in worker threads, which keep the flags they take', () => {
  const root = fixtureCopy('polyglot');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  // A preload (-r) is a flag workers take: it must reach them still, and says so in a file.
  const scratch = mkdtempSync(join(tmpdir(), 'sextant-preload-'));
  const preload = join(scratch, 'preload.cjs');
  const marks = join(scratch, 'marks.txt');
  // Only Sextant's own workers (with a role) mark: the probe of a flag runs the preload too.
  writeFileSync(
    preload,
    "const { workerData } = require('node:worker_threads');\n" +
      "if (workerData && workerData.role) require('node:fs').appendFileSync(process.env.PRELOAD_MARKS, workerData.role + '\\n');\n",
  );
  try {
    const run = spawnSync(process.execPath, [V8_FLAG, '-r', preload, BIN, 'index', root], {
      cwd: ROOT,
      env: { ...process.env, SEXTANT_HOME: home, PRELOAD_MARKS: marks },
      encoding: 'utf8',
      // A worker that never starts must fail the test, not hang the run.
      timeout: 60_000,
    });
    assert.is(run.status, 0, run.stderr);
    assert.not.match(run.stderr, 'execArgv');
    const symbols = /Symbols: (\d+) in (\d+) files \((\d+) parsed/.exec(run.stdout);
    assert.ok(symbols, run.stdout);
    assert.ok(Number(symbols![1]) > 0, symbols![0]);
    assert.is(symbols![3], symbols![2], 'every file parsed');
    assert.ok(existsSync(marks) && readFileSync(marks, 'utf8').trim() !== '', 'the preload ran in a worker of Sextant');
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
});

test('a server started under a V8 flag of the whole process searches on its threads', async () => {
  const root = fixtureCopy('polyglot');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  let rpc: Awaited<ReturnType<typeof stdioRpc>> | undefined;
  try {
    rpc = await stdioRpc({ SEXTANT_HOME: home, SEXTANT_PROJECT: root }, ['--log-level', 'warning'], [V8_FLAG, '--stack-size=2000']);
    const indexed = await rpc.tool('index_repo', {}, 60_000);
    assert.not.ok(indexed.isError, JSON.stringify(indexed.content));
    const found = await rpc.tool('search_code', { query: 'UserStore' });
    assert.not.ok(found.isError, JSON.stringify(found.content));
    const results = (found.structuredContent as { results: Array<{ path: string }> }).results;
    assert.ok(
      results.some((result) => result.path === 'src/store/user-store.ts'),
      JSON.stringify(results),
    );
    assert.not.match(rpc.server.stderr(), 'execArgv');
  } finally {
    await rpc?.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

test.run();
