// How well search_code ranks (#14): a query set over an indexed tree (the Linux corpus of
// bench/RESULTS.md), three classes — identifiers with many definitions, identifiers defined a few
// times and used thousands of times, multi-word literals — run through a real server over stdio.
// The expected answers come from the symbol index (build/: every definition of the name, any
// case); the table gives, per query and per class:
//   recall@k   of the first k results, how many are definitions of the name, k = min(definitions, 20)
//   MRR        1 / the rank of the first definition (for a literal: of the first match inside a
//              definition's body, outside tests, test data, vendored and generated files)
//   P@10       of the first 10, how many are such answers
//   rank ms    what ranking adds to a warm query, as the server measures it (ranking_ms: the
//              definitions of the name read, the matches ordered, the page described), p50 of 5
//
//   npm run build && node bench/relevance.mjs LINUX --home H   (H: an index home with LINUX indexed)
import { existsSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stdioServer } from './symbol-targets.mjs';

const corpus = process.argv[2];
const homeAt = process.argv.indexOf('--home');
if (!corpus || homeAt < 0) {
  console.error('usage: node bench/relevance.mjs TREE --home INDEX_HOME');
  process.exit(2);
}
const root = realpathSync(corpus);
const home = process.argv[homeAt + 1];
const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const BINARY = here('../dist/sextant');
const useBinary = existsSync(BINARY) && !process.env.SEXTANT_BENCH_MJS;

let modules;
try {
  modules = { ...(await import('../build/src/index/symbols/symbol-index.js')), ...(await import('../build/src/index/store/store.js')) };
} catch {
  console.error('bench/relevance.mjs reads the symbol index through build/: run `npm run build` first');
  process.exit(2);
}
const symbols = modules.SymbolIndex.open(new modules.IndexStore(root, home));

const CLASSES = {
  'many definitions': ['main', 'setup', 'pr_err', 'container_of', 'BUG_ON', 'printk', 'reset'],
  'few definitions, many uses': [
    'kfree',
    'mutex_lock',
    'spin_lock_irqsave',
    'list_add',
    'copy_from_user',
    'task_struct',
    'file_operations',
    'READ_ONCE',
    'memcpy',
  ],
  'multi-word literals': ['page fault', 'out of memory', 'no such device', 'invalid argument', 'cache line'],
};
const LOW_VALUE = /(^|\/)(tests?|testdata|fixtures|selftests|vendor|node_modules|third_party|Documentation)\/|_test\.go$|\.min\.js$/;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const server = await stdioServer(root, home);

const rows = [];
for (const [kind, queries] of Object.entries(CLASSES)) {
  for (const query of queries) {
    const literal = query.includes(' ');
    const definitions = literal ? [] : symbols.definitionsNamed(query, { caseSensitive: false, limit: Infinity }).found;
    // A definition is shown on the line of its name: its first line or one of the next two (C's `static int` / `name(…)`).
    const defined = new Set(
      definitions.flatMap(({ path, symbol }) =>
        [0, 1, 2].filter((below) => symbol.line + below <= symbol.endLine).map((below) => `${path}:${symbol.line + below}`),
      ),
    );
    const relevant = (result) => (literal ? result.symbol !== undefined && !LOW_VALUE.test(result.path) : defined.has(`${result.path}:${result.line}`));
    const rounds = [];
    let results = [];
    let total = 0;
    for (let run = 0; run < 6; run++) {
      const answer = await server.call('search_code', { query, limit: 20 });
      const structured = answer.result.structuredContent;
      results = structured.results;
      total = structured.total_matches;
      if (run > 0) rounds.push(structured.ranking_ms); // the first warms the workers and caches
    }
    const k = literal ? 0 : Math.min(definitions.length, 20);
    const first = results.findIndex(relevant);
    rows.push({
      kind,
      query,
      definitions: literal ? '—' : definitions.length,
      total,
      recall: k === 0 ? undefined : results.slice(0, k).filter(relevant).length / k,
      mrr: first < 0 ? 0 : 1 / (first + 1),
      p10: results.slice(0, 10).filter(relevant).length / Math.min(10, Math.max(1, results.length)),
      rankMs: median(rounds),
      top: results.slice(0, 3).map((result) => `${result.path}:${result.line}`),
    });
  }
}
server.close();

const fixed = (value, digits = 2) => (value === undefined ? '—' : value.toFixed(digits));
console.log(`search_code relevance on ${root} (${useBinary ? 'dist/sextant' : `node ${process.versions.node} dist/sextant.mjs`})`);
console.log('');
console.log('| class | query | definitions | matches | recall@k | MRR | P@10 | rank ms | first results |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
for (const row of rows)
  console.log(
    `| ${row.kind} | \`${row.query}\` | ${row.definitions} | ${row.total} | ${fixed(row.recall)} | ${fixed(row.mrr)} | ${fixed(row.p10)} | ${fixed(row.rankMs, 1)} | ${row.top.join(', ')} |`,
  );
console.log('');
console.log('| class | recall@k (mean) | MRR (mean) | P@10 (mean) | rank ms (p50 of queries) |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const kind of Object.keys(CLASSES)) {
  const of = rows.filter((row) => row.kind === kind);
  const mean = (pick) => {
    const values = of.map(pick).filter((value) => value !== undefined);
    return values.length === 0 ? undefined : values.reduce((sum, value) => sum + value, 0) / values.length;
  };
  console.log(
    `| ${kind} | ${fixed(mean((row) => row.recall))} | ${fixed(mean((row) => row.mrr))} | ${fixed(mean((row) => row.p10))} | ${fixed(median(of.map((row) => row.rankMs)), 1)} |`,
  );
}
