// search_code under load: 1, 10 and 50 concurrent clients, on stdio (one connection, N calls in
// flight), Streamable HTTP (N sessions) and the stateless 2026-07-28 path (N request loops), for
// three query classes (selective identifiers, common words, regexes). Each cell runs a warm-up
// outside its timed window, then calls as fast as answers come back for --seconds. Reports
// calls/s, p50, p99, the server's CPU per call (user + system of the whole process, every
// thread, and of its main thread alone) and its peak RSS, and counts every failure (HTTP
// status, JSON-RPC error, isError).
//
//   npm run build && node bench/load-search.mjs PROJECT_DIR [--clients 1,10,50]
//        [--transports stdio,http,stateless] [--classes selective,common,regex] [--seconds 8]
//        [--warmup 2] [--no-cache] [--cpu-prof DIR] [--node-flags "FLAGS"] [--bin OLD/dist/sextant.mjs]
//        [--other OLD/dist/sextant.mjs --rounds 4]
//   node bench/load-search.mjs --split GO_SRC,PY_LIB [--projects 20] [same options]
//
// --split: the libraries are copied apart into --projects folders (each library's largest
// top-level folders one project each, the rest of it one more), each registered with --workspace,
// and every call names none, so each searches all of them (search_code across projects). Each row
// runs that server and one serving the same files as one project, side by side, in turn: with
// --rounds, the two alternate which goes first in each round, and the table ends with the rate
// across projects over the one project's, per round (measured minutes apart, one side's busy
// moment would make the share swing), and their median.
//
// --other: another build served beside this one in every cell, --rounds times, the two alternating
// which goes first; the table ends with this build's rate over the other's per round and their
// median (the other build must read the index this one writes).
//
// --no-cache starts the server with SEXTANT_ANSWER_CACHE=0: every call searches and ranks (the
// cost of the search itself); without it, a repeated question of one index generation is a
// lookup, as served by default. The queries are the Go standard library's; on another tree they
// simply match less. bench/RESULTS.md has the runs.
import { spawn, spawnSync } from 'node:child_process';
import { freePort } from './free-port.mjs';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { answerOf } from './sse-answer.mjs';
import { QUERIES, splitLibraries } from './split-corpus.mjs';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const SPLIT = arg('split', undefined)?.split(',');
const PROJECT_COUNT = Number(arg('projects', 20));
let project = process.argv[2];
/** With --split: the project folders, and the folder that holds them all (the one-project side). */
let parts;
if (!SPLIT && (!project || project.startsWith('--'))) {
  console.error(
    'usage: node bench/load-search.mjs PROJECT_DIR|--split DIR,DIR [--projects 20] [--clients 1,10,50] [--transports stdio,http,stateless] [--classes selective,common,regex] [--seconds 8] [--warmup 2] [--no-cache]',
  );
  process.exit(2);
}
const CLIENTS = arg('clients', '1,10,50').split(',').map(Number);
const TRANSPORTS = arg('transports', 'stdio,http,stateless').split(',');
const CLASSES = arg('classes', 'selective,common,regex').split(',');
const SECONDS = Number(arg('seconds', 8));
const WARMUP = Number(arg('warmup', 2));
const NO_CACHE = process.argv.includes('--no-cache');
/** --cpu-prof DIR: the server writes a CPU profile per thread into DIR (one row's server each). */
const PROFILE_DIR = arg('cpu-prof', undefined);
const NODE_FLAGS = [...(PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []), ...(arg('node-flags', '') || '').split(' ').filter(Boolean)];
// --bin: another build's bundle (OLD/dist/sextant.mjs), to set its figures beside this one's.
const BIN = arg('bin', undefined) ?? fileURLToPath(new URL('../dist/sextant.mjs', import.meta.url));
/** --other: another build's bundle, served beside this one in every cell (it must read this build's index). */
const OTHER = arg('other', undefined);
/** --rounds: each cell this many times, the builds alternating which goes first. */
const ROUNDS = Number(arg('rounds', 1));
const BUILDS = OTHER
  ? [
      { label: 'this', bin: BIN },
      { label: 'other', bin: OTHER },
    ]
  : [{ label: undefined, bin: BIN }];
const TICKS = 100; // USER_HZ: /proc/PID/stat counts CPU time in ticks of 10 ms
const MODERN = '2026-07-28';

/**
 * `--classes readfile`: read_file of the project's file nearest 2,000 lines, whole (the answer is
 * cut to the output budget, with where to continue), and of its windows of 400 lines in turn.
 */
function readFileQueries(root) {
  let best;
  const walk = (dir, relative) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && entry.name !== 'testdata') walk(join(dir, entry.name), path);
      } else if (/\.(go|py)$/.test(entry.name) && statSync(join(dir, entry.name)).size < 200_000) {
        const lines = readFileSync(join(dir, entry.name), 'utf8').split('\n').length;
        if (!best || Math.abs(lines - 2_000) < Math.abs(best.lines - 2_000)) best = { path, lines };
      }
    }
  };
  walk(root, '');
  return [
    { tool: 'read_file', path: best.path, end_line: best.lines },
    ...Array.from({ length: 5 }, (_, at) => ({ tool: 'read_file', path: best.path, start_line: 1 + 400 * at, end_line: 400 * (at + 1) })),
  ];
}

const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : Number.NaN);

/** CPU seconds so far (user + system) in a /proc stat file: a process's (every thread), or one thread's. */
function cpuSeconds(statPath) {
  const stat = readFileSync(statPath, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

/**
 * The process's CPU seconds so far (every thread), its main thread's alone (whose thread id is the
 * process id: it serves every connection, so a server bound by it shows it here), and its RSS in MiB.
 */
function usage(pid) {
  const rss = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((line) => line.startsWith('VmRSS:'));
  return { cpu: cpuSeconds(`/proc/${pid}/stat`), main: cpuSeconds(`/proc/${pid}/task/${pid}/stat`), rss: Number(rss.split(/\s+/)[1]) / 1024 };
}

/** A stdio server: requests written as lines, answers matched by id; N may be in flight. */
function stdioServer(env, workspaces, bin) {
  const child = spawn(
    process.execPath,
    [...NODE_FLAGS, bin, 'serve', ...workspaces.flatMap((root) => ['--workspace', root]), '--no-watch', '--log-level', 'warning'],
    {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  child.stderr.resume();
  const waiting = new Map();
  let buffered = '';
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    for (let end; (end = buffered.indexOf('\n')) >= 0; buffered = buffered.slice(end + 1)) {
      const line = buffered.slice(0, end);
      if (!line.trim()) continue;
      const message = JSON.parse(line);
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  });
  let id = 0;
  const send = (method, params) =>
    new Promise((resolve) => {
      const n = ++id;
      waiting.set(n, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: n, method, params })}\n`);
    });
  return {
    pid: child.pid,
    async start() {
      await send('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'load-search', version: '1' } });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    },
    client: () => async (args) => {
      const { tool = 'search_code', ...rest } = args;
      const answer = await send('tools/call', { name: tool, arguments: rest });
      return answer.error ? `JSON-RPC ${answer.error.code}` : answer.result?.isError ? 'isError' : undefined;
    },
    async stop() {
      child.stdin.end();
      await new Promise((resolve) => child.on('exit', resolve));
    },
  };
}

/** An HTTP server: each client its own session (`http`) or plain stateless POSTs (`stateless`). */
async function httpServer(env, mode, clients, workspaces, bin) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...NODE_FLAGS,
      bin,
      'serve',
      '--transport',
      'http',
      '--port',
      String(port),
      ...workspaces.flatMap((root) => ['--workspace', root]),
      '--no-watch',
      '--log-level',
      'warning',
    ],
    {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let log = '';
  child.stderr.on('data', (chunk) => (log += chunk));
  const url = `http://127.0.0.1:${port}/mcp`;
  const dispatcher = new Agent({ connections: clients + 4, pipelining: 1, headersTimeout: 120_000, bodyTimeout: 120_000 });
  for (let tries = 0; ; tries++) {
    try {
      await request(`http://127.0.0.1:${port}/health`, { dispatcher }).then((r) => r.body.dump());
      break;
    } catch {
      if (tries > 300) throw new Error(`the server did not start: ${log}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const post = async (headers, body) => {
    const response = await request(url, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
  };
  const outcome = (answer) => {
    if (answer.status !== 200) return `HTTP ${answer.status}`;
    const message = answerOf(answer.headers['content-type'], answer.text);
    return message.error ? `JSON-RPC ${message.error.code}` : message.result?.isError ? 'isError' : undefined;
  };
  let id = 0;
  return {
    pid: child.pid,
    async start() {},
    client: async () => {
      if (mode === 'stateless') {
        return async ({ tool = 'search_code', ...args }) =>
          outcome(
            await post(
              { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': tool },
              {
                jsonrpc: '2.0',
                id: ++id,
                method: 'tools/call',
                params: {
                  name: tool,
                  arguments: args,
                  _meta: {
                    'io.modelcontextprotocol/protocolVersion': MODERN,
                    'io.modelcontextprotocol/clientCapabilities': {},
                    'io.modelcontextprotocol/clientInfo': { name: 'load-search', version: '1' },
                  },
                },
              },
            ),
          );
      }
      const init = await post(
        {},
        {
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'load-search', version: '1' } },
        },
      );
      const session = init.headers['mcp-session-id'];
      if (!session) throw new Error(`initialize: HTTP ${init.status} ${init.text.slice(0, 200)}`);
      const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
      await post(headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
      return async ({ tool = 'search_code', ...args }) =>
        outcome(await post(headers, { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: tool, arguments: args } }));
    },
    async stop() {
      child.kill('SIGINT');
      await new Promise((resolve) => child.on('exit', resolve));
      await dispatcher.close();
    },
  };
}

/** One cell: `clients` loops calling `queries` in turn (each loop from its own place), warm-up first. */
async function cell(server, clients, queries) {
  const callers = await Promise.all(Array.from({ length: clients }, () => server.client()));
  const run = async (seconds, record) => {
    const deadline = performance.now() + seconds * 1000;
    await Promise.all(
      callers.map(async (callOnce, client) => {
        for (let n = client; performance.now() < deadline; n++) {
          const before = performance.now();
          let failure;
          try {
            failure = await callOnce(queries[n % queries.length]);
          } catch (error) {
            failure = error.code ?? error.message;
          }
          record?.(performance.now() - before, failure);
        }
      }),
    );
  };
  await run(WARMUP);
  const latencies = [];
  const failures = new Map();
  const before = usage(server.pid);
  let peak = before.rss;
  const sampler = setInterval(() => (peak = Math.max(peak, usage(server.pid).rss)), 250);
  const started = performance.now();
  await run(SECONDS, (ms, failure) => {
    latencies.push(ms);
    if (failure) failures.set(failure, (failures.get(failure) ?? 0) + 1);
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const after = usage(server.pid);
  latencies.sort((a, b) => a - b);
  return {
    rate: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuMs: (1000 * (after.cpu - before.cpu)) / Math.max(1, latencies.length),
    mainMs: (1000 * (after.main - before.main)) / Math.max(1, latencies.length),
    rss: Math.max(peak, after.rss),
    failures,
  };
}

/** The servers a row compares: one (PROJECT_DIR), or with --split the projects apart and the same files as one. */
function sides() {
  if (!parts) return [{ label: '1', workspaces: [project] }];
  return [
    { label: String(parts.folders.length), workspaces: parts.folders },
    { label: '1 (same files)', workspaces: [parts.whole] },
  ];
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
}

async function main() {
  const home = mkdtempSync(join(tmpdir(), 'sextant-load-home-'));
  const corpus = SPLIT ? mkdtempSync(join(tmpdir(), 'sextant-load-split-')) : undefined;
  try {
    const env = { ...process.env, SEXTANT_HOME: home, ...(NO_CACHE ? { SEXTANT_ANSWER_CACHE: '0' } : {}) };
    if (SPLIT) {
      parts = { folders: splitLibraries(SPLIT, PROJECT_COUNT, corpus), whole: corpus };
      project = corpus;
    }
    const indexed = spawnSync(process.execPath, [BIN, 'index', project], { env, encoding: 'utf8' });
    if (indexed.status !== 0) throw new Error(`sextant index failed: ${indexed.stderr}`);
    for (const folder of parts?.folders ?? []) {
      const one = spawnSync(process.execPath, [BIN, 'index', folder], { env, encoding: 'utf8' });
      if (one.status !== 0) throw new Error(`sextant index ${folder} failed: ${one.stderr}`);
    }
    console.log(
      `${SPLIT ? `${SPLIT.join(' + ')} in ${parts.folders.length} projects (${parts.folders.map((folder) => basename(folder)).join(', ')})` : project}: ${indexed.stdout.trim().split('\n')[0]}\nnode ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; load ${loadavg()[0].toFixed(2)} at the start; answer cache ${NO_CACHE ? 'off (SEXTANT_ANSWER_CACHE=0)' : 'on'}; ${WARMUP} s warm-up, ${SECONDS} s timed per cell\n`,
    );
    const paired = OTHER !== undefined;
    console.log(
      `| ${paired ? 'build | round | ' : ''}transport | clients | projects | queries | calls/s | p50 ms | p99 ms | CPU ms/call | main thread ms/call | peak RSS MiB | failures | load |`,
    );
    console.log(`| ${paired ? '--- | ---: | ' : ''}--- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |`);
    let failed = false;
    /** this build's rate over the other's, per round, by cell: their median is the paired figure. */
    const ratios = new Map();
    /** --split: the rate across projects over the one project's, per round, by build and cell. */
    const shares = new Map();
    for (const transport of TRANSPORTS) {
      for (const clients of CLIENTS) {
        for (const name of CLASSES) {
          for (let round = 1; round <= ROUNDS; round++) {
            /** Each side's rate by build, this round. */
            const bySide = new Map();
            // Which side goes first alternates too: a busy moment of the machine falls on both.
            for (const side of round % 2 === 1 ? sides() : sides().reverse()) {
              const cellName = `${transport}, ${clients} clients, ${side.label} project(s), ${name}`;
              const rates = {};
              // Which build goes first alternates, so that a busy moment of the machine falls on both.
              for (const build of round % 2 === 1 ? BUILDS : [...BUILDS].reverse()) {
                // A fresh server per cell: one cell's cache and heap do not carry into the next.
                const server =
                  transport === 'stdio' ? stdioServer(env, side.workspaces, build.bin) : await httpServer(env, transport, clients, side.workspaces, build.bin);
                await server.start();
                try {
                  const result = await cell(server, clients, name === 'readfile' ? readFileQueries(side.workspaces[0]) : QUERIES[name]);
                  const failures = [...result.failures].map(([what, n]) => `${what} ×${n}`).join(', ') || 'none';
                  if (result.failures.size > 0) failed = true;
                  rates[build.label] = result.rate;
                  console.log(
                    `| ${paired ? `${build.label} | ${round} | ` : ''}${transport} | ${clients} | ${side.label} | ${name} | ${result.rate.toFixed(1)} | ${result.p50.toFixed(1)} | ${result.p99.toFixed(1)} | ${result.cpuMs.toFixed(2)} | ${result.mainMs.toFixed(3)} | ${result.rss.toFixed(0)} | ${failures} | ${loadavg()[0].toFixed(2)} |`,
                  );
                } finally {
                  await server.stop();
                }
              }
              bySide.set(side.label, rates);
              if (paired) ratios.set(cellName, [...(ratios.get(cellName) ?? []), rates.this / rates.other]);
            }
            if (SPLIT) {
              const [across, one] = sides().map((side) => bySide.get(side.label));
              for (const build of BUILDS) {
                const shareName = `${paired ? `${build.label}: ` : ''}${transport}, ${clients} clients, ${name}`;
                shares.set(shareName, [...(shares.get(shareName) ?? []), across[build.label] / one[build.label]]);
              }
            }
          }
        }
      }
    }
    if (paired) {
      console.log('\n| cell | this / other, per round | median |\n| --- | --- | ---: |');
      for (const [cellName, values] of ratios)
        console.log(`| ${cellName} | ${values.map((value) => value.toFixed(2)).join(', ')} | ${median(values).toFixed(2)} |`);
    }
    if (SPLIT) {
      console.log(`\n| ${paired ? 'build: ' : ''}cell | across projects / one project, per round | median |\n| --- | --- | ---: |`);
      for (const [shareName, values] of shares)
        console.log(`| ${shareName} | ${values.map((value) => value.toFixed(2)).join(', ')} | ${median(values).toFixed(2)} |`);
    }
    if (failed) process.exitCode = 1;
  } finally {
    rmSync(home, { recursive: true, force: true });
    if (corpus) rmSync(corpus, { recursive: true, force: true });
  }
}

await main();
