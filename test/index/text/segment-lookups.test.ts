/**
 * A segment keeps where each trigram's list is and how long it is once looked up (a bounded
 * number of them, forgotten together past the bound): the answers stay those of the directory,
 * asked once or again, in any order, past the bound and after it was reached.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildIndex } from '../../../src/index/build/indexer.js';
import { IndexStore } from '../../../src/index/store/store.js';
import { Segment } from '../../../src/index/text/segment.js';

test('counts and lists asked again, and past the trigrams a segment keeps, are those of its directory', async () => {
  const root = mkdtempSync(join(tmpdir(), 'sextant-lookups-'));
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  try {
    // Every word of three letters from sixteen: 4,096 distinct trigrams and more, spread over files.
    const letters = 'abcdefghijklmnop';
    const words: string[] = [];
    for (const a of letters) for (const b of letters) for (const c of letters) words.push(`${a}${b}${c}`);
    for (let file = 0; file < 64; file++) writeFileSync(join(root, `f${file}.txt`), `${words.filter((_, at) => at % 64 === file).join(' ')}\n`);
    await buildIndex(root, { home, threads: 1 });
    const store = new IndexStore(realpathSync(root), home);
    const path = store.segmentPath(store.readManifest()!.segments[0]!);
    const truth = new Map<number, number[]>();
    const reference = Segment.open(path);
    try {
      for (const [trigram, ids] of reference.allPostings()) truth.set(trigram, [...ids]);
    } finally {
      reference.close();
    }
    assert.ok(truth.size > 2_048, `more trigrams than a segment keeps: ${truth.size}`);
    const absent = [...truth.keys()].map((trigram) => trigram + 1).filter((trigram) => !truth.has(trigram));
    assert.ok(absent.length > 0);
    const segment = Segment.open(path);
    try {
      const trigrams = [...truth.keys()];
      // Forwards, backwards, then forwards again: each pass runs past the bound, so lookups are kept, forgotten and kept again.
      for (const order of [trigrams, [...trigrams].reverse(), trigrams]) {
        for (const trigram of order) {
          assert.is(segment.postingCount(trigram), truth.get(trigram)!.length);
          assert.equal([...segment.postings(trigram)], truth.get(trigram));
        }
        for (const trigram of absent) {
          assert.is(segment.postingCount(trigram), 0);
          assert.is(segment.postings(trigram).length, 0);
        }
      }
    } finally {
      segment.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

test.run();
