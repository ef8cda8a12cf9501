/**
 * Sextant as an OAuth 2.1 resource server, against a real authorization server on loopback
 * (oidc-provider): discovery, JWT access tokens checked locally, the audience bound to this
 * server's canonical resource URI, scopes, groups, key rotation, the HTTP answers the MCP
 * authorization spec asks for, and the official SDK clients' own OAuth support in both eras.
 */
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Client as ClientV2,
  ClientCredentialsProvider as ClientCredentialsV2,
  StreamableHTTPClientTransport as StreamableV2,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import type { RunningHttpServer } from '../../src/transports/http-listener.js';
import { startIssuer, type TestIssuer } from '../helpers/oidc.js';
import { TRANSPORTS, withCaller } from '../helpers/callers.js';
import { runCli } from '../helpers/process.js';
import { projectTree } from '../helpers/projects.js';
import { freePort, serveProcess } from '../helpers/serve-http.js';
import { statelessCall } from '../helpers/stateless.js';
import type { ToolResult } from '../helpers/tool-result.js';

const home = mkdtempSync(join(tmpdir(), 'sextant-oauth-'));
const web = projectTree({ 'web.ts': 'export function renderPage() { return 1; }\n' });
const pay = projectTree({ 'pay.ts': 'export function chargeCard() { return 2; }\n' });
let issuer: TestIssuer;
let server: Awaited<ReturnType<typeof serveProcess>>;
let http: RunningHttpServer;
let resource: string;

const projectsOf = (result: ToolResult): string[] => (result.structuredContent!.projects as Array<{ name: string }>).map((project) => project.name);

async function listWith(token: string) {
  return statelessCall(http.urls.mcp, 'tools/call', { name: 'list_projects', arguments: {} }, {}, { authorization: `Bearer ${token}` });
}

test.before(async () => {
  issuer = await startIssuer({ agent: ['web-team'] });
  const env = { SEXTANT_HOME: home };
  assert.is((await runCli(['project', 'add', 'web', '--folder', web, '--allow', 'group:web-team'], '', env)).code, 0);
  assert.is((await runCli(['project', 'add', 'pay', '--folder', pay, '--allow', 'user:plain'], '', env)).code, 0);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  resource = `${base}/mcp`;
  server = await serveProcess(home, {}, ['--no-watch', '--oauth-issuer', issuer.issuer, '--public-url', base], port);
  http = {
    port,
    host: '127.0.0.1',
    urls: { mcp: resource, sse: `${base}/sse`, ws: `ws://127.0.0.1:${port}/ws`, health: `${base}/health` },
    close: server.stop,
  };
});

test.after(async () => {
  await server?.stop();
  await issuer?.close();
  for (const dir of [home, web, pay]) rmSync(dir, { recursive: true, force: true });
});

test('without a token: 401 naming the Protected Resource Metadata, which is served at both well-known URLs', async () => {
  const answer = await statelessCall(http.urls.mcp, 'tools/list', {}, {});
  assert.is(answer.status, 401);
  const metadataUrl = `http://127.0.0.1:${http.port}/.well-known/oauth-protected-resource/mcp`;
  assert.is(answer.headers['www-authenticate'], `Bearer resource_metadata="${metadataUrl}", scope="sextant:search"`);
  for (const url of [metadataUrl, `http://127.0.0.1:${http.port}/.well-known/oauth-protected-resource`]) {
    const response = await request(url);
    assert.is(response.statusCode, 200, url);
    assert.equal(await response.body.json(), {
      resource,
      authorization_servers: [issuer.issuer],
      scopes_supported: ['sextant:search', 'sextant:admin'],
      bearer_methods_supported: ['header'],
      resource_name: 'Sextant',
    });
  }
  const other = await request(`http://127.0.0.1:${http.port}/.well-known/oauth-authorization-server`);
  await other.body.text();
  assert.is(other.statusCode, 404, 'this server issues no tokens');
});

test("an access token for this server is user:SUB with its groups: it sees what they are allowed, in every transport; an admin's sees all", async () => {
  const agent = await issuer.token('agent', resource, 'sextant:search');
  for (const kind of TRANSPORTS) {
    await withCaller(http, kind, { token: agent }, async (caller) => {
      assert.equal(projectsOf(await caller.call('list_projects')), ['web'], `${kind}: group:web-team`);
      const hidden = await caller.call('search_code', { query: 'chargeCard', workspace: 'pay' });
      assert.ok(hidden.isError, kind);
    });
  }
  assert.equal(projectsOf((await listWith(await issuer.token('plain', resource, 'sextant:search'))).result as unknown as ToolResult), ['pay'], 'user:plain');
  const admin = await issuer.token('admin', resource, 'sextant:search sextant:admin');
  assert.equal(projectsOf((await listWith(admin)).result as unknown as ToolResult), ['pay', 'web']);
});

test('a token without the scope is 403 insufficient_scope; one for another resource is 401 invalid_token', async () => {
  const unscoped = await listWith(await issuer.token('agent', resource, 'other:scope'));
  assert.is(unscoped.status, 403);
  assert.match(String(unscoped.headers['www-authenticate']), /^Bearer error="insufficient_scope", scope="sextant:search", resource_metadata="/);
  const elsewhere = await listWith(await issuer.token('agent', 'https://other.example/mcp', 'sextant:search'));
  assert.is(elsewhere.status, 401);
  assert.match(String(elsewhere.headers['www-authenticate']), /error="invalid_token"$/);
});

test('refused, each: expired, wrong audience, wrong issuer, alg none, HS256 with the public key, a tampered payload', async () => {
  const now = Math.floor(Date.now() / 1000);
  const good = { iss: issuer.issuer, aud: resource, sub: 'forger', scope: 'sextant:search sextant:admin', iat: now, exp: now + 300 };
  assert.is((await listWith(issuer.forge(good))).status, 200, 'the forging key is the issuer’s own: the baseline passes');
  const cases: Array<[string, string]> = [
    ['expired', issuer.forge({ ...good, iat: now - 900, exp: now - 600 })],
    ['wrong audience', issuer.forge({ ...good, aud: 'https://other.example/mcp' })],
    ['wrong issuer', issuer.forge({ ...good, iss: 'https://evil.example' })],
    ['not yet valid', issuer.forge({ ...good, nbf: now + 600 })],
  ];
  const encode = (part: Record<string, unknown>): string => Buffer.from(JSON.stringify(part)).toString('base64url');
  cases.push(['alg none', `${encode({ alg: 'none', typ: 'at+jwt' })}.${encode(good)}.`]);
  const jwks = (await (await fetch(`${issuer.issuer}/jwks`)).json()) as { keys: Array<Record<string, unknown>> };
  const publicKey = JSON.stringify(jwks.keys[0]);
  const hsSigned = `${encode({ alg: 'HS256', typ: 'at+jwt', kid: 'key-1' })}.${encode(good)}`;
  cases.push(['HS256 with the public key', `${hsSigned}.${createHmac('sha256', publicKey).update(hsSigned).digest('base64url')}`]);
  const [header, , signature] = issuer.forge(good).split('.');
  cases.push(['tampered payload', `${header}.${encode({ ...good, sub: 'someone-else' })}.${signature}`]);
  const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const strangerSigned = `${encode({ alg: 'RS256', kid: 'key-1' })}.${encode(good)}`;
  const { sign } = await import('node:crypto');
  cases.push(['another key', `${strangerSigned}.${sign('sha256', Buffer.from(strangerSigned), stranger).toString('base64url')}`]);
  for (const [what, token] of cases) {
    const answer = await listWith(token);
    assert.is(answer.status, 401, what);
    assert.match(String(answer.headers['www-authenticate']), /error="invalid_token"/, what);
  }
});

test('the issuer rotates its key: a token signed with the new key is accepted (the keys are fetched again), the old key still works', async () => {
  const before = await issuer.token('agent', resource, 'sextant:search');
  issuer.rotate();
  const after = await issuer.token('agent', resource, 'sextant:search');
  assert.is(JSON.parse(Buffer.from(after.split('.')[0]!, 'base64url').toString()).kid, 'key-2');
  const fetches = issuer.keyFetches;
  assert.is((await listWith(after)).status, 200);
  assert.is(issuer.keyFetches, fetches + 1, 'an unknown key id fetched the keys again, once');
  assert.is((await listWith(before)).status, 200);
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: issuer.issuer, aud: resource, sub: 'flood', scope: 'sextant:search', iat: now, exp: now + 300 };
  for (const kid of ['made-up-1', 'made-up-2', 'made-up-3']) {
    assert.is((await listWith(issuer.forge(claims, { alg: 'RS256', kid }))).status, 401, kid);
  }
  assert.is(issuer.keyFetches, fetches + 1, 'made-up key ids do not fetch the keys again within 30 s');
});

test('the official SDK clients go from the 401 through discovery to a token and the retried call, in both eras', async () => {
  const v1 = new Client({ name: 'sextant-oauth-v1', version: '1.0.0' });
  await v1.connect(
    new StreamableHTTPClientTransport(new URL(http.urls.mcp), {
      authProvider: new ClientCredentialsProvider({ clientId: 'agent', clientSecret: 'agent-secret', scope: 'sextant:search', expectedIssuer: issuer.issuer }),
    }),
  );
  try {
    assert.equal(projectsOf((await v1.callTool({ name: 'list_projects', arguments: {} })) as ToolResult), ['web']);
  } finally {
    await v1.close();
  }
  const v2 = new ClientV2({ name: 'sextant-oauth-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await v2.connect(
    new StreamableV2(new URL(http.urls.mcp), {
      authProvider: new ClientCredentialsV2({ clientId: 'agent', clientSecret: 'agent-secret', scope: 'sextant:search', expectedIssuer: issuer.issuer }),
    }),
  );
  try {
    assert.equal(projectsOf((await v2.callTool({ name: 'list_projects', arguments: {} })) as ToolResult), ['web']);
  } finally {
    await v2.close();
  }
});

test('an issuer that is not https (off loopback) is refused at start-up; --oauth-issuer needs --public-url, --web-client-id an issuer', async () => {
  const env = { SEXTANT_HOME: home };
  const plain = await runCli(
    ['serve', '--transport', 'http', '--port', '0', '--oauth-issuer', 'http://login.example.com', '--public-url', 'https://x.example'],
    '',
    env,
  );
  assert.is(plain.code, 2, plain.stderr);
  assert.match(plain.stderr, 'must be https (plain http only on loopback)');
  const alone = await runCli(['serve', '--transport', 'http', '--port', '0', '--oauth-issuer', issuer.issuer], '', env);
  assert.is(alone.code, 2);
  assert.match(alone.stderr, '--oauth-issuer and --public-url go together');
  const pageAlone = await runCli(['serve', '--transport', 'http', '--port', '0', '--web-client-id', 'sextant-web'], '', env);
  assert.is(pageAlone.code, 2);
  assert.match(pageAlone.stderr, '--web-client-id goes with --oauth-issuer');
});

test('an issuer that answers only errors: a token is answered 503 with Retry-After, never called invalid, and the issuer is not asked again at once', async () => {
  // An issuer down behind its proxy: every request to it is a 503, and each one is counted.
  let asked = 0;
  const down = createServer((_req, res) => {
    asked++;
    res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
  const downUrl = `http://127.0.0.1:${(down.address() as AddressInfo).port}`;
  const port = await freePort();
  const lonely = await serveProcess(home, {}, ['--no-watch', '--oauth-issuer', downUrl, '--public-url', `http://127.0.0.1:${port}`], port);
  try {
    const askedAtStart = asked;
    assert.ok(askedAtStart > 0, 'discovered at start-up, and failed');
    const token = issuer.forge({ iss: downUrl, aud: `http://127.0.0.1:${port}/mcp`, sub: 'x', exp: Math.floor(Date.now() / 1000) + 60 });
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = await statelessCall(`http://127.0.0.1:${port}/mcp`, 'tools/list', {}, {}, { authorization: `Bearer ${token}` });
      assert.is(answer.status, 503, `attempt ${attempt}`);
      assert.is(answer.headers['retry-after'], '30');
      assert.is(answer.headers['www-authenticate'], undefined, 'not a challenge: nothing is wrong with the token');
    }
    assert.is(asked, askedAtStart, 'within 30 s of a failed discovery, requests do not ask the issuer again');
  } finally {
    await lonely.stop();
    await new Promise((resolve) => down.close(resolve));
  }
});

test.run();
