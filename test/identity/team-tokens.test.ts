/**
 * Named tokens on a team: created and revoked with the CLI against PostgreSQL, honoured by every
 * replica, and a revoked one refused by every replica within 5 s. Access lists set on one
 * machine reach the replicas too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sharedPostgres, TestPostgres } from '../helpers/postgres.js';
import { runCli } from '../helpers/process.js';
import { projectTree } from '../helpers/projects.js';
import { serveProcess } from '../helpers/serve-http.js';
import { statelessCall } from '../helpers/stateless.js';
import { eventually, tick } from '../helpers/wait.js';

test('a token made on one machine works on every replica, sees what it is allowed there, and once revoked is refused by all within 5 s', async () => {
  const databaseUrl = await (await sharedPostgres()).database();
  const homes = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), 'sextant-home-')));
  const folder = projectTree({ 'a.ts': 'export const a = 1;\n' });
  const cli = (...args: string[]) => runCli([...args, '--database-url', databaseUrl], '', { SEXTANT_HOME: homes[0]! });
  const replicas: Array<Awaited<ReturnType<typeof serveProcess>>> = [];
  try {
    const created = await cli('token', 'create', 'ci');
    assert.is(created.code, 0, created.stderr);
    const secret = created.stdout.trim();
    assert.is((await cli('project', 'add', 'shared', '--folder', folder, '--allow', 'token:ci')).code, 0);
    assert.is((await cli('project', 'add', 'other', '--folder', folder)).code, 0);
    for (const home of homes.slice(1)) replicas.push(await serveProcess(home, {}, ['--no-watch', '--database-url', databaseUrl]));
    const listed = async (url: string) => {
      const answer = await statelessCall(url, 'tools/call', { name: 'list_projects', arguments: {} }, {}, { authorization: `Bearer ${secret}` });
      return answer.status === 200 ? (answer.result!.structuredContent as { projects: Array<{ name: string }> }).projects.map((p) => p.name) : answer.status;
    };
    for (const replica of replicas) assert.equal(await listed(replica.url), ['shared'], 'the same token, the same answer, on each replica');
    assert.is((await cli('token', 'revoke', 'ci')).code, 0);
    const revokedAt = Date.now();
    await eventually(
      async () => (await Promise.all(replicas.map((replica) => listed(replica.url)))).every((status) => status === 401),
      'every replica refuses it',
      5_000,
      100,
    );
    assert.ok(Date.now() - revokedAt < 5_000);
  } finally {
    await Promise.all(replicas.map((replica) => replica.stop()));
    for (const dir of [...homes, folder]) rmSync(dir, { recursive: true, force: true });
  }
});

test('the database away: a token the replica has seen keeps working, one it never saw is refused, and nobody gets in without one', async () => {
  const server = await TestPostgres.start();
  const databaseUrl = await server.database();
  const homes = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'sextant-home-')));
  const cli = (...args: string[]) => runCli([...args, '--database-url', databaseUrl], '', { SEXTANT_HOME: homes[0]! });
  let replica: Awaited<ReturnType<typeof serveProcess>> | undefined;
  try {
    const [seen, unseen] = [(await cli('token', 'create', 'seen')).stdout.trim(), (await cli('token', 'create', 'unseen')).stdout.trim()];
    replica = await serveProcess(homes[1]!, {}, ['--no-watch', '--database-url', databaseUrl]);
    const status = async (token?: string) =>
      (await statelessCall(replica!.url, 'tools/call', { name: 'list_projects', arguments: {} }, {}, token ? { authorization: `Bearer ${token}` } : {})).status;
    assert.is(await status(seen), 200);
    await server.stop();
    // Past the lookup cache (2 s): each answer below comes from the store, which cannot be read.
    await tick(2_500);
    assert.is(await status(seen), 200, 'seen before: the last answer is kept');
    assert.is(await status(unseen), 401, 'never seen: refused until the database is back');
    assert.is(await status(), 401, 'identities stay configured: no credential, no entry');
  } finally {
    await replica?.stop();
    await server.stop();
    for (const dir of homes) rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
