// Many projects on one server: N registered projects (Go standard-library packages, each a
// folder of its own files), served over the stateless 2026-07-28 path with every call searched
// (SEXTANT_ANSWER_CACHE=0). A first search over all of them, then what the server holds (threads,
// open files, resident memory), then C clients searching all of them with selective
// identifiers for S seconds: calls/s, p50, p99, and the most the server held meanwhile. With
// --bin, another build's bundle runs the same rows beside this one's, in turn; a build that
// searches one project per call (before search_code took several) is asked once per project,
// eight at a time, for each search over all of them: the same matches, found the old way.
//
//   npm run build && node bench/many-projects.mjs GO_SRC [--projects 200] [--clients 10]
//        [--seconds 20] [--warmup 3] [--rounds 2] [--bin OLD/dist/sextant.mjs]
//
// bench/RESULTS.md has the runs.
import { spawn } from 'node:child_process';
import { freePort } from './free-port.mjs';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { answerOf } from './sse-answer.mjs';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const library = process.argv[2];
if (!library || library.startsWith('--')) {
  console.error(
    'usage: node bench/many-projects.mjs GO_SRC [--projects 200] [--clients 10] [--seconds 20] [--warmup 3] [--rounds 2] [--bin OLD/dist/sextant.mjs]',
  );
  process.exit(2);
}
const COUNT = Number(arg('projects', 200));
const CLIENTS = Number(arg('clients', 10));
const SECONDS = Number(arg('seconds', 20));
const WARMUP = Number(arg('warmup', 3));
const ROUNDS = Number(arg('rounds', 2));
const THIS = fileURLToPath(new URL('../dist/sextant.mjs', import.meta.url));
const OTHER = arg('bin', undefined);
const MODERN = '2026-07-28';
const QUERIES = ['ServeHTTP', 'NewReader', 'ReadFull', 'ParseInt', 'WriteString', 'Unmarshal', 'NewRequest', 'TrimPrefix', 'SplitN', 'Fprintf'];

const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : Number.NaN);

/** What the process holds now: threads, open files, resident MiB. */
function held(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) =>
    Number(
      status
        .split('\n')
        .find((line) => line.startsWith(`${name}:`))
        .split(/\s+/)[1],
    );
  return { threads: field('Threads'), files: readdirSync(`/proc/${pid}/fd`).length, rss: field('VmRSS') / 1024 };
}

/** The library's package folders with at least three Go files, each copied apart (its own files only): `count` projects. */
function packages(into) {
  const found = [];
  const walk = (dir) => {
    const entries = readdirSync(dir, { withFileTypes: true });
    const goFiles = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.go'));
    if (goFiles.length >= 3 && dir !== library) found.push({ dir, files: entries.filter((entry) => entry.isFile()).map((entry) => entry.name) });
    for (const entry of entries) if (entry.isDirectory() && entry.name !== 'testdata') walk(join(dir, entry.name));
  };
  walk(library);
  if (found.length < COUNT) throw new Error(`only ${found.length} packages with three Go files or more under ${library}`);
  // Spread over the library rather than its first folders in path order.
  const step = found.length / COUNT;
  return Array.from({ length: COUNT }, (_, index) => {
    const { dir, files } = found[Math.floor(index * step)];
    const target = join(into, relative(library, dir).replaceAll('/', '-'));
    mkdirSync(target, { recursive: true });
    for (const file of files) copyFileSync(join(dir, file), join(target, file));
    return target;
  });
}

/** Indexes every project in one process (text and symbols), as `sextant index` would each. */
async function indexAll(roots, home) {
  const build = (path) => import(new URL(`../build/src/${path}`, import.meta.url).href);
  const { buildIndex } = await build('index/build/indexer.js');
  const { IndexReader } = await build('index/search/index.js');
  const { buildSymbols } = await build('index/symbols/build.js');
  for (const root of roots) {
    await buildIndex(root, { home });
    const reader = IndexReader.open(root, home);
    try {
      await buildSymbols(root, reader.files, { home });
    } finally {
      reader.close();
    }
  }
}

async function server(bin, roots, home) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--transport', 'http', '--port', String(port), '--no-watch', '--log-level', 'warning', ...roots.flatMap((root) => ['--workspace', root])],
    { env: { ...process.env, SEXTANT_HOME: home, SEXTANT_ANSWER_CACHE: '0' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr.on('data', (chunk) => (log += chunk));
  const dispatcher = new Agent({ connections: CLIENTS + 4, pipelining: 1, headersTimeout: 120_000, bodyTimeout: 120_000 });
  for (let tries = 0; ; tries++) {
    try {
      await request(`http://127.0.0.1:${port}/health`, { dispatcher }).then((r) => r.body.dump());
      break;
    } catch {
      if (tries > 600) throw new Error(`the server did not start: ${log}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  let id = 0;
  const searchOne = async (query, workspace) => {
    const response = await request(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      dispatcher,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': 'search_code',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++id,
        method: 'tools/call',
        params: {
          name: 'search_code',
          arguments: { query, ...(workspace && { workspace }) },
          _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} },
        },
      }),
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) return { failure: `HTTP ${response.statusCode}` };
    const message = answerOf(response.headers['content-type'], text);
    if (message.error) return { failure: `JSON-RPC ${message.error.code}` };
    if (message.result?.isError) return { failure: 'isError' };
    return { structured: message.result.structuredContent };
  };
  let perProject = false;
  /** A search over every project: one call, or with a build that takes one project per call, one call per project. */
  const search = async (query) => {
    if (!perProject) {
      const answer = await searchOne(query);
      if (answer.failure || answer.structured.projects_searched !== undefined) return answer;
      perProject = true;
    }
    let next = 0;
    let failure;
    const lane = async () => {
      for (let index = next++; index < roots.length; index = next++) failure ??= (await searchOne(query, roots[index])).failure;
    };
    await Promise.all(Array.from({ length: 8 }, lane));
    return failure ? { failure } : { structured: { projects_searched: roots.length } };
  };
  return {
    pid: child.pid,
    search,
    async stop() {
      child.kill('SIGINT');
      await new Promise((resolve) => child.on('exit', resolve));
      await dispatcher.close();
    },
  };
}

async function row(bin, roots, home) {
  const running = await server(bin, roots, home);
  try {
    const first = await running.search('ServeHTTP');
    if (first.failure) throw new Error(`the first search failed: ${first.failure}`);
    const searched = first.structured.projects_searched;
    const afterFirst = held(running.pid);
    const loop = async (seconds, record) => {
      const deadline = performance.now() + seconds * 1000;
      await Promise.all(
        Array.from({ length: CLIENTS }, async (_, client) => {
          for (let n = client; performance.now() < deadline; n++) {
            const before = performance.now();
            const { failure } = await running.search(QUERIES[n % QUERIES.length]);
            record?.(performance.now() - before, failure);
          }
        }),
      );
    };
    await loop(WARMUP);
    const latencies = [];
    const failures = new Map();
    let most = held(running.pid);
    const sampler = setInterval(() => {
      const now = held(running.pid);
      most = { threads: Math.max(most.threads, now.threads), files: Math.max(most.files, now.files), rss: Math.max(most.rss, now.rss) };
    }, 250);
    const started = performance.now();
    await loop(SECONDS, (ms, failure) => {
      latencies.push(ms);
      if (failure) failures.set(failure, (failures.get(failure) ?? 0) + 1);
    });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    latencies.sort((a, b) => a - b);
    return { searched, afterFirst, most, rate: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failures };
  } finally {
    await running.stop();
  }
}

const work = mkdtempSync(join(tmpdir(), 'sextant-many-'));
try {
  const home = join(work, 'home');
  const roots = packages(join(work, 'projects'));
  await indexAll(roots, home);
  const files = roots.reduce((sum, root) => sum + readdirSync(root).length, 0);
  const bytes = roots.reduce((sum, root) => sum + readdirSync(root).reduce((n, file) => n + statSync(join(root, file)).size, 0), 0);
  console.log(
    `${COUNT} projects (Go packages of ${library}, each its own files): ${files} files, ${(bytes / 2 ** 20).toFixed(1)} MiB\n` +
      `node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; load ${loadavg()[0].toFixed(2)} ` +
      `at the start; answer cache off; ${CLIENTS} clients, ${WARMUP} s warm-up, ${SECONDS} s timed, ${ROUNDS} round(s)\n`,
  );
  console.log(
    '| build | round | projects searched per call | after the first search: threads / files / RSS MiB | most under load: threads / files / RSS MiB | calls/s | p50 ms | p99 ms | failures |',
  );
  console.log('| --- | ---: | ---: | --- | --- | ---: | ---: | ---: | --- |');
  const builds = [['this', THIS], ...(OTHER ? [['other', OTHER]] : [])];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [label, bin] of round % 2 === 1 ? builds : [...builds].reverse()) {
      const result = await row(bin, roots, home);
      const failures = [...result.failures].map(([what, n]) => `${what} ×${n}`).join(', ') || 'none';
      const show = (h) => `${h.threads} / ${h.files} / ${h.rss.toFixed(0)}`;
      console.log(
        `| ${label} | ${round} | ${result.searched} | ${show(result.afterFirst)} | ${show(result.most)} | ${result.rate.toFixed(1)} | ${result.p50.toFixed(1)} | ${result.p99.toFixed(1)} | ${failures} |`,
      );
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
