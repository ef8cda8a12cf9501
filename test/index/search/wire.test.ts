/**
 * The search threads' wire format (wire.ts) through a real MessageChannel: a small result is
 * copied and a large one moved, and an empty one crosses as its fields alone.
 */
import { MessageChannel } from 'node:worker_threads';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { movedBuffers, pack, packRanked, unpack, type PackedColumns, type PackedResult } from '../../../src/index/search/wire.js';
import type { Match, SearchResult } from '../../../src/index/search/reader.js';

const STATS = { files: 1, candidates: 1, durationMs: 0 };

function result(count: number): SearchResult {
  const matches: Match[] = Array.from({ length: count }, (_, i) => ({
    path: `src/file${i % 7}.go`,
    line: i + 1,
    column: 3,
    text: `func Name${i}() {}`,
    length: 4,
    word: i % 2 === 0,
  }));
  return { matches, truncated: false, stats: STATS };
}

/** `packed` sent across a channel, moving what movedBuffers says; what arrived. */
async function sent(packed: PackedResult): Promise<PackedResult> {
  const { port1, port2 } = new MessageChannel();
  try {
    const arrived = new Promise<PackedResult>((resolve) => port2.once('message', resolve));
    port1.postMessage(packed, movedBuffers(packed));
    return await arrived;
  } finally {
    port1.close();
    port2.close();
  }
}

test('an empty result crosses as its fields alone, and unpacks to no matches with what its ranking counted', async () => {
  const ranked = packRanked({ ...result(0), partial: true }, [], { seeds: 3, rankingMs: 0.5, certain: 0, pooled: 'shared' });
  assert.equal(movedBuffers(ranked), []);
  assert.not.ok('file' in ranked || 'text' in ranked, 'no column crosses for no match');
  const arrived = unpack(await sent(ranked));
  assert.equal(arrived.matches, []);
  assert.equal(arrived.stats, STATS);
  assert.is(arrived.partial, true);
  assert.equal([...arrived.ranking!.scores], []);
  assert.equal(arrived.ranking!.facts, []);
  assert.equal([arrived.ranking!.seeds, arrived.ranking!.rankingMs, arrived.ranking!.certain, arrived.ranking!.pooled], [3, 0.5, 0, 'shared']);

  const unranked = unpack(await sent(pack(result(0))));
  assert.equal(unranked.matches, []);
  assert.is(unranked.ranking, undefined, 'a search not ranked comes back with no ranking');
  assert.is(unranked.partial, undefined);
});

test('a small result is copied, a large one moved, and both unpack to what was packed', async () => {
  const small = pack(result(20)) as PackedColumns;
  assert.equal(movedBuffers(small), []);
  assert.equal(unpack(await sent(small)).matches, result(20).matches);
  assert.is(small.line.length, 20, 'copied: still readable on the sending side');

  const large = pack(result(5_000)) as PackedColumns;
  const moved = movedBuffers(large);
  assert.ok(moved.length > 0);
  const arrived = unpack(await sent(large));
  assert.equal(arrived.matches, result(5_000).matches);
  assert.is(large.line.length, 0, 'moved: detached on the sending side');
});

test('a ranked result crosses with its scores, facts and what its ranking counted', async () => {
  const { matches } = result(3);
  const ranked = matches.map((match, i) => ({
    match,
    score: 100 - i,
    facts: {
      weight: i === 0 ? 100 : 0,
      word: true,
      exactCase: i < 2,
      generated: false,
      ...(i === 0 && { defined: { kind: 'function', qualifiedName: 'pkg.Name0' } }),
    },
    describe: () => ({}),
  }));
  const arrived = unpack(await sent(packRanked({ ...result(0), truncated: true }, ranked, { seeds: 1, rankingMs: 2, pooled: 'own' })));
  assert.equal(arrived.matches, matches);
  assert.ok(arrived.truncated);
  assert.equal([...arrived.ranking!.scores], [100, 99, 98]);
  assert.equal(
    arrived.ranking!.facts,
    ranked.map((item) => item.facts),
  );
  assert.equal([arrived.ranking!.seeds, arrived.ranking!.rankingMs, arrived.ranking!.certain, arrived.ranking!.pooled], [1, 2, undefined, 'own']);
  assert.not.ok('certain' in arrived.ranking!, 'nothing said of what was not counted');
});

test.run();
