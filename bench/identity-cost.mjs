// What checking an OAuth access token costs: stateless 2026-07-28 tools/call throughput of one
// server started with --oauth-issuer (a JWT access token of a real authorization server,
// oidc-provider on loopback, checked locally and then kept until it expires) against the same
// server with --auth-token, side by side: same runtime, same tool (list_projects, the same answer
// bytes in both), a warm-up outside the timed window, rounds that alternate the two servers, and
// the paired ratio per round; the median over rounds is the figure. Throughput on this 2-core
// machine swings with what else runs (the client shares the cores), so the server's own CPU time
// per call (user + system, from /proc) is reported beside it, and is the steadier figure.
//
//   npm run build && node bench/identity-cost.mjs [--calls 4000] [--rounds 5] [--clients 16] [--warmup 1000]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { answerOf } from './sse-answer.mjs';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const CALLS = arg('calls', 4000);
const ROUNDS = arg('rounds', 5);
const CLIENTS = arg('clients', 16);
const WARMUP = arg('warmup', 1000);
const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const BIN = here('../dist/sextant.mjs');
const { startIssuer } = await import(here('../build/test/helpers/oidc.js'));
const { freePort } = await import(here('../build/test/helpers/serve-http.js'));

const STATELESS = '2026-07-28';
const agent = new Agent({ connections: CLIENTS * 2, pipelining: 1 });

async function start(args, port) {
  const home = mkdtempSync(join(tmpdir(), 'sextant-bench-identity-'));
  const child = spawn(process.execPath, [BIN, 'serve', '--transport', 'http', '--port', String(port), '--log-level', 'warning', '--no-watch', ...args], {
    env: { ...process.env, SEXTANT_HOME: home },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let tries = 0; ; tries++) {
    try {
      await (await request(`http://127.0.0.1:${port}/health`)).body.text();
      break;
    } catch {
      if (tries > 300) throw new Error('the server did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    pid: child.pid,
    url: `http://127.0.0.1:${port}/mcp`,
    stop: () => (child.kill('SIGTERM'), new Promise((resolve) => child.once('exit', resolve))).then(() => rmSync(home, { recursive: true, force: true })),
  };
}

let id = 0;
async function call(url, token) {
  const response = await request(url, {
    method: 'POST',
    dispatcher: agent,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': STATELESS,
      'mcp-method': 'tools/call',
      'mcp-name': 'list_projects',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: ++id,
      method: 'tools/call',
      params: {
        name: 'list_projects',
        arguments: {},
        _meta: { 'io.modelcontextprotocol/protocolVersion': STATELESS, 'io.modelcontextprotocol/clientCapabilities': {} },
      },
    }),
  });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${text.slice(0, 200)}`);
  const answer = answerOf(response.headers['content-type'], text);
  if (!answer.result || answer.result.isError) throw new Error(text.slice(0, 200));
  return JSON.stringify(answer.result).length;
}

/** User + system CPU of a process so far, in ms (Linux: /proc/PID/stat, in clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function run(url, token, calls, pid) {
  let next = 0;
  let bytes = 0;
  const cpuBefore = pid ? cpuMs(pid) : 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next++ < calls) bytes = await call(url, token);
    }),
  );
  const perSecond = (calls / (performance.now() - started)) * 1000;
  return { perSecond, bytes, cpuUsPerCall: pid ? ((cpuMs(pid) - cpuBefore) * 1000) / calls : 0 };
}

const issuer = await startIssuer();
const [oauthPort, staticPort] = [await freePort(), await freePort()];
const oauth = await start(['--oauth-issuer', issuer.issuer, '--public-url', `http://127.0.0.1:${oauthPort}`], oauthPort);
const staticToken = 'bench-static-token';
const plain = await start(['--auth-token', staticToken], staticPort);
// An admin's token: the --auth-token holder sees every project, so both answers are the same.
const accessToken = await issuer.token('admin', `http://127.0.0.1:${oauthPort}/mcp`, 'sextant:search sextant:admin');
const servers = [
  ['--auth-token', plain.url, staticToken, plain.pid],
  ['--oauth-issuer', oauth.url, accessToken, oauth.pid],
];
try {
  for (const [, url, token] of servers) await run(url, token, WARMUP);
  const rows = Object.fromEntries(servers.map(([name]) => [name, []]));
  const cpu = Object.fromEntries(servers.map(([name]) => [name, []]));
  const ratios = [];
  const cpuRatios = [];
  const answerBytes = {};
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    const figures = {};
    const cpuFigures = {};
    for (const [name, url, token, pid] of order) {
      const { perSecond, bytes, cpuUsPerCall } = await run(url, token, CALLS, pid);
      figures[name] = perSecond;
      cpuFigures[name] = cpuUsPerCall;
      rows[name].push(perSecond);
      cpu[name].push(cpuUsPerCall);
      answerBytes[name] = bytes;
    }
    ratios.push(figures['--oauth-issuer'] / figures['--auth-token']);
    cpuRatios.push(cpuFigures['--oauth-issuer'] / cpuFigures['--auth-token']);
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(
    `stateless tools/call list_projects, ${CLIENTS} clients, ${CALLS} calls per server per round, ${ROUNDS} rounds after ${WARMUP} warm-up calls; node ${process.version}, ${cpus().length} × ${cpus()[0].model.trim()}`,
  );
  console.log('| server | calls/s, each round | median calls/s | server CPU µs/call, each round | median µs/call | answer bytes |');
  console.log('| --- | --- | ---: | --- | ---: | ---: |');
  for (const [name] of servers) {
    const speed = rows[name].map((v) => v.toFixed(0)).join(', ');
    const spent = cpu[name].map((v) => v.toFixed(0)).join(', ');
    console.log(`| ${name} | ${speed} | ${median(rows[name]).toFixed(0)} | ${spent} | ${median(cpu[name]).toFixed(0)} | ${answerBytes[name]} |`);
  }
  console.log(`\n--oauth-issuer / --auth-token, calls/s each round: ${ratios.map((r) => r.toFixed(3)).join(', ')}; median ${median(ratios).toFixed(3)}`);
  console.log(
    `--oauth-issuer / --auth-token, server CPU per call each round: ${cpuRatios.map((r) => r.toFixed(3)).join(', ')}; median ${median(cpuRatios).toFixed(3)}`,
  );
} finally {
  await Promise.all([oauth.stop(), plain.stop()]);
  await issuer.close();
  await agent.close();
}
