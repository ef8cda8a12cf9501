// Start-up, whole process, side by side: the binary and the .mjs bundle against bare Node (the
// binary's own base, Node 24, and the Node running this script); then the time from a server's
// start to its first answer over stdio (an `initialize` already waiting on stdin), against bare
// Node answering one line. The binary's rows need `npm run build:binary`; without it they are left out.
//
//   node bench/startup.mjs [--runs 30] [--before OLD/dist/sextant.mjs] [-- ARGS...]
//
// ARGS: a command to time besides --version. --before: another build's bundle, timed beside this
// one. Rows are measured in alternation, one run of each per round, so that a busy moment of the
// machine falls on all of them; with --before, each round's after/before ratio is paired and
// their median printed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const extra = dash >= 0 ? argv.slice(dash + 1) : [];
const runsAt = argv.indexOf('--runs');
const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 30;
const binary = resolve('dist/sextant');
const bundle = resolve('dist/sextant.mjs');
const beforeAt = argv.indexOf('--before');
const before = beforeAt >= 0 ? resolve(argv[beforeAt + 1]) : undefined;
if (before && !existsSync(before)) throw new Error(`--before ${before}: no such bundle`);
const base = resolve('node_modules/.cache/sextant-node/24.21.0/package/bin/node');
const haveBinary = existsSync(binary) && existsSync(base);
if (!haveBinary) console.error('bench/startup.mjs: no dist/sextant (npm run build:binary): its rows are left out');

// NODE_EXTRA_CA_CERTS makes Node 20 read a CA bundle at start-up (~40 ms here; Node 24 reads it
// when TLS is first used): a setting of this machine, not of Node or Sextant, so it is left out.
const env = { ...process.env };
const strippedCa = env.NODE_EXTRA_CA_CERTS !== undefined;
delete env.NODE_EXTRA_CA_CERTS;

/** p50 and p90 of a row's samples. */
function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: sorted[Math.floor(sorted.length / 2)], p90: sorted[Math.floor(sorted.length * 0.9)] };
}

/** The median, over rounds, of sample[after] / sample[before] within each round. */
function pairedRatio(samplesAfter, samplesBefore) {
  return summary(samplesAfter.map((ms, i) => ms / samplesBefore[i])).p50;
}

/** Every row once per round, in turn, for 3 warm-up rounds and `runs` measured ones. */
async function alternate(rows, measure) {
  const samples = rows.map(() => []);
  for (let round = 0; round < runs + 3; round++) {
    for (const [at, [, command, args]] of rows.entries()) {
      const ms = await measure(command, args);
      if (round >= 3) samples[at].push(ms); // the first rounds warm the page cache
    }
  }
  return samples;
}

function once(command, args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0 && result.status !== 1) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return ms;
}

if (haveBinary) {
  const rows = [
    ["node 24 -e 0 (the binary's base)", base, ['-e', '0']],
    [`node ${process.versions.node} -e 0`, process.execPath, ['-e', '0']],
    ['dist/sextant --version', binary, ['--version']],
    [`node ${process.versions.node} dist/sextant.mjs --version`, process.execPath, [bundle, '--version']],
  ];
  if (extra.length > 0) {
    rows.push([`dist/sextant ${extra.join(' ')}`, binary, extra]);
    rows.push([`node dist/sextant.mjs ${extra.join(' ')}`, process.execPath, [bundle, ...extra]]);
  }
  const samples = await alternate(rows, once);
  const results = rows.map(([label], at) => ({ label, ...summary(samples[at]) }));
  const node24 = results[0].p50;
  const node20 = results[1].p50;
  console.log(
    `start-up, ${runs} runs each (p50 / p90 ms; ratio of p50 to bare node 24 and node ${process.versions.node})${strippedCa ? '; NODE_EXTRA_CA_CERTS unset for every process' : ''}`,
  );
  console.log('| process | p50 ms | p90 ms | × node 24 | × node ' + process.versions.node.split('.')[0] + ' |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const { label, p50, p90 } of results)
    console.log(`| ${label} | ${p50.toFixed(1)} | ${p90.toFixed(1)} | ${(p50 / node24).toFixed(2)} | ${(p50 / node20).toFixed(2)} |`);
  console.log('');
}

/** From spawn to the first line on stdout, `initialize` written to stdin at once; the process is then killed. */
async function firstAnswer(command, args) {
  const line = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`;
  const started = process.hrtime.bigint();
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'], env: { ...env, SEXTANT_PROJECT: process.cwd() } });
  child.stdin.write(line);
  await new Promise((resolve, reject) => {
    child.stdout.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited ${code} before answering`)));
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  child.removeAllListeners('exit');
  child.kill();
  await new Promise((resolve) => child.once('exit', resolve));
  return ms;
}

const echo = `process.stdin.once('data', () => process.stdout.write('{}\\n'))`;
const answers = [
  [`node ${process.versions.node} answering one line (bare)`, process.execPath, ['-e', echo]],
  [`node ${process.versions.node} dist/sextant.mjs serve`, process.execPath, [bundle, 'serve']],
];
if (haveBinary) answers.push(['dist/sextant serve', binary, ['serve']]);
if (before) answers.push([`before: node ${process.versions.node} ${before} serve`, process.execPath, [before, 'serve']]);
const answerSamples = await alternate(answers, firstAnswer);
const measured = answers.map(([label], at) => ({ label, ...summary(answerSamples[at]) }));
console.log(`first answer over stdio (initialize), ${runs} runs each: p50 / p90 ms from spawn, and p50 beyond bare node`);
console.log('| process | p50 ms | p90 ms | p50 − bare ms |');
console.log('| --- | ---: | ---: | ---: |');
for (const { label, p50, p90 } of measured) console.log(`| ${label} | ${p50.toFixed(1)} | ${p90.toFixed(1)} | ${(p50 - measured[0].p50).toFixed(1)} |`);
if (before) {
  console.log('');
  console.log(`this bundle against --before, ${runs} paired rounds: median of each round's after / before`);
  console.log('| measure | after / before |');
  console.log('| --- | ---: |');
  console.log(`| \`serve\` to its first answer | ${pairedRatio(answerSamples[1], answerSamples.at(-1)).toFixed(3)} |`);
  const versions = await alternate(
    [
      ['after', process.execPath, [bundle, '--version']],
      ['before', process.execPath, [before, '--version']],
    ],
    once,
  );
  console.log(`| \`--version\` | ${pairedRatio(versions[0], versions[1]).toFixed(3)} |`);
  console.log(`(--version p50: after ${summary(versions[0]).p50.toFixed(1)} ms, before ${summary(versions[1]).p50.toFixed(1)} ms)`);
}
