import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { call, fixtureCopy, projectHarness, projectTree, sdkClient } from '../helpers/projects.js';
import { type ToolResult, errorCode } from '../helpers/tool-result.js';
import { eventually, tick } from '../helpers/wait.js';

type Json = Record<string, unknown>;

/** A repository big enough that indexing it takes a while (about 3,000 TypeScript files). */
function bigRepository(): string {
  const files: Record<string, string> = {};
  for (let i = 0; i < 3_000; i++) {
    const body = Array.from({ length: 30 }, (_, l) => `  step${l}(value: number): number { return helper${(i + l) % 50}(value + ${l}); }`).join('\n');
    files[`pkg${i % 30}/module${i}.ts`] = `export class Service${i} {\n${body}\n}\nexport function helper${i % 50}(x: number): number { return x * ${i}; }\n`;
  }
  return projectTree(files, 'sextant-big-');
}

function progressOf(sent: unknown[], token: unknown): Array<{ progress: number; total?: number; message?: string; progressToken: unknown }> {
  return sent
    .filter((message) => (message as { method?: string }).method === 'notifications/progress')
    .map((message) => (message as { params: { progress: number; total?: number; message?: string; progressToken: unknown } }).params)
    .filter((params) => params.progressToken === token);
}

test('index_repo reports progress to a string token and to an integer one (same JSON type), strictly increasing, a message per stage', async () => {
  const root = bigRepository();
  const h = await projectHarness({ workspaces: [root] }, mkdtempSync(join(tmpdir(), 'sextant-home-')));
  const client = await sdkClient(h.http.urls.mcp);
  try {
    // A string token, set by hand (the SDK numbers its own).
    const done = (await client.request(
      { method: 'tools/call', params: { name: 'index_repo', arguments: {}, _meta: { progressToken: 'index-token' } } },
      CallToolResultSchema,
    )) as ToolResult;
    assert.not.ok(done.isError, done.content[0]?.text);
    assert.equal([done.structuredContent!.status, done.structuredContent!.files, done.structuredContent!.mode], ['completed', 3_000, 'index']);
    assert.ok((done.structuredContent!.symbols as number) >= 3_000 * 31);
    assert.ok(typeof done.structuredContent!.duration_ms === 'number');
    const stringProgress = progressOf(h.sent, 'index-token');
    assert.ok(stringProgress.length >= 4, `${stringProgress.length} notifications`);
    for (let i = 1; i < stringProgress.length; i++) assert.ok(stringProgress[i]!.progress > stringProgress[i - 1]!.progress, 'strictly increasing');
    assert.ok(stringProgress.every((p) => p.total === 100));
    const messages = stringProgress.map((p) => p.message ?? '');
    assert.ok(
      messages.some((m) => /^Scanning files: \d+ discovered$/.test(m)),
      messages.join(' | '),
    );
    assert.ok(
      messages.some((m) => /^Parsing files: \d+\/3000 \(\d+%\)$/.test(m)),
      messages.join(' | '),
    );
    assert.ok(
      messages.some((m) => /^Indexing: \d+\/3000 files, \d+ symbols$/.test(m)),
      messages.join(' | '),
    );
    assert.ok(messages.includes('Finalizing index...'), messages.join(' | '));
    // The response came after the last notification for its token.
    const responseAt = h.sent.findIndex(
      (message) =>
        (message as { result?: Json }).result?.structuredContent !== undefined &&
        (message as { result: { structuredContent: Json } }).result.structuredContent.job_id === done.structuredContent!.job_id,
    );
    const lastProgressAt = h.sent.lastIndexOf(
      h.sent.filter((m) => (m as { params?: { progressToken?: unknown } }).params?.progressToken === 'index-token').at(-1),
    );
    assert.ok(lastProgressAt < responseAt, 'no notification after the response');
    // An integer token through the SDK's own onprogress.
    const seen: number[] = [];
    const synced = await client.callTool({ name: 'sync_repo', arguments: { force: true } }, undefined, { onprogress: (p) => void seen.push(p.progress) });
    assert.not.ok(synced.isError);
    const integerProgress = h.sent
      .filter((message) => (message as { method?: string }).method === 'notifications/progress')
      .map((message) => (message as { params: { progressToken: unknown } }).params.progressToken)
      .filter((token) => token !== 'index-token');
    assert.ok(integerProgress.length > 0 && integerProgress.every((token) => typeof token === 'number'), 'integer token echoed as an integer');
    assert.ok(seen.length > 0);
    assert.equal(h.problems(), []);
  } finally {
    await client.close();
    await h.close();
  }
});

test('wait: false returns a job id at once; index_status follows it; a second job meanwhile is index_in_progress; health_check says indexing', async () => {
  const root = bigRepository();
  const h = await projectHarness({ workspaces: [root] }, mkdtempSync(join(tmpdir(), 'sextant-home-')));
  const client = await sdkClient(h.http.urls.mcp);
  try {
    const started = await call(client, 'index_repo', { wait: false });
    assert.equal([started.structuredContent!.status, typeof started.structuredContent!.job_id], ['running', 'string']);
    // The process is in the id: servers sharing a home or a database each count from 1.
    assert.match(String(started.structuredContent!.job_id), /^index-[0-9a-f]{6}-\d+$/);
    const again = await call(client, 'sync_repo', { wait: false });
    assert.is(errorCode(again), 'index_in_progress');
    assert.match(again.content[0]!.text, String(started.structuredContent!.job_id));
    assert.is((await call(client, 'health_check')).structuredContent!.status, 'indexing');
    let status: Json;
    const percents: number[] = [];
    const deadline = Date.now() + 60_000;
    for (;;) {
      status = (await call(client, 'index_status')).structuredContent!;
      if (status.active_job === null) break;
      const job = status.active_job as Json;
      assert.is(job.job_id, started.structuredContent!.job_id);
      assert.is(status.indexing_status, 'indexing');
      percents.push(job.percent as number);
      assert.ok(Date.now() < deadline, 'the job ends');
      await tick(30); // polled while it runs: each look records its percent
    }
    assert.ok(percents.length > 0, 'seen running');
    for (let i = 1; i < percents.length; i++) assert.ok(percents[i]! >= percents[i - 1]!);
    assert.equal([status.indexing_status, (status.last_job as Json).status, status.files], ['ready', 'completed', 3_000]);
    assert.is((await call(client, 'health_check')).structuredContent!.status, 'ready');
    assert.equal(h.problems(), []);
  } finally {
    await client.close();
    await h.close();
  }
});

test('cancelling the request cancels the job cleanly: the previous index stays, status says cancelled, a new job can run', async () => {
  const root = bigRepository();
  const h = await projectHarness({ workspaces: [root] }, mkdtempSync(join(tmpdir(), 'sextant-home-')));
  const client = await sdkClient(h.http.urls.mcp);
  try {
    await call(client, 'index_repo');
    writeFileSync(join(root, 'pkg0/added.ts'), 'export const cancelled_marker = 1;\n');
    const controller = new AbortController();
    let notified = 0;
    try {
      await client.callTool({ name: 'index_repo', arguments: {} }, undefined, {
        signal: controller.signal,
        onprogress: () => {
          if (++notified === 2) controller.abort(new Error('stop'));
        },
      });
      assert.unreachable('the call was cancelled');
    } catch (error) {
      assert.match((error as Error).message, 'stop');
    }
    const deadline = Date.now() + 20_000;
    let status: Json = {};
    await eventually(
      async () => {
        status = (await call(client, 'index_status')).structuredContent!;
        return status.active_job === null;
      },
      'the job stops',
      Math.max(0, deadline - Date.now()),
      30,
    );
    assert.equal([(status.last_job as Json).status, status.indexing_status, status.files], ['cancelled', 'ready', 3_000]);
    assert.ok(h.sent.some((message) => (message as { method?: string }).method === 'notifications/progress'));
    // The previous index answers; the file added after it is not in it.
    const search = await call(client, 'search_code', { query: 'cancelled_marker' });
    assert.equal(search.structuredContent!.results, []);
    assert.is(((await call(client, 'search_code', { query: 'class Service2999' })).structuredContent!.results as Json[]).length, 1);
    const rerun = await call(client, 'sync_repo');
    assert.equal([rerun.structuredContent!.status, rerun.structuredContent!.added], ['completed', 1]);
    assert.equal(h.problems(), []);
  } finally {
    await client.close();
    await h.close();
  }
});

test('sync_repo re-reads only what changed; with the watcher on, a saved file is searchable without any call', async () => {
  const root = fixtureCopy('polyglot');
  const h = await projectHarness({ workspaces: [root] }, mkdtempSync(join(tmpdir(), 'sextant-home-')), { watch: true });
  const client = await sdkClient(h.http.urls.mcp);
  try {
    await call(client, 'index_repo');
    mkdirSync(join(root, 'src/new'));
    writeFileSync(join(root, 'src/new/feature.ts'), 'export function brandNewFeature(): number { return 42; }\n');
    const found = async () => ((await call(client, 'search_code', { query: 'brandNewFeature' })).structuredContent!.results as Json[]).length === 1;
    await eventually(found, 'the watcher picked the save up', 5_000, 50);
    // Symbols follow too.
    // No time target for symbols (the 1 s one is for text): a cold machine starts the parser threads slowly.
    const located = async () => errorCode(await call(client, 'locate_symbol', { name: 'brandNewFeature' })) !== 'symbol_not_found';
    await eventually(located, `symbols refreshed; server log: ${h.logs.join(' | ')}`, 20_000, 50);
    writeFileSync(join(root, 'tools/report.py'), `${readFileSync(join(root, 'tools/report.py'), 'utf8')}\ndef extra_helper():\n    return 1\n`);
    const synced = (await call(client, 'sync_repo')).structuredContent!;
    assert.is(synced.status, 'completed');
    assert.ok((synced.changed as number) <= 1 && (synced.added as number) === 0, JSON.stringify(synced));
    assert.equal(h.problems(), []);
  } finally {
    await client.close();
    await h.close();
  }
});

test.run();
