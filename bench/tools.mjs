// The code tools on a real repository, through the tool registry as a session calls them:
// cold (first call after start: workers, caches, index files loaded) and warm, with the server's
// RSS; search_code beside rg finding the same text.
//
//   node bench/tools.mjs CORPUS_DIR [--home DIR]
//
// Needs a built dist/ and build/ (npm run build) and rg on PATH. Without --home the corpus is
// indexed first (text and symbols) into a temporary home. bench/RESULTS.md names the corpus.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const corpus = process.argv[2];
if (!corpus) {
  console.error('usage: node bench/tools.mjs CORPUS_DIR [--home DIR]');
  process.exit(2);
}
const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const homeAt = process.argv.indexOf('--home');
let home = homeAt > 0 ? process.argv[homeAt + 1] : undefined;
if (!home) {
  const made = mkdtempSync(join(tmpdir(), 'sextant-tools-bench-'));
  process.on('exit', () => rmSync(made, { recursive: true, force: true }));
  home = made;
  execFileSync(process.execPath, [here('../dist/sextant.mjs'), 'index', corpus], {
    env: { ...process.env, SEXTANT_HOME: home },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
const { ProjectService } = await import(here('../build/src/workspace/projects.js'));
const { resolveWorkspaceConfig } = await import(here('../build/src/workspace/config.js'));
const { createSextantServer } = await import(here('../build/src/server.js'));
const { realpathSync } = await import('node:fs');
const root = realpathSync(corpus);
const projects = new ProjectService({ config: resolveWorkspaceConfig({ env: {}, workspaces: [root] }), home });
const tools = createSextantServer({ projects }).registries.tools;
const context = {
  signal: new AbortController().signal,
  protocolVersion: '2025-11-25',
  extra: { transport: 'bench' },
  session: { clientCapabilities: {}, requestClient: async () => ({}) },
  progress: () => true,
  log: () => {},
  request: async () => ({}),
};

const CALLS = [
  ['index_status', {}],
  ['locate_symbol', { name: 'kmalloc' }],
  ['locate_symbol', { name: 'kmc_alc' }],
  ['search_code', { query: 'kmem_cache_alloc_node' }],
  ['search_code', { query: 'spin_lock_irqsave', limit: 200 }],
  ['get_file_outline', { path: 'mm/slab.c' }],
  ['get_symbol_hierarchy', { symbol_name: 'kmem_cache_alloc_node', path: 'mm/slab.c' }],
  ['find_related_symbols', { symbol_name: 'kmem_cache_alloc_node', path: 'mm/slab.c' }],
  ['get_code_context', { query: 'how does kmem_cache_alloc_node allocate from a slab cache' }],
];

const rows = [];
for (const [name, args] of CALLS) {
  const times = [];
  let result;
  for (let i = 0; i < 3; i++) {
    const started = process.hrtime.bigint();
    result = await tools.call({ name, arguments: args }, context);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const chars = JSON.stringify(result.structuredContent ?? {}).length + result.content.reduce((sum, block) => sum + (block.text?.length ?? 0), 0);
  let rg = '';
  if (name === 'search_code') {
    const started = process.hrtime.bigint();
    spawnSync('rg', ['--no-config', '--hidden', '--max-filesize', '1M', '--ignore-case', '--fixed-strings', '--count-matches', '--', args.query, root], {
      maxBuffer: 1 << 26,
    });
    rg = (Number(process.hrtime.bigint() - started) / 1e6).toFixed(0);
  }
  rows.push({
    name,
    args,
    cold: times[0],
    warm: Math.min(times[1], times[2]),
    chars,
    error: result.isError ? result.content[0].text.split('\n')[0] : '',
    rg,
    rss: process.memoryUsage().rss / 1048576,
  });
}
await projects.close();

const rgVersion = execFileSync('rg', ['--version'], { encoding: 'utf8' }).split('\n')[0];
console.log(`Corpus ${root}; node ${process.version}; ${rgVersion}`);
console.log('');
console.log('| tool call | cold ms | warm ms | rg ms | result chars | RSS after, MiB |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  console.log(
    `| \`${row.name} ${JSON.stringify(row.args)}\`${row.error ? ` (${row.error})` : ''} | ${row.cold.toFixed(0)} | ${row.warm.toFixed(1)} | ${row.rg} | ${row.chars} | ${row.rss.toFixed(0)} |`,
  );
}
