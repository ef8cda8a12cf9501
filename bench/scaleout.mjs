// Scale-out of a team server: N replicas (1, 2, 4) behind HAProxy, coordinated through a real
// PostgreSQL, serving one git project made from a real tree. For each N, in one run:
//   - cold start: every replica fetches the published commit and indexes it, until /ready is 200;
//   - load: C clients send stateless 2026-07-28 search_code calls through the proxy for S seconds
//     (calls/s, p50, p99), after a warm-up outside the timed window; N = 1 is the peer of the others;
//   - push to served: a commit is pushed, the refresh hook is called through the proxy, and the
//     clock stops when every replica serves the new commit (its /health says so);
//   - takeover: the controller is killed (-9), and the clock stops when another one says it
//     controls (the lease is a session lock: this is the retry interval plus a connection).
// Last, a replica joins late and its catch-up is split into fetch, text and symbols (its /health).
//
//   npm run build && node bench/scaleout.mjs [TREE=/usr/share/go-1.19/src] [--clients 32] [--seconds 10] [--replicas 1,2,4]
//
// Needs the system's git and haproxy. The HAProxy configuration is the README's, addresses changed.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { freePort } from './free-port.mjs';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { answerOf } from './sse-answer.mjs';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const TREE = process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : '/usr/share/go-1.19/src';
const CLIENTS = Number(arg('clients', 32));
const SECONDS = Number(arg('seconds', 10));
const COUNTS = arg('replicas', '1,2,4').split(',').map(Number);
const BIN = fileURLToPath(new URL('../dist/sextant.mjs', import.meta.url));
const README = fileURLToPath(new URL('../README.md', import.meta.url));
const { TestPostgres } = await import(new URL('../build/test/helpers/postgres.js', import.meta.url).href);
const QUERIES = ['NewReader', 'ServeHTTP', 'func Close', 'ErrUnexpectedEOF', 'sync.Mutex', 'WriteString', 'parseInt', 'context.Context'];
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'search_code',
  'mcp-param-workspace': 'corpus',
};

const scratch = mkdtempSync(join(tmpdir(), 'sextant-scaleout-'));
const children = new Set();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

const git = (cwd, ...args) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x' },
  }).trim();

/** A bare repository holding TREE as one commit, and a work tree to push more from. */
function repository() {
  const bare = join(scratch, 'remote.git');
  const work = join(scratch, 'work');
  git(scratch, 'init', '-q', '--bare', '-b', 'main', bare);
  cpSync(TREE, work, { recursive: true, filter: (path) => !path.includes('/.git') });
  git(work, 'init', '-q', '-b', 'main');
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'tree');
  git(work, 'remote', 'add', 'origin', bare);
  git(work, 'push', '-q', 'origin', 'main');
  return {
    bare,
    push(n) {
      writeFileSync(join(work, `scaleout_${n}.go`), `package scaleout\n\nfunc Pushed${n}() {}\n`);
      git(work, 'add', '-A');
      git(work, 'commit', '-q', '-m', `push ${n}`);
      git(work, 'push', '-q', 'origin', 'main');
      return git(work, 'rev-parse', 'HEAD');
    },
  };
}

const sextant = (args, env = {}) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });

async function replica(databaseUrl) {
  const port = await freePort();
  const home = mkdtempSync(join(scratch, 'home-'));
  const child = spawn(
    process.execPath,
    [
      BIN,
      'serve',
      '--transport',
      'http',
      '--port',
      String(port),
      '--no-watch',
      '--poll-interval',
      '3600',
      '--database-url',
      databaseUrl,
      '--log-level',
      'error',
    ],
    {
      env: { ...process.env, SEXTANT_HOME: home },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  children.add(child);
  child.on('exit', () => children.delete(child));
  return { port, child, base: `http://127.0.0.1:${port}` };
}

async function json(url, init) {
  try {
    const response = await request(url, init);
    return { status: response.statusCode, body: await response.body.json() };
  } catch {
    return { status: 0, body: {} };
  }
}

async function until(check, what, timeoutMs = 600_000) {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return performance.now() - started;
}

function haproxy(port, replicas) {
  const block = /```haproxy\n([\s\S]*?)```/.exec(readFileSync(README, 'utf8'))[1];
  const servers = (indent) => replicas.map((r, i) => `${indent}server r${i + 1} 127.0.0.1:${r.port} check`).join('\n');
  const config = block
    .replace(/^(\s*)bind :8080$/m, `$1bind 127.0.0.1:${port}`)
    .replace(/^(\s*)server r1 10\.0\.0\.11:3000 check\n\s*server r2 10\.0\.0\.12:3000 check$/gm, (_, indent) => servers(indent));
  const file = join(scratch, `haproxy-${port}.cfg`);
  writeFileSync(file, config);
  const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  children.add(child);
  return child;
}

async function load(url, seconds) {
  const latencies = [];
  let failed = 0;
  let n = 0;
  const deadline = performance.now() + seconds * 1000;
  const client = async () => {
    while (performance.now() < deadline) {
      const query = QUERIES[n++ % QUERIES.length];
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: n,
        method: 'tools/call',
        params: {
          name: 'search_code',
          arguments: { query, workspace: 'corpus', limit: 10 },
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
        },
      });
      const started = performance.now();
      try {
        const response = await request(url, { method: 'POST', headers: HEADERS, body });
        const answer = answerOf(response.headers['content-type'], await response.body.text());
        if (response.statusCode !== 200 || !answer?.result || answer.result.isError) failed++;
        else latencies.push(performance.now() - started);
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { perSecond: latencies.length / seconds, p50: at(0.5), p99: at(0.99), failed };
}

const health = async (r) => (await json(`${r.base}/health`)).body;

const server = await TestPostgres.start();
const databaseUrl = await server.database();
const repo = repository();
const cliHome = mkdtempSync(join(scratch, 'cli-'));
const added = sextant(['project', 'add', 'corpus', '--git', repo.bare, '--ref', 'main', '--database-url', databaseUrl], { SEXTANT_HOME: cliHome });
if (added.status !== 0) throw new Error(added.stderr);

console.log(
  `scaleout: ${TREE}, ${CLIENTS} clients for ${SECONDS} s per N; ${cpus().length} × ${cpus()[0].model}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
);
const rows = [];
let pushes = 0;
for (const count of COUNTS) {
  const replicas = [];
  const coldStarted = performance.now();
  for (let i = 0; i < count; i++) replicas.push(await replica(databaseUrl));
  for (const r of replicas) await until(async () => (await json(`${r.base}/ready`)).status === 200, `replica ${r.port} ready`);
  const coldMs = performance.now() - coldStarted;
  const port = await freePort();
  const proxy = haproxy(port, replicas);
  const url = `http://127.0.0.1:${port}/mcp`;
  await until(async () => (await json(`http://127.0.0.1:${port}/ready`)).status === 200, 'the proxy answers');
  await load(url, 2); // warm-up, outside the timed window
  const loadBefore = loadavg()[0];
  const measured = await load(url, SECONDS);

  const commit = repo.push(++pushes);
  const pushed = performance.now();
  await request(`http://127.0.0.1:${port}/hooks/refresh?project=corpus`, { method: 'POST' }).then((r) => r.body.dump());
  await until(async () => (await Promise.all(replicas.map(health))).every((h) => h.projects?.[0]?.commit === commit), 'every replica serves the push');
  const pushMs = performance.now() - pushed;

  let takeoverMs = NaN;
  if (count > 1) {
    const states = await Promise.all(replicas.map(health));
    const leader = replicas[states.findIndex((h) => h.controller)];
    const others = replicas.filter((r) => r !== leader);
    const killed = performance.now();
    leader.child.kill('SIGKILL');
    await until(async () => (await Promise.all(others.map(health))).some((h) => h.controller), 'another replica controls');
    takeoverMs = performance.now() - killed;
  }
  rows.push({ count, coldMs, ...measured, load: loadBefore, pushMs, takeoverMs });
  proxy.kill('SIGTERM');
  for (const r of replicas) r.child.kill('SIGTERM');
  await Promise.all(
    replicas.map((r) => (r.child.exitCode === null && r.child.signalCode === null ? new Promise((resolve) => r.child.once('exit', resolve)) : undefined)),
  );
}

// A late joiner: the project has moved on since the first commit; the new replica catches up alone.
const late = await replica(databaseUrl);
const lateMs = await until(async () => (await json(`${late.base}/ready`)).status === 200, 'the late replica is ready');
const split = (await health(late)).projects[0].last_catch_up;
late.child.kill('SIGTERM');
await new Promise((resolve) => late.child.once('exit', resolve));
await server.stop();
rmSync(dirname(server.dataDir), { recursive: true, force: true });

const f = (ms) => (Number.isNaN(ms) ? '—' : ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
console.log(
  '\n| replicas | cold start to all ready | search_code calls/s | p50 | p99 | failed | vs 1 replica | push to served (all) | takeover after kill -9 | load avg |',
);
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  const ratio = row.perSecond / rows[0].perSecond;
  console.log(
    `| ${row.count} | ${f(row.coldMs)} | ${row.perSecond.toFixed(0)} | ${f(row.p50)} | ${f(row.p99)} | ${row.failed} | ${ratio.toFixed(2)}× | ${f(row.pushMs)} | ${f(row.takeoverMs)} | ${row.load.toFixed(2)} |`,
  );
}
console.log(`\nlate joiner: ready in ${f(lateMs)}; fetch ${f(split.fetch_ms)}, text ${f(split.text_ms)}, symbols ${f(split.symbols_ms)} (its own /health)`);
