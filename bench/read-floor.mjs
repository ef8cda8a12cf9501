// The floor under the CLI's searches that read most of a tree (common words, regexes with no
// usable literal, a one-letter non-ASCII literal), beside rg's whole run of the same searches.
// The index cannot rule those files out, so each must be opened and read: this bench does only
// that, one thread, the way Node does it (openSync, readSync into one kept buffer, closeSync), and
// again with the checks ProjectFiles adds to every read (fstat: a regular file; readlink of
// /proc/self/fd/N: the file opened is inside the project). No matching, no output, no start-up.
//
//   node bench/read-floor.mjs TREE [--rounds 7] [--node PATH]
//
// --node also runs the floor on another runtime (the binary's Node 24). Each round runs the
// floor and then rg, one after the other; the figures are medians over rounds. bench/RESULTS.md
// ("cli-vs-rg", the medium tree) has the run.
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, fstatSync, openSync, readlinkSync, readSync } from 'node:fs';
import { join } from 'node:path';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const tree = process.argv[2];
if (!tree || (tree.startsWith('--') && tree !== '--pass')) {
  console.error('usage: node bench/read-floor.mjs TREE [--rounds 7] [--node PATH]');
  process.exit(2);
}
const ROUNDS = Number(arg('rounds', 7));
const OTHER_NODE = arg('node', undefined);

/** One pass over every file: milliseconds. Run as a child with `--pass MODE TREE` to time another runtime. */
function pass(files, checked) {
  const buffer = Buffer.allocUnsafe(16 << 20);
  const started = performance.now();
  for (const file of files) {
    const fd = openSync(file, 'r');
    try {
      if (checked) {
        fstatSync(fd);
        readlinkSync(`/proc/self/fd/${fd}`);
      }
      while (readSync(fd, buffer, 0, buffer.length, null) > 0);
    } finally {
      closeSync(fd);
    }
  }
  return performance.now() - started;
}

const listFiles = (root) =>
  execFileSync('rg', ['--files', root], { maxBuffer: 1 << 28, encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((file) => (file.startsWith('/') ? file : join(root, file)));

if (process.argv[2] === '--pass') {
  const [, , , mode, root] = process.argv;
  const files = listFiles(root);
  pass(files, mode === 'checked'); // warm-up: the page cache and the JIT
  console.log(JSON.stringify(pass(files, mode === 'checked')));
  process.exit(0);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const files = listFiles(tree);
const RG_SEARCHES = [
  { name: 'common word: `copyright` (any case)', args: ['-n', '-i', 'copyright'] },
  { name: 'regex, no literal: `[A-Z]{3}[0-9]{3}`', args: ['-n', '[A-Z]{3}[0-9]{3}'] },
  { name: 'non-ASCII literal: `é`', args: ['-n', '-i', 'é'] },
];
const runtimes = [process.execPath, ...(OTHER_NODE ? [OTHER_NODE] : [])];
const floors = new Map();
const rg = new Map(RG_SEARCHES.map((search) => [search.name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const node of runtimes) {
    for (const mode of ['plain', 'checked']) {
      const out = spawnSync(node, [new URL(import.meta.url).pathname, '--pass', mode, tree], { encoding: 'utf8', maxBuffer: 1 << 20 });
      if (out.status !== 0) throw new Error(out.stderr);
      const key = `${node}\0${mode}`;
      floors.set(key, [...(floors.get(key) ?? []), Number(out.stdout.trim())]);
    }
  }
  for (const search of RG_SEARCHES) {
    const started = performance.now();
    spawnSync('rg', [...search.args, tree], { stdio: ['ignore', 'ignore', 'ignore'] });
    rg.get(search.name).push(performance.now() - started);
  }
}

const version = (node) => execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
console.log(`${files.length} files under ${tree}; ${ROUNDS} rounds, medians; rg ${execFileSync('rg', ['--version'], { encoding: 'utf8' }).split('\n')[0]}`);
console.log('');
console.log('| what | ms (median) |');
console.log('| --- | ---: |');
for (const node of runtimes) {
  console.log(`| node ${version(node)}: open, read, close every file (one thread) | ${median(floors.get(`${node}\0plain`)).toFixed(1)} |`);
  console.log(`| node ${version(node)}: the same with ProjectFiles' fstat and readlink | ${median(floors.get(`${node}\0checked`)).toFixed(1)} |`);
}
for (const search of RG_SEARCHES) console.log(`| rg, whole process: ${search.name} | ${median(rg.get(search.name)).toFixed(1)} |`);
