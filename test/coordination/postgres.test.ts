/**
 * What only the PostgreSQL implementation has: its schema (made, migrated, and refused when a
 * newer Sextant made it), one-line failures to connect, key rotation, and leases that follow their
 * holder's session: lost at once when it dies, after the time to live when it is paused.
 */
import { spawn } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import postgres from 'postgres';
import { DatabaseError, openCoordination, type Coordination } from '../../src/coordination/index.js';
import { sharedPostgres } from '../helpers/postgres.js';
import { eventually } from '../helpers/wait.js';

const opened: Coordination[] = [];
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
      [1],
    );
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
  assert.is(error.message, 'The database was set up by a newer Sextant (schema version 99; this one knows up to 1): upgrade Sextant on this machine');
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

test.after.each(async () => {
  await Promise.all(opened.splice(0).map((coordination) => coordination.close()));
});

test.run();
