import { closeSync, mkdtempSync, openSync, readFileSync, realpathSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CHECKED_CHUNK_BYTES, CheckedFile, checkedBody, ChecksumError, withChecksums } from '../../../src/index/text/checked-file.js';
import { buildIndex } from '../../../src/index/build/indexer.js';
import { IndexReader } from '../../../src/index/search/reader.js';
import { Segment } from '../../../src/index/text/segment.js';
import { trigramsOf } from '../../../src/index/text/trigrams.js';
import { IndexStore } from '../../../src/index/store/store.js';
import { runCli } from '../../helpers/process.js';

function bodyOf(length: number): Buffer {
  const body = Buffer.alloc(length);
  for (let i = 0; i < length; i++) body[i] = (i * 7919 + (i >> 8)) & 0xff;
  return body;
}

function written(data: Buffer): string {
  const path = join(mkdtempSync(join(tmpdir(), 'sextant-checked-')), 'file');
  writeFileSync(path, data);
  return path;
}

function flipByte(path: string, at: number): void {
  const bytes = readFileSync(path);
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.from([bytes[at]! ^ 0xff]), 0, 1, at);
  closeSync(fd);
}

test('a checked file gives back its body whole or in parts, for bodies of every size around a chunk', () => {
  for (const length of [0, 1, CHECKED_CHUNK_BYTES - 1, CHECKED_CHUNK_BYTES, CHECKED_CHUNK_BYTES + 1, 5 * CHECKED_CHUNK_BYTES + 123]) {
    const body = bodyOf(length);
    const file = withChecksums(body);
    assert.equal(Buffer.from(checkedBody(file)), body, `whole, ${length} bytes`);
    const checked = CheckedFile.open(written(file));
    try {
      assert.is(checked.bodyLength, length);
      for (const [position, size] of [
        [0, length],
        [0, Math.min(length, 10)],
        [Math.floor(length / 2), Math.floor(length / 3)],
        [Math.max(0, length - 5), Math.min(length, 5)],
      ] as const) {
        assert.equal(checked.read(position, size), body.subarray(position, position + size), `${length} bytes: ${size} at ${position}`);
      }
      assert.throws(
        () => checked.read(length, 1),
        (error: unknown) => error instanceof ChecksumError,
      );
    } finally {
      checked.close();
    }
  }
});

test('a flipped byte is reported by a whole read and by a part read that covers it, not by one that does not', () => {
  const body = bodyOf(4 * CHECKED_CHUNK_BYTES);
  const path = written(withChecksums(body));
  const at = 2 * CHECKED_CHUNK_BYTES + 100;
  flipByte(path, at);
  assert.throws(() => checkedBody(readFileSync(path)), /checksum mismatch/);
  const checked = CheckedFile.open(path);
  try {
    assert.equal(checked.read(0, CHECKED_CHUNK_BYTES), body.subarray(0, CHECKED_CHUNK_BYTES));
    assert.throws(() => checked.read(at, 1), /checksum mismatch/);
    assert.throws(() => checked.read(CHECKED_CHUNK_BYTES + 10, CHECKED_CHUNK_BYTES), /checksum mismatch/);
  } finally {
    checked.close();
  }
  // The checksum list protects itself: a flip there is reported at open.
  const listFlipped = written(withChecksums(body));
  flipByte(listFlipped, body.length + 4);
  assert.throws(() => CheckedFile.open(listFlipped), /checksum list/);
  // A cut file no longer fits its list.
  const cut = written(withChecksums(body).subarray(0, body.length + 3));
  assert.throws(
    () => CheckedFile.open(cut),
    (error: unknown) => error instanceof ChecksumError,
  );
});

test('a lazily opened segment answers as the loaded one, and a flipped byte in a posting list it reads is index_corrupt', async () => {
  const root = mkdtempSync(join(tmpdir(), 'sextant-lazy-'));
  for (let i = 0; i < 400; i++)
    writeFileSync(
      join(root, `file${i}.ts`),
      `export const value${i} = ${i};\n// ${i % 7 === 0 ? 'zebra_lazy_marker' : 'nothing here'} ${'x'.repeat(i % 50)}\n`,
    );
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home, threads: 1 });
  const loaded = IndexReader.open(root, home);
  const lazy = IndexReader.open(root, home, { lazy: true, cacheBypassCandidates: 0 });
  try {
    for (const pattern of ['zebra_lazy_marker', 'value39', 'nothing', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx']) {
      assert.equal(lazy.search({ pattern, limit: 10_000 }).matches, loaded.search({ pattern, limit: 10_000 }).matches, pattern);
    }
  } finally {
    lazy.close();
  }
  const lines = new Map<string, string>();
  for (const pattern of ['value39', 'nothing', 'export const'])
    lines.set(pattern, (await runCli(['search', '--limit', '1000', pattern, root], '', { SEXTANT_HOME: home })).stdout);

  // Flip a byte inside a posting list only the marker's query reads: the loaded reader refuses
  // the segment, the lazy one as soon as it reads that list; a query that never reads it answers.
  const store = new IndexStore(realpathSync(root), home);
  const path = store.segmentPath(store.readManifest()!.segments[0]!);
  const file = readFileSync(path);
  const others = ['value39', 'nothing', 'export const'].map((pattern) => ({ pattern, chunks: chunksRead(file, pattern) }));
  const markerChunks = [...chunksRead(file, 'zebra_lazy_marker')];
  const target = markerChunks.find((chunk) => others.some((other) => !other.chunks.has(chunk)));
  assert.ok(target !== undefined, 'a chunk only the marker reads');
  const untouched = others.find((other) => !other.chunks.has(target))!;
  flipByte(path, target * CHECKED_CHUNK_BYTES + 1);
  const search = await runCli(['search', 'zebra_lazy_marker', root], '', { SEXTANT_HOME: home });
  assert.is(search.code, 2, search.stdout);
  assert.match(search.stderr, 'checksum mismatch');
  assert.match(search.stderr, 'index --force');
  const other = await runCli(['search', '--limit', '1000', untouched.pattern, root], '', { SEXTANT_HOME: home });
  assert.is(other.code, 0, other.stderr);
  assert.is(other.stdout, lines.get(untouched.pattern));
  assert.throws(() => IndexReader.open(root, home), /checksum mismatch/);
});

test('a lazily opened segment reads its directory a chunk at a time: a flipped byte there is index_corrupt for a lookup that reaches it, not for one that does not', async () => {
  // Words from a fixed pseudo-random sequence: a directory of many chunks.
  const root = mkdtempSync(join(tmpdir(), 'sextant-lazy-directory-'));
  let seed = 11;
  const letter = (): string => String.fromCharCode(97 + (((seed = (seed * 48_271) % 2_147_483_647) >> 8) % 26));
  for (let i = 0; i < 200; i++)
    writeFileSync(join(root, `words${i}.txt`), `${Array.from({ length: 60 }, () => Array.from({ length: 6 }, letter).join('')).join(' ')}\n`);
  const { home, path, file, layout } = await builtSegment(root);
  assert.ok(layout.count * 4 > 8 * CHECKED_CHUNK_BYTES, `a directory of many chunks (${layout.count} trigrams)`);

  // Two three-letter queries (one trigram each) whose lookups part ways: a chunk only the first reaches.
  const wordOf = (slot: number): string =>
    Buffer.from([
      (file.readInt32LE(layout.trigramsAt + slot * 4) >> 16) & 0xff,
      (file.readInt32LE(layout.trigramsAt + slot * 4) >> 8) & 0xff,
      file.readInt32LE(layout.trigramsAt + slot * 4) & 0xff,
    ]).toString('latin1');
  const lettersFrom = (slot: number): string => {
    while (!/^[a-z]{3}$/.test(wordOf(slot))) slot++;
    return wordOf(slot);
  };
  const first = lettersFrom(Math.floor(layout.count * 0.1));
  const second = lettersFrom(Math.floor(layout.count * 0.8));
  const reachedByFirst = lookupChunks(file, layout, first);
  const reachedBySecond = lookupChunks(file, layout, second);
  const target = [...reachedByFirst].find(
    (chunk) => !reachedBySecond.has(chunk) && chunk * CHECKED_CHUNK_BYTES >= layout.trigramsAt && (chunk + 1) * CHECKED_CHUNK_BYTES <= layout.offsetsAt,
  );
  assert.ok(target !== undefined, 'a chunk of the trigram table only the first lookup reaches');
  const before = await runCli(['search', '--limit', '100000', second, root], '', { SEXTANT_HOME: home });
  assert.is(before.code, 0, before.stderr);

  flipByte(path, target * CHECKED_CHUNK_BYTES + 2);
  const damaged = await runCli(['search', first, root], '', { SEXTANT_HOME: home });
  assert.is(damaged.code, 2, damaged.stdout);
  assert.match(damaged.stderr, 'checksum mismatch');
  const after = await runCli(['search', '--limit', '100000', second, root], '', { SEXTANT_HOME: home });
  assert.is(after.code, 0, after.stderr);
  assert.is(after.stdout, before.stdout);
});

test('a posting count comes from the start of its list alone: a flipped byte further in spoils the ids, not the count', async () => {
  const root = mkdtempSync(join(tmpdir(), 'sextant-counts-'));
  const files = 6_000;
  for (let i = 0; i < files; i++) writeFileSync(join(root, `f${i}.txt`), 'common_word\n');
  const { path, file, layout } = await builtSegment(root);
  const [trigram] = trigramsOf(Buffer.from('com'));
  let slot = 0;
  while (file.readInt32LE(layout.trigramsAt + slot * 4) !== trigram) slot++;
  const start = layout.postingsAt + file.readUInt32LE(layout.offsetsAt + slot * 4);
  const end = layout.postingsAt + file.readUInt32LE(layout.offsetsAt + slot * 4 + 4);
  const last = Math.floor((end - 1) / CHECKED_CHUNK_BYTES);
  assert.ok(last > Math.floor((start + 5) / CHECKED_CHUNK_BYTES), 'the list runs past the chunk of its count');
  flipByte(path, end - 1);
  const segment = Segment.open(path);
  try {
    assert.is(segment.postingCount(trigram!), files);
    assert.throws(() => segment.postings(trigram!), /checksum mismatch/);
  } finally {
    segment.close();
  }
});

/** `root` indexed in a home of its own, and its one segment: where it is, its bytes, its directory's layout. */
async function builtSegment(root: string): Promise<{ home: string; path: string; file: Buffer; layout: DirectoryLayout }> {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home, threads: 1 });
  const store = new IndexStore(realpathSync(root), home);
  const path = store.segmentPath(store.readManifest()!.segments[0]!);
  const file = readFileSync(path);
  return { home, path, file, layout: directoryLayout(file) };
}

interface DirectoryLayout {
  count: number;
  trigramsAt: number;
  offsetsAt: number;
  postingsAt: number;
}

function directoryLayout(file: Buffer): DirectoryLayout {
  const headerLength = file.readUInt32LE(8);
  const at = 12 + headerLength + ((4 - ((12 + headerLength) % 4)) % 4);
  const count = file.readUInt32LE(at);
  return { count, trigramsAt: at + 4, offsetsAt: at + 4 + count * 4, postingsAt: at + 8 + count * 8 };
}

/** The chunks a lookup of `word`'s one trigram reads: its binary search, its offsets, its posting list. */
function lookupChunks(file: Buffer, layout: DirectoryLayout, word: string): Set<number> {
  const [trigram] = trigramsOf(Buffer.from(word));
  const chunks = new Set<number>();
  const chunkOf = (position: number): number => Math.floor(position / CHECKED_CHUNK_BYTES);
  let low = 0;
  let high = layout.count - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    chunks.add(chunkOf(layout.trigramsAt + mid * 4));
    const value = file.readInt32LE(layout.trigramsAt + mid * 4);
    if (value < trigram!) low = mid + 1;
    else if (value > trigram!) high = mid - 1;
    else {
      chunks.add(chunkOf(layout.offsetsAt + mid * 4));
      chunks.add(chunkOf(layout.offsetsAt + mid * 4 + 4));
      const start = layout.postingsAt + file.readUInt32LE(layout.offsetsAt + mid * 4);
      const end = layout.postingsAt + file.readUInt32LE(layout.offsetsAt + mid * 4 + 4);
      for (let chunk = chunkOf(start); chunk <= chunkOf(end - 1); chunk++) chunks.add(chunk);
      return chunks;
    }
  }
  throw new Error(`${word} is not in the directory`);
}

/** The chunks of a segment file holding the posting lists of `pattern`'s trigrams. */
function chunksRead(file: Buffer, pattern: string): Set<number> {
  const wanted = new Set(trigramsOf(Buffer.from(pattern)));
  const headerLength = file.readUInt32LE(8);
  const at = 12 + headerLength + ((4 - ((12 + headerLength) % 4)) % 4);
  const count = file.readUInt32LE(at);
  const postingsAt = at + 8 + count * 8;
  const chunks = new Set<number>();
  for (let slot = 0; slot < count; slot++) {
    if (!wanted.has(file.readInt32LE(at + 4 + slot * 4))) continue;
    const start = postingsAt + file.readUInt32LE(at + 4 + count * 4 + slot * 4);
    const end = postingsAt + file.readUInt32LE(at + 4 + count * 4 + (slot + 1) * 4);
    // Only chunks wholly past the directory, which every search reads.
    for (let chunk = Math.floor(start / CHECKED_CHUNK_BYTES); chunk <= Math.floor((end - 1) / CHECKED_CHUNK_BYTES); chunk++)
      if (chunk * CHECKED_CHUNK_BYTES >= postingsAt) chunks.add(chunk);
  }
  return chunks;
}

test.run();
