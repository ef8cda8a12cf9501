// What WebAssembly on V8's baseline compiler costs the index (src/cli/wasm-baseline.ts): a whole
// `sextant index --force` of each tree on Node 24 with the optimizing tier (as it was, which aborts on
// Swift) and with --liftoff-only (as it runs now), side by side in alternating order after a
// warm-up, with Node 20 as the third column. The symbol phase is the part that parses.
//
//   node bench/wasm-baseline.mjs --node24 PATH [--rounds 5] TREE...
//
// Runs build/src/cli/main.js (npm run build), which starts no second process, so each flag is as given.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { takeOption } from './options.mjs';

const MAIN = fileURLToPath(new URL('../build/src/cli/main.js', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => takeOption(args, name, fallback);
const node24 = option('--node24');
const rounds = Number(option('--rounds', '5'));
if (!node24 || args.length === 0) {
  console.error('usage: node bench/wasm-baseline.mjs --node24 PATH [--rounds N] TREE...');
  process.exit(2);
}

const RUNTIMES = [
  { name: 'Node 24, optimizing tier', command: node24, flags: [] },
  { name: 'Node 24, --liftoff-only', command: node24, flags: ['--liftoff-only'] },
  { name: `Node ${process.versions.node}`, command: process.execPath, flags: [] },
];

/** One whole index on a fresh home: wall seconds, the symbol phase's seconds, peak RSS in MB. */
function indexOnce(runtime, tree) {
  const home = mkdtempSync(join(tmpdir(), 'sextant-bench-home-'));
  try {
    const run = spawnSync('/usr/bin/time', ['-f', '%e %M', runtime.command, ...runtime.flags, MAIN, 'index', '--force', tree], {
      encoding: 'utf8',
      env: { ...process.env, SEXTANT_HOME: home },
      maxBuffer: 1 << 26,
    });
    if (run.status !== 0) throw new Error(`${runtime.name}: index failed (${run.status}): ${run.stderr.slice(-400)}`);
    const [seconds, kb] = run.stderr.trim().split('\n').at(-1).split(' ').map(Number);
    const symbols = Number(/^Symbols: .* in ([\d.]+) s$/m.exec(run.stdout)?.[1]);
    return { seconds, symbols, mb: kb / 1024 };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

for (const tree of args) {
  for (const runtime of RUNTIMES) indexOnce(runtime, tree); // warm-up: file cache, compile cache
  const samples = RUNTIMES.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? RUNTIMES.map((_, i) => i) : RUNTIMES.map((_, i) => i).reverse();
    for (const i of order) samples[i].push(indexOnce(RUNTIMES[i], tree));
  }
  console.log(`\n${tree}: median of ${rounds} paired rounds`);
  console.log('| runtime | index, wall s | symbol phase s | peak RSS MB |');
  console.log('| --- | ---: | ---: | ---: |');
  RUNTIMES.forEach((runtime, i) => {
    const s = samples[i];
    console.log(
      `| ${runtime.name} | ${median(s.map((x) => x.seconds)).toFixed(2)} | ${median(s.map((x) => x.symbols)).toFixed(2)} | ${median(s.map((x) => x.mb)).toFixed(0)} |`,
    );
  });
}
