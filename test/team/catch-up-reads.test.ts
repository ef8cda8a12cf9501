/**
 * read_file during a replica's catch-up: the checkout already holds the next commit while the
 * index still serves the last one, and a file is read as the served commit has it, the commit
 * the answer names. Real git (a bare remote, a shallow
 * checkout), a real index, a real server over HTTP.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkoutCommit, fileAtCommit } from '../../src/team/git.js';
import { gitRemote } from '../helpers/git-remote.js';
import { indexTree } from '../helpers/indexed-tree.js';
import { call, projectHarness, sdkClient } from '../helpers/projects.js';

test('while the checkout is ahead of the served commit, read_file reads the served commit', async () => {
  const remote = gitRemote();
  const served = remote.push({ 'pay.go': 'package pay\n\nfunc ChargeCard() int { return 1 }\n' });
  const dir = mkdtempSync(join(tmpdir(), 'sextant-checkout-'));
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  try {
    await checkoutCommit(remote.url, served, dir);
    await indexTree(dir, home);
    const next = remote.push({ 'pay.go': 'package pay\n\nfunc ChargeCard() int { return 2 }\n' });
    await checkoutCommit(remote.url, next, dir);
    assert.match(readFileSync(join(dir, 'pay.go'), 'utf8'), 'return 2', 'the checkout is at the next commit');
    assert.match((await fileAtCommit(dir, served, 'pay.go'))!.toString('utf8'), 'return 1');
    assert.is(await fileAtCommit(dir, served, 'missing.go'), undefined);

    const h = await projectHarness({}, home, { watch: false });
    const named = {
      name: 'pay',
      root: dir,
      git: { url: remote.url, ref: 'main' },
      allowed: [],
      servedCommit: served,
      targetCommit: next,
      state: 'indexing' as const,
      readServed: (path: string) => fileAtCommit(dir, served, path),
    };
    h.projects.named.set(named);
    const client = await sdkClient(h.http.urls.mcp);
    try {
      const found = await call(client, 'search_code', { query: 'ChargeCard', workspace: 'pay' });
      assert.match(found.content[0]!.text, 'pay.go:3:6:', 'the served index finds it');
      const read = await call(client, 'read_file', { path: 'pay.go', workspace: 'pay' });
      assert.not.ok(read.isError, JSON.stringify(read));
      assert.is(read.structuredContent!.text, 'package pay\n\nfunc ChargeCard() int { return 1 }', 'as served, not as checked out');
      assert.is(read.structuredContent!.commit, served);
      // Once the next commit is served, its files are read from disk.
      delete (named as { readServed?: unknown }).readServed;
      const after = await call(client, 'read_file', { path: 'pay.go', workspace: 'pay' });
      assert.match(after.structuredContent!.text as string, 'return 2');
      assert.equal(h.problems(), []);
    } finally {
      await client.close();
      await h.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

test.run();
