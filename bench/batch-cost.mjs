// A search thread's cost of a search across projects, against one index of the same files: the
// batch a search thread is sent (src/index/search/threads/project-search.ts), timed in one
// process, with no server, no other thread and no load client, so that what a project costs the
// thread is not lost in a loaded machine's noise (load-search.mjs measures the server whole).
// Each batch is what the main thread sends for a call that names no project: every project, one
// query object for all, page end 20, each project's index stamps. Projects answered by their
// definitions alone, unsearched, are searched here too: the figure is the thread's worst case.
//
//   npm run build && node bench/batch-cost.mjs --split GO_SRC,PY_LIB [--projects 20]
//        [--classes selective,common] [--rounds 5] [--reps 10] [--warmup 2] [--other OLD/build]
//
// Both sides are timed in turn, each round alternating which goes first; the figure is the
// median of the rounds' ms per batch. --other: another build's compiled `build/` folder, timed in
// the same process beside this one, alternating too (it must read the index this build writes):
// in-process pairs tell apart changes a loaded server cannot. bench/RESULTS.md has the runs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { QUERIES, splitLibraries } from './split-corpus.mjs';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const SPLIT = arg('split', undefined)?.split(',');
if (!SPLIT) {
  console.error(
    'usage: node bench/batch-cost.mjs --split DIR,DIR [--projects 20] [--classes selective,common] [--rounds 5] [--reps 10] [--warmup 2] [--other OLD/build]',
  );
  process.exit(2);
}
const PROJECT_COUNT = Number(arg('projects', 20));
const CLASSES = arg('classes', 'selective,common').split(',');
const ROUNDS = Number(arg('rounds', 5));
const REPS = Number(arg('reps', 10));
const WARMUP = Number(arg('warmup', 2));
const OTHER = arg('other', undefined);
const BIN = fileURLToPath(new URL('../dist/sextant.mjs', import.meta.url));
/** As a search thread holds them: its share of the open-file budget, and a text trusted this long without a stat (search-thread.ts). */
const OPEN_FILES = 256;
const CONTENT_FRESH_MS = 500;
const CONTENT_BYTES = 128 * 2 ** 20;
/** The page a call without a cursor asks for (search_code's default limit). */
const PAGE_END = 20;

/** A build's search-thread code, from its compiled `build/src`. */
async function loadBuild(label, srcDir) {
  const at = (path) => import(pathToFileURL(join(srcDir, path)).href);
  const [{ OpenProjects }, { ContentCache }, { searchBatch }, { unpack }] = await Promise.all([
    at('index/search/threads/open-projects.js'),
    at('index/search/content-cache.js'),
    at('index/search/threads/project-search.js'),
    at('index/search/wire.js'),
  ]);
  return { label, OpenProjects, ContentCache, searchBatch, unpack };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
}

async function main() {
  const home = mkdtempSync(join(tmpdir(), 'sextant-batch-home-'));
  const corpus = mkdtempSync(join(tmpdir(), 'sextant-batch-split-'));
  try {
    const folders = splitLibraries(SPLIT, PROJECT_COUNT, corpus);
    const env = { ...process.env, SEXTANT_HOME: home };
    for (const root of [corpus, ...folders]) {
      const indexed = spawnSync(process.execPath, [BIN, 'index', root], { env, encoding: 'utf8' });
      if (indexed.status !== 0) throw new Error(`sextant index ${root} failed: ${indexed.stderr}`);
    }
    const here = fileURLToPath(new URL('../build/src/', import.meta.url));
    const builds = [await loadBuild('this', here), ...(OTHER ? [await loadBuild('other', join(resolve(OTHER), 'src'))] : [])];
    // Each project's stamps as the main thread reads them (Project.stamps), read once here: the thread trusts them.
    const { fileStamp, IndexStore } = await import(pathToFileURL(join(here, 'index/store/store.js')).href);
    const { symbolsStamp } = await import(pathToFileURL(join(here, 'index/symbols/index.js')).href);
    const stampsOf = (root) => {
      const store = new IndexStore(root, home);
      return { manifest: fileStamp(store.manifestPath), symbols: symbolsStamp(store) };
    };
    const sides = [
      { label: String(folders.length), roots: folders },
      { label: '1 (same files)', roots: [corpus] },
    ].map((side) => ({ ...side, stamps: side.roots.map(stampsOf) }));
    // Every build and side its own thread state (open projects, cached text), as a fresh thread would hold.
    const runs = builds.flatMap((build) =>
      sides.map((side) => ({
        build,
        side,
        projects: new build.OpenProjects(home, new build.ContentCache(CONTENT_BYTES, { freshForMs: CONTENT_FRESH_MS }), OPEN_FILES),
      })),
    );
    let id = 1;
    /** ms per batch of `queries`, each batch every project of the side. */
    const time = ({ build, side, projects }, queries, reps) => {
      const started = performance.now();
      for (let rep = 0; rep < reps; rep++) {
        for (const { query: pattern, regex = false } of queries) {
          // One query object for every project, as a structured clone of the main thread's batch gives it.
          const query = { pattern, regex, caseSensitive: false, limit: 1_000, sourceFirst: true, context: 0 };
          const batch = side.roots.map((root, at) => ({ root, query, pageEnd: PAGE_END, stamps: side.stamps[at] }));
          const { reply } = build.searchBatch(projects, { id: id++, batch });
          for (const one of reply.results) {
            if ('error' in one) throw new Error(`${build.label}, ${side.label}: ${one.error.message}`);
            build.unpack(one.result);
          }
        }
      }
      return (performance.now() - started) / (reps * queries.length);
    };
    console.log(
      `${SPLIT.join(' + ')} in ${folders.length} projects; node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; ${WARMUP} warm-up and ${ROUNDS} timed rounds of ${REPS} passes over each class's queries\n`,
    );
    console.log(`| ${OTHER ? 'build | ' : ''}queries | projects | ms per batch (median) | per round |`);
    console.log(`| ${OTHER ? '--- | ' : ''}--- | --- | ---: | --- |`);
    const figures = new Map();
    for (const name of CLASSES) {
      const queries = QUERIES[name];
      if (!queries) throw new Error(`unknown class ${name}`);
      for (let round = 0; round < WARMUP; round++) for (const run of runs) time(run, queries, REPS);
      const perRound = new Map(runs.map((run) => [run, []]));
      for (let round = 0; round < ROUNDS; round++) {
        for (const run of round % 2 === 0 ? runs : [...runs].reverse()) perRound.get(run).push(time(run, queries, REPS));
      }
      for (const run of runs) {
        const values = perRound.get(run);
        figures.set(`${run.build.label} ${name} ${run.side.label}`, values);
        console.log(
          `| ${OTHER ? `${run.build.label} | ` : ''}${name} | ${run.side.label} | ${median(values).toFixed(3)} | ${values.map((value) => value.toFixed(3)).join(', ')} |`,
        );
      }
    }
    console.log(
      `\n| ${OTHER ? 'build | ' : ''}queries | ${folders.length} projects / one index, per round | median |\n| ${OTHER ? '--- | ' : ''}--- | --- | ---: |`,
    );
    for (const build of builds) {
      for (const name of CLASSES) {
        const many = figures.get(`${build.label} ${name} ${sides[0].label}`);
        const one = figures.get(`${build.label} ${name} ${sides[1].label}`);
        const ratios = many.map((value, round) => value / one[round]);
        console.log(`| ${OTHER ? `${build.label} | ` : ''}${name} | ${ratios.map((value) => value.toFixed(2)).join(', ')} | ${median(ratios).toFixed(2)} |`);
      }
    }
    if (OTHER) {
      console.log(`\n| queries | projects | this / other, per round | median |\n| --- | --- | --- | ---: |`);
      for (const name of CLASSES) {
        for (const side of sides) {
          const mine = figures.get(`this ${name} ${side.label}`);
          const theirs = figures.get(`other ${name} ${side.label}`);
          const ratios = mine.map((value, round) => value / theirs[round]);
          console.log(`| ${name} | ${side.label} | ${ratios.map((value) => value.toFixed(3)).join(', ')} | ${median(ratios).toFixed(3)} |`);
        }
      }
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
    rmSync(corpus, { recursive: true, force: true });
  }
}

await main();
