// Pages search_code answers from the definitions alone (definitions_only) against the whole
// search's page for the same query: they must be identical. For each tree, names that several
// symbols carry are taken from the symbol index (`sextant symbols` with common prefixes), and
// each is searched with a small page (--limit) and then with a page of 60, the answer cache off.
//
//   npm run build && node bench/definitions-first.mjs TREE... [--limit 3] [--names 300]
//
// Each tree is indexed into a temporary home, removed at the end. bench/RESULTS.md has the run.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const LIMIT = Number(arg('limit', 3));
const NAMES = Number(arg('names', 300));
const trees = process.argv.slice(2).filter((value, index, all) => !value.startsWith('--') && !all[index - 1]?.startsWith('--'));
if (trees.length === 0) {
  console.error('usage: node bench/definitions-first.mjs TREE... [--limit 3] [--names 300]');
  process.exit(2);
}
const BIN = fileURLToPath(new URL('../dist/sextant.mjs', import.meta.url));
const PREFIXES = [
  'New',
  'get',
  'set',
  'read',
  'write',
  'close',
  'open',
  'parse',
  'run',
  'add',
  'init',
  'handle',
  'update',
  'create',
  'make',
  'load',
  'test',
  'is',
  'to',
  'from',
];
const MODERN = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/** Names carried by at least LIMIT symbols (any case), one identifier each. */
function namesOf(tree, env) {
  const counts = new Map();
  for (const prefix of PREFIXES) {
    const out = execFileSync(process.execPath, [BIN, 'symbols', prefix, tree, '--limit', '500', '--json'], { env, maxBuffer: 1 << 26 });
    for (const symbol of JSON.parse(out.toString()).symbols) counts.set(symbol.name.toLowerCase(), (counts.get(symbol.name.toLowerCase()) ?? 0) + 1);
  }
  return [...counts]
    .filter(([name, count]) => count >= LIMIT && /^[A-Za-z_]\w*$/.test(name))
    .map(([name]) => name)
    .slice(0, NAMES);
}

async function check(tree) {
  const home = mkdtempSync(join(tmpdir(), 'sextant-definitions-first-'));
  try {
    const env = { ...process.env, SEXTANT_HOME: home };
    execFileSync(process.execPath, [BIN, 'index', tree], { env, stdio: 'ignore' });
    const names = namesOf(tree, env);
    const server = spawn(process.execPath, [BIN, 'serve', '--log-level', 'error'], {
      env: { ...env, SEXTANT_PROJECT: tree, SEXTANT_ANSWER_CACHE: '0' },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const waiting = new Map();
    let id = 0;
    createInterface({ input: server.stdout }).on('line', (line) => {
      const message = JSON.parse(line);
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    });
    const search = (args) =>
      new Promise((resolve) => {
        waiting.set(++id, (message) => resolve(message.result.structuredContent));
        server.stdin.write(
          `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_code', arguments: args, _meta: MODERN } })}\n`,
        );
      });
    let early = 0;
    const differing = [];
    for (const query of names) {
      const page = await search({ query, limit: LIMIT });
      if (!page.definitions_only) continue;
      early++;
      const whole = await search({ query, limit: 60 });
      if (JSON.stringify(page.results) !== JSON.stringify(whole.results.slice(0, page.results.length))) differing.push(query);
    }
    server.kill();
    return { tree, names: names.length, early, differing };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

console.log(`search_code pages of ${LIMIT} answered from the definitions alone, against the whole search's page (results compared whole)`);
console.log('');
console.log('| tree | names tried | answered early | identical | differing |');
console.log('| --- | ---: | ---: | ---: | --- |');
for (const tree of trees) {
  const { names, early, differing } = await check(tree);
  console.log(`| ${basename(tree)} | ${names} | ${early} | ${early - differing.length} | ${differing.slice(0, 5).join(', ') || 'none'} |`);
}
