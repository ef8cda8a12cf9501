// Where `sextant index` spends its time, phase by phase and thread by thread: runs the built CLI
// under --cpu-prof (Node writes one profile per thread: the main thread, the text extraction
// workers, the symbol parser workers) and prints, per thread, its busy time and the functions
// with the most self time, grouped into what the symbol phase does (tree-sitter parsing in wasm,
// query matching, capture handling in JS, moving results between threads, JSON, GC).
//
//   node bench/profile-symbols.mjs PROJECT_DIR [--top 12]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const project = process.argv[2];
if (!project) {
  console.error('usage: node bench/profile-symbols.mjs PROJECT_DIR [--top 12]');
  process.exit(2);
}
const topAt = process.argv.indexOf('--top');
const TOP = topAt > 0 ? Number(process.argv[topAt + 1]) : 12;
const home = mkdtempSync(join(tmpdir(), 'sextant-prof-home-'));
const dir = mkdtempSync(join(tmpdir(), 'sextant-prof-'));
const bin = fileURLToPath(new URL('../dist/sextant.mjs', import.meta.url));
const started = Date.now();
const run = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, bin, 'index', project], {
  env: { ...process.env, SEXTANT_HOME: home },
  encoding: 'utf8',
});
// The index is not needed after the run, nor the profiles once read (below): nothing is left in the temp folder.
rmSync(home, { recursive: true, force: true });
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
if (run.status !== 0) throw new Error(run.stderr);
console.log(`sextant index ${project}: ${((Date.now() - started) / 1000).toFixed(1)} s wall (profiled); ${run.stdout.trim().split('\n').join('; ')}\n`);

/** What a function is, for the symbol phase's breakdown. */
function category(name, url) {
  if (name === '(garbage collector)') return 'GC';
  if (name === '(idle)' || name === '(program)') return name;
  if (url.endsWith('.wasm') || /^wasm-function|^\$?ts_|^stack__/.test(name) || /\.wasm-/.test(url)) {
    return /ts_query|ts_tree_cursor|ts_node/.test(name) ? 'tree-sitter query matching (wasm)' : 'tree-sitter parsing (wasm)';
  }
  if (/web-tree-sitter|tree-sitter\.js/.test(url)) return 'web-tree-sitter (JS glue)';
  if (/JSON\.|stringify|parse$/.test(name)) return 'JSON';
  if (/postMessage|structuredClone|deserialize|serialize/.test(name)) return 'thread messages';
  if (/readFileSync|writeSync|fsync|openSync|statSync|read$|write$/.test(name)) return 'file I/O';
  return 'other JS';
}

for (const file of readdirSync(dir)
  .filter((name) => name.endsWith('.cpuprofile'))
  .sort()) {
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const categories = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    total += ms;
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const short = url ? url.replace(/^.*\//, '') : '';
    const key = `${functionName || '(anonymous)'}${short ? ` ${short}:${lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + ms);
    const what = category(functionName, url ?? '');
    categories.set(what, (categories.get(what) ?? 0) + ms);
  });
  const idle = categories.get('(idle)') ?? 0;
  const busy = total - idle;
  if (busy < 200) continue; // threads that barely ran
  console.log(`### ${file}: ${(total / 1000).toFixed(1)} s sampled, ${(busy / 1000).toFixed(1)} s busy\n`);
  console.log('| part | ms | share of busy |');
  console.log('| --- | ---: | ---: |');
  for (const [what, ms] of [...categories].filter(([what]) => what !== '(idle)').sort((a, b) => b[1] - a[1]))
    console.log(`| ${what} | ${ms.toFixed(0)} | ${((100 * ms) / busy).toFixed(1)}% |`);
  console.log('\n| function (self time) | ms | share of busy |');
  console.log('| --- | ---: | ---: |');
  for (const [key, ms] of [...self]
    .filter(([key]) => !key.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)) {
    console.log(`| ${key.replace(/\|/g, '\\|')} | ${ms.toFixed(0)} | ${((100 * ms) / busy).toFixed(1)}% |`);
  }
  console.log('');
}
