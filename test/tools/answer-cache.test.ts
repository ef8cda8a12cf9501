/**
 * answer-cache.ts: answers kept by key within a count and a weight, computed at most once per
 * key while kept, whether asked asynchronously (get) or at once (getNow, keep).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AnswerCache } from '../../src/tools/search/answer-cache.js';

test('getNow computes once while the answer is kept; keep never counts an answer twice', () => {
  const cache = new AnswerCache<string>({ maxEntries: 2, maxWeight: 10 });
  let computed = 0;
  const compute =
    (value: string, weight = 4) =>
    () => ({ value: `${value}${++computed}`, weight, keep: true });
  assert.equal(cache.getNow('a', compute('a')), { value: 'a1', cached: false });
  assert.equal(cache.getNow('a', compute('a')), { value: 'a1', cached: true });
  cache.keep('a', { value: 'other', weight: 4, keep: true });
  assert.is(cache.peek('a'), 'a1', 'an answer kept already stays');
  // Weight 4 + 4 fits within 10; had "a" been counted twice, "b" would have pushed it out.
  cache.keep('b', { value: 'b', weight: 4, keep: true });
  assert.equal([cache.peek('a'), cache.peek('b'), cache.size], ['a1', 'b', 2]);
  cache.keep('c', { value: 'c', weight: 4, keep: true });
  assert.equal([cache.peek('a'), cache.peek('b'), cache.peek('c')], [undefined, 'b', 'c'], 'the least recently used leaves first');
  cache.keep('partial', { value: 'p', weight: 1, keep: false });
  assert.is(cache.peek('partial'), undefined, 'a partial answer is never kept');
});

test('a cache of no entries computes every time and looks nothing up', async () => {
  const cache = new AnswerCache<number>({ maxEntries: 0, maxWeight: 10 });
  let computed = 0;
  const compute = () => ({ value: ++computed, weight: 1, keep: true });
  assert.equal(cache.getNow('k', compute), { value: 1, cached: false });
  assert.equal(cache.getNow('k', compute), { value: 2, cached: false });
  cache.keep('k', compute());
  assert.is(cache.peek('k'), undefined);
  assert.equal(await cache.get('k', () => Promise.resolve(compute())), { value: 4, cached: false });
  assert.is(cache.size, 0);
});

test('an answer kept while a computation of the same key is in flight is counted once when both finish', async () => {
  const cache = new AnswerCache<string>({ maxEntries: 4, maxWeight: 10 });
  let finish: (value: { value: string; weight: number; keep: boolean }) => void = () => undefined;
  const pending = cache.get('k', () => new Promise((resolve) => (finish = resolve)));
  cache.keep('k', { value: 'kept first', weight: 4, keep: true });
  finish({ value: 'computed', weight: 4, keep: true });
  assert.equal(await pending, { value: 'computed', cached: false });
  assert.is(cache.weight, 4, 'one answer for the key, its weight once');
  assert.is(cache.size, 1);
});

test.run();
