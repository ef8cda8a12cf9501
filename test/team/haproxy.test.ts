/**
 * The HAProxy configuration the README gives, run as written (only its addresses changed) in
 * front of two real replicas on a real PostgreSQL, with real clients: stateless 2026-07-28 calls,
 * a Streamable HTTP session and a legacy HTTP+SSE session of the official SDK, all through the
 * proxy; then one replica is killed (-9) and the proxy keeps answering from the other.
 *
 * It needs the system's `haproxy`: without one it is reported skipped, unless
 * SEXTANT_REQUIRE_HAPROXY is set (`.ci/run` installs haproxy and sets it), and then it fails.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { request } from 'undici';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gitRemote } from '../helpers/git-remote.js';
import { sharedPostgres } from '../helpers/postgres.js';
import { runCli } from '../helpers/process.js';
import { freePort, serveProcess } from '../helpers/serve-http.js';
import { statelessCall } from '../helpers/stateless.js';
import { eventually } from '../helpers/wait.js';

const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
const TOKEN = 'team-secret';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const haveHaproxy = spawnSync('haproxy', ['-v']).status === 0 || process.env.SEXTANT_REQUIRE_HAPROXY === '1';
if (!haveHaproxy) process.stdout.write('team/haproxy: skipped, no `haproxy` on this machine (apt-get install haproxy)\n');

/** The README's ```haproxy block, its listener and servers moved to these loopback ports. */
function readmeConfig(port: number, replicaPorts: number[]): string {
  const block = /```haproxy\n([\s\S]*?)```/.exec(readFileSync(README, 'utf8'))?.[1];
  assert.ok(block, 'the README has a ```haproxy block');
  let config = block.replace(/^(\s*)bind :8080$/m, `$1bind 127.0.0.1:${port}`);
  assert.is.not(config, block, 'the block binds :8080');
  const servers = [...config.matchAll(/server r(\d) 10\.0\.0\.1\d:3000 check/g)];
  assert.ok(servers.length >= 2, 'the block lists its replicas as r1, r2');
  config = config.replace(/server r(\d) 10\.0\.0\.1\d:3000 check/g, (_, n: string) => `server r${n} 127.0.0.1:${replicaPorts[Number(n) - 1]} check`);
  return config;
}

/** HAProxy's own view of its servers (`show stat` on its admin socket): `backend/server` to the last health check's status. */
function checkStatuses(socket: string): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    let text = '';
    const connection = createConnection(socket, () => connection.end('show stat\n'));
    connection.on('data', (chunk: Buffer) => (text += chunk));
    connection.on('error', reject);
    connection.on('end', () => {
      const [header, ...rows] = text.trim().split('\n');
      const columns = header!.replace(/^# /, '').split(',');
      const at = (name: string): number => columns.indexOf(name);
      const statuses = new Map<string, string>();
      for (const row of rows.map((line) => line.split(','))) {
        if (row[at('svname')] !== 'FRONTEND' && row[at('svname')] !== 'BACKEND')
          statuses.set(`${row[at('pxname')]}/${row[at('svname')]}`, row[at('check_status')]!);
      }
      resolve(statuses);
    });
  });
}

async function startHaproxy(config: string): Promise<{ child: ChildProcess; socket: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-haproxy-'));
  const file = join(dir, 'haproxy.cfg');
  const socket = join(dir, 'admin.sock');
  // Only the admin socket is added, to read the health checks' outcome; the rest is the README's.
  writeFileSync(file, `global\n    stats socket ${socket} level admin\n\n${config}`);
  const check = spawnSync('haproxy', ['-c', '-f', file], { encoding: 'utf8' });
  assert.is(check.status, 0, `haproxy accepts the README's configuration: ${check.stdout}${check.stderr}`);
  const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.resume();
  return {
    child,
    socket,
    stop: () => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM')))),
  };
}

const commitOf = (answer: { result?: Record<string, unknown> }): unknown => (answer.result?.structuredContent as { commit?: string } | undefined)?.commit;

async function searchThrough(client: Client): Promise<unknown> {
  const answer = await client.callTool({ name: 'search_code', arguments: { query: 'Route', workspace: 'web' } });
  return (answer.structuredContent as { commit?: string } | undefined)?.commit;
}

(haveHaproxy ? test : test.skip)(
  "the README's HAProxy configuration serves stateless calls, sessions and legacy SSE, and survives a replica killed",
  async () => {
    const databaseUrl = await (await sharedPostgres()).database();
    const remote = gitRemote();
    const commit = remote.push({ 'router.go': 'package web\n\nfunc Route() {}\n' });
    const added = await runCli(['project', 'add', 'web', '--git', remote.url, '--database-url', databaseUrl], '', {
      SEXTANT_HOME: mkdtempSync(join(tmpdir(), 'sextant-home-')),
    });
    assert.is(added.code, 0, added.stderr);
    const args = ['--no-watch', '--poll-interval', '3600', '--database-url', databaseUrl, '--auth-token', TOKEN];
    const replicas = [
      await serveProcess(mkdtempSync(join(tmpdir(), 'sextant-home-')), {}, args),
      await serveProcess(mkdtempSync(join(tmpdir(), 'sextant-home-')), {}, args),
    ];
    const port = await freePort();
    const proxy = await startHaproxy(
      readmeConfig(
        port,
        replicas.map((replica) => Number(new URL(replica.url).port)),
      ),
    );
    const url = `http://127.0.0.1:${port}/mcp`;
    const clients: Client[] = [];
    const connect = async (transport: Transport): Promise<Client> => {
      const client = new Client({ name: 'through-haproxy', version: '1.0.0' });
      await client.connect(transport);
      clients.push(client);
      return client;
    };
    try {
      for (const replica of replicas) {
        await eventually(async () => {
          const response = await request(replica.url.replace(/\/mcp$/, '/ready'));
          await response.body.dump();
          return response.statusCode === 200;
        }, 'each replica is ready');
      }
      // Both in rotation by the README's health check (an L7 check answered 200), in both backends.
      await eventually(async () => {
        const statuses = await checkStatuses(proxy.socket).catch(() => new Map<string, string>());
        return ['sextant/r1', 'sextant/r2', 'sextant_by_client/r1', 'sextant_by_client/r2'].every((server) => statuses.get(server) === 'L7OK');
      }, 'every replica passes the health check');
      // A run of stateless calls, each answered with the commit, whichever replica took it.
      await eventually(
        () =>
          request(`http://127.0.0.1:${port}/ready`).then(
            async (response) => (await response.body.dump(), response.statusCode === 200),
            () => false, // not listening yet
          ),
        'the proxy has a replica up',
      );
      for (let i = 0; i < 10; i++) {
        const answer = await statelessCall(url, 'tools/call', { name: 'search_code', arguments: { query: 'Route', workspace: 'web' } }, {}, AUTH);
        assert.is(commitOf(answer), commit, JSON.stringify(answer).slice(0, 300));
      }
      const session = await connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: AUTH } }));
      for (let i = 0; i < 5; i++) assert.is(await searchThrough(session), commit, 'a session stays on its replica');
      const legacy = await connect(new SSEClientTransport(new URL(`http://127.0.0.1:${port}/sse`), { requestInit: { headers: AUTH } }));
      assert.is(await searchThrough(legacy), commit, 'the legacy stream and its POSTs meet on one replica');

      // A replica killed: before any health check has seen it go, every call is still answered,
      // since the README's recipe tries a refused connection again on the other replica.
      await new Promise<void>((resolve) => {
        replicas[0]!.child.once('exit', () => resolve());
        replicas[0]!.child.kill('SIGKILL');
      });
      for (let i = 0; i < 12; i++) {
        const answer = await statelessCall(url, 'tools/call', { name: 'search_code', arguments: { query: 'Route', workspace: 'web' } }, {}, AUTH);
        assert.is(commitOf(answer), commit, `call ${i} after the kill: ${JSON.stringify(answer).slice(0, 300)}`);
      }
    } finally {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
      await proxy.stop();
      await Promise.all(replicas.map((replica) => replica.stop()));
    }
  },
);

test.run();
