/** candidates.ts: the sorted-list set operations the trigram plans are evaluated with. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { intersect, union, unionAll } from '../../../src/index/search/candidates.js';

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

test.run();
