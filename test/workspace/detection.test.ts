import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import { WebSocket } from 'ws';
import * as assert from 'uvu/assert';
import { call, projectHarness, projectTree, sdkClient, type RootsAnswer } from '../helpers/projects.js';
import { errorCode } from '../helpers/tool-result.js';
import { send, JSON_AND_SSE } from '../helpers/http.js';
import { eventually } from '../helpers/wait.js';

const fileUri = (path: string): string => pathToFileURL(path).href;
const sessionProject = async (client: Awaited<ReturnType<typeof sdkClient>>) =>
  (await call(client, 'health_check')).structuredContent!.session_project as { root: string; source: string } | null;

test('roots win; unusable roots (non-file, relative, missing, Windows) are skipped to the next root; percent-encoding is decoded', async () => {
  const spaced = projectTree({ 'a.txt': 'x\n' }, 'sextant my project ');
  const env = projectTree({});
  const h = await projectHarness({ workspaces: [env] });
  let roots: RootsAnswer = [
    { uri: 'https://example.com/repo' },
    { uri: 'file://./relative/path' },
    { uri: 'file:///does/not/exist' },
    { uri: 'file:///C:/Users/dev/project' },
    { uri: fileUri(spaced) }, // spaces come out as %20
  ];
  const client = await sdkClient(h.http.urls.mcp, { answer: () => roots });
  try {
    assert.ok(fileUri(spaced).includes('%20'));
    assert.equal(await sessionProject(client), { root: spaced, source: 'roots' });
    assert.ok(
      h.logs.some((line) => line.startsWith('info: ') && line.includes('Windows file: URIs are not supported yet')),
      'Windows URI logged',
    );
    // Only usable roots: none left, so the chain falls through to the next source.
    roots = [{ uri: 'file:///nope' }];
    await client.sendRootsListChanged();
    // Handled before its POST is answered; the next call asks for the roots again.
    assert.equal(await sessionProject(client), { root: env, source: 'command_line' });
    assert.equal(h.problems(), []);
  } finally {
    await client.close();
    await h.close();
  }
});

test('roots are cached per session and asked again, by the next call that needs them, after notifications/roots/list_changed (never answered)', async () => {
  const first = projectTree({});
  const second = projectTree({});
  const h = await projectHarness();
  let asked = 0;
  let current = first;
  const client = await sdkClient(h.http.urls.mcp, {
    answer: () => {
      asked++;
      return [{ uri: fileUri(current) }];
    },
  });
  try {
    assert.equal(await sessionProject(client), { root: first, source: 'roots' });
    await call(client, 'health_check');
    assert.is(asked, 1, 'cached: asked once for two calls');
    current = second;
    const sentBefore = h.sent.length;
    await client.sendRootsListChanged();
    // A ping behind the notification: once it is answered, the notification has been handled.
    await client.ping();
    assert.equal(
      h.sent.slice(sentBefore).filter((message) => (message as { method?: string }).method !== undefined),
      [],
      'the notification itself got no answer, and asked nothing on its own',
    );
    // The next call asks again, on its own behalf (over HTTP: on its own stream), and gets the new project.
    assert.equal(await sessionProject(client), { root: second, source: 'roots' });
    assert.is(asked, 2, 'asked again after list_changed');
    assert.equal(h.problems(), []);
  } finally {
    await client.close();
    await h.close();
  }
});

test('a client that declares roots but never answers: the request is cancelled at the time limit and the chain falls through', async () => {
  const env = projectTree({});
  const h = await projectHarness({ workspaces: [env], rootsTimeoutMs: 300 });
  let cancelled = false;
  const client = await sdkClient(h.http.urls.mcp, { answer: () => 'hang', onCancelled: () => (cancelled = true) });
  try {
    const started = Date.now();
    assert.equal(await sessionProject(client), { root: env, source: 'command_line' });
    assert.ok(Date.now() - started < 3_000);
    const cancel = h.sent.find((message) => (message as { method?: string }).method === 'notifications/cancelled') as { params: { requestId: unknown } };
    const request = h.sent.find((message) => (message as { method?: string }).method === 'roots/list') as { id: unknown };
    assert.ok(cancel, 'notifications/cancelled sent');
    assert.is(cancel.params.requestId, request.id);
    await eventually(() => cancelled, 'the client saw the cancellation');
    assert.equal(h.problems(), []);
  } finally {
    await client.close();
    await h.close();
  }
});

test('a client that answers roots/list with -32601, or an empty list, falls through to the next source', async () => {
  const env = projectTree({});
  const h = await projectHarness({ workspaces: [env] });
  const noHandler = await sdkClient(h.http.urls.mcp, {});
  const empty = await sdkClient(h.http.urls.mcp, { answer: () => [] });
  try {
    assert.equal(await sessionProject(noHandler), { root: env, source: 'command_line' });
    assert.ok(
      h.logs.some((line) => line.startsWith('info: roots/list failed') && /method not found/i.test(line)),
      'the -32601 reply is logged',
    );
    assert.equal(await sessionProject(empty), { root: env, source: 'command_line' });
    assert.equal(h.problems(), []);
  } finally {
    await noHandler.close();
    await empty.close();
    await h.close();
  }
});

test('project_path on the URL is the next source; a lower source that disagrees is logged once, at info', async () => {
  const fromRoots = projectTree({});
  const fromQuery = projectTree({});
  const env = projectTree({});
  const h = await projectHarness({ workspaces: [env] });
  const url = `${h.http.urls.mcp}?project_path=${encodeURIComponent(fromQuery)}`;
  const plain = await sdkClient(url);
  const withRoots = await sdkClient(url, { answer: () => [{ uri: fileUri(fromRoots) }] });
  try {
    assert.equal(await sessionProject(plain), { root: fromQuery, source: 'query_parameter' });
    assert.equal(await sessionProject(withRoots), { root: fromRoots, source: 'roots' });
    await sessionProject(withRoots);
    const lines = h.logs.filter((line) => line.startsWith('info: Project from'));
    assert.equal(lines, [
      `info: Project from query_parameter (${fromQuery}) wins over command_line (${env})`,
      `info: Project from roots (${fromRoots}) wins over query_parameter (${fromQuery}), command_line (${env})`,
    ]);
    assert.equal(h.problems(), []);
  } finally {
    await plain.close();
    await withRoots.close();
    await h.close();
  }
});

test('a relative or missing project_path is 400 with a JSON-RPC error body, on /mcp, /sse, /messages and /ws', async () => {
  const h = await projectHarness();
  try {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const cases: Array<[string, string]> = [
      ['relative/path', 'Project path must be absolute: relative/path'],
      ['/bad/path', 'Project path not found on this server: /bad/path'],
    ];
    for (const [value, message] of cases) {
      const query = `project_path=${encodeURIComponent(value)}`;
      const responses = [
        await send(`${h.http.urls.mcp}?${query}`, { body: init }),
        await send(`${h.http.urls.sse}?${query}`, { headers: { accept: 'text/event-stream' } }),
        await send(`${h.http.urls.mcp.replace('/mcp', '/messages')}?sessionId=x&${query}`, { body: init, headers: JSON_AND_SSE }),
      ];
      for (const response of responses) {
        assert.is(response.status, 400);
        assert.equal(response.json(), { jsonrpc: '2.0', error: { code: -32600, message } });
      }
      const status = await new Promise<number | undefined>((resolve) => {
        const socket = new WebSocket(`${h.http.urls.ws}?${query}`);
        socket.on('unexpected-response', (_req, res) => resolve(res.statusCode));
        socket.on('open', () => resolve(undefined));
        socket.on('error', () => resolve(undefined));
      });
      assert.is(status, 400, 'the upgrade is refused');
    }
  } finally {
    await h.close();
  }
});

test('no project: tools answer isError with the guidance; health_check says so', async () => {
  const h = await projectHarness();
  const client = await sdkClient(h.http.urls.mcp);
  try {
    for (const name of ['search_code', 'index_status']) {
      const result = await call(client, name, name === 'search_code' ? { query: 'x' } : {});
      assert.ok(result.isError);
      assert.match(result.content[0]!.text, 'No project detected. Set SEXTANT_PROJECT or use --project-from-cwd.');
      assert.is(errorCode(result), 'project_not_found');
    }
    const health = (await call(client, 'health_check')).structuredContent!;
    assert.is(health.session_project, null);
    assert.is(health.detection_note, 'No project detected. Set SEXTANT_PROJECT or use --project-from-cwd.');
    assert.not.ok(
      h.sent.some((message) => (message as { method?: string }).method === 'roots/list'),
      'no roots/list to a client without the capability',
    );
    assert.equal(h.problems(), []);
  } finally {
    await client.close();
    await h.close();
  }
});

test('detected but not indexed: index_not_ready with the command to run; the roots hint comes once, only when roots were not available', async () => {
  const env = projectTree({ 'a.ts': 'const x = 1;\n' });
  const h = await projectHarness({ workspaces: [env] });
  const client = await sdkClient(h.http.urls.mcp);
  const rooted = await sdkClient(h.http.urls.mcp, { answer: () => [{ uri: fileUri(env) }] });
  try {
    const first = await call(client, 'search_code', { query: 'const' });
    assert.ok(first.isError);
    assert.is(errorCode(first), 'index_not_ready');
    assert.match(first.content[0]!.text, `Project detected at ${env} but not indexed. Run \`sextant index ${env}\` first.`);
    const status = await call(client, 'index_status');
    assert.not.ok(status.isError);
    assert.is(status.structuredContent!.indexing_status, 'not_indexed');
    // The hint rode on the first response of the session only.
    assert.ok(first.content.some((block) => block.text.includes('supports MCP roots')));
    assert.not.ok(status.content.some((block) => block.text.includes('supports MCP roots')));
    const viaRoots = await call(rooted, 'index_status');
    assert.not.ok(viaRoots.content.some((block) => block.text.includes('supports MCP roots')));
    assert.is(viaRoots.structuredContent!.source, 'roots');
    assert.equal(h.problems(), []);
  } finally {
    await client.close();
    await rooted.close();
    await h.close();
  }
});

test('workspace argument: registered works; unknown is workspace_not_registered; relative is invalid_input; missing is project_not_found', async () => {
  const registered = projectTree({});
  const other = projectTree({});
  const h = await projectHarness({ workspaces: [registered] });
  const client = await sdkClient(h.http.urls.mcp);
  try {
    const ok = await call(client, 'index_status', { workspace: registered });
    assert.is(ok.structuredContent!.workspace, registered);
    assert.is(ok.structuredContent!.source, 'workspace_argument');
    assert.is(errorCode(await call(client, 'index_status', { workspace: other })), 'workspace_not_registered');
    assert.is(errorCode(await call(client, 'index_status', { workspace: 'relative/dir' })), 'invalid_input');
    assert.is(errorCode(await call(client, 'index_status', { workspace: '/no/such/dir' })), 'project_not_found');
    assert.equal(h.problems(), []);
  } finally {
    await client.close();
    await h.close();
  }
});

test('auto-workspace: registered on demand under an allowed root; .. and symlinks cannot escape; LRU lets the oldest go', async () => {
  const allowed = projectTree({});
  const outside = projectTree({});
  for (const name of ['a', 'b', 'c']) mkdirSync(join(allowed, name));
  symlinkSync(outside, join(allowed, 'escape'));
  const h = await projectHarness({ autoWorkspace: true, allowedRoots: [allowed], maxWorkspaces: 2 });
  const client = await sdkClient(h.http.urls.mcp);
  try {
    for (const name of ['a', 'b'])
      assert.is((await call(client, 'index_status', { workspace: join(allowed, name) })).structuredContent!.workspace, join(allowed, name));
    // Over HTTP, --allowed-root confines even the local user (access.ts), and a refusal reads like
    // a missing directory: the caller cannot tell what exists outside what it may reach.
    for (const escape of [join(allowed, 'escape'), `${allowed}/a/../../${outside.split('/').at(-1)}`, outside]) {
      const refused = await call(client, 'index_status', { workspace: escape });
      assert.is(errorCode(refused), 'project_not_found', escape);
      const missing = await call(client, 'index_status', { workspace: `${escape}-missing` });
      assert.is(refused.content[0]!.text.replace(escape, 'PATH'), missing.content[0]!.text.replace(`${escape}-missing`, 'PATH'));
    }
    // Touch a, then add c: b is the least recently used and goes.
    await call(client, 'index_status', { workspace: join(allowed, 'a') });
    await call(client, 'index_status', { workspace: join(allowed, 'c') });
    const known = ((await call(client, 'health_check')).structuredContent!.projects as Array<{ root: string }>).map((project) => project.root).sort();
    assert.equal(known, [join(allowed, 'a'), join(allowed, 'c')]);
    assert.ok(h.logs.some((line) => line.includes(`Workspace ${join(allowed, 'b')} let go`)));
    assert.equal(h.problems(), []);
  } finally {
    await client.close();
    await h.close();
  }
});

test("the client's roots are boundaries: a workspace outside every root and allowed root is refused, one inside is taken", async () => {
  const root = projectTree({});
  mkdirSync(join(root, 'pkg'));
  const registeredElsewhere = projectTree({});
  const h = await projectHarness({ workspaces: [registeredElsewhere] });
  const client = await sdkClient(h.http.urls.mcp, { answer: () => [{ uri: fileUri(root) }] });
  try {
    assert.is(errorCode(await call(client, 'index_status', { workspace: registeredElsewhere })), 'workspace_not_allowed');
    const inside = await call(client, 'index_status', { workspace: join(root, 'pkg') });
    assert.not.ok(inside.isError);
    assert.is(inside.structuredContent!.workspace, join(root, 'pkg'));
    assert.equal(h.problems(), []);
  } finally {
    await client.close();
    await h.close();
  }
});

test('project_path is honoured the same over legacy SSE and WebSocket', async () => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
  const { WebSocketClientTransport } = await import('@modelcontextprotocol/sdk/client/websocket.js');
  (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
  const project = projectTree({});
  const h = await projectHarness();
  const query = `?project_path=${encodeURIComponent(project)}`;
  try {
    for (const transport of [
      new SSEClientTransport(new URL(`${h.http.urls.sse}${query}`)),
      new WebSocketClientTransport(new URL(`${h.http.urls.ws}${query}`)),
    ]) {
      const client = new Client({ name: 'sextant-projects-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        assert.equal(await sessionProject(client), { root: project, source: 'query_parameter' });
      } finally {
        await client.close();
      }
    }
    assert.equal(h.problems(), []);
  } finally {
    await h.close();
  }
});

test('GET /health carries the same project list as health_check, and every registered error code is documented in docs/errors.md', async () => {
  const { readFileSync } = await import('node:fs');
  const { ERROR_CODES: TOOL_ERROR_CODES } = await import('../../src/errors.js');
  const { ROOT } = await import('../helpers/process.js');
  const env = projectTree({});
  const h = await projectHarness({ workspaces: [env] });
  const client = await sdkClient(h.http.urls.mcp);
  try {
    const fromTool = (await call(client, 'health_check')).structuredContent!;
    const fromHttp = (await send(h.http.urls.health)).json();
    assert.equal(fromHttp.projects, fromTool.projects);
    assert.equal(fromHttp.projects, [{ root: env, status: 'not_indexed', pinned: true, sources: ['command_line'] }]);
    assert.is(fromHttp.status, fromTool.status);
  } finally {
    await client.close();
    await h.close();
  }
  const readme = readFileSync(join(ROOT, 'docs', 'errors.md'), 'utf8');
  for (const [code, { meaning }] of Object.entries(TOOL_ERROR_CODES)) {
    assert.ok(readme.includes(`| \`${code}\` | ${meaning} |`), `docs/errors.md documents ${code}`);
  }
});

test.run();
