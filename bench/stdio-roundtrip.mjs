// Round trips of a trivial tools/call (health_check) over stdio: Sextant's bundle against servers
// built with the official SDK, v1 (bench/sdk-server.mjs) and v2 (bench/sdk-v2-server.mjs), driven by
// the same client in the same run.
// The client is a lean NDJSON writer/reader so that it measures the servers, not itself.
//
// Each server first answers --warmup calls at the measured concurrency, so that the table shows the
// steady state of a long-running server and not V8 tiering its code up (about 150 ms of CPU for
// every server here, which weighs most on the fastest); --warmup 200 gives the cold figures.
//
//   node bench/stdio-roundtrip.mjs [--calls 5000] [--rounds 3] [--warmup 20000] [--in-flight 1,16,64] [--before OLD/dist/sextant.mjs]
//
// --before: another build of Sextant, measured in the same rounds as a further peer.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const CALLS = arg('calls', 5000);
const ROUNDS = arg('rounds', 3);
const WARMUP = arg('warmup', 20000);
const inFlightIndex = process.argv.indexOf('--in-flight');
const IN_FLIGHT = inFlightIndex > 0 ? process.argv[inFlightIndex + 1].split(',').map(Number) : [1, 16, 64];
/** USER_HZ: the unit of utime and stime in /proc/PID/stat (100 on Linux). */
const CLOCK_TICKS = 100;
const here = (path) => fileURLToPath(new URL(path, import.meta.url));

const servers = {
  sextant: [here('../dist/sextant.mjs'), 'serve', '--log-level', 'silent'],
  'official SDK McpServer': [here('./sdk-server.mjs')],
  'official SDK v2 McpServer': [here('./sdk-v2-server.mjs')],
  'bare NDJSON echo (ceiling)': [here('./echo-server.mjs')],
};
const BEFORE = 'sextant --before';
const beforeAt = process.argv.indexOf('--before');
if (beforeAt > 0) servers[BEFORE] = [process.argv[beforeAt + 1], 'serve', '--log-level', 'silent'];
const PEERS = ['official SDK McpServer', 'official SDK v2 McpServer', ...(beforeAt > 0 ? [BEFORE] : [])];

function start(args) {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map();
  const seen = { answerBytes: 0 };
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const message = JSON.parse(buffered.slice(0, newline));
      seen.answerBytes = newline + 1;
      buffered = buffered.slice(newline + 1);
      const resolve = waiting.get(message.id);
      if (resolve) {
        waiting.delete(message.id);
        resolve(message);
      }
    }
  });
  let nextId = 1;
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  return { child, seen, request, notify: (method) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`) };
}

async function measure(name, concurrency) {
  const server = start(servers[name]);
  const init = await server.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
  if (!init.result) throw new Error(`${name}: initialize failed: ${JSON.stringify(init)}`);
  server.notify('notifications/initialized');
  const call = async () => {
    const started = process.hrtime.bigint();
    const answer = await server.request('tools/call', { name: 'health_check', arguments: {} });
    if (!answer.result || answer.result.isError) throw new Error(`${name}: bad answer ${JSON.stringify(answer)}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  const drive = async (calls, latencies) => {
    let issued = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (issued < calls) {
          issued++;
          latencies.push(await call());
        }
      }),
    );
  };
  await drive(WARMUP, []);
  const cpuBefore = cpuMs(server.child.pid);
  const latencies = [];
  const began = process.hrtime.bigint();
  await drive(CALLS, latencies);
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  const cpuPerCall = ((cpuMs(server.child.pid) - cpuBefore) * 1000) / CALLS;
  // Peak RSS of the server process, read from /proc before it exits.
  const rss = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
  server.child.stdin.end();
  await new Promise((resolve) => server.child.on('exit', resolve));
  latencies.sort((a, b) => a - b);
  const pick = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { rps: CALLS / seconds, p50: pick(0.5), p99: pick(0.99), rss, cpuPerCall, answerBytes: server.seen.answerBytes };
}

/**
 * CPU time (user + system, ms) the process has used so far, from /proc: what each call costs the
 * server whatever else the host runs, which throughput on a shared machine cannot show alone.
 */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

const rows = [];
/** Per in-flight level, Sextant's calls/s over each peer's within each round (servers measured back to back). */
const paired = [];
for (const concurrency of IN_FLIGHT) {
  const best = {};
  const ratios = Object.fromEntries(PEERS.map((peer) => [peer, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const results = {};
    for (const name of Object.keys(servers)) {
      const result = (results[name] = await measure(name, concurrency));
      if (!best[name] || result.rps > best[name].rps) best[name] = result;
    }
    for (const peer of Object.keys(ratios)) ratios[peer].push(results.sextant.rps / results[peer].rps);
  }
  for (const [name, result] of Object.entries(best)) rows.push({ concurrency, name, ...result });
  paired.push({ concurrency, ratios });
}

console.log(
  `stdio round trips of tools/call health_check — ${CALLS} calls, best of ${ROUNDS} rounds after ${WARMUP} warm-up calls, node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`,
);
console.log('| in flight | server | calls/s | p50 ms | p99 ms | server CPU µs/call | peak RSS MiB | answer bytes | vs SDK v1 | vs SDK v2 |');
console.log('| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  const ratio = (peer) => `${(row.rps / rows.find((r) => r.concurrency === row.concurrency && r.name === peer).rps).toFixed(2)}x`;
  const cells = [
    row.concurrency,
    row.name,
    row.rps.toFixed(0),
    row.p50.toFixed(3),
    row.p99.toFixed(3),
    row.cpuPerCall.toFixed(1),
    row.rss.toFixed(1),
    row.answerBytes,
    ratio('official SDK McpServer'),
    ratio('official SDK v2 McpServer'),
  ];
  console.log(`| ${cells.join(' | ')} |`);
}

// Best-of pairs Sextant's luckiest round with each peer's luckiest; on a shared host whose load
// drifts, the ratio within a round, where the servers ran back to back, is the steadier figure.
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const ratioCells = (values) => [values.map((value) => value.toFixed(2)).join(', '), `${median(values).toFixed(2)}x`];
console.log('');
const shortName = { 'official SDK McpServer': 'SDK v1', 'official SDK v2 McpServer': 'SDK v2', [BEFORE]: '--before' };
console.log(`| in flight | ${PEERS.map((peer) => `sextant / ${shortName[peer]}, each round | median`).join(' | ')} |`);
console.log(`| ---: | ${PEERS.map(() => '--- | ---:').join(' | ')} |`);
for (const { concurrency, ratios } of paired) {
  console.log(`| ${[concurrency, ...PEERS.flatMap((peer) => ratioCells(ratios[peer]))].join(' | ')} |`);
}
