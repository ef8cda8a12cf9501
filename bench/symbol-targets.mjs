// The symbol targets of issue #12 on a real repository, with Universal Ctags on the same files
// in the same run: the whole `sextant index` (text + symbols) against `ctags -R`, the index on
// disk against the source, `sextant symbols NAME` cold (a whole process), locate_symbol warm
// through a running server, a no-op `sync`, the server's RSS after every tool has run, and how
// soon a saved file's new symbol is found.
//
//   node bench/symbol-targets.mjs CORPUS_DIR [--names a,b,c] [--outline FILE (also the file saved)]
//
// bench/index-search.mjs runs it after its own sections. Needs `ctags` (Debian: universal-ctags)
// and a built dist/ (npm run build).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const BIN = here('../dist/sextant.mjs');
// The product as users get it: the single executable when it is built (npm run build:binary),
// else the .mjs bundle on this Node (SEXTANT_BENCH_MJS=1 forces the bundle).
const BINARY = here('../dist/sextant');
const useBinary = existsSync(BINARY) && !process.env.SEXTANT_BENCH_MJS;
/** The command and arguments that run `sextant ARGS`. */
const cli = (args) => (useBinary ? [BINARY, args] : [process.execPath, [BIN, ...args]]);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function timed(command, args, env) {
  const started = process.hrtime.bigint();
  const run = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 1 << 26 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0 && run.status !== 1) throw new Error(`${command} ${args.join(' ')}: ${run.stderr}`);
  return { ms, stdout: run.stdout, stderr: run.stderr };
}

/** A server over stdio (the binary, else the .mjs), initialized, spoken to in newline-delimited JSON-RPC. */
export async function stdioServer(root, home) {
  const child = spawn(...cli(['serve', '--workspace', root]), { env: { ...process.env, SEXTANT_HOME: home }, stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map();
  let buffer = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffer += chunk;
    for (let newline; (newline = buffer.indexOf('\n')) >= 0;) {
      const message = JSON.parse(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      waiting.get(message.id)?.(message);
    }
  });
  let id = 0;
  const request = (method, params) =>
    new Promise((resolve) => {
      const n = ++id;
      waiting.set(n, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: n, method, params })}\n`);
    });
  await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  const rssMiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;
  return { call: (name, args) => request('tools/call', { name, arguments: args }), rssMiB, close: () => child.kill() };
}

export async function symbolTargets(corpus, options = {}) {
  const root = realpathSync(corpus);
  const home = mkdtempSync(join(tmpdir(), 'sextant-symbol-targets-'));
  process.on('exit', () => rmSync(home, { recursive: true, force: true }));
  const env = { SEXTANT_HOME: home };
  const names = options.names ?? ['kmalloc', 'kmem_cache_alloc_node', 'task_struct', 'NewReader'];

  const ctagsOut = join(home, 'tags');
  // Twice, the faster counts: the first run may read the tree from disk, and sextant runs after it on a warm cache.
  const ctags = [timed('ctags', ['-R', '-f', ctagsOut, root]), timed('ctags', ['-R', '-f', ctagsOut, root])].sort((a, b) => a.ms - b.ms)[0];
  const ctagsVersion = execFileSync('ctags', ['--version'], { encoding: 'utf8' }).split('\n')[0];
  const index = timed('/usr/bin/time', ['-f', '%M', ...cli(['index', root]).flat()], env);
  const indexRssMiB = Number(index.stderr.trim().split('\n').at(-1)) / 1024;
  const status = JSON.parse(execFileSync(...cli(['status', root, '--json']), { encoding: 'utf8', env: { ...process.env, ...env } }));
  const disk = status.diskBytes;

  // `sextant symbols NAME`: a whole process each time, as a user at a prompt runs it.
  execFileSync(...cli(['--version']));
  const cold = names.map((name) => median(Array.from({ length: 5 }, () => timed(...cli(['symbols', name, root, '--limit', '5']), env).ms)));
  const bare = median(Array.from({ length: 5 }, () => timed(...cli(['--version']), env).ms));

  const noop = median(Array.from({ length: 7 }, () => timed(...cli(['sync', root]), env).ms));

  const server = await stdioServer(root, home);
  const warm = [];
  await server.call('locate_symbol', { name: names[0] });
  for (let i = 0; i < 30; i++) {
    const started = process.hrtime.bigint();
    await server.call('locate_symbol', { name: names[i % names.length] });
    warm.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const calls = [
    ['index_status', {}],
    ['locate_symbol', { name: names[0] }],
    ['locate_symbol', { name: 'kmc_alc' }],
    ['search_code', { query: names[1] }],
    ['search_code', { query: 'spin_lock_irqsave', limit: 200 }],
    ['get_file_outline', { path: options.outline ?? 'mm/slab.c' }],
    ['get_symbol_hierarchy', { symbol_name: names[1], path: options.outline ?? 'mm/slab.c' }],
    ['find_related_symbols', { symbol_name: names[1], path: options.outline ?? 'mm/slab.c', scope: 'package' }],
    ['get_code_context', { query: `how does ${names[1]} allocate from a slab cache` }],
  ];
  for (const [name, args] of calls) await server.call(name, args);
  // Right after the last call the heaps still hold its garbage; a quiet server trims them (src/platform/idle-heap.ts) after 300 ms.
  const rssRightAfter = server.rssMiB();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const serverRss = server.rssMiB();

  // A saved file: from the write until locate_symbol finds the new function (the watcher's
  // debounce and quiet time included). The file is put back as it was at the end.
  const savedPath = join(root, options.saved ?? 'mm/slab.c');
  const original = readFileSync(savedPath);
  const saved = [];
  try {
    for (let i = 0; i < 5; i++) {
      const name = `sextant_bench_saved_${Date.now().toString(36)}_${i}`;
      const started = process.hrtime.bigint();
      appendFileSync(
        savedPath,
        savedPath.endsWith('.go')
          ? `\nfunc ${name}() int { return ${i} }\n`
          : savedPath.endsWith('.py')
            ? `\ndef ${name}():\n    return ${i}\n`
            : `\nint ${name}(void) { return ${i}; }\n`,
      );
      for (;;) {
        const found = await server.call('locate_symbol', { name });
        if (!found.result?.isError && found.result?.structuredContent?.symbols?.some((symbol) => symbol.name === name)) break;
        if (Number(process.hrtime.bigint() - started) / 1e6 > 30_000) throw new Error('the saved symbol never appeared');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      saved.push(Number(process.hrtime.bigint() - started) / 1e6);
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // let the refresh settle
    }
  } finally {
    writeFileSync(savedPath, original);
  }
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const rssAfterSaves = server.rssMiB();
  server.close();

  const mb = (bytes) => (bytes / 1e6).toFixed(1);
  const source = status.bytes;
  console.log(
    `Symbol targets on ${root} (${useBinary ? 'dist/sextant' : `node ${process.versions.node} dist/sextant.mjs`}): ${status.files} files, ${mb(source)} MB indexed, ${status.symbols?.symbols ?? 0} symbols; ${ctagsVersion}`,
  );
  console.log('');
  console.log('| measure | target | measured | ok |');
  console.log('| --- | --- | ---: | --- |');
  const row = (measure, target, value, ok) => console.log(`| ${measure} | ${target} | ${value} | ${ok ? 'yes' : '**no**'} |`);
  row(
    'whole `sextant index` (text + symbols)',
    `≤ 2× ctags (${(ctags.ms / 1000).toFixed(2)} s)`,
    `${(index.ms / 1000).toFixed(2)} s (${(index.ms / ctags.ms).toFixed(1)}×)`,
    index.ms <= 2 * ctags.ms,
  );
  row(
    'whole index on disk',
    '≤ 50% of the source',
    `${mb(disk.total)} MB (${((100 * disk.total) / source).toFixed(1)}%: text ${mb(disk.segments)}, symbols ${mb(disk.symbols)}, names ${mb(disk.names)}, references ${mb(disk.references)})`,
    disk.total <= source / 2,
  );
  row(
    '`symbols NAME` cold, whole process',
    '≤ 150 ms',
    `${names.map((name, n) => `${name} ${cold[n].toFixed(0)}`).join(', ')} ms (\`--version\` alone ${bare.toFixed(0)} ms)`,
    Math.max(...cold) <= 150,
  );
  row('`locate_symbol` warm (stdio round trip)', '≤ 5 ms', `p50 ${median(warm).toFixed(2)} ms, max ${Math.max(...warm).toFixed(2)} ms`, median(warm) <= 5);
  row('no-op `sync`, whole process', '≤ 300 ms', `${noop.toFixed(0)} ms`, noop <= 300);
  row(
    'server RSS after every tool',
    '≤ 300 MiB',
    `${serverRss.toFixed(0)} MiB quiet 1 s (${rssRightAfter.toFixed(0)} right after the last call; ${rssAfterSaves.toFixed(0)} after the saved files below)`,
    serverRss <= 300,
  );
  row(
    "a saved file's symbols found by locate_symbol",
    '≤ 1 s',
    `median ${median(saved).toFixed(0)} ms, max ${Math.max(...saved).toFixed(0)} ms`,
    median(saved) <= 1000,
  );
  console.log('');
  console.log(
    `(ctags tags file ${mb(Number(execFileSync('stat', ['-c', '%s', ctagsOut], { encoding: 'utf8' })))} MB; \`sextant index\` peak RSS ${indexRssMiB.toFixed(0)} MiB)`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const corpus = process.argv[2];
  if (!corpus) {
    console.error('usage: node bench/symbol-targets.mjs CORPUS_DIR [--names a,b,c] [--outline path]');
    process.exit(2);
  }
  const at = (flag) => (process.argv.indexOf(flag) > 0 ? process.argv[process.argv.indexOf(flag) + 1] : undefined);
  await symbolTargets(corpus, {
    ...(at('--names') ? { names: at('--names').split(',') } : {}),
    ...(at('--outline') ? { outline: at('--outline'), saved: at('--outline') } : {}),
  });
}
