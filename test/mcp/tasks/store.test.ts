/**
 * The tasks extension over Streamable HTTP (2026-07-28): task handles, polling, mid-flight input,
 * cancellation, and the gating on the extension being declared.
 */
import { request } from 'undici';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSON_AND_SSE, startTestHttp } from '../../helpers/http.js';
import { sseReader, statelessCall } from '../../helpers/stateless.js';
import { stopAll } from '../../helpers/process.js';
import { fixtureCopy } from '../../helpers/projects.js';
import { serveProcess } from '../../helpers/serve-http.js';
import { tick } from '../../helpers/wait.js';

const MODERN = '2026-07-28';
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} }, elicitation: {} };

test.after.each(() => stopAll());

function rpc(url: string, method: string, params: Record<string, unknown>, capabilities: Record<string, unknown> = TASKS) {
  return statelessCall(url, method, params, capabilities);
}

/** Polls tasks/get until `done` holds for the task (each poll waits for the server's answer, not a timer race). */
async function pollUntil(url: string, taskId: string, done: (task: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const task = (await rpc(url, 'tasks/get', { taskId })).result!;
    if (done(task)) return task;
    assert.ok(Date.now() < deadline, `task never reached the state: ${JSON.stringify(task)}`);
    await tick(Number(task.pollIntervalMs ?? 100) / 5); // a client polls at (here, five times) the rate the task asks
  }
}

test('a task-supporting tool answers with a task handle, tasks/get inlines the result once done; a tool error is a completed task with isError', async () => {
  const http = await startTestHttp();
  try {
    const created = await rpc(http.urls.mcp, 'tools/call', { name: 'slow_compute', arguments: { seconds: 0.2, label: 'x' } });
    const handle = created.result!;
    assert.is(handle.resultType, 'task');
    for (const field of ['taskId', 'status', 'createdAt', 'lastUpdatedAt', 'ttlMs', 'pollIntervalMs']) assert.ok(field in handle, field);
    assert.ok(Number.isInteger(handle.ttlMs) && Number.isInteger(handle.pollIntervalMs));
    assert.not.ok('requestState' in handle);
    const immediately = await rpc(http.urls.mcp, 'tasks/get', { taskId: handle.taskId });
    assert.is(immediately.result!.resultType, 'complete', 'durably created: found at once');
    const done = await pollUntil(http.urls.mcp, handle.taskId as string, (task) => task.status === 'completed');
    assert.match((done.result as { content: Array<{ text: string }> }).content[0]!.text, 'Computed x');
    const failing = (await rpc(http.urls.mcp, 'tools/call', { name: 'failing_job', arguments: {} })).result!;
    const failed = await pollUntil(http.urls.mcp, failing.taskId as string, (task) => task.status !== 'working');
    assert.is(failed.status, 'completed');
    assert.is((failed.result as { isError: boolean }).isError, true);
    const broken = (await rpc(http.urls.mcp, 'tools/call', { name: 'protocol_error_job', arguments: {} })).result!;
    const brokenTask = await pollUntil(http.urls.mcp, broken.taskId as string, (task) => task.status !== 'working');
    assert.is(brokenTask.status, 'failed');
    assert.is((brokenTask.error as { code: number }).code, -32603);
    assert.not.ok('result' in brokenTask);
  } finally {
    await http.close();
  }
});

test('mid-flight input: input_required with the pending requests, answered one key at a time through tasks/update', async () => {
  const http = await startTestHttp();
  try {
    const { taskId } = (await rpc(http.urls.mcp, 'tools/call', { name: 'multi_input', arguments: {} })).result! as { taskId: string };
    const waiting = await pollUntil(http.urls.mcp, taskId, (task) => task.status === 'input_required');
    assert.equal(Object.keys(waiting.inputRequests as object).sort(), ['first', 'second']);
    const ack = await rpc(http.urls.mcp, 'tasks/update', { taskId, inputResponses: { first: { action: 'accept', content: { confirm: true } }, unknown: {} } });
    assert.equal(ack.result, { resultType: 'complete', _meta: ack.result!._meta });
    const half = (await rpc(http.urls.mcp, 'tasks/get', { taskId })).result!;
    assert.is(half.status, 'input_required');
    assert.equal(Object.keys(half.inputRequests as object), ['second']);
    await rpc(http.urls.mcp, 'tasks/update', { taskId, inputResponses: { second: { action: 'accept', content: { confirm: true } } } });
    const done = await pollUntil(http.urls.mcp, taskId, (task) => task.status === 'completed');
    assert.match((done.result as { content: Array<{ text: string }> }).content[0]!.text, 'first, second');
  } finally {
    await http.close();
  }
});

test('tasks/cancel stops a running task (cancelled, for good); an unknown task is -32602; without the extension tasks/* is -32021 and a call runs inline', async () => {
  const http = await startTestHttp();
  try {
    const { taskId } = (await rpc(http.urls.mcp, 'tools/call', { name: 'slow_compute', arguments: { seconds: 60 } })).result! as { taskId: string };
    assert.equal(Object.keys((await rpc(http.urls.mcp, 'tasks/cancel', { taskId })).result!).sort(), ['_meta', 'resultType']);
    assert.is((await rpc(http.urls.mcp, 'tasks/get', { taskId })).result!.status, 'cancelled');
    assert.ok((await rpc(http.urls.mcp, 'tasks/cancel', { taskId })).result, 'idempotent on a finished task');
    assert.is((await rpc(http.urls.mcp, 'tasks/get', { taskId: 'no-such-task' })).error!.code, -32602);
    const gated = await rpc(http.urls.mcp, 'tasks/get', { taskId }, {});
    assert.is(gated.status, 400);
    assert.is(gated.error!.code, -32021);
    const inline = await rpc(http.urls.mcp, 'tools/call', { name: 'slow_compute', arguments: { seconds: 0 } }, {});
    assert.is(inline.result!.resultType, 'complete');
    assert.ok(Array.isArray(inline.result!.content));
    const required = await rpc(http.urls.mcp, 'tools/call', { name: 'failing_job', arguments: {} }, {});
    assert.is(required.error!.code, -32021);
    assert.equal(required.error!.data, { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } });
    for (const removed of ['tasks/result', 'tasks/list']) assert.is((await rpc(http.urls.mcp, removed, { taskId })).error!.code, -32601);
  } finally {
    await http.close();
  }
});

test('task status notifications: a listen stream that names a task gets notifications/tasks with the full task, tagged; without the extension it is -32021', async () => {
  const http = await startTestHttp();
  try {
    const { taskId } = (await rpc(http.urls.mcp, 'tools/call', { name: 'slow_compute', arguments: { seconds: 0.5 } })).result! as { taskId: string };
    const headers = { ...JSON_AND_SSE, 'mcp-protocol-version': MODERN, 'mcp-method': 'subscriptions/listen' };
    const body = (capabilities: Record<string, unknown>) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'watch',
        method: 'subscriptions/listen',
        params: {
          notifications: { taskIds: [taskId, 'not-a-task'] },
          _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': capabilities },
        },
      });
    const refused = await request(http.urls.mcp, { method: 'POST', headers, body: body({}) });
    assert.is(refused.statusCode, 400);
    assert.is(((await refused.body.json()) as { error: { code: number } }).error.code, -32021);
    const stream = await request(http.urls.mcp, { method: 'POST', headers, body: body(TASKS) });
    const events: Array<Record<string, unknown>> = [];
    const read = sseReader((message) => events.push(message));
    await new Promise<void>((resolve, reject) => {
      // A guard against hanging the run if the notification never comes, not a timing expectation.
      const guard = setTimeout(() => reject(new Error(`no completed notifications/tasks; got ${JSON.stringify(events)}`)), 20_000);
      stream.body.on('data', (chunk: Buffer) => {
        read(chunk);
        if (events.some((event) => event.method === 'notifications/tasks' && (event.params as { status: string }).status === 'completed')) {
          clearTimeout(guard);
          resolve();
        }
      });
    });
    stream.body.on('error', () => undefined);
    stream.body.destroy();
    assert.equal((events[0]!.params as { notifications: unknown }).notifications, { taskIds: [taskId] }, 'only the tasks it knows are acknowledged');
    const last = events.at(-1)!.params as Record<string, unknown>;
    assert.is(last.taskId, taskId);
    assert.match((last.result as { content: Array<{ text: string }> }).content[0]!.text, 'Computed');
    assert.equal(last._meta, { 'io.modelcontextprotocol/subscriptionId': 'watch' });
  } finally {
    await http.close();
  }
});

test('an index job is a task on disk: started by one process, followed with tasks/get by another that shares SEXTANT_HOME', async () => {
  const root = fixtureCopy('polyglot');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const [a, b] = await Promise.all([serveProcess(home, {}, ['--workspace', root, '--no-watch']), serveProcess(home, {}, ['--workspace', root, '--no-watch'])]);
  try {
    const created = (await rpc(a.url, 'tools/call', { name: 'index_repo', arguments: { workspace: root } })).result!;
    assert.is(created.resultType, 'task', JSON.stringify(created).slice(0, 300));
    const done = await pollUntil(b.url, created.taskId as string, (task) => task.status !== 'working');
    assert.is(done.status, 'completed', JSON.stringify(done).slice(0, 400));
    const structured = (done.result as { structuredContent: { files: number; workspace: string; job_id: string } }).structuredContent;
    assert.is(structured.workspace, root);
    assert.ok(structured.files > 0);
    // The index it built answers the other process too.
    const found = await rpc(b.url, 'tools/call', { name: 'search_code', arguments: { query: 'hashPassword', workspace: root } }, {});
    assert.ok((found.result!.structuredContent as { results: unknown[] }).results.length > 0);
    // Job ids name their process: b's first job is not a's.
    const synced = (await rpc(b.url, 'tools/call', { name: 'sync_repo', arguments: { workspace: root } }, {})).result!;
    const ids = [structured.job_id, (synced.structuredContent as { job_id: string }).job_id];
    assert.not.equal(ids[0]!.split('-')[1], ids[1]!.split('-')[1], ids.join(' '));
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});

test.run();
