// Round trips of a trivial tools/call (health_check) over Streamable HTTP with N concurrent
// sessions: Sextant against the official SDK's StreamableHTTPServerTransport (bench/sdk-http-server.mjs)
// and a bare node:http JSON echo as the ceiling (bench/echo-http-server.mjs). Same undici client
// for all three, each server in its own process, all in one run.
//
//   node bench/http-roundtrip.mjs [--calls 4000] [--rounds 5] [--sessions 1,8,32] [--era 2025|2026]
//        [--warmup 500] [--node PATH] [--cpu-prof DIR]
//
// Each round runs every server once, one after another, each after --warmup calls outside the
// timed window; the ratio to the SDK is taken per round (a paired ratio: same round, same machine
// state) and the median over rounds is the figure. --node runs every server on that runtime (the
// binary's Node 24: node_modules/.cache/sextant-node/…/bin/node), the client stays on this one.
//
// --era 2026: every call is a stateless 2026-07-28 request (no initialize, no session: the version
// and capabilities in _meta, the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers), and the SDK
// peer is @modelcontextprotocol/server 2.4.0's createMcpHandler (bench/sdk-v2-http-server.mjs).
// "sessions" is then the number of concurrent clients.
import { spawn, spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { answerOf } from './sse-answer.mjs';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const CALLS = Number(arg('calls', 4000));
const ROUNDS = Number(arg('rounds', 5));
const WARMUP = Number(arg('warmup', 500));
const RUNTIME = arg('node', process.execPath);
/** --cpu-prof DIR: Sextant's server writes CPU profiles there (the peers are not profiled). */
const PROFILE_DIR = arg('cpu-prof', undefined);
const SESSIONS = arg('sessions', '1,8,32').split(',').map(Number);
const ERA = arg('era', '2025');
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};
const here = (path) => fileURLToPath(new URL(path, import.meta.url));

const servers = {
  sextant: (port) => [here('../dist/sextant.mjs'), 'serve', '--transport', 'http', '--port', String(port), '--log-level', 'silent'],
  ...(ERA === '2026'
    ? { 'official SDK v2 createMcpHandler (2026-07-28)': (port) => [here('./sdk-v2-http-server.mjs'), String(port)] }
    : { 'official SDK StreamableHTTPServerTransport': (port) => [here('./sdk-http-server.mjs'), String(port)] }),
  'bare node:http echo (ceiling)': (port) => [here('./echo-http-server.mjs'), String(port)],
};

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function measure(name, port, sessions) {
  const flags = PROFILE_DIR && name === 'sextant' ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const child = spawn(RUNTIME, [...flags, ...servers[name](port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = `http://127.0.0.1:${port}/mcp`;
  const dispatcher = new Agent({ connections: sessions * 2, pipelining: 1 });
  for (let tries = 0; ; tries++) {
    try {
      await request(`http://127.0.0.1:${port}/health`, { dispatcher }).then((r) => r.body.dump());
      break;
    } catch {
      if (tries > 100) throw new Error(`${name} did not start`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const post = async (body, sessionId) => {
    const response = await request(url, {
      method: 'POST',
      dispatcher,
      headers: sessionId ? { ...HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' } : HEADERS,
      body: JSON.stringify(body),
    });
    const text = await response.body.text();
    return { response, text };
  };
  const sessionIds = [];
  for (let i = 0; i < sessions && ERA !== '2026'; i++) {
    const { response } = await post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    });
    const id = response.headers['mcp-session-id'];
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, id);
    sessionIds.push(id);
  }
  // 2026: no sessions, each "session" is one concurrent client sending stateless requests.
  if (ERA === '2026') for (let i = 0; i < sessions; i++) sessionIds.push(undefined);
  let nextId = 1;
  const call = async (sessionId) => {
    if (ERA === '2026') {
      const started = process.hrtime.bigint();
      const body = { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: 'health_check', arguments: {}, _meta: MODERN_META } };
      const response = await request(url, {
        method: 'POST',
        dispatcher,
        headers: { ...HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'health_check' },
        body: JSON.stringify(body),
      });
      const text = await response.body.text();
      const answer = answerOf(response.headers['content-type'], text);
      if (!answer.result || answer.result.isError) throw new Error(`${name}: bad answer ${text.slice(0, 200)}`);
      return Number(process.hrtime.bigint() - started) / 1e6;
    }
    const started = process.hrtime.bigint();
    const { response, text } = await post({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: 'health_check', arguments: {} } }, sessionId);
    const answer = answerOf(response.headers['content-type'], text);
    if (!answer.result || answer.result.isError) throw new Error(`${name}: bad answer ${text.slice(0, 200)}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  // The warm-up, outside the timed window: JIT, connections, caches.
  await Promise.all(
    sessionIds.map(async (sessionId, index) => {
      for (let i = index; i < WARMUP; i += sessions) await call(sessionId);
    }),
  );
  const latencies = [];
  let issued = 0;
  const began = process.hrtime.bigint();
  await Promise.all(
    sessionIds.map(async (sessionId) => {
      while (issued < CALLS) {
        issued++;
        latencies.push(await call(sessionId));
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.on('exit', resolve));
  await dispatcher.close();
  latencies.sort((a, b) => a - b);
  const pick = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { rps: CALLS / seconds, p50: pick(0.5), p99: pick(0.99) };
}

let port = 3200 + Math.floor(Math.random() * 1000);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const runtime = spawnSync(RUNTIME, ['--version'], { encoding: 'utf8' }).stdout.trim();
console.log(
  `Streamable HTTP round trips (${ERA === '2026' ? 'stateless 2026-07-28' : '2025-11-25 sessions'}) of tools/call health_check — ${CALLS} calls after ${WARMUP} warm-up calls, ${ROUNDS} rounds, servers on node ${runtime}, client on ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`,
);
console.log('| clients | server | calls/s (median) | p50 ms | p99 ms | vs SDK, each round | median | share of ceiling (median) |');
console.log('| ---: | --- | ---: | ---: | ---: | --- | ---: | ---: |');
for (const sessions of SESSIONS) {
  const runs = Object.fromEntries(Object.keys(servers).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of Object.keys(servers)) runs[name].push(await measure(name, port++, sessions));
  }
  const sdkName = Object.keys(servers).find((name) => name.startsWith('official SDK'));
  const echoName = Object.keys(servers).find((name) => name.startsWith('bare'));
  for (const [name, results] of Object.entries(runs)) {
    const vsSdk = results.map((result, round) => result.rps / runs[sdkName][round].rps);
    const ofEcho = results.map((result, round) => result.rps / runs[echoName][round].rps);
    console.log(
      `| ${sessions} | ${name} | ${median(results.map((r) => r.rps)).toFixed(0)} | ${median(results.map((r) => r.p50)).toFixed(3)} | ${median(results.map((r) => r.p99)).toFixed(3)} | ${vsSdk.map((ratio) => ratio.toFixed(2)).join(', ')} | ${median(vsSdk).toFixed(2)}x | ${(100 * median(ofEcho)).toFixed(0)}% |`,
    );
  }
}
