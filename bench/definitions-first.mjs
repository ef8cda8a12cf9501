// Early pages against the whole ranking: pages search_code answers from the definitions alone
// (definitions_only) or from the files it read before the page was certain (certain_results)
// must be identical to the first results of the whole search's ranking, which the CLI's
// `search --rank` prints (it reads every match, up to the pool). For each tree, names that several
// symbols carry are taken from the symbol index (`sextant symbols` with common prefixes), and
// common words are added; each is searched with a small page (--limit) and a page of 20, the
// answer cache off.
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
/** Words common in code and prose, in every language the trees hold. */
const WORDS = [
  'return',
  'the',
  'error',
  'self',
  'string',
  'int',
  'const',
  'if',
  'for',
  'copyright',
  'nil',
  'None',
  'static',
  'struct',
  'function',
  'import',
  'len',
  'data',
  'value',
  'name',
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
    /** The first `limit` of the whole ranking, as `path:line:column`. */
    const wholeRanking = (query, limit) => {
      const out = execFileSync(process.execPath, [BIN, 'search', '--rank', '--json', '--limit', String(limit), '--log-level', 'silent', query, tree], {
        env,
        maxBuffer: 1 << 26,
      });
      return JSON.parse(out.toString()).matches.map((match) => `${match.path}:${match.line}:${match.column}`);
    };
    const counts = { definitions: 0, read: 0 };
    const differing = [];
    for (const query of [...WORDS, ...names]) {
      for (const limit of [LIMIT, 20]) {
        const page = await search({ query, limit });
        if (!page.definitions_only && !page.certain_results) continue;
        counts[page.definitions_only ? 'definitions' : 'read']++;
        const shown = page.results.map((result) => `${result.path}:${result.line}:${result.column}`);
        if (JSON.stringify(shown) !== JSON.stringify(wholeRanking(query, shown.length))) differing.push(`${query} (${limit})`);
      }
    }
    server.kill();
    return { tree, names: names.length + WORDS.length, counts, differing };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

console.log(`search_code pages of ${LIMIT} and of 20 answered early, against the first results of the whole ranking (search --rank)`);
console.log('');
console.log('| tree | queries | pages from the definitions | pages stopped early | identical | differing |');
console.log('| --- | ---: | ---: | ---: | ---: | --- |');
for (const tree of trees) {
  const { names, counts, differing } = await check(tree);
  const early = counts.definitions + counts.read;
  console.log(
    `| ${basename(tree)} | ${names} | ${counts.definitions} | ${counts.read} | ${early - differing.length} | ${differing.slice(0, 5).join(', ') || 'none'} |`,
  );
}
