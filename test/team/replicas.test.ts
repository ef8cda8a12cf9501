/**
 * Replicas coordinated through a real PostgreSQL: each has its own home and checkout, both serve
 * the commit the controller published, exactly one is the controller, and when it is killed
 * (-9) the other takes the lease and publishes the next push. A database that cannot be used
 * stops `serve` in one line, exit 2.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gitRemote } from '../helpers/git-remote.js';
import { sharedPostgres } from '../helpers/postgres.js';
import { runCli } from '../helpers/process.js';
import { serveProcess } from '../helpers/serve-http.js';
import { openStatusFeed } from '../helpers/status-events.js';
import { eventually } from '../helpers/wait.js';

interface Health {
  controller: boolean;
  replica: string;
  projects: Array<{ name: string; commit?: string }>;
}

const base = (url: string): string => url.replace(/\/mcp$/, '');
const health = async (url: string): Promise<Health> => (await (await request(`${base(url)}/health`)).body.json()) as Health;
const ready = async (url: string): Promise<boolean> => {
  const response = await request(`${base(url)}/ready`);
  await response.body.dump();
  return response.statusCode === 200;
};

test('two replicas serve the published commit; one controls; when it is killed the other takes over and follows the next push', async () => {
  const databaseUrl = await (await sharedPostgres()).database();
  const remote = gitRemote();
  const first = remote.push({ 'main.go': 'package main\n\nfunc First() {}\n' });
  const cliHome = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const added = await runCli(['project', 'add', 'web', '--git', remote.url, '--database-url', databaseUrl], '', { SEXTANT_HOME: cliHome });
  assert.is(added.code, 0, added.stderr);
  const args = ['--no-watch', '--poll-interval', '3600', '--database-url', databaseUrl];
  const replicas = [
    await serveProcess(mkdtempSync(join(tmpdir(), 'sextant-home-')), {}, args),
    await serveProcess(mkdtempSync(join(tmpdir(), 'sextant-home-')), {}, args),
  ];
  try {
    for (const replica of replicas) await eventually(() => ready(replica.url), 'each replica serves the published commit');
    for (const replica of replicas) assert.is((await health(replica.url)).projects[0]!.commit, first);
    await eventually(async () => (await Promise.all(replicas.map((replica) => health(replica.url)))).some((h) => h.controller), 'one replica controls');
    const states = await Promise.all(replicas.map((replica) => health(replica.url)));
    assert.is(states.filter((state) => state.controller).length, 1, 'exactly one controller');
    const leader = replicas[states.findIndex((state) => state.controller)]!;
    // The status page shows each replica alive and which one leads, as the database knows them.
    for (const [at, replica] of replicas.entries()) {
      const feed = await openStatusFeed(base(replica.url));
      assert.ok(!('status' in feed), 'the local operator follows the status');
      if ('status' in feed) continue;
      try {
        const status = await feed.next((event) => event.event === 'status' && Array.isArray(event.data.replicas), 'the replicas');
        const shown = status.data.replicas as Array<{ id: string; controller: boolean; self: boolean }>;
        assert.equal(shown.map((entry) => entry.id).sort(), states.map((state) => state.replica).sort());
        assert.equal(
          shown.filter((entry) => entry.controller).map((entry) => entry.id),
          [states.find((state) => state.controller)!.replica],
        );
        assert.equal(
          shown.filter((entry) => entry.self).map((entry) => entry.id),
          [states[at]!.replica],
        );
      } finally {
        feed.close();
      }
    }
    const survivor = replicas.find((replica) => replica !== leader)!;
    leader.child.kill('SIGKILL');
    await eventually(async () => (await health(survivor.url)).controller, 'the survivor takes the controller lease');
    const second = remote.push({ 'more.go': 'package main\n\nfunc Second() {}\n' });
    const hook = await request(`${base(survivor.url)}/hooks/refresh?project=web`, { method: 'POST' });
    assert.is(hook.statusCode, 202);
    await hook.body.dump();
    await eventually(async () => (await health(survivor.url)).projects[0]!.commit === second, 'the new controller publishes the push, and it is served');
  } finally {
    await Promise.all(replicas.map((replica) => replica.stop()));
  }
});

test('serve with a database it cannot use says why in one line and exits 2', async () => {
  const server = await sharedPostgres();
  for (const [url, message] of [
    [server.url('postgres', 'wrong'), /refused the login/],
    [server.url('no_such_database'), /has no such database/],
    ['not-a-url', /is not a URL/],
  ] as const) {
    const run = await runCli(['serve', '--database-url', url], '', { SEXTANT_HOME: mkdtempSync(join(tmpdir(), 'sextant-home-')) });
    assert.is(run.code, 2, run.stderr);
    assert.match(run.stderr, message);
    assert.not.match(run.stderr, /wrong@|\n.*\n/, 'one line, no password');
  }
});

test.run();
