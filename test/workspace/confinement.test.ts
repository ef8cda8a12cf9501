/**
 * A remote caller reaches only what the operator registered (workspace/access.ts): with a token,
 * `project_path`, a `workspace` argument and the client's roots (a root of file:/// included)
 * reach the registered projects and the directories under an --allowed-root, and nothing else, on
 * every HTTP transport and in both eras. A refusal reads like a missing directory. On loopback
 * without a token the local user keeps any directory of theirs, unless --allowed-root confines them.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WebSocket } from 'ws';
import type { IncomingMessage } from 'node:http';
import { Credentials } from '../../src/identity/index.js';
import { HttpGate } from '../../src/transports/http-gate.js';
import { openCaller, TRANSPORTS, withCaller, type TestCaller } from '../helpers/callers.js';
import { request } from 'undici';
import { initializeBody, JSON_AND_SSE } from '../helpers/http.js';
import { statelessCall } from '../helpers/stateless.js';
import { projectHarness, projectTree, type ProjectHarness } from '../helpers/projects.js';
import { errorCode, type ToolResult } from '../helpers/tool-result.js';

const TOKEN = 'confinement-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const SECRET = 'TOPSECRET_VALUE_42';

interface Tree {
  registered: string;
  allowed: string;
  child: string;
  secret: string;
  home: string;
}

function trees(): Tree {
  const allowed = projectTree({});
  const child = join(allowed, 'child');
  mkdirSync(child);
  return {
    registered: projectTree({ 'main.go': 'package main\n', '.gitignore': 'private/\n', 'private/key.txt': `${SECRET}\n`, '.git/config': `${SECRET}\n` }),
    allowed,
    child,
    secret: projectTree({ 'secret.txt': `${SECRET}\n` }),
    home: mkdtempSync(join(tmpdir(), 'sextant-home-')),
  };
}

function removeTrees(tree: Tree): void {
  for (const dir of Object.values(tree)) rmSync(dir, { recursive: true, force: true });
}

async function tokenServer(tree: Tree, options: { registered?: boolean } = {}): Promise<ProjectHarness> {
  return projectHarness(
    { workspaces: options.registered === false ? [] : [tree.registered], allowedRoots: [tree.allowed], autoWorkspace: true },
    tree.home,
    {},
    { authToken: TOKEN },
  );
}

const text = (result: ToolResult): string => result.content.map((block) => block.text).join('\n');
const workspaceOf = (result: ToolResult): unknown => result.structuredContent?.workspace;

/** The status and JSON-RPC message of a request with `?project_path=value` on each HTTP door. */
async function doors(h: ProjectHarness, value: string, headers: Record<string, string>): Promise<Array<{ door: string; status: number; message: string }>> {
  const query = `project_path=${encodeURIComponent(value)}`;
  const stateless = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/list',
    params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
  };
  /** The status, and the error message of a refusal; a stream that opens (a refusal that failed) is not read. */
  const ask = async (url: string, init: { method: 'GET' | 'POST'; body?: unknown; headers: Record<string, string> }) => {
    const response = await request(url, { method: init.method, headers: init.headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    if (response.statusCode !== 400) {
      response.body.on('error', () => undefined);
      response.body.destroy();
      return { status: response.statusCode, message: '' };
    }
    const body = (await response.body.json()) as { error: { message: string } };
    return { status: response.statusCode, message: body.error.message };
  };
  const results = [
    {
      door: 'POST /mcp initialize',
      ...(await ask(`${h.http.urls.mcp}?${query}`, { method: 'POST', body: initializeBody(1, '2025-11-25'), headers: { ...JSON_AND_SSE, ...headers } })),
    },
    {
      door: 'POST /mcp 2026-07-28',
      ...(await ask(`${h.http.urls.mcp}?${query}`, {
        method: 'POST',
        body: stateless,
        headers: { ...JSON_AND_SSE, ...headers, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      })),
    },
    { door: 'GET /sse', ...(await ask(`${h.http.urls.sse}?${query}`, { method: 'GET', headers: { accept: 'text/event-stream', ...headers } })) },
    {
      door: 'POST /messages',
      ...(await ask(`${h.http.urls.mcp.replace('/mcp', '/messages')}?sessionId=x&${query}`, {
        method: 'POST',
        body: initializeBody(1, '2024-11-05'),
        headers: { ...JSON_AND_SSE, ...headers },
      })),
    },
  ];
  const upgrade = await new Promise<number>((resolve) => {
    const socket = new WebSocket(`${h.http.urls.ws}?${query}`, { headers });
    socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.on('open', () => {
      socket.close();
      resolve(101);
    });
    socket.on('error', () => resolve(0));
  });
  results.push({ door: 'GET /ws (upgrade)', status: upgrade, message: '' });
  return results;
}

test('the gate: a token or a non-loopback bind makes every HTTP caller remote; loopback without one is the local user', async () => {
  const reachOf = async (bind: string, authToken?: string): Promise<string> => {
    const gate = new HttpGate({ bind, credentials: new Credentials({ authToken }) });
    const request = { headers: { host: '127.0.0.1:8080', ...(authToken ? { authorization: `Bearer ${authToken}` } : {}) } } as IncomingMessage;
    return (await gate.admit(request, {}, true)).reach;
  };
  assert.is(await reachOf('127.0.0.1'), 'local');
  assert.is(await reachOf('::1'), 'local');
  assert.is(await reachOf('127.0.0.1', 't'), 'remote');
  assert.is(await reachOf('0.0.0.0', 't'), 'remote');
  assert.is(await reachOf('::', 't'), 'remote');
});

test('with a token, ?project_path= reaches registered projects and allowed roots only, at every door; a refusal reads like a missing directory', async () => {
  const tree = trees();
  const h = await tokenServer(tree);
  try {
    const refused = await doors(h, tree.secret, AUTH);
    const missing = await doors(h, `${tree.secret}-gone`, AUTH);
    for (const [index, answer] of refused.entries()) {
      assert.is(answer.status, 400, `${answer.door} refuses an unregistered directory`);
      assert.is(missing[index]!.status, 400, `${answer.door} refuses a missing one`);
      assert.is(answer.message.replace(tree.secret, 'PATH'), missing[index]!.message.replace(`${tree.secret}-gone`, 'PATH'), answer.door);
    }
    for (const kind of TRANSPORTS) {
      for (const [path, source] of [
        [tree.registered, 'query_parameter'],
        [tree.child, 'query_parameter'],
      ] as const) {
        await withCaller(h.http, kind, { token: TOKEN, query: `?project_path=${encodeURIComponent(path)}` }, async (caller) => {
          const status = await caller.call('index_status');
          assert.is(workspaceOf(status), path, `${kind}: ${text(status)}`);
          assert.is(status.structuredContent!.source, source, kind);
        });
      }
    }
    assert.equal(h.problems(), []);
  } finally {
    await h.close();
    removeTrees(tree);
  }
});

/** What a caller that tries `secret` every way gets back: each answer, for the assertions. */
async function tryEveryWay(caller: TestCaller, tree: Tree): Promise<void> {
  const refused = await caller.call('index_status', { workspace: tree.secret });
  const missing = await caller.call('index_status', { workspace: `${tree.secret}-gone` });
  assert.is(errorCode(refused), 'project_not_found', text(refused));
  assert.is(text(refused).replace(tree.secret, 'PATH'), text(missing).replace(`${tree.secret}-gone`, 'PATH'));
  for (const [tool, args] of [
    ['index_repo', { wait: true }],
    ['search_code', { query: SECRET }],
    ['get_file_outline', { path: 'secret.txt' }],
  ] as const) {
    const answer = await caller.call(tool, { ...args, workspace: tree.secret });
    assert.ok(answer.isError, `${tool} on an unregistered directory fails`);
    assert.not.ok(JSON.stringify(answer).includes(SECRET), `${tool} shows nothing of it`);
  }
  // The registered project and a directory under the allowed root answer.
  assert.is(workspaceOf(await caller.call('index_status', { workspace: tree.registered })), tree.registered);
  assert.is(workspaceOf(await caller.call('index_status', { workspace: tree.child })), tree.child);
}

test('with a token, a root of file:/// grants nothing and a workspace argument reaches only what is registered, on every transport and in both eras', async () => {
  const tree = trees();
  const h = await tokenServer(tree);
  try {
    for (const kind of TRANSPORTS) {
      await withCaller(h.http, kind, { token: TOKEN, roots: ['file:///', pathToFileURL(tree.secret).href] }, async (caller) => {
        // The roots name nothing this caller may reach: skipped, and the chain goes on to the registered project.
        const detected = await caller.call('index_status');
        assert.is(workspaceOf(detected), tree.registered, `${kind}: ${text(detected)}`);
        assert.is(detected.structuredContent!.source, 'command_line', kind);
        await tryEveryWay(caller, tree);
      });
    }
    assert.equal(h.problems(), []);
  } finally {
    await h.close();
    removeTrees(tree);
  }
});

test('with a token and nothing registered, roots alone reach nothing outside the allowed roots, and choose among what is inside', async () => {
  const tree = trees();
  const h = await tokenServer(tree, { registered: false });
  try {
    for (const kind of TRANSPORTS) {
      await withCaller(h.http, kind, { token: TOKEN, roots: ['file:///', pathToFileURL(tree.secret).href] }, async (everything) => {
        const none = await everything.call('search_code', { query: SECRET });
        assert.is(errorCode(none), 'project_not_found', `${kind}: ${text(none)}`);
        assert.not.ok(JSON.stringify(none).includes(SECRET));
      });
      await withCaller(h.http, kind, { token: TOKEN, roots: [pathToFileURL(tree.secret).href, pathToFileURL(tree.child).href] }, async (inside) => {
        const chosen = await inside.call('index_status');
        assert.is(workspaceOf(chosen), tree.child, kind);
        assert.is(chosen.structuredContent!.source, 'roots', kind);
      });
    }
    assert.equal(h.problems(), []);
  } finally {
    await h.close();
    removeTrees(tree);
  }
});

test('on loopback without a token, --allowed-root confines the local user as well: project_path, roots and workspace', async () => {
  const tree = trees();
  const h = await projectHarness({ allowedRoots: [tree.allowed], autoWorkspace: true }, tree.home);
  try {
    for (const answer of await doors(h, tree.secret, {})) assert.is(answer.status, 400, answer.door);
    for (const kind of TRANSPORTS) {
      await withCaller(h.http, kind, { roots: ['file:///'] }, async (caller) => {
        assert.is(errorCode(await caller.call('index_status')), 'project_not_found', kind);
        assert.is(errorCode(await caller.call('index_status', { workspace: tree.secret })), 'project_not_found', kind);
        assert.is(workspaceOf(await caller.call('index_status', { workspace: tree.child })), tree.child, kind);
      });
    }
  } finally {
    await h.close();
    removeTrees(tree);
  }
});

test('on loopback without a token and no --allowed-root, the local user names any directory of theirs (the project_path flow)', async () => {
  const tree = trees();
  const h = await projectHarness({}, tree.home);
  try {
    for (const kind of TRANSPORTS) {
      await withCaller(h.http, kind, { query: `?project_path=${encodeURIComponent(tree.secret)}` }, async (caller) => {
        assert.is(workspaceOf(await caller.call('index_status')), tree.secret, kind);
      });
    }
  } finally {
    await h.close();
    removeTrees(tree);
  }
});

test('with a token, a registered project is reached as itself: not a folder inside it (its ignored files, its .git), nor a .git under an allowed root', async () => {
  const tree = trees();
  mkdirSync(join(tree.child, '.git'));
  const h = await tokenServer(tree);
  try {
    for (const inside of [join(tree.registered, 'private'), join(tree.registered, '.git'), join(tree.child, '.git')]) {
      for (const answer of await doors(h, inside, AUTH)) assert.is(answer.status, 400, `${answer.door}: ${inside}`);
      for (const kind of TRANSPORTS) {
        await withCaller(h.http, kind, { token: TOKEN }, async (caller) => {
          const refused = await caller.call('search_code', { workspace: inside, query: SECRET });
          assert.is(errorCode(refused), 'project_not_found', `${kind}: ${inside}`);
          assert.not.ok(JSON.stringify(refused).includes(`${SECRET}\n`));
        });
      }
    }
  } finally {
    await h.close();
    removeTrees(tree);
  }
});

test('a project removed from the catalog is reached no more; a root that exists here but may not be reached counts as one elsewhere', async () => {
  const tree = trees();
  const web = projectTree({});
  const h = await tokenServer(tree, { registered: false });
  try {
    h.projects.named.set({ name: 'webapp', root: web, state: 'ready', allowed: [] });
    // Roots of a laptop: one names a folder that happens to exist here, one a folder that does not.
    mkdirSync(join(tree.secret, 'webapp'));
    for (const root of [pathToFileURL(join(tree.secret, 'webapp')).href, 'file:///nowhere/at/all/webapp']) {
      for (const kind of TRANSPORTS) {
        await withCaller(h.http, kind, { token: TOKEN, roots: [root] }, async (caller) => {
          const status = await caller.call('index_status');
          // A remote caller is shown the project by its name, not where it is on the server.
          assert.is(status.structuredContent?.project, 'webapp', `${kind} ${root}: ${text(status)}`);
          assert.is(workspaceOf(status), 'webapp', kind);
        });
      }
    }
    const caller = await openCaller(h.http, 'stateless', { token: TOKEN });
    assert.is((await caller.call('index_status', { workspace: web })).structuredContent?.project, 'webapp');
    h.projects.named.delete('webapp');
    assert.is(errorCode(await caller.call('index_status', { workspace: web })), 'project_not_found', 'its path is not reached any more either');
    for (const answer of await doors(h, web, AUTH)) assert.is(answer.status, 400, answer.door);
  } finally {
    await h.close();
    removeTrees(tree);
    rmSync(web, { recursive: true, force: true });
  }
});

test('with a token, a 2026-07-28 call naming its workspace is not asked for roots it cannot use', async () => {
  const tree = trees();
  const h = await tokenServer(tree);
  try {
    const answer = await statelessCall(h.http.urls.mcp, 'tools/call', { name: 'index_status', arguments: { workspace: tree.registered } }, { roots: {} }, AUTH);
    assert.is(answer.result?.resultType, 'complete', JSON.stringify(answer).slice(0, 300));
    assert.is((answer.result?.structuredContent as { workspace?: string }).workspace, tree.registered);
  } finally {
    await h.close();
    removeTrees(tree);
  }
});

test.run();
