// Issue 28's targets on several trees, each beside Universal Ctags in the same run: the whole
// `sextant index` (text + symbols, a whole process) against ctags on the same files (those
// `rg --files --hidden --max-filesize 1M` lists, which honours the same ignore files), the
// symbol phase alone against ctags, the index on disk against the source, and a cold `sextant
// symbols NAME` (a whole process: start, open the name table, print). Recall of ctags'
// definitions is bench/symbol-agreement.mjs's, on the same trees.
//
//   npm run build && node bench/symbol-corpora.mjs go=/usr/share/go-1.19/src python=/usr/lib/python3.11 ... [--runs 2]
//
// Each tree is indexed into a scratch SEXTANT_HOME, removed at the end. Needs `ctags`
// (Debian: universal-ctags) and `rg`. Prints one Markdown row per tree.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../dist/sextant.mjs', import.meta.url));
const runsAt = process.argv.indexOf('--runs');
const RUNS = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 2;
const trees = process.argv
  .slice(2)
  .filter((arg, i, all) => arg.includes('=') && all[i - 1] !== '--runs')
  .map((arg) => arg.split('='));
if (trees.length === 0) {
  console.error('usage: node bench/symbol-corpora.mjs NAME=DIR [NAME=DIR ...] [--runs 2]');
  process.exit(2);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
function timed(command, args, env = {}) {
  const started = process.hrtime.bigint();
  const run = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 1 << 28 });
  if (run.status !== 0 && run.status !== 1) throw new Error(`${command} ${args.join(' ')}: ${run.stderr}`);
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, stdout: run.stdout, stderr: run.stderr };
}

/** Three names ctags found, spread over its (sorted) tags file: what a user might look up. */
function namesFrom(tags) {
  const names = readFileSync(tags, 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('!'))
    .map((line) => line.slice(0, line.indexOf('\t')))
    .filter((name) => /^[A-Za-z_]\w{3,}$/.test(name));
  return [0.2, 0.5, 0.8].map((at) => names[Math.floor(at * names.length)]);
}

const scratch = mkdtempSync(join(tmpdir(), 'sextant-symbol-corpora-'));
const ctagsVersion = execFileSync('ctags', ['--version'], { encoding: 'utf8' }).split('\n')[0];
console.log(
  `${cpus().length} × ${cpus()[0].model}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${ctagsVersion}; load ${loadavg()[0].toFixed(2)}\n`,
);
console.log('| tree | files | source MB | ctags | whole index | × ctags | symbols alone | × ctags | on disk | `symbols NAME` cold |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
try {
  for (const [name, dir] of trees) {
    const tags = join(scratch, `${name}.tags`);
    const list = join(scratch, `${name}.files`);
    writeFileSync(list, execFileSync('rg', ['--files', '--hidden', '--max-filesize', '1M', dir], { encoding: 'utf8', maxBuffer: 1 << 28 }));
    const ctags = [];
    const whole = [];
    const symbols = [];
    let summary = '';
    for (let run = 0; run < RUNS; run++) {
      // Alternated, each on a warm page cache: ctags first, then a fresh index.
      ctags.push(timed('ctags', ['-f', tags, '-L', list]).ms);
      const home = join(scratch, `${name}-home`);
      rmSync(home, { recursive: true, force: true });
      const index = timed(process.execPath, [BIN, 'index', dir], { SEXTANT_HOME: home });
      whole.push(index.ms);
      const phase = /Symbols: .* in ([\d.]+) s/.exec(index.stdout + index.stderr);
      symbols.push(phase ? Number(phase[1]) * 1000 : NaN);
      summary = index.stdout + index.stderr;
    }
    const files = /Indexed (\d[\d,]*) files/.exec(summary)?.[1] ?? '?';
    const disk = /Index on disk: ([\d.]+) MB \(([\d.]+)% of source\)/.exec(summary);
    const sourceMb = disk ? Number(disk[1]) / (Number(disk[2]) / 100) : NaN;
    const home = join(scratch, `${name}-home`);
    timed(process.execPath, [BIN, '--version']);
    const cold = namesFrom(tags).map((symbol) => {
      const ms = median(Array.from({ length: 5 }, () => timed(process.execPath, [BIN, 'symbols', symbol, dir, '--limit', '5'], { SEXTANT_HOME: home }).ms));
      return `${symbol} ${ms.toFixed(0)}`;
    });
    const c = median(ctags);
    const w = median(whole);
    const s = median(symbols);
    console.log(
      `| ${name} | ${files} | ${sourceMb.toFixed(1)} | ${(c / 1000).toFixed(2)} s | ${(w / 1000).toFixed(2)} s | ${(w / c).toFixed(1)}× | ${(s / 1000).toFixed(2)} s | ${(s / c).toFixed(1)}× | ${disk ? `${disk[1]} MB (${disk[2]}%)` : '?'} | ${cold.join(', ')} ms |`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
