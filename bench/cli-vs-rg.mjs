// The CLI's search against rg, whole processes start to exit, on the same files with the same
// flags: the single executable (dist/sextant, npm run build:binary) and the .mjs bundle on this
// Node, each query run alternately with rg, p50 of N runs. The lines each prints are compared:
// the same path:line pairs, or the row says how many differ.
//
//   node bench/cli-vs-rg.mjs CORPUS --home SEXTANT_HOME [--runs 15] [--queries linux|go]   (CORPUS indexed in that home)
//       [--baseline OTHER_BINARY --baseline-home ITS_HOME]   (another build, alternated with the rest;
//       a .mjs bundle runs on this Node and is paired with this bundle, run by run, a binary with the binary)
//
// Also the last part of bench/index-search.mjs, which indexes the corpus first.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GO_QUERIES, QUERIES } from './queries.mjs';

const BINARY = fileURLToPath(new URL('../dist/sextant', import.meta.url));
const BUNDLE = fileURLToPath(new URL('../dist/sextant.mjs', import.meta.url));

/** rg with the index's own view of the tree: .gitignore applied without a .git, hidden files, the 16 MiB file limit. */
function rgArgs(query, root) {
  return [
    '--no-config',
    '--hidden',
    '--no-require-git',
    '--max-filesize',
    '16M',
    '--no-messages',
    '--no-heading',
    '--line-number',
    '--column',
    '--crlf',
    query.caseSensitive ? '--case-sensitive' : '--ignore-case',
    ...(query.regex ? [] : ['--fixed-strings']),
    '--',
    query.pattern,
    root,
  ];
}

function sextantArgs(query, root) {
  return ['search', '--limit', '100000000', ...(query.caseSensitive ? ['--case-sensitive'] : []), ...(query.regex ? ['--regex'] : []), query.pattern, root];
}

// NODE_EXTRA_CA_CERTS (set on some machines) makes Node 20 read a CA bundle at start-up: left out.
const { NODE_EXTRA_CA_CERTS: _ca, ...baseEnv } = process.env;

function run(command, args, env) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...baseEnv, ...env } });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0 && result.status !== 1) throw new Error(`${command} ${args.join(' ')}: exit ${result.status}: ${result.stderr}`);
  return { ms, stdout: result.stdout };
}

/** path:line of every line printed (rg prints the root given; sextant project-relative paths). */
function linesOf(stdout, root) {
  const found = new Set();
  for (const line of stdout.split('\n')) {
    const match = /^(.*?):(\d+):\d+:/.exec(line);
    if (!match) continue;
    const path = match[1].startsWith(`${root}/`) ? match[1].slice(root.length + 1) : match[1];
    found.add(`${path}:${match[2]}`);
  }
  return found;
}

const p50 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** `baseline`: another build of the binary ({ binary, home }: its own index), a column of its own. */
export function cliVersusRg(root, home, runs = 15, baseline = undefined, queries = QUERIES) {
  if (!existsSync(BINARY)) throw new Error('bench/cli-vs-rg.mjs: build dist/sextant first (npm run build:binary)');
  const env = { SEXTANT_HOME: home };
  const rows = [];
  for (const query of queries) {
    const times = { binary: [], bundle: [], rg: [], baseline: [], paired: [] };
    const bundleBaseline = baseline?.binary.endsWith('.mjs');
    let outputs;
    for (let i = 0; i < runs + 1; i++) {
      const binary = run(BINARY, sextantArgs(query, root), env);
      const bundle = run(process.execPath, [BUNDLE, ...sextantArgs(query, root)], env);
      const rg = run('rg', rgArgs(query, root), {});
      const beforeArgs = sextantArgs(query, root);
      const before = baseline
        ? bundleBaseline
          ? run(process.execPath, [baseline.binary, ...beforeArgs], { SEXTANT_HOME: baseline.home })
          : run(baseline.binary, beforeArgs, { SEXTANT_HOME: baseline.home })
        : undefined;
      if (i === 0) {
        outputs = { binary: binary.stdout, rg: rg.stdout }; // the first run warms the page cache
        continue;
      }
      times.binary.push(binary.ms);
      times.bundle.push(bundle.ms);
      times.rg.push(rg.ms);
      if (before) {
        times.baseline.push(before.ms);
        times.paired.push((bundleBaseline ? bundle.ms : binary.ms) / before.ms);
      }
    }
    const ours = linesOf(outputs.binary, root);
    const theirs = linesOf(outputs.rg, root);
    const differ = [...ours].filter((line) => !theirs.has(line)).length + [...theirs].filter((line) => !ours.has(line)).length;
    rows.push({
      query,
      lines: ours.size,
      rgLines: theirs.size,
      differ,
      binary: p50(times.binary),
      bundle: p50(times.bundle),
      rg: p50(times.rg),
      baseline: baseline ? p50(times.baseline) : undefined,
      paired: baseline ? p50(times.paired) : undefined,
    });
  }
  const extra = baseline ? ` baseline ${baseline.binary} | ${baseline.binary.endsWith('.mjs') ? 'bundle' : 'binary'} ÷ baseline, paired |` : '';
  console.log(
    `| CLI search, whole process (${runs} runs, p50 ms) | lines (sextant / rg) |${extra} dist/sextant | node ${process.versions.node} dist/sextant.mjs | rg | binary ÷ rg |`,
  );
  console.log(`| --- | ---: |${baseline ? ' ---: | ---: |' : ''} ---: | ---: | ---: | ---: |`);
  for (const row of rows) {
    const same = row.differ === 0 ? 'same' : `${row.differ} differ`;
    console.log(
      `| ${row.query.name}: \`${row.query.pattern.replace(/\|/g, '\\|')}\` | ${row.lines} / ${row.rgLines} (${same}) |${baseline ? ` ${row.baseline.toFixed(0)} | ${row.paired.toFixed(3)} |` : ''} ${row.binary.toFixed(0)} | ${row.bundle.toFixed(0)} | ${row.rg.toFixed(0)} | ${(row.binary / row.rg).toFixed(2)} |`,
    );
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2];
  const homeAt = process.argv.indexOf('--home');
  const runsAt = process.argv.indexOf('--runs');
  const baselineAt = process.argv.indexOf('--baseline');
  const baselineHomeAt = process.argv.indexOf('--baseline-home');
  if (!root || homeAt < 0) {
    console.error('usage: node bench/cli-vs-rg.mjs CORPUS --home SEXTANT_HOME [--runs N]');
    process.exit(2);
  }
  const baseline =
    baselineAt > 0
      ? { binary: process.argv[baselineAt + 1], home: baselineHomeAt > 0 ? process.argv[baselineHomeAt + 1] : process.argv[homeAt + 1] }
      : undefined;
  const querySet = process.argv.includes('--queries') ? process.argv[process.argv.indexOf('--queries') + 1] : 'linux';
  cliVersusRg(root, process.argv[homeAt + 1], runsAt > 0 ? Number(process.argv[runsAt + 1]) : 15, baseline, querySet === 'go' ? GO_QUERIES : QUERIES);
}
