// Peak memory and time of a whole `sextant index` (text and symbols) of a tree, two builds side
// by side: each round runs both on a fresh home, in alternating order, and the ratio is taken per
// round. Peak RSS is the kernel's account of the process (GNU time's %M: the largest of the
// process and its threads, which share it), so worker threads count.
//
//   node bench/index-memory.mjs --before OLD/dist/sextant.mjs [--rounds 3] TREE...
//
// Needs /usr/bin/time (Debian: time) and a built dist/ (npm run build).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { takeOption } from './options.mjs';

const AFTER = fileURLToPath(new URL('../dist/sextant.mjs', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => takeOption(args, name, fallback);
const before = option('--before');
const rounds = Number(option('--rounds', '3'));
if (!before || args.length === 0) {
  console.error('usage: node bench/index-memory.mjs --before OLD/dist/sextant.mjs [--rounds N] TREE...');
  process.exit(2);
}

/** One `sextant index TREE` with `bundle` on a fresh home: seconds and peak RSS in MB. */
function indexOnce(bundle, tree) {
  const home = mkdtempSync(join(tmpdir(), 'sextant-bench-home-'));
  try {
    const run = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, bundle, 'index', tree], {
      encoding: 'utf8',
      env: { ...process.env, SEXTANT_HOME: home },
      maxBuffer: 1 << 26,
    });
    const [seconds, kb] = run.stderr.trim().split('\n').at(-1).split(' ').map(Number);
    if (run.status !== 0) throw new Error(`index failed (${run.status}): ${run.stderr.slice(-500)}`);
    return { seconds, mb: kb / 1024 };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`| tree | before: peak MB | after: peak MB | after/before (median of ${rounds} paired) | before: s | after: s |`);
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const tree of args) {
  // Warm-up: the file cache holds the tree for both.
  indexOnce(AFTER, tree);
  const pairs = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
    const result = {};
    for (const which of order) result[which] = indexOnce(which === 'before' ? before : AFTER, tree);
    pairs.push(result);
  }
  const mb = (which) => median(pairs.map((pair) => pair[which].mb)).toFixed(0);
  const s = (which) => median(pairs.map((pair) => pair[which].seconds)).toFixed(2);
  const ratio = median(pairs.map((pair) => pair.after.mb / pair.before.mb)).toFixed(2);
  console.log(`| ${tree} | ${mb('before')} | ${mb('after')} | ${ratio} | ${s('before')} | ${s('after')} |`);
}
