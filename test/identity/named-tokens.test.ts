/**
 * Named tokens and per-project access on a real `sextant serve --transport http` process, set up
 * with the CLI as an operator would: each token is its own principal, sees exactly the projects
 * its WHO lists grant (admins see all), a project it may not see is answered as one that does not
 * exist, in every transport and both eras, and a revoked token is refused within seconds.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import { WebSocket } from 'ws';
import type { RunningHttpServer } from '../../src/transports/http-listener.js';
import { openCaller, TRANSPORTS, withCaller } from '../helpers/callers.js';
import { initializeBody, JSON_AND_SSE } from '../helpers/http.js';
import { runCli } from '../helpers/process.js';
import { projectTree } from '../helpers/projects.js';
import { serveProcess } from '../helpers/serve-http.js';
import { statelessCall } from '../helpers/stateless.js';
import { errorCode, type ToolResult } from '../helpers/tool-result.js';
import { eventually } from '../helpers/wait.js';

const home = mkdtempSync(join(tmpdir(), 'sextant-identity-'));
const web = projectTree({ 'web.ts': 'export function renderPage() { return 1; }\n' });
const pay = projectTree({ 'pay.ts': 'export function chargeCard() { return 2; }\n' });
const env = { SEXTANT_HOME: home };
let server: Awaited<ReturnType<typeof serveProcess>>;
let http: RunningHttpServer;
const secrets: Record<string, string> = {};

async function cli(...args: string[]) {
  return runCli(args, '', env);
}

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await request(new URL(path, http.urls.mcp), { headers });
  return { status: response.statusCode, headers: response.headers, body: await response.body.text() };
}

const text = (result: ToolResult): string => result.content.map((part) => part.text ?? '').join('\n');

test.before(async () => {
  for (const [name, admin] of [
    ['alice', false],
    ['ops', true],
    ['bob', false],
  ] as const) {
    const created = await cli('token', 'create', name, ...(admin ? ['--admin'] : []));
    assert.is(created.code, 0, created.stderr);
    assert.match(created.stdout, /^sxt_[A-Za-z0-9_-]{43}\n$/, 'the secret alone, on one line of stdout');
    secrets[name] = created.stdout.trim();
  }
  assert.is((await cli('project', 'add', 'web', '--folder', web, '--allow', 'token:alice')).code, 0);
  assert.is((await cli('project', 'add', 'pay', '--folder', pay)).code, 0);
  server = await serveProcess(home, {}, ['--auto-index', '--no-watch', '--audit-log', join(home, 'audit.log')]);
  const base = new URL(server.url);
  http = {
    port: Number(base.port),
    host: base.hostname,
    urls: { mcp: server.url, sse: `${base.origin}/sse`, ws: `ws://${base.host}/ws`, health: `${base.origin}/health` },
    close: server.stop,
  };
});

test.after(async () => {
  await server?.stop();
  for (const dir of [home, web, pay]) rmSync(dir, { recursive: true, force: true });
});

test('a named token is listed by name, admin or not, and never with its secret; a name is taken once', async () => {
  const listed = await cli('token', 'list', '--json');
  assert.is(listed.code, 0, listed.stderr);
  const { tokens } = JSON.parse(listed.stdout) as { tokens: Array<Record<string, unknown>> };
  assert.equal(
    tokens.map((token) => [token.name, token.admin]),
    [
      ['alice', false],
      ['bob', false],
      ['ops', true],
    ],
  );
  for (const secret of Object.values(secrets)) assert.not.ok(listed.stdout.includes(secret) || listed.stdout.includes(secret.slice(4)), 'no secret');
  const again = await cli('token', 'create', 'ALICE');
  assert.is(again.code, 1);
  assert.match(again.stderr, /A token named "ALICE" exists already/);
  assert.is(again.stdout, '', 'no secret printed for a token not made');
  const bad = await cli('token', 'create', '../x');
  assert.is(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /Invalid token name/);
  const wrongWho = await cli('project', 'allow', 'web', 'nobody');
  assert.is(wrongWho.code, 2);
  assert.match(wrongWho.stderr, /use user:SUB, group:NAME, token:NAME or everyone/);
  const noProject = await cli('project', 'allow', 'nothing', 'everyone');
  assert.is(noProject.code, 1);
  assert.match(noProject.stderr, /no project named "nothing"/);
  const projects = JSON.parse((await cli('project', 'list', '--json')).stdout) as { projects: Array<{ name: string; allowed: string[] }> };
  assert.equal(
    projects.projects.map((project) => [project.name, project.allowed]),
    [
      ['pay', []],
      ['web', ['token:alice']],
    ],
  );
});

test('without a credential, or with one that is none, every data route is 401 with a plain Bearer challenge; OAuth discovery finds nothing', async () => {
  const none = await statelessCall(http.urls.mcp, 'tools/list', {}, {});
  assert.is(none.status, 401);
  assert.is(none.headers['www-authenticate'], 'Bearer realm="sextant"');
  const wrong = await statelessCall(http.urls.mcp, 'tools/list', {}, {}, { authorization: 'Bearer sxt_not-a-token' });
  assert.is(wrong.status, 401);
  assert.is(wrong.headers['www-authenticate'], 'Bearer realm="sextant", error="invalid_token"');
  const basic = await statelessCall(http.urls.mcp, 'tools/list', {}, {}, { authorization: 'Basic YWxpY2U6c2VjcmV0' });
  assert.is(basic.status, 401);
  assert.is(basic.headers['www-authenticate'], 'Bearer realm="sextant"', 'another scheme is no credential of ours: no error code (RFC 6750 §3.1)');
  for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server']) {
    assert.is((await get(path)).status, 404, path);
  }
  const inUrl = await get(`/mcp?access_token=${secrets.alice}`, { accept: 'text/event-stream' });
  assert.is(inUrl.status, 400, 'a credential in a URL is refused, never read');
  assert.match(inUrl.body, /never in the URL/);
  assert.not.ok(inUrl.body.includes(secrets.alice!), 'and not echoed');
});

test('a token sees exactly the projects it is allowed, in every transport; one it may not see reads like one that does not exist', async () => {
  for (const kind of TRANSPORTS) {
    await withCaller(http, kind, { token: secrets.alice }, async (alice) => {
      const listed = await alice.call('list_projects');
      assert.equal(
        (listed.structuredContent!.projects as Array<{ name: string }>).map((project) => project.name),
        ['web'],
        `${kind}: list_projects`,
      );
      assert.not.ok(text(listed).includes('pay'), `${kind}: not even by name`);
      const allowed = await alice.call('search_code', { query: 'renderPage', workspace: 'web' });
      assert.not.ok(allowed.isError, `${kind}: ${text(allowed)}`);
      const hidden = await alice.call('search_code', { query: 'chargeCard', workspace: 'pay' });
      const missing = await alice.call('search_code', { query: 'chargeCard', workspace: 'nothing' });
      assert.ok(hidden.isError, kind);
      assert.is(errorCode(hidden), errorCode(missing), kind);
      assert.is(text(hidden).replaceAll('pay', 'NAME'), text(missing).replaceAll('nothing', 'NAME'), `${kind}: the same words`);
      const byPath = await alice.call('search_code', { query: 'chargeCard', workspace: pay });
      assert.ok(byPath.isError, `${kind}: nor by its path`);
      assert.not.ok(text(byPath).includes('chargeCard'), kind);
      // Her own words back, unmasked: masking would tell the server's places from other paths.
      assert.match(text(byPath), `No project at ${JSON.stringify(pay)} on this server`, kind);
      const underHome = join(home, 'checkouts', 'nothing');
      assert.match(
        text(await alice.call('search_code', { query: 'x', workspace: underHome })),
        `No project at ${JSON.stringify(underHome)} on this server`,
        kind,
      );
    });
  }
  await withCaller(http, 'stateless', { token: secrets.ops }, async (ops) => {
    const listed = await ops.call('list_projects');
    assert.equal(
      (listed.structuredContent!.projects as Array<{ name: string }>).map((project) => project.name),
      ['pay', 'web'],
      'an admin sees every project',
    );
  });
  await withCaller(http, 'stateless', { token: secrets.bob }, async (bob) => {
    const listed = await bob.call('list_projects');
    assert.equal(listed.structuredContent!.projects, [], 'a token allowed nothing sees nothing');
  });
});

test('a search over every project covers only those the token may see, and never names the others', async () => {
  await withCaller(http, 'stateless', { token: secrets.alice }, async (alice) => {
    // Indexed on demand (--auto-index): a project not indexed yet is named as such, and searched once it is.
    await eventually(async () => (await alice.call('search_code', { query: 'function' })).structuredContent?.projects_searched === 1, 'web is searched');
    for (const args of [{ query: 'function' }, { query: 'function', projects: ['*'] }, { query: 'function', projects: ['p*', 'w*'] }]) {
      const found = await alice.call('search_code', args);
      assert.not.ok(found.isError, text(found));
      const results = found.structuredContent!.results as Array<{ project: string }>;
      assert.ok(results.length > 0, JSON.stringify(args));
      assert.equal([...new Set(results.map((result) => result.project))], ['web'], JSON.stringify(args));
      assert.not.match(JSON.stringify(found), /pay|chargeCard/, `${JSON.stringify(args)}: not even by name`);
    }
    const named = await alice.call('locate_symbol', { name: 'chargeCard', projects: ['pay'] });
    const missing = await alice.call('locate_symbol', { name: 'chargeCard', projects: ['nothing'] });
    assert.is(errorCode(named), 'project_not_found');
    assert.is(text(named).replaceAll('pay', 'NAME'), text(missing).replaceAll('nothing', 'NAME'), 'the same words as a project that does not exist');
  });
  await withCaller(http, 'stateless', { token: secrets.ops }, async (ops) => {
    await eventually(
      async () => (await ops.call('search_code', { query: 'function', projects: ['*'] })).structuredContent?.projects_searched === 2,
      'pay and web are searched',
    );
    const found = await ops.call('search_code', { query: 'function', projects: ['*'] });
    assert.equal([...new Set((found.structuredContent!.results as Array<{ project: string }>).map((result) => result.project))].sort(), ['pay', 'web']);
  });
});

test('every tool that takes a project, in both eras: the hidden project answers as one that does not exist; health_check never names it', async () => {
  const listed = await statelessCall(http.urls.mcp, 'tools/list', {}, {}, { authorization: `Bearer ${secrets.alice}` });
  const tools = (
    listed.result!.tools as Array<{ name: string; inputSchema: { properties?: Record<string, { type?: string; enum?: unknown[] }>; required?: string[] } }>
  ).filter((tool) => tool.inputSchema.properties?.workspace);
  assert.ok(tools.length >= 8, tools.map((tool) => tool.name).join(', '));
  // An admin works in pay first, so that the server knows it (health_check lists what it knows).
  await withCaller(http, 'stateless', { token: secrets.ops }, async (ops) => {
    assert.not.ok((await ops.call('search_code', { query: 'chargeCard', workspace: 'pay' })).isError);
    assert.ok(text(await ops.call('health_check')).includes('pay'), 'the admin hears of pay');
  });
  /** The least arguments a tool takes, as a client would fill them. */
  const argumentsOf = (tool: (typeof tools)[number], workspace: string): Record<string, unknown> => {
    const args: Record<string, unknown> = { workspace };
    for (const name of tool.inputSchema.required ?? []) {
      const property = tool.inputSchema.properties![name]!;
      args[name] = property.enum
        ? property.enum[0]
        : property.type === 'integer' || property.type === 'number'
          ? 1
          : property.type === 'boolean'
            ? false
            : 'chargeCard';
    }
    return args;
  };
  for (const kind of ['streamable-http', 'stateless'] as const) {
    await withCaller(http, kind, { token: secrets.alice }, async (alice) => {
      for (const tool of tools) {
        const hidden = await alice.call(tool.name, argumentsOf(tool, 'pay'));
        const missing = await alice.call(tool.name, argumentsOf(tool, 'nothing'));
        assert.ok(hidden.isError, `${kind} ${tool.name}: ${text(hidden)}`);
        assert.is(errorCode(hidden), errorCode(missing), `${kind} ${tool.name}`);
        assert.is(text(hidden).replaceAll('"pay"', '"NAME"'), text(missing).replaceAll('"nothing"', '"NAME"'), `${kind} ${tool.name}: the same words`);
      }
      const health = await alice.call('health_check');
      assert.not.ok(text(health).includes('pay') || JSON.stringify(health.structuredContent).includes(pay), `${kind}: health_check names only what alice sees`);
    });
  }
});

test("the server's default project (SEXTANT_PROJECT) is an admin's: a token held to WHO lists does not land in it", async () => {
  const defaulted = await serveProcess(home, { SEXTANT_PROJECT: pay }, ['--auto-index', '--no-watch']);
  try {
    const call = async (token: string) =>
      (await statelessCall(defaulted.url, 'tools/call', { name: 'search_code', arguments: { query: 'chargeCard' } }, {}, { authorization: `Bearer ${token}` }))
        .result as unknown as ToolResult;
    const bob = await call(secrets.bob!);
    assert.ok(bob.isError, text(bob));
    assert.is(errorCode(bob), 'project_not_found');
    assert.not.ok(text(bob).includes('chargeCard(') || text(bob).includes(pay), text(bob));
    const ops = await call(secrets.ops!);
    assert.not.ok(ops.isError, text(ops));
  } finally {
    await defaulted.stop();
  }
});

test('/health says only "up" to anyone but an admin; /hooks/refresh is an admin action', async () => {
  for (const headers of [{}, { authorization: `Bearer ${secrets.alice}` }] as Array<Record<string, string>>) {
    const health = await get('/health', headers);
    assert.is(health.status, 200);
    assert.equal(JSON.parse(health.body), { status: 'up' });
  }
  const details = JSON.parse((await get('/health', { authorization: `Bearer ${secrets.ops}` })).body) as Record<string, unknown>;
  assert.ok(details.version && details.sessions, `the details, to an admin: ${JSON.stringify(details)}`);
  const refresh = async (token: string) =>
    (await request(new URL('/hooks/refresh?project=web', http.urls.mcp), { method: 'POST', headers: { authorization: `Bearer ${token}` } })).statusCode;
  assert.is(await refresh(secrets.alice!), 403);
  assert.not.equal(await refresh(secrets.ops!), 403);
});

test('a session answers only the principal that began it: another token presenting its id finds no session', async () => {
  const started = await request(http.urls.mcp, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, authorization: `Bearer ${secrets.alice}` },
    body: JSON.stringify(initializeBody()),
  });
  await started.body.text();
  const sessionId = started.headers['mcp-session-id'] as string;
  assert.ok(sessionId);
  const stolen = await request(http.urls.mcp, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, authorization: `Bearer ${secrets.bob}`, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
  await stolen.body.text();
  assert.is(stolen.statusCode, 404);
});

test('allowing a project is seen within the catalog poll; a revoked token is refused within 5 s, and its use was recorded', async () => {
  const allowed = await cli('project', 'allow', 'pay', 'token:alice');
  assert.is(allowed.code, 0, allowed.stderr);
  // A WebSocket opened before the revocation: its next message after it closes the connection.
  const socket = new WebSocket(http.urls.ws, ['mcp'], { headers: { authorization: `Bearer ${secrets.alice}` } });
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  const answers: Array<Record<string, unknown>> = [];
  socket.on('message', (data) => answers.push(JSON.parse(String(data)) as Record<string, unknown>));
  await new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)));
  socket.send(JSON.stringify(initializeBody()));
  await eventually(() => answers.length > 0, 'the WebSocket session is initialized');
  const caller = await openCaller(http, 'stateless', { token: secrets.alice });
  await eventually(
    async () => ((await caller.call('list_projects')).structuredContent!.projects as unknown[]).length === 2,
    'alice sees pay once allowed',
    15_000,
    200,
  );
  const used = JSON.parse((await cli('token', 'list', '--json')).stdout) as { tokens: Array<{ name: string; lastUsedAt?: string }> };
  assert.ok(used.tokens.find((token) => token.name === 'alice')!.lastUsedAt, 'last used is recorded');
  assert.is((await cli('token', 'revoke', 'alice')).code, 0);
  const revokedAt = Date.now();
  await eventually(
    async () => (await statelessCall(http.urls.mcp, 'tools/list', {}, {}, { authorization: `Bearer ${secrets.alice}` })).status === 401,
    'the revoked token is refused',
    5_000,
    100,
  );
  assert.ok(Date.now() - revokedAt < 5_000);
  socket.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
  assert.is(await closed, 1008, 'the open WebSocket is closed at its next message: a policy violation');
  assert.is(answers.length, 1, 'and that message went unanswered');
  const again = await cli('token', 'revoke', 'alice');
  assert.is(again.code, 1);
  assert.match(again.stderr, /no token named "alice"/);
});

test('the audit log has a line per tool call and per refusal: who, which project, which tool, the outcome; never a secret', async () => {
  const text = readFileSync(join(home, 'audit.log'), 'utf8');
  const lines = text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const calls = lines.filter((line) => line.event === 'tool_call');
  const found = calls.find((line) => line.principal === 'token:alice' && line.tool === 'search_code' && line.outcome === 'ok');
  assert.ok(found, 'a search of alice');
  assert.is(typeof found!.duration_ms, 'number');
  assert.is(typeof found!.results, 'number');
  assert.ok(typeof found!.project === 'string' && found!.time, JSON.stringify(found));
  assert.ok(
    calls.some((line) => line.principal === 'token:alice' && line.outcome === 'project_not_found'),
    'a project she may not see, as one that does not exist',
  );
  const refusals = lines.filter((line) => line.event === 'refusal');
  assert.ok(refusals.some((line) => line.outcome === 'missing' && line.status === 401 && line.route === '/mcp'));
  assert.ok(refusals.some((line) => line.outcome === 'invalid_token'));
  assert.ok(refusals.some((line) => line.outcome === 'forbidden' && line.route === '/hooks/refresh'));
  for (const secret of Object.values(secrets)) assert.not.ok(text.includes(secret) || text.includes(secret.slice(4, 20)), 'no secret, whole or in part');
});

test.run();
