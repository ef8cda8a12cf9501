/**
 * What only the PostgreSQL implementation has: its schema (made, migrated, and refused when a
 * newer Sextant made it), one-line failures to connect, key rotation, and leases that follow their
 * holder's session: lost at once when it dies, after the time to live when it is paused.
 */
import { spawn } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import postgres from 'postgres';
import { DatabaseError, openCoordination, type Coordination, type TaskEntry, type TaskMessage } from '../../src/coordination/index.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/coordination/pg/schema.js';
import { sharedPostgres, TestPostgres } from '../helpers/postgres.js';
import { eventually } from '../helpers/wait.js';

const opened: Coordination[] = [];

const sampleTask = (taskId: string): TaskEntry => ({
  taskId,
  status: 'working',
  createdAt: '2026-11-27T00:00:00.000Z',
  lastUpdatedAt: '2026-11-27T00:00:00.000Z',
  ttlMs: 60_000,
  pollIntervalMs: 500,
  expiresAt: Date.now() + 60_000,
  pending: [],
  owner: '',
});
async function open(url: string, leaseTtlMs?: number): Promise<Coordination> {
  const coordination = await openCoordination('', { env: {}, databaseUrl: url, ...(leaseTtlMs !== undefined && { leaseTtlMs }) });
  opened.push(coordination);
  return coordination;
}

async function failure(url: string): Promise<DatabaseError> {
  try {
    await open(url);
  } catch (error) {
    assert.instance(error, DatabaseError);
    return error as DatabaseError;
  }
  assert.unreachable(`${url} must be refused`);
  throw new Error('unreachable');
}

/** A process holding `lease` through its own handle; prints "held TOKEN" once it has it. */
function holder(url: string, lease: string, ttlMs: number): { child: ReturnType<typeof spawn>; held: Promise<number> } {
  const module = JSON.stringify(new URL('../../src/coordination/index.js', import.meta.url).href);
  const source = `
    const { openCoordination } = await import(${module});
    const coordination = await openCoordination('', { env: {}, databaseUrl: ${JSON.stringify(url)}, leaseTtlMs: ${ttlMs} });
    const lease = await coordination.leases.acquire(${JSON.stringify(lease)}, 'child');
    console.log('held ' + lease.token);
    process.stdin.resume();
    process.stdin.on('end', async () => {
      const valid = await coordination.leases.valid(lease);
      let write = 'committed';
      try {
        await coordination.generations.commit(lease, await coordination.generations.current('web'), { project: 'web', committedAt: new Date().toISOString() });
      } catch (error) {
        write = error.code;
      }
      console.log('resumed ' + (valid ? 'valid' : 'invalid') + ' ' + write);
      await coordination.close();
      process.exit(0);
    });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], { stdio: ['pipe', 'pipe', 'inherit'] });
  const held = new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(Number(/held (\d+)/.exec(String(chunk))?.[1])));
    child.once('exit', () => reject(new Error('the holder ended before it held the lease')));
  });
  return { child, held };
}

test('the schema is made once, at the version this Sextant knows, by replicas starting at once', async () => {
  const url = await (await sharedPostgres()).database();
  await Promise.all([open(url), open(url), open(url)]);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`select version from sextant_schema`;
    assert.equal(
      rows.map((row) => row.version),
      [SCHEMA_VERSION],
    );
  } finally {
    await sql.end();
  }
});

test('a database an older Sextant set up is migrated up, its rows kept', async () => {
  const url = await (await sharedPostgres()).database();
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(MIGRATIONS[0]!);
    await sql`create table sextant_schema (one boolean primary key default true check (one), version integer not null)`;
    await sql`insert into sextant_schema (version) values (1)`;
    await sql`insert into sextant_projects (key, name, location) values ('kept', 'Kept', ${sql.json({ folder: '/srv/kept' })})`;
    const coordination = await open(url);
    assert.equal(await coordination.catalog.get('kept'), { name: 'Kept', location: { folder: '/srv/kept' }, allowed: [] }, 'the rows of the old version');
    const [row] = await sql`select version from sextant_schema`;
    assert.is(row!.version, SCHEMA_VERSION);
    const [messages] = await sql`select count(*)::int as count from sextant_task_messages`;
    assert.is(messages!.count, 0, 'the tables of the new versions');
    const [tokens] = await sql`select count(*)::int as count from sextant_tokens`;
    assert.is(tokens!.count, 0);
  } finally {
    await sql.end();
  }
});

test('a database a newer Sextant set up is refused in one line that says what to do', async () => {
  const url = await (await sharedPostgres()).database();
  await open(url);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  await sql`update sextant_schema set version = 99`;
  await sql.end();
  const error = await failure(url);
  assert.is(error.code, 'database_schema_too_new');
  assert.is(
    error.message,
    `The database was set up by a newer Sextant (schema version 99; this one knows up to ${SCHEMA_VERSION}): upgrade Sextant on this machine`,
  );
});

test('a URL that is not one, a refused login, a missing database and a closed port each fail in one line, with the password hidden', async () => {
  const server = await sharedPostgres();
  const cases: [string, string, RegExp][] = [
    ['not a url', 'database_url_invalid', /is not a URL/],
    ['mysql://localhost/x', 'database_url_invalid', /must start with postgres:\/\//],
    [server.url('postgres', 'wrong-password'), 'database_login_refused', /refused the login: check the user and password/],
    [server.url('no_such_database'), 'database_missing', /has no such database/],
    [`postgres://sextant:secret@127.0.0.1:1/postgres`, 'database_unreachable', /does not answer \(ECONNREFUSED\)/],
  ];
  for (const [url, code, message] of cases) {
    const error = await failure(url);
    assert.is(error.code, code, url);
    assert.match(error.message, message);
    assert.not.match(error.message, /wrong-password|secret|\n/, 'one line, no password');
  }
});

test('a rotated key seals from then on, and states sealed with the one before still open on every replica', async () => {
  const url = await (await sharedPostgres()).database();
  const [one, other] = [await open(url), await open(url)];
  const before = await one.keys.ring();
  assert.equal((await other.keys.ring()).current, before.current, 'one key, made by whoever came first');
  const { PgStateKeys } = await import('../../src/coordination/pg/keys.js');
  assert.instance(other.keys, PgStateKeys);
  const rotated = await (other.keys as InstanceType<typeof PgStateKeys>).rotate();
  const after = await one.keys.ring();
  assert.is(after.current.id, rotated.id);
  assert.equal(after.find(before.current.id), before.current, 'the previous key still opens');
});

test('a lease whose holder is killed (-9) is granted again at once, with a greater token', async () => {
  const url = await (await sharedPostgres()).database();
  const { child, held } = holder(url, 'controller', 60_000);
  const token = await held;
  const mine = await open(url);
  assert.is(await mine.leases.acquire('controller', 'me'), undefined, 'held by a live process');
  child.kill('SIGKILL');
  let lease: Awaited<ReturnType<typeof mine.leases.acquire>>;
  await eventually(async () => (lease = await mine.leases.acquire('controller', 'me')) !== undefined, 'the lease is granted once its holder is gone');
  assert.ok(lease!.token > token);
});

test('a paused holder loses its lease after the time to live, and on resuming finds it invalid and its writes refused', async () => {
  const url = await (await sharedPostgres()).database();
  const ttlMs = 1_000;
  const { child, held } = holder(url, 'controller', ttlMs);
  const token = await held;
  const mine = await open(url);
  child.kill('SIGSTOP');
  try {
    let lease: Awaited<ReturnType<typeof mine.leases.acquire>>;
    await eventually(
      async () => (lease = await mine.leases.acquire('controller', 'me')) !== undefined,
      'the lease is granted once the pause outlasts its time to live',
    );
    assert.ok(lease!.token > token);
    await mine.generations.commit(lease!, undefined, { project: 'web', committedAt: new Date().toISOString() });
  } finally {
    child.kill('SIGCONT');
  }
  const said = new Promise<string>((resolve) => child.stdout!.on('data', (chunk: Buffer) => /resumed/.test(String(chunk)) && resolve(String(chunk).trim())));
  child.stdin!.end();
  assert.is(await said, 'resumed invalid lease_lost', 'the resumed holder sees its grant is gone, and its write is refused');
  assert.is((await mine.generations.current('web'))!.number, 1, "only the successor's generation");
});

test('a lease whose session was lost is invalid, and the same handle is granted it again, with a greater token', async () => {
  const url = await (await sharedPostgres()).database();
  const coordination = await open(url);
  const first = (await coordination.leases.acquire('controller', 'me'))!;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    // As a server restart or a network cut would: the lock's session ends under its holder.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'sextant lease controller' and datname = current_database()`;
  } finally {
    await sql.end();
  }
  assert.not.ok(await coordination.leases.valid(first), 'lost with its session');
  const again = await coordination.leases.acquire('controller', 'me');
  assert.ok(again && again.token > first.token, `granted again: ${JSON.stringify(again)}`);
  assert.ok(await coordination.leases.valid(again!));
});

test('PostgreSQL restarted: listeners hear again without being asked, and a message sent after is taken; calls meanwhile fail in one line', async () => {
  const server = await TestPostgres.start();
  try {
    const url = await server.database();
    const [owner, other] = [await open(url), await open(url)];
    const refreshes: string[] = [];
    const messages: TaskMessage[] = [];
    await owner.generations.onRefreshRequest((project) => refreshes.push(project));
    await owner.tasks.onMessage((message) => messages.push(message));
    const taskId = '00000000-0000-4000-8000-0000000000aa';
    await owner.tasks.put({ ...sampleTask(taskId), owner: owner.tasks.self });

    await server.stop();
    try {
      await other.tasks.get(taskId);
      assert.unreachable('the server is down');
    } catch (error) {
      assert.instance(error, DatabaseError);
      assert.is((error as DatabaseError).code, 'database_unreachable', (error as Error).message);
      assert.not.match((error as Error).message, /\n|sextant-test/, 'one line, no password');
    }
    await eventually(() => owner.problem !== undefined, 'the heartbeat notices', 30_000, 100);

    await server.resume();
    // Poked until heard: a notification sent before the listener is back is lost by design; the point is that it comes back.
    await eventually(
      async () => {
        await other.generations.requestRefresh('web').catch(() => undefined);
        return refreshes.includes('web');
      },
      'the refresh listener is listening again',
      30_000,
      250,
    );
    assert.ok(await other.tasks.send({ taskId, cancel: true }));
    await eventually(() => messages.length > 0, 'the message reaches its owner');
    assert.equal(messages, [{ taskId, cancel: true }]);
    await eventually(() => owner.problem === undefined, 'the heartbeat is answered again', 30_000, 100);
  } finally {
    await Promise.all(opened.splice(0).map((coordination) => coordination.close()));
    await server.stop();
  }
});

test.after.each(async () => {
  await Promise.all(opened.splice(0).map((coordination) => coordination.close()));
});

test.run();
