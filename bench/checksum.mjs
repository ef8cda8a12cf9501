// What the segment checksum costs: opening every segment of an index (which verifies its CRC-32)
// against the CRC-32 alone, native (zlib) and portable (the table fallback for Node < 20.15),
// best of N rounds, segments already in the page cache.
//
//   node bench/checksum.mjs PROJECT_DIR [--rounds 5]
// PROJECT_DIR is indexed first into a scratch SEXTANT_HOME (build the bundle and build/ first: npm run build).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, portableCrc32 } from '../build/src/index/text/checksum.js';
import { Segment } from '../build/src/index/text/segment.js';
import { IndexStore } from '../build/src/index/store/store.js';

const project = process.argv[2];
if (!project) {
  console.error('usage: node bench/checksum.mjs PROJECT_DIR [--rounds 5]');
  process.exit(2);
}
const roundsAt = process.argv.indexOf('--rounds');
const ROUNDS = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 5;
const home = mkdtempSync(join(tmpdir(), 'sextant-crc-home-'));
process.on('exit', () => rmSync(home, { recursive: true, force: true }));
const indexed = spawnSync(process.execPath, [fileURLToPath(new URL('../dist/sextant.mjs', import.meta.url)), 'index', project], {
  env: { ...process.env, SEXTANT_HOME: home },
  encoding: 'utf8',
});
if (indexed.status !== 0) throw new Error(indexed.stderr);
const { realpathSync } = await import('node:fs');
const store = new IndexStore(realpathSync(project), home);
const buffers = store.readManifest().segments.map((name) => readFileSync(join(store.dir, name)));
const bytes = buffers.reduce((sum, buffer) => sum + buffer.length, 0);

const best = (run) => {
  let min = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    run();
    min = Math.min(min, performance.now() - started);
  }
  return min;
};
const open = best(() => buffers.forEach((buffer) => new Segment(buffer)));
const native = best(() => buffers.forEach((buffer) => crc32(buffer)));
const portable = best(() => buffers.forEach((buffer) => portableCrc32(buffer)));
console.log(`${buffers.length} segments, ${(bytes / 1e6).toFixed(1)} MB; node ${process.version}; best of ${ROUNDS}\n`);
console.log('| measure | ms | share of opening |');
console.log('| --- | ---: | ---: |');
console.log(`| open every segment (parse + verify) | ${open.toFixed(1)} | 100% |`);
console.log(`| CRC-32, zlib (Node >= 20.15) | ${native.toFixed(1)} | ${((100 * native) / open).toFixed(0)}% |`);
console.log(`| CRC-32, portable table (older Node 20) | ${portable.toFixed(1)} | ${((100 * portable) / open).toFixed(0)}% |`);
