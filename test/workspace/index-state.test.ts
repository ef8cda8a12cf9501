/**
 * A project's index state reads the manifest only when a commit has swapped it: every tool call
 * asks for the state (search_code three times), and an unchanged manifest is the one read
 * before. A commit, in this process or another, is seen on the next call.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli } from '../helpers/process.js';
import { projectTree } from '../helpers/projects.js';
import { Project } from '../../src/workspace/project.js';

test('the manifest is read once per commit: the same until a sync, the new one after, and none once removed', async () => {
  const root = projectTree({ 'a.go': 'package a\n\nfunc A() {}\n' });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const project = new Project(root, { home });
  try {
    assert.is(project.indexState().status, 'not_indexed');
    const job = project.startJob('index');
    await job.finished;
    const first = project.indexState();
    assert.is(first.status, 'ready');
    assert.is(first.manifest!.files, 1);
    assert.is(project.indexState().manifest, first.manifest, 'unchanged: the manifest read before');

    // A commit by another process (the CLI's sync): seen on the next call.
    writeFileSync(join(root, 'b.go'), 'package a\n\nfunc B() {}\n');
    const synced = await runCli(['sync', root], '', { SEXTANT_HOME: home });
    assert.is(synced.code, 0, synced.stderr);
    const after = project.indexState();
    assert.is(after.manifest!.files, 2);
    assert.is.not(after.manifest, first.manifest);

    // The index removed by another process: not indexed at once.
    const removed = await runCli(['remove', root], '', { SEXTANT_HOME: home });
    assert.is(removed.code, 0, removed.stderr);
    assert.is(project.indexState().manifest, undefined);
    assert.is(project.indexState().status, 'not_indexed');
  } finally {
    await project.search.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

test.run();
