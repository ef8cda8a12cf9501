// Index build and search on a real repository, beside ripgrep on the same files in the same run.
//
//   node bench/index-search.mjs CORPUS_DIR [--runs 10]
//
// Needs `rg` on PATH (Debian: apt-get install ripgrep) and a built dist/ (npm run build).
// bench/RESULTS.md says which corpus was used and how to get it.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { QUERIES } from './queries.mjs';

const corpus = process.argv[2];
if (!corpus) {
  console.error('usage: node bench/index-search.mjs CORPUS_DIR [--runs N]');
  process.exit(2);
}
const runsIndex = process.argv.indexOf('--runs');
const RUNS = runsIndex > 0 ? Number(process.argv[runsIndex + 1]) : 10;
const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'sextant-bench-'));
process.on('exit', () => rmSync(home, { recursive: true, force: true }));

function percentile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

// 1. Build, in its own process so that its peak RSS is its own.
const build = spawnSync(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    `
  import { buildIndex } from ${JSON.stringify(here('../build/src/index/build/indexer.js'))};
  const summary = await buildIndex(${JSON.stringify(corpus)}, { home: ${JSON.stringify(home)} });
  console.log(JSON.stringify({ ...summary, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
`,
  ],
  { encoding: 'utf8', maxBuffer: 1 << 26 },
);
if (build.status !== 0) throw new Error(build.stderr);
const summary = JSON.parse(build.stdout.trim().split('\n').at(-1));

// 2. Queries through the index (in this process, index loaded once) and through rg.
const { IndexReader } = await import(here('../build/src/index/search/reader.js'));
const { compileMatcher } = await import(here('../build/src/index/search/matcher.js'));
const loadStarted = process.hrtime.bigint();
const reader = IndexReader.open(summary.root, home);
const loadMs = Number(process.hrtime.bigint() - loadStarted) / 1e6;

const rgArgs = (query) => [
  '--no-config',
  '--hidden',
  '--max-filesize',
  '1M',
  '--count-matches',
  '--no-messages',
  ...(query.caseSensitive ? ['--case-sensitive'] : ['--ignore-case']),
  ...(query.regex ? [] : ['--fixed-strings']),
  '--',
  query.pattern,
  summary.root,
];
const rgLines = (query) => {
  const out = spawnSync(
    'rg',
    rgArgs(query).map((a) => (a === '--count-matches' ? '--count' : a)),
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  return out.stdout
    .split('\n')
    .filter(Boolean)
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(':') + 1)), 0);
};

// The server's path: the search service, its workers splitting each query's candidates.
const { SearchService } = await import(here('../build/src/index/search/threads/index.js'));
const service = new SearchService(summary.root, { home, budgetMs: 60_000 });
const elapsed = async (run) => {
  const started = process.hrtime.bigint();
  const result = await run();
  return { result, ms: Number(process.hrtime.bigint() - started) / 1e6 };
};

// The service first, then one thread in this process: the in-process reader's content cache
// would otherwise sit in this thread's heap and slow the handling of the workers' answers.
const timings = new Map();
for (const query of QUERIES) {
  const ours = [];
  let result;
  // Warm: the targets are for a warm cache (workers started, candidate files read once).
  await service.search({ ...query, limit: 10_000_000 });
  for (let i = 0; i < RUNS; i++) {
    const timed = await elapsed(() => service.search({ ...query, limit: 10_000_000 }));
    result = timed.result;
    ours.push(timed.ms);
  }
  timings.set(query, { ours: ours.sort((a, b) => a - b), result });
}
const rows = [];
for (const query of QUERIES) {
  const { ours, result } = timings.get(query);
  const single = [];
  reader.search({ ...query, limit: 10_000_000 });
  for (let i = 0; i < RUNS; i++) single.push((await elapsed(() => reader.search({ ...query, limit: 10_000_000 }))).ms);
  single.sort((a, b) => a - b);
  const theirs = [];
  spawnSync('rg', rgArgs(query), { encoding: 'utf8', maxBuffer: 1 << 26 }); // warm too
  for (let i = 0; i < Math.max(3, Math.ceil(RUNS / 3)); i++) {
    const started = process.hrtime.bigint();
    spawnSync('rg', rgArgs(query), { encoding: 'utf8', maxBuffer: 1 << 26 });
    theirs.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  theirs.sort((a, b) => a - b);
  // Bytes the candidates make up: whole files, or for a file indexed in blocks, its candidate blocks' share.
  const candidateBytes = reader
    .candidates(compileMatcher(query).plan)
    .reduce((sum, { file, blocks }) => sum + (blocks ? (file.size * blocks.length) / (file.blocks.length + 1) : file.size), 0);
  rows.push({
    query,
    candidateBytes,
    matches: result.matches.length,
    rgMatches: rgLines(query),
    candidates: result.stats.candidates,
    files: result.stats.files,
    p50: percentile(ours, 0.5),
    p99: percentile(ours, 0.99),
    single: percentile(single, 0.5),
    rg: percentile(theirs, 0.5),
  });
}

const workers = Math.min(4, (await import('node:os')).availableParallelism());
const rgVersion = execFileSync('rg', ['--version'], { encoding: 'utf8' }).split('\n')[0];
const mb = summary.bytes / 1e6;
console.log(
  `Corpus ${summary.root}: ${summary.files} files, ${mb.toFixed(1)} MB indexed; node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${rgVersion}`,
);
console.log('');
console.log('| build | wall s | MB/s | index MB | index % of source | peak RSS MiB | unindexed files | index load ms |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
console.log(
  `| sextant index | ${(summary.durationMs / 1000).toFixed(2)} | ${(mb / (summary.durationMs / 1000)).toFixed(1)} | ${(summary.indexBytes / 1e6).toFixed(1)} | ${((100 * summary.indexBytes) / summary.bytes).toFixed(1)}% | ${summary.maxRssMiB.toFixed(0)} | ${summary.unindexed} | ${loadMs.toFixed(0)} |`,
);
console.log('');
console.log(
  `| query | matching lines (sextant / rg) | candidate files | their text | sextant p50 ms (${workers} workers) | sextant p99 ms | one thread p50 ms | rg p50 ms | speed-up |`,
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  const same = row.matches === row.rgMatches ? '' : ' ≠';
  console.log(
    `| ${row.query.name}: \`${row.query.pattern}\` | ${row.matches} / ${row.rgMatches}${same} | ${row.candidates} of ${row.files} | ${((100 * row.candidateBytes) / summary.bytes).toFixed(1)}% | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${row.single.toFixed(1)} | ${row.rg.toFixed(1)} | ${(row.rg / row.p50).toFixed(1)}x |`,
  );
}

// 3. Symbol extraction speed: one thread, the first 30 MB of files in languages with symbols.
const { SymbolExtractor } = await import(here('../build/src/index/symbols/extract.js'));
const { readFileSync } = await import('node:fs');
const extractor = await SymbolExtractor.create();
let parsedBytes = 0;
let symbolCount = 0;
const parseStarted = process.hrtime.bigint();
for (const file of reader.files) {
  if (parsedBytes > 30e6) break;
  if (!SymbolExtractor.supports(file.language)) continue;
  const source = readFileSync(join(summary.root, file.path), 'utf8');
  const { symbols } = await extractor.extract(file.language, source, { references: false });
  parsedBytes += file.size;
  symbolCount += symbols.length;
}
const parseSeconds = Number(process.hrtime.bigint() - parseStarted) / 1e9;
console.log('');
console.log('| symbols (one thread) | MB parsed | s | MB/s | symbols |');
console.log('| --- | ---: | ---: | ---: | ---: |');
console.log(
  `| tree-sitter tag queries | ${(parsedBytes / 1e6).toFixed(1)} | ${parseSeconds.toFixed(2)} | ${(parsedBytes / 1e6 / parseSeconds).toFixed(1)} | ${symbolCount} |`,
);

// 4. One saved file: how long until a search finds its new text, through sync of that path
// alone, and through the watcher (debounce included); rg finding the same text beside it.
const { syncIndex } = await import(here('../build/src/index/build/sync.js'));
const { IndexWatcher } = await import(here('../build/src/index/watch/watcher.js'));
const { appendFileSync } = await import('node:fs');
const target = reader.files.find((file) => file.language === 'c' && file.size > 20_000) ?? reader.files[0];
const original = readFileSync(join(summary.root, target.path));
const { utimesSync, statSync, writeFileSync } = await import('node:fs');
const originalStats = statSync(join(summary.root, target.path));
const incremental = [];
for (let i = 0; i < 5; i++) {
  const marker = `sextant_bench_marker_${Date.now().toString(36)}_${i}`;
  appendFileSync(join(summary.root, target.path), `// ${marker}\n`);
  const started = process.hrtime.bigint();
  await syncIndex(summary.root, { home, paths: [target.path] });
  const found = await service.search({ pattern: marker, caseSensitive: true });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (found.matches.length !== 1) throw new Error(`marker ${marker} not found after sync`);
  const rg = await elapsed(async () => spawnSync('rg', rgArgs({ pattern: marker, caseSensitive: true }), { encoding: 'utf8' }));
  incremental.push({ ms, rg: rg.ms });
}
const watcher = new IndexWatcher(summary.root, { home });
watcher.start();
await new Promise((resolve) => setTimeout(resolve, 2_000)); // let the recursive watch settle
const watched = [];
for (let i = 0; i < 5; i++) {
  const marker = `sextant_watch_marker_${Date.now().toString(36)}_${i}`;
  const started = process.hrtime.bigint();
  appendFileSync(join(summary.root, target.path), `// ${marker}\n`);
  for (;;) {
    const found = await service.search({ pattern: marker, caseSensitive: true });
    if (found.matches.length === 1) break;
    if (Number(process.hrtime.bigint() - started) / 1e6 > 10_000) throw new Error('the watcher never caught the save');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  watched.push(Number(process.hrtime.bigint() - started) / 1e6);
}
watcher.close();
// The corpus is left as it was found.
writeFileSync(join(summary.root, target.path), original);
utimesSync(join(summary.root, target.path), originalStats.atime, originalStats.mtime);
const mergeTimed = await elapsed(async () => (await import(here('../build/src/index/build/merge.js'))).mergeDeltas(summary.root, { home }));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log('');
console.log(`| one saved file (\`${target.path}\`, ${(target.size / 1000).toFixed(0)} kB) | median ms | max ms | rg finding the new line, median ms |`);
console.log('| --- | ---: | ---: | ---: |');
console.log(
  `| sync of that path + search | ${median(incremental.map((r) => r.ms)).toFixed(1)} | ${Math.max(...incremental.map((r) => r.ms)).toFixed(1)} | ${median(incremental.map((r) => r.rg)).toFixed(1)} |`,
);
console.log(`| watcher: save to searchable (150 ms debounce) | ${median(watched).toFixed(1)} | ${Math.max(...watched).toFixed(1)} | |`);
console.log(`| merge of ${mergeTimed.result.merged} delta segments | ${mergeTimed.ms.toFixed(1)} | | |`);
await service.close();

// 5. The CLI against rg, whole processes (issue #13); needs dist/sextant (npm run build:binary).
console.log('');
const { cliVersusRg } = await import('./cli-vs-rg.mjs');
cliVersusRg(summary.root, home, RUNS);

// 6. The symbol targets (issue #12), with ctags -R on the same tree in the same run.
console.log('');
const { symbolTargets } = await import('./symbol-targets.mjs');
await symbolTargets(corpus);
