/** candidates.ts: the sorted-list set operations the trigram plans are evaluated with, and which lists a plan reads. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildIndex } from '../../../src/index/build/indexer.js';
import { intersect, union, unionAll } from '../../../src/index/search/candidates.js';
import { IndexReader } from '../../../src/index/search/reader.js';
import { projectTree } from '../../helpers/projects.js';

/** A sorted list of distinct ids below `limit`, from a fixed pseudo-random sequence. */
function listOf(seed: number, size: number, limit: number): Uint32Array {
  const ids = new Set<number>();
  let state = seed;
  while (ids.size < size) ids.add((state = (state * 48_271) % 2_147_483_647) % limit);
  return Uint32Array.from([...ids].sort((a, b) => a - b));
}

test('the union of many lists is the pairwise union, ascending and without repeats', () => {
  const limit = 5_000;
  for (const count of [0, 1, 2, 3, 50, 1_000]) {
    const lists = Array.from({ length: count }, (_, i) => listOf(i + 1, (i * 37) % 200, limit));
    const pairwise = lists.reduce(union, new Uint32Array(0));
    assert.equal([...unionAll(lists, limit)], [...pairwise], `${count} lists`);
  }
  assert.equal([...unionAll([new Uint32Array([0, 4999]), new Uint32Array([4999]), new Uint32Array([1])], 5_000)], [0, 1, 4999], 'the ends of the id range');
});

test('intersect and union keep sorted lists sorted', () => {
  const a = Uint32Array.from([1, 3, 5, 7, 9]);
  const b = Uint32Array.from([2, 3, 4, 9, 10]);
  assert.equal([...intersect(a, b)], [3, 9]);
  assert.equal([...union(a, b)], [1, 2, 3, 4, 5, 7, 9, 10]);
});

test('a short trigram list is read even when few candidates are left, and rules out the files it can', async () => {
  // Ten files hold every trigram of the name but "erv" and "rve"; thirty more hold those two (and
  // no other of its trigrams); one file holds the name. The rarest lists leave eleven candidates,
  // few enough to stop at for a large index, but the "erv" list is short, and leaves one.
  const files: Record<string, string> = { 'target.txt': 'call listenAndServe here\n' };
  for (let i = 0; i < 10; i++) files[`decoy${i}.txt`] = `listenandser ${i}\n`;
  for (let i = 0; i < 30; i++) files[`filler${i}.txt`] = `nerve ${i}\n`;
  const root = projectTree(files);
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  try {
    await buildIndex(root, { home });
    const reader = IndexReader.open(root, home);
    const result = reader.search({ pattern: 'ListenAndServe', limit: 100 });
    reader.close();
    assert.equal(
      result.matches.map((match) => `${match.path}:${match.line}`),
      ['target.txt:1'],
    );
    assert.is(result.stats.candidates, 1, 'the decoys are ruled out by the short lists, not read');
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

test.run();
