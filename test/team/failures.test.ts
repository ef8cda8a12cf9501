/**
 * A replica when its PostgreSQL goes away and comes back, and a replica that joins late, each
 * with real `serve` processes and a real PostgreSQL (one of its own, where it is stopped):
 * searches keep answering from the local index while the database is down, task calls fail at
 * once with a clear error, /ready and /health say what is wrong; once the database is back the
 * replica hears refresh requests again and follows the next push; a late joiner says ready only
 * once it serves the current target.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gitRemote } from '../helpers/git-remote.js';
import { sharedPostgres, TestPostgres } from '../helpers/postgres.js';
import { runCli } from '../helpers/process.js';
import { serveProcess } from '../helpers/serve-http.js';
import { statelessCall, type StatelessAnswer } from '../helpers/stateless.js';
import { eventually } from '../helpers/wait.js';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

interface Probe {
  status: number;
  body: { ready?: boolean; shared_state_problem?: string; controller?: boolean; projects?: Array<{ commit?: string }> };
}

const base = (url: string): string => url.replace(/\/mcp$/, '');
async function probe(url: string, path: '/ready' | '/health'): Promise<Probe> {
  const response = await request(`${base(url)}${path}`);
  return { status: response.statusCode, body: (await response.body.json()) as Probe['body'] };
}

/** The answer, or a failure once `ms` pass: a call that hangs fails the test instead of the run. */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let deadline: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (deadline = setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what}`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(deadline);
  }
}

const commitOf = (answer: StatelessAnswer): unknown => (answer.result?.structuredContent as { commit?: string } | undefined)?.commit;

test('PostgreSQL down: searches answer, task calls fail at once with a clear error, /ready and /health say so; back: the next push is followed', async () => {
  const server = await TestPostgres.start();
  const databaseUrl = await server.database();
  const remote = gitRemote();
  const first = remote.push({ 'api.go': 'package api\n\nfunc Handle() {}\n' });
  const added = await runCli(['project', 'add', 'api', '--git', remote.url, '--database-url', databaseUrl], '', {
    SEXTANT_HOME: mkdtempSync(join(tmpdir(), 'sextant-home-')),
  });
  assert.is(added.code, 0, added.stderr);
  const replica = await serveProcess(mkdtempSync(join(tmpdir(), 'sextant-home-')), {}, [
    '--no-watch',
    '--poll-interval',
    '3600',
    '--database-url',
    databaseUrl,
  ]);
  try {
    await eventually(async () => (await probe(replica.url, '/ready')).status === 200, 'the replica serves the published commit');
    await server.stop();

    const search = await within(
      30_000,
      'search_code',
      statelessCall(replica.url, 'tools/call', { name: 'search_code', arguments: { query: 'Handle', workspace: 'api' } }, {}),
    );
    assert.not.ok(search.result?.isError, JSON.stringify(search));
    assert.is(commitOf(search), first, 'answered from the local index, with its commit');

    const started = await within(
      30_000,
      'a task call',
      statelessCall(replica.url, 'tools/call', { name: 'index_repo', arguments: { workspace: 'api' } }, TASKS),
    );
    assert.is(started.error?.code, -32603, JSON.stringify(started));
    assert.match(
      started.error!.message,
      /^Tasks are unavailable right now: PostgreSQL at postgres:\/\/sextant:\*\*\*@127\.0\.0\.1:\d+\/\w+ does not answer \(ECONNREFUSED\)/,
    );
    assert.equal(started.error!.data, { reason: 'database_unreachable' });
    const got = await within(30_000, 'tasks/get', statelessCall(replica.url, 'tasks/get', { taskId: '00000000-0000-4000-8000-000000000001' }, TASKS));
    assert.is(got.error?.code, -32603, JSON.stringify(got));
    assert.match(got.error!.message, 'does not answer');

    await eventually(async () => (await probe(replica.url, '/ready')).body.shared_state_problem !== undefined, '/ready reports the database', 30_000, 200);
    const ready = await probe(replica.url, '/ready');
    assert.is(ready.status, 200, 'still in rotation: its searches answer');
    assert.match(ready.body.shared_state_problem!, /PostgreSQL at .* does not answer/);
    assert.match((await probe(replica.url, '/health')).body.shared_state_problem ?? '', /does not answer/);

    await server.resume();
    await eventually(async () => (await probe(replica.url, '/health')).body.shared_state_problem === undefined, 'the database answers again', 30_000, 200);
    await eventually(async () => (await probe(replica.url, '/health')).body.controller === true, 'the replica controls again', 30_000, 200);
    const second = remote.push({ 'more.go': 'package api\n\nfunc Second() {}\n' });
    // The poll is an hour away: only a refresh request, heard through LISTEN, makes it look. Asked
    // again until it is served, since a request made before the listener is back is lost by design.
    await eventually(
      async () => {
        await (await request(`${base(replica.url)}/hooks/refresh?project=api`, { method: 'POST' })).body.dump();
        return (await probe(replica.url, '/health')).body.projects?.[0]?.commit === second;
      },
      'the push is published and served',
      60_000,
      500,
    );
    const task = await statelessCall(replica.url, 'tools/call', { name: 'index_repo', arguments: { workspace: 'api' } }, TASKS);
    assert.is(task.result?.resultType, 'task', `tasks work again: ${JSON.stringify(task)}`);
  } catch (error) {
    console.error('What the replica logged:', replica.stderr(), JSON.stringify(await probe(replica.url, '/health')));
    throw error;
  } finally {
    await replica.stop();
    await server.stop();
  }
});

test('a replica that joins late says ready only once it serves the current target', async () => {
  const databaseUrl = await (await sharedPostgres()).database();
  const remote = gitRemote();
  remote.push({ 'a.go': 'package a\n\nfunc A() {}\n' });
  const cliHome = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  assert.is((await runCli(['project', 'add', 'lib', '--git', remote.url, '--database-url', databaseUrl], '', { SEXTANT_HOME: cliHome })).code, 0);
  const args = ['--no-watch', '--poll-interval', '3600', '--database-url', databaseUrl];
  const early = await serveProcess(mkdtempSync(join(tmpdir(), 'sextant-home-')), {}, args);
  let late: Awaited<ReturnType<typeof serveProcess>> | undefined;
  try {
    await eventually(async () => (await probe(early.url, '/ready')).status === 200, 'the first replica is ready');
    const target = remote.push({ 'b.go': 'package a\n\nfunc B() {}\n' });
    const refreshed = await runCli(['project', 'refresh', 'lib', '--database-url', databaseUrl], '', { SEXTANT_HOME: cliHome });
    assert.is(refreshed.code, 0, refreshed.stderr);
    await eventually(async () => (await probe(early.url, '/health')).body.projects?.[0]?.commit === target, 'the push is served');

    late = await serveProcess(mkdtempSync(join(tmpdir(), 'sextant-home-')), {}, args);
    const seen: number[] = [];
    await eventually(async () => {
      const ready = await probe(late!.url, '/ready');
      seen.push(ready.status);
      if (ready.status !== 200) return false;
      // Whenever it says ready, it serves the target: never an older commit, never nothing.
      assert.is((await probe(late!.url, '/health')).body.projects?.[0]?.commit, target);
      return true;
    }, 'the late replica catches up');
    assert.ok(
      seen.every((status) => status === 503 || status === 200),
      `only 503 then 200: ${seen.join(',')}`,
    );
    const found = await statelessCall(late.url, 'tools/call', { name: 'search_code', arguments: { query: 'func B', workspace: 'lib' } }, {});
    assert.is(commitOf(found), target);
  } finally {
    await Promise.all([early.stop(), late?.stop()]);
  }
});

test.run();
