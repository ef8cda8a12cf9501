/**
 * The status page's live feed (`GET /status/events`) on a real `sextant serve --transport http`
 * with named tokens, as an operator sets one up: each stream shows what its credential may see
 * (projects by WHO list, no place on the server), an operator also sees the open sessions with
 * their revision and transport, index jobs are pushed as they move, and a token revoked ends the
 * streams it opened.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import { WebSocket } from 'ws';
import { JSON_AND_SSE } from '../helpers/http.js';
import { runCli } from '../helpers/process.js';
import { projectTree } from '../helpers/projects.js';
import { serveProcess } from '../helpers/serve-http.js';
import { statelessCall } from '../helpers/stateless.js';
import { openStatusFeed, type StatusEvent, type StatusFeed } from '../helpers/status-events.js';
import { eventually } from '../helpers/wait.js';

const home = mkdtempSync(join(tmpdir(), 'sextant-status-'));
const web = projectTree({ 'web.ts': 'export function renderPage() { return 1; }\n', 'lib/util.ts': 'export const x = 1;\n' });
const pay = projectTree({ 'pay.ts': 'export function chargeCard() { return 2; }\n' });
const env = { SEXTANT_HOME: home };
let server: Awaited<ReturnType<typeof serveProcess>>;
let base = '';
const secrets: Record<string, string> = {};
const bearer = (name: string): Record<string, string> => ({ authorization: `Bearer ${secrets[name]}` });

interface Project {
  name: string;
  state: string;
  files?: number;
  index_bytes?: number;
  updated_at?: string;
}
const projectsOf = (event: StatusEvent): Project[] => event.data.projects as Project[];
const isStatus = (event: StatusEvent): boolean => event.event === 'status';
const initialize = (protocolVersion: string, client: string): string =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: client, version: '1' } } });

async function feed(headers: Record<string, string>): Promise<StatusFeed> {
  const opened = await openStatusFeed(base, headers);
  if ('status' in opened) throw new Error(`The feed was refused: ${opened.status} ${opened.body}`);
  return opened;
}

async function indexJob(project: string): Promise<void> {
  const answer = await statelessCall(server.url, 'tools/call', { name: 'index_repo', arguments: { workspace: project, wait: true } }, {}, bearer('ops'));
  assert.is(answer.status, 200);
  assert.not.ok((answer.result as { isError?: boolean }).isError, JSON.stringify(answer));
}

test.before(async () => {
  for (const [name, admin] of [
    ['alice', false],
    ['ops', true],
    ['carol', false],
  ] as const) {
    const created = await runCli(['token', 'create', name, ...(admin ? ['--admin'] : [])], '', env);
    assert.is(created.code, 0, created.stderr);
    secrets[name] = created.stdout.trim();
  }
  assert.is((await runCli(['project', 'add', 'web', '--folder', web, '--allow', 'token:alice'], '', env)).code, 0);
  assert.is((await runCli(['project', 'add', 'pay', '--folder', pay], '', env)).code, 0);
  server = await serveProcess(home, {}, ['--no-watch']);
  base = new URL(server.url).origin;
});

test.after(async () => {
  await server?.stop();
  for (const dir of [home, web, pay]) rmSync(dir, { recursive: true, force: true });
});

test('without a credential, or with a wrong one, the feed is refused like MCP', async () => {
  for (const headers of [{}, { authorization: 'Bearer sxt_not-a-token' }] as Array<Record<string, string>>) {
    const refused = await openStatusFeed(base, headers);
    assert.ok('status' in refused, 'refused');
    if ('status' in refused) assert.is(refused.status, 401);
  }
  const posted = await request(`${base}/status/events`, { method: 'POST', headers: bearer('ops') });
  assert.is(posted.statusCode, 405);
  await posted.body.dump();
});

test("a token sees only its projects, with no place on the server and no sessions; an operator sees every project and each session's revision and transport", async () => {
  // Sessions of two eras and two transports, open while the operator looks.
  const initialized = await request(server.url, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, ...bearer('ops') },
    body: initialize('2025-06-18', 'status-test-http'),
  });
  await initialized.body.dump();
  assert.is(initialized.statusCode, 200);
  const ws = new WebSocket(`ws://${new URL(base).host}/ws`, 'mcp', { headers: bearer('ops') });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const answered = new Promise((resolve) => ws.once('message', resolve));
  ws.send(initialize('2024-11-05', 'status-test-ws'));
  await answered;

  const alice = await feed(bearer('alice'));
  const ops = await feed(bearer('ops'));
  try {
    const seen = await alice.next(isStatus, "alice's first status");
    assert.equal(
      projectsOf(seen).map((project) => project.name),
      ['web'],
    );
    assert.is(seen.data.sessions, undefined, 'sessions are for operators');
    assert.equal(Object.keys(seen.data.server as object), ['version'], 'when the server started is for operators too');
    assert.is(seen.data.replicas, undefined);
    const raw = JSON.stringify(alice.events);
    for (const place of [web, pay, home]) assert.not.ok(raw.includes(place), `no place on the server: ${place}`);

    const all = await ops.next((event) => isStatus(event) && ((event.data.sessions as unknown[] | undefined)?.length ?? 0) >= 2, 'both sessions, initialized');
    assert.equal(
      projectsOf(all)
        .map((project) => project.name)
        .sort(),
      ['pay', 'web'],
    );
    const sessions = all.data.sessions as Array<{ transport: string; protocol_version?: string; client?: { name: string } }>;
    const described = sessions.map((session) => `${session.transport} ${session.protocol_version} ${session.client?.name}`).sort();
    assert.equal(described, ['streamable-http 2025-06-18 status-test-http', 'websocket 2024-11-05 status-test-ws']);
    const sessionId = initialized.headers['mcp-session-id'] as string;
    assert.ok(sessionId, 'a session id was given');
    assert.not.ok(JSON.stringify(ops.events).includes(sessionId), 'never a session id: it authenticates the session');
  } finally {
    alice.close();
    ops.close();
    ws.close();
  }
});

test('an index job is pushed as it moves, to those who may see its project alone; its end updates the figures', async () => {
  const alice = await feed(bearer('alice'));
  const ops = await feed(bearer('ops'));
  try {
    await alice.next(isStatus, 'alice is following');
    await ops.next(isStatus, 'ops is following');
    await indexJob('pay');
    await indexJob('web');
    const done = (name: string) => (event: StatusEvent) => event.event === 'job' && event.data.project === name && event.data.status === 'completed';
    await ops.next(done('pay'), "pay's job completes, told to ops");
    await alice.next(done('web'), "web's job completes, told to alice");
    const jobs = alice.events.filter((event) => event.event === 'job').map((event) => event.data);
    assert.ok(
      jobs.every((job) => job.project === 'web'),
      "alice never hears of pay's job",
    );
    assert.is(jobs[0]!.status, 'running', 'the job is told from its start');
    assert.is(jobs[0]!.stage, 'starting');
    const percents = jobs.map((job) => job.percent as number);
    assert.equal(
      percents,
      [...percents].sort((a, b) => a - b),
      'progress only grows',
    );
    assert.is(percents.at(-1), 100);
    const figures = await alice.next(
      (event) => isStatus(event) && projectsOf(event).some((project) => project.state === 'ready' && project.files === 2),
      'web, indexed',
    );
    const shown = projectsOf(figures)[0]!;
    assert.ok((shown.index_bytes ?? 0) > 0, 'the index has a size');
    assert.ok(shown.updated_at && !Number.isNaN(Date.parse(shown.updated_at)), 'and a time');
    const raw = JSON.stringify(alice.events);
    for (const place of [web, pay, home]) assert.not.ok(raw.includes(place), `no place on the server in any event: ${place}`);
  } finally {
    alice.close();
    ops.close();
  }
});

test('one caller holds at most 8 streams, others are not shut out, and a page that goes away frees its place', async () => {
  const opened: StatusFeed[] = [];
  try {
    for (let at = 0; at < 8; at++) opened.push(await feed(bearer('alice')));
    const ninth = await openStatusFeed(base, bearer('alice'));
    assert.ok('status' in ninth && ninth.status === 503, 'the ninth is refused');
    const ops = await feed(bearer('ops'));
    await ops.next(isStatus, 'another caller still follows');
    ops.close();
  } finally {
    for (const stream of opened) stream.close();
  }
  await eventually(async () => {
    const again = await openStatusFeed(base, bearer('alice'));
    if ('status' in again) return false;
    again.close();
    return true;
  }, 'the closed pages free their places');
});

test('a grant shows in an open stream, and a revoked token ends the streams it opened', async () => {
  assert.is((await runCli(['project', 'allow', 'pay', 'token:carol'], '', env)).code, 0);
  const carol = await feed(bearer('carol'));
  // The grant reaches the server at its next look at the catalog: the stream shows it then, unasked.
  await carol.next(
    (event) =>
      isStatus(event) &&
      projectsOf(event)
        .map((project) => project.name)
        .join() === 'pay',
    'carol sees pay, as granted',
  );
  assert.is((await runCli(['token', 'revoke', 'carol'], '', env)).code, 0);
  await carol.endsFor('the token was revoked');
  const again = await openStatusFeed(base, bearer('carol'));
  assert.ok('status' in again && again.status === 401, 'and the token opens no other');
});

test.run();
