// Round trips of a trivial tools/call (health_check) over Streamable HTTP with N concurrent
// sessions: Sextant against the official SDK's StreamableHTTPServerTransport (bench/sdk-http-server.mjs)
// and a bare node:http JSON echo as the ceiling (bench/echo-http-server.mjs). Same undici client
// for all three, each server in its own process, all in one run.
//
//   node bench/http-roundtrip.mjs [--calls 4000] [--rounds 2] [--sessions 1,8,32] [--era 2025|2026]
//
// --era 2026: every call is a stateless 2026-07-28 request (no initialize, no session: the version
// and capabilities in _meta, the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers), and the SDK
// peer is @modelcontextprotocol/server 2.4.0's createMcpHandler (bench/sdk-v2-http-server.mjs).
// "sessions" is then the number of concurrent clients.
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { answerOf } from './sse-answer.mjs';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const CALLS = Number(arg('calls', 4000));
const ROUNDS = Number(arg('rounds', 2));
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
  const child = spawn(process.execPath, servers[name](port), { stdio: ['ignore', 'ignore', 'pipe'] });
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
  for (let i = 0; i < 200; i++) await call(sessionIds[i % sessions]);
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
const rows = [];
for (const sessions of SESSIONS) {
  const best = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of Object.keys(servers)) {
      const result = await measure(name, port++, sessions);
      if (!best[name] || result.rps > best[name].rps) best[name] = result;
    }
  }
  for (const [name, result] of Object.entries(best)) rows.push({ sessions, name, ...result });
}

console.log(
  `Streamable HTTP round trips (${ERA === '2026' ? 'stateless 2026-07-28' : '2025-11-25 sessions'}) of tools/call health_check — ${CALLS} calls, best of ${ROUNDS} rounds, node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`,
);
console.log('| sessions | server | calls/s | p50 ms | p99 ms | vs SDK | share of ceiling |');
console.log('| ---: | --- | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  const sdk = rows.find((r) => r.sessions === row.sessions && r.name.startsWith('official SDK'));
  const echo = rows.find((r) => r.sessions === row.sessions && r.name.startsWith('bare'));
  console.log(
    `| ${row.sessions} | ${row.name} | ${row.rps.toFixed(0)} | ${row.p50.toFixed(3)} | ${row.p99.toFixed(3)} | ${(row.rps / sdk.rps).toFixed(2)}x | ${((100 * row.rps) / echo.rps).toFixed(0)}% |`,
  );
}
