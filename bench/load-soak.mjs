// Load and soak: N MCP clients over Streamable HTTP, each in its own session, each making M
// tool calls (a mix of search_code, locate_symbol, get_file_outline, health_check and ping) on an
// indexed project, as fast as answers come back. The server's RSS is sampled all along; every
// failed call is counted (HTTP status, JSON-RPC error, or an isError result the mix does not
// expect). Bounded: it stops after M calls per client or --seconds, whichever comes first.
// Optionally profiles the server (--cpu-prof) and prints where its time went, per thread.
//
//   node bench/load-soak.mjs PROJECT_DIR [--clients 50] [--calls 200] [--seconds 300]
//        [--tools mix|search] [--cpu-prof]
//
// PROJECT_DIR is indexed first, into a scratch SEXTANT_HOME. bench/RESULTS.md has the runs.
import { spawn, spawnSync } from 'node:child_process';
import { freePort } from './free-port.mjs';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { answerOf } from './sse-answer.mjs';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const project = process.argv[2];
if (!project || project.startsWith('--')) {
  console.error('usage: node bench/load-soak.mjs PROJECT_DIR [--clients 50] [--calls 200] [--seconds 300] [--tools mix|search] [--cpu-prof]');
  process.exit(2);
}
const CLIENTS = Number(arg('clients', 50));
const CALLS = Number(arg('calls', 200));
const SECONDS = Number(arg('seconds', 300));
const TOOLS = arg('tools', 'mix');
const PROFILE = process.argv.includes('--cpu-prof');
const BIN = fileURLToPath(new URL('../dist/sextant.mjs', import.meta.url));
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

// Identifiers and literals of a Go tree (the issue's corpus); on another tree most simply match less.
const SEARCHES = [
  { query: 'NewReader' },
  { query: 'ReadFull' },
  { query: 'func Parse' },
  { query: 'errors.New("' },
  { query: 'func \\(\\w+ \\*\\w+\\) Close\\(\\)', regex: true },
  { query: 'sync.Mutex', case_sensitive: true },
  { query: 'TODO', limit: 50 },
  { query: 'context.Context', path: 'net/**' },
];
const LOOKUPS = ['NewReader', 'Marshal', 'ServeHTTP', 'Parse', 'Copy'];

function nextCall(client, n) {
  if (TOOLS === 'search') return ['search_code', SEARCHES[(client + n) % SEARCHES.length]];
  switch (n % 6) {
    case 0:
    case 1:
    case 2:
      return ['search_code', SEARCHES[(client + n) % SEARCHES.length]];
    case 3:
      return ['locate_symbol', { name: LOOKUPS[(client + n) % LOOKUPS.length] }];
    case 4:
      return ['health_check', {}];
    default:
      return ['ping'];
  }
}

function rssMiB(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return Number(line.split(/\s+/)[1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : Number.NaN);

async function main() {
  const home = mkdtempSync(join(tmpdir(), 'sextant-soak-home-'));
  process.on('exit', () => rmSync(home, { recursive: true, force: true }));
  const env = { ...process.env, SEXTANT_HOME: home };
  const indexStarted = Date.now();
  const indexed = spawnSync(process.execPath, [BIN, 'index', project], { env, encoding: 'utf8' });
  if (indexed.status !== 0) throw new Error(`sextant index failed: ${indexed.stderr}`);
  console.log(`indexed ${project} in ${((Date.now() - indexStarted) / 1000).toFixed(1)} s: ${indexed.stdout.trim().split('\n').join('; ')}`);

  const port = await freePort();
  const profileDir = PROFILE ? mkdtempSync(join(tmpdir(), 'sextant-soak-prof-')) : undefined;
  const nodeFlags = PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const server = spawn(
    process.execPath,
    [...nodeFlags, BIN, 'serve', '--transport', 'http', '--port', String(port), '--workspace', project, '--no-watch', '--log-level', 'warning'],
    { env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let serverLog = '';
  server.stderr.on('data', (chunk) => (serverLog += chunk));
  const base = `http://127.0.0.1:${port}`;
  const dispatcher = new Agent({ connections: CLIENTS + 4, pipelining: 1, headersTimeout: 120_000, bodyTimeout: 120_000 });
  for (let tries = 0; ; tries++) {
    try {
      await request(`${base}/health`, { dispatcher }).then((r) => r.body.dump());
      break;
    } catch {
      if (tries > 200) throw new Error(`the server did not start: ${serverLog}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const post = async (body, sessionId) => {
    const headers = sessionId ? { ...HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' } : HEADERS;
    const response = await request(`${base}/mcp`, { method: 'POST', dispatcher, headers, body: JSON.stringify(body) });
    const text = await response.body.text();
    return { status: response.statusCode, headers: response.headers, text };
  };

  const rss = [];
  const sampler = setInterval(() => rss.push(rssMiB(server.pid)), 500);
  rss.push(rssMiB(server.pid));
  const latencies = [];
  const errors = new Map();
  const fail = (what) => errors.set(what, (errors.get(what) ?? 0) + 1);
  const deadline = Date.now() + SECONDS * 1000;
  const started = Date.now();
  let done = 0;

  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      const init = await post({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: `soak-${client}`, version: '1' } },
      });
      const sessionId = init.headers['mcp-session-id'];
      if (init.status !== 200 || !sessionId) return fail(`initialize HTTP ${init.status}`);
      await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId);
      for (let n = 0; n < CALLS && Date.now() < deadline; n++) {
        const [tool, args] = nextCall(client, n);
        const body =
          tool === 'ping'
            ? { jsonrpc: '2.0', id: n + 1, method: 'ping' }
            : { jsonrpc: '2.0', id: n + 1, method: 'tools/call', params: { name: tool, arguments: args } };
        const before = performance.now();
        try {
          const answer = await post(body, sessionId);
          latencies.push({ tool, ms: performance.now() - before });
          if (answer.status !== 200) {
            fail(`${tool}: HTTP ${answer.status}`);
            continue;
          }
          const message = answerOf(answer.headers['content-type'], answer.text);
          if (message.error) fail(`${tool}: JSON-RPC ${message.error.code}`);
          else if (message.result?.isError) fail(`${tool}: ${message.result._meta?.['dev.sextant/error']?.code ?? 'isError'}`);
          done++;
        } catch (error) {
          fail(`${tool}: ${error.code ?? error.message}`);
        }
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  rss.push(rssMiB(server.pid));
  server.kill('SIGINT');
  await new Promise((resolve) => server.on('exit', resolve));
  await dispatcher.close();

  console.log(
    `\n${CLIENTS} clients x ${CALLS} calls (tools: ${TOOLS}), ${seconds.toFixed(1)} s; node ${process.version}, ${cpus().length} x ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB\n`,
  );
  console.log('| tool | calls | calls/s | p50 ms | p90 ms | p99 ms | max ms |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  const byTool = Map.groupBy
    ? Map.groupBy(latencies, (l) => l.tool)
    : latencies.reduce((map, l) => map.set(l.tool, [...(map.get(l.tool) ?? []), l]), new Map());
  for (const [tool, list] of [...byTool, ['all', latencies]]) {
    const sorted = list.map((l) => l.ms).sort((a, b) => a - b);
    console.log(
      `| ${tool} | ${sorted.length} | ${(sorted.length / seconds).toFixed(1)} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 90).toFixed(1)} | ${percentile(sorted, 99).toFixed(1)} | ${sorted.at(-1)?.toFixed(1)} |`,
    );
  }
  const valid = rss.filter(Number.isFinite);
  const quarter = Math.max(1, Math.floor(valid.length / 4));
  const mean = (list) => list.reduce((a, b) => a + b, 0) / Math.max(1, list.length);
  console.log(
    `\nserver RSS MiB: start ${valid[0]?.toFixed(0)}, peak ${Math.max(...valid).toFixed(0)}, end ${valid.at(-1)?.toFixed(0)}; mean of first quarter ${mean(valid.slice(0, quarter)).toFixed(0)}, of last quarter ${mean(valid.slice(-quarter)).toFixed(0)} (${valid.length} samples)`,
  );
  const timeline = Array.from({ length: 10 }, (_, i) => valid[Math.min(valid.length - 1, Math.round((i * (valid.length - 1)) / 9))].toFixed(0));
  console.log(`server RSS MiB over the run (10 points, every ${(seconds / 9) | 0 || 1} s or so): ${timeline.join(' ')}`);
  console.log(
    `answered ${done} of ${latencies.length} calls; errors: ${errors.size === 0 ? 'none' : [...errors].map(([what, n]) => `${what} x${n}`).join(', ')}`,
  );
  if (profileDir) summarizeProfiles(profileDir);
  if (errors.size > 0) process.exitCode = 1;
}

/** Self time per function, top entries, for each thread's profile (main thread and workers). */
function summarizeProfiles(dir) {
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .sort()) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const self = new Map();
    let total = 0;
    profile.samples.forEach((id, i) => {
      const dt = (profile.timeDeltas[i] ?? 0) / 1000;
      total += dt;
      const frame = byId.get(id).callFrame;
      const url = frame.url ? frame.url.replace(/^.*\//, '') : '';
      const key = `${frame.functionName || '(anonymous)'}${url ? ` ${url}:${frame.lineNumber + 1}` : ''}`;
      self.set(key, (self.get(key) ?? 0) + dt);
    });
    const idle = (self.get('(idle)') ?? 0) + (self.get('(program)') ?? 0) * 0;
    console.log(`\nprofile ${file}: ${(total / 1000).toFixed(1)} s sampled, ${((100 * idle) / total).toFixed(0)}% idle; top self time:`);
    console.log('| function | self ms | share of busy |');
    console.log('| --- | ---: | ---: |');
    const busy = total - idle;
    for (const [key, ms] of [...self]
      .filter(([key]) => key !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)) {
      console.log(`| ${key.replace(/\|/g, '\\|')} | ${ms.toFixed(0)} | ${((100 * ms) / busy).toFixed(1)}% |`);
    }
  }
}

await main();
