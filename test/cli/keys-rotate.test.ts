/**
 * `sextant keys rotate`, against a home's files and against a team's PostgreSQL: a new key is
 * current from then on and the previous one still opens states; a server that was running
 * before the rotation accepts a state sealed with the new key by one started after it (it reads
 * its keys again on the miss); while SEXTANT_STATE_KEY decides the key, rotating is refused.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openCoordination } from '../../src/coordination/index.js';
import { sharedPostgres } from '../helpers/postgres.js';
import { runCli } from '../helpers/process.js';
import { serveProcess } from '../helpers/serve-http.js';
import { statelessCall } from '../helpers/stateless.js';

const rotatedId = (stdout: string): string => /Rotated the request-state key: (\S+) seals from now on/.exec(stdout)?.[1] ?? '';

test('files: the new key is current, the previous one is kept as accepted; SEXTANT_STATE_KEY refuses it in one line', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const before = await (await openCoordination(home, { env: {} })).keys.ring();
  const run = await runCli(['keys', 'rotate'], '', { SEXTANT_HOME: home, SEXTANT_STATE_KEY: '', SEXTANT_DATABASE_URL: '' });
  assert.is(run.code, 0, run.stderr);
  const id = rotatedId(run.stdout);
  assert.ok(id && id !== before.current.id, run.stdout);
  assert.match(run.stdout, 'states sealed with the previous key stay valid until they expire');
  const after = await (await openCoordination(home, { env: {} })).keys.ring();
  assert.is(after.current.id, id);
  assert.equal(after.find(before.current.id), before.current, 'the previous key still opens');
  assert.equal(readdirSync(join(home, 'state-keys-accepted')), [`${before.current.id}.key`]);
  assert.match(readFileSync(join(home, 'state.key'), 'utf8'), /^[0-9a-f]{64}$/);

  const refused = await runCli(['keys', 'rotate'], '', { SEXTANT_HOME: home, SEXTANT_STATE_KEY: 'fixed', SEXTANT_DATABASE_URL: '' });
  assert.is(refused.code, 2);
  assert.is(
    refused.stderr,
    'sextant: SEXTANT_STATE_KEY is set, and it overrides the stored keys: change it on every server instead (states sealed with the old one are then refused)\n',
  );
});

test('a server started before the rotation accepts a state sealed with the new key by a server started after it', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const env = { SEXTANT_STATE_KEY: '', SEXTANT_DATABASE_URL: '' };
  const before = await serveProcess(home, env);
  let after: Awaited<ReturnType<typeof serveProcess>> | undefined;
  try {
    assert.is((await runCli(['keys', 'rotate'], '', { ...env, SEXTANT_HOME: home })).code, 0);
    after = await serveProcess(home, env);
    const input = { elicitation: {} };
    const round1 = (await statelessCall(after.url, 'tools/call', { name: 'test_input_required_result_multi_round', arguments: {} }, input)).result!;
    const state = round1.requestState as string;
    const round2 = await statelessCall(
      before.url,
      'tools/call',
      {
        name: 'test_input_required_result_multi_round',
        arguments: {},
        inputResponses: { step1: { action: 'accept', content: { name: 'Ada' } } },
        requestState: state,
      },
      input,
    );
    assert.is(round2.error, undefined, `opened on the server that predates the key: ${JSON.stringify(round2)}`);
    assert.equal(Object.keys(round2.result!.inputRequests as object), ['step2']);
  } finally {
    await Promise.all([before.stop(), after?.stop()]);
  }
});

test('a team database: every replica reads the rotated key; the previous one stays accepted', async () => {
  const databaseUrl = await (await sharedPostgres()).database();
  const replica = await openCoordination('', { env: {}, databaseUrl });
  try {
    const before = await replica.keys.ring();
    const run = await runCli(['keys', 'rotate', '--database-url', databaseUrl], '', { SEXTANT_STATE_KEY: '' });
    assert.is(run.code, 0, run.stderr);
    assert.match(run.stdout, /\(postgres postgres:\/\/sextant:\*\*\*@127\.0\.0\.1:\d+\/\w+\)/, 'where, with the password hidden');
    const after = await replica.keys.ring();
    assert.is(after.current.id, rotatedId(run.stdout));
    assert.equal(after.find(before.current.id), before.current);
  } finally {
    await replica.close();
  }
});

test.run();
