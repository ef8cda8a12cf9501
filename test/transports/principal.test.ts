/**
 * One principal per credential (http-gate.ts): the authentication scheme is case-insensitive and
 * the principal comes from the credential, so the same token sees its own task however a client
 * spells the header, and another credential never does.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestHttp } from '../helpers/http.js';
import { statelessCall } from '../helpers/stateless.js';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

async function startTask(url: string, authorization: string): Promise<string> {
  const created = (await statelessCall(url, 'tools/call', { name: 'multi_input', arguments: {} }, TASKS, { authorization })).result!;
  assert.is(created.resultType, 'task', JSON.stringify(created));
  return created.taskId as string;
}

const seen = async (url: string, taskId: string, headers: Record<string, string>): Promise<boolean> =>
  (await statelessCall(url, 'tasks/get', { taskId }, TASKS, headers)).result !== undefined;

test('with a token: the same token is one principal, however the scheme is spelled', async () => {
  const http = await startTestHttp({ authToken: 'T0ken' });
  try {
    const taskId = await startTask(http.urls.mcp, 'Bearer T0ken');
    for (const authorization of ['bearer T0ken', 'BEARER T0ken', 'Bearer   T0ken', 'bEaReR T0ken  ']) {
      assert.ok(await seen(http.urls.mcp, taskId, { authorization }), authorization);
    }
    assert.is(
      (await statelessCall(http.urls.mcp, 'tasks/get', { taskId }, TASKS, { authorization: 'Bearer t0ken' })).status,
      401,
      'the credential itself is exact',
    );
  } finally {
    await http.close();
  }
});

test('without a token on loopback: a credential still names one principal, and another sees nothing of its tasks', async () => {
  const http = await startTestHttp();
  try {
    const taskId = await startTask(http.urls.mcp, 'Bearer alice');
    assert.ok(await seen(http.urls.mcp, taskId, { authorization: 'bearer alice' }));
    assert.not.ok(await seen(http.urls.mcp, taskId, { authorization: 'Bearer bob' }));
    assert.not.ok(await seen(http.urls.mcp, taskId, { authorization: 'Bearer ALICE' }), 'the credential is case-sensitive');
    assert.not.ok(await seen(http.urls.mcp, taskId, {}));
  } finally {
    await http.close();
  }
});

test.run();
