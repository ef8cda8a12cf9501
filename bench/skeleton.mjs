// What parsing a language as a skeleton (src/index/symbols/skeleton/index.ts: C's own, or the brace
// and indentation skeletons) costs and finds, against tree-sitter's parse of each whole file:
// every file of the language under a tree, one thread, the extractor's own path both ways
// (parse, tag query, shaping). Prints a table: time, text parsed, and how many definitions and
// calls each way finds that the other does not.
//
//   npm run build && node bench/skeleton.mjs TREE [--lang c|go|python|typescript|javascript|java|rust|csharp|kotlin|php|lua|cpp|ruby] [--limit N] [--show 5]
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = process.argv[2];
if (!root) {
  console.error('usage: node bench/skeleton.mjs TREE [--lang c] [--limit N] [--show 5]');
  process.exit(2);
}
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const limit = option('--limit', Infinity);
const language = process.argv.includes('--lang') ? process.argv[process.argv.indexOf('--lang') + 1] : 'c';
const EXTENSIONS = {
  c: /\.[ch]$/,
  cpp: /\.(cc|cpp|cxx|hpp|hh|hxx)$/,
  go: /\.go$/,
  python: /\.py$/,
  typescript: /\.(ts|mts|cts)$/,
  tsx: /\.tsx$/,
  javascript: /\.(js|mjs|cjs|jsx)$/,
  java: /\.java$/,
  rust: /\.rs$/,
  csharp: /\.cs$/,
  kotlin: /\.kts?$/,
  swift: /\.swift$/,
  scala: /\.scala$/,
  php: /\.php$/,
  lua: /\.lua$/,
  ruby: /\.rb$/,
};
if (!EXTENSIONS[language]) {
  console.error(`no files known for --lang ${language}: one of ${Object.keys(EXTENSIONS).join(', ')}`);
  process.exit(2);
}
const show = option('--show', 5);
const showCalls = option('--show-calls', 0);
const lostCalls = [];

let modules;
try {
  modules = {
    ...(await import('../build/src/index/symbols/extract.js')),
    ...(await import('../build/src/index/symbols/skeleton/index.js')),
  };
} catch {
  console.error('bench/skeleton.mjs reads build/: run `npm run build` first');
  process.exit(2);
}
const { SymbolExtractor, skeletonOf } = modules;

const files = [];
(function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.isFile() && EXTENSIONS[language].test(entry.name)) files.push(path);
  }
})(root);
files.sort();
const chosen = files.slice(0, limit);

const extractor = await SymbolExtractor.create();
const definitionKey = (s) => `${s.kind} ${s.qualifiedName} ${s.line}:${s.column}-${s.endLine}:${s.endColumn}`;
const callKey = (r) => `${r.kind} ${r.name} ${r.line}:${r.column}`;
const totals = { bytes: 0, skeletonBytes: 0, noSkeleton: 0, wholeMs: 0, skeletonMs: 0 };
const counts = { definitions: 0, lost: 0, extra: 0, calls: 0, callsLost: 0, callsExtra: 0, files: 0 };
const examples = [];
for (const path of chosen) {
  const source = readFileSync(path, 'utf8');
  totals.bytes += source.length;
  const skeleton = skeletonOf(language, source);
  if (skeleton) totals.skeletonBytes += skeleton.text.length;
  else {
    totals.noSkeleton++;
    totals.skeletonBytes += source.length;
  }
  let started = performance.now();
  const whole = await extractor.extract(language, source, { whole: true });
  totals.wholeMs += performance.now() - started;
  started = performance.now();
  const cut = await extractor.extract(language, source);
  totals.skeletonMs += performance.now() - started;
  const wholeDefinitions = new Set(whole.symbols.map(definitionKey));
  const cutDefinitions = new Set(cut.symbols.map(definitionKey));
  const lost = [...wholeDefinitions].filter((key) => !cutDefinitions.has(key));
  const extra = [...cutDefinitions].filter((key) => !wholeDefinitions.has(key));
  const wholeCalls = new Set(whole.references.filter((r) => r.kind === 'call').map(callKey));
  const cutCalls = new Set(cut.references.filter((r) => r.kind === 'call').map(callKey));
  counts.definitions += wholeDefinitions.size;
  counts.lost += lost.length;
  counts.extra += extra.length;
  counts.calls += wholeCalls.size;
  const callsLost = [...wholeCalls].filter((key) => !cutCalls.has(key));
  counts.callsLost += callsLost.length;
  for (const key of callsLost.slice(0, 2)) if (lostCalls.length < showCalls) lostCalls.push(`${relative(root, path)}: ${key}`);
  counts.callsExtra += [...cutCalls].filter((key) => !wholeCalls.has(key)).length;
  if (lost.length + extra.length > 0) {
    counts.files++;
    if (examples.length < show)
      examples.push(`${relative(root, path)}: only whole ${JSON.stringify(lost.slice(0, 2))}, only skeleton ${JSON.stringify(extra.slice(0, 2))}`);
  }
}

const mb = (n) => (n / 1e6).toFixed(1);
const pct = (part, whole) => `${((100 * part) / Math.max(whole, 1)).toFixed(2)}%`;
console.log(`${language} skeleton against whole files: ${chosen.length} files under ${root}, ${mb(totals.bytes)} MB, node ${process.version}, one thread\n`);
console.log('| | whole files | skeleton |');
console.log('| --- | ---: | ---: |');
console.log(`| text tree-sitter parses | ${mb(totals.bytes)} MB | ${mb(totals.skeletonBytes)} MB (${totals.noSkeleton} files parsed whole: no skeleton) |`);
console.log(
  `| extraction time (parse, query, shaping) | ${(totals.wholeMs / 1000).toFixed(2)} s | ${(totals.skeletonMs / 1000).toFixed(2)} s (${(totals.wholeMs / Math.max(totals.skeletonMs, 1)).toFixed(2)}x faster) |`,
);
console.log(
  `| definitions | ${counts.definitions} | ${counts.lost} found only whole (${pct(counts.lost, counts.definitions)}), ${counts.extra} only in the skeleton, in ${counts.files} files |`,
);
console.log(`| calls | ${counts.calls} | recall ${pct(counts.calls - counts.callsLost, counts.calls)}, ${counts.callsExtra} found only lexically |`);
if (examples.length > 0) console.log(`\nFirst differences:\n${examples.map((line) => `- ${line}`).join('\n')}`);
if (lostCalls.length > 0) console.log(`\nCalls found only whole:\n${lostCalls.map((line) => `- ${line}`).join('\n')}`);
