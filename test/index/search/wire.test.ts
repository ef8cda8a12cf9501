/**
 * The search threads' wire format (wire.ts) through a real MessageChannel: a small result is
 * copied and a large one moved, and the columns empty results share are never moved, so they
 * stay whole for every later result.
 */
import { MessageChannel } from 'node:worker_threads';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { movedBuffers, pack, packRanked, unpack, type PackedResult } from '../../../src/index/search/wire.js';
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

test('an empty result crosses as a copy, again and again, and unpacks to no matches', async () => {
  for (let round = 0; round < 3; round++) {
    const packed = packRanked(result(0), [], 0, 0.5, 0);
    assert.equal(movedBuffers(packed), []);
    const arrived = unpack(await sent(packed));
    assert.equal(arrived.matches, []);
    assert.is(arrived.ranking?.certain, 0);
    // The shared empty columns are still whole here, not detached by the send.
    assert.is(packed.file.buffer.byteLength, 0);
    assert.not.throws(() => packed.file.subarray(0, 0));
  }
  assert.is(pack(result(0)).line, pack(result(0)).line, 'one set of empty columns for every empty result');
});

test('a small result is copied, a large one moved, and both unpack to what was packed', async () => {
  const small = pack(result(20));
  assert.equal(movedBuffers(small), []);
  assert.equal(unpack(await sent(small)).matches, result(20).matches);
  assert.is(small.line.length, 20, 'copied: still readable on the sending side');

  const large = pack(result(5_000));
  const moved = movedBuffers(large);
  assert.ok(moved.length > 0);
  const arrived = unpack(await sent(large));
  assert.equal(arrived.matches, result(5_000).matches);
  assert.is(large.line.length, 0, 'moved: detached on the sending side');
});

test.run();
