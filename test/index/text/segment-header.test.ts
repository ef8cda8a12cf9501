import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeHeader, parseHeader } from '../../../src/index/text/segment-header.js';
import { Segment, SegmentBuilder, segmentFiles, type SegmentFile } from '../../../src/index/text/segment.js';

const FILES: SegmentFile[] = [
  { path: 'a/plain.txt', size: 10, mtimeMs: 1_700_000_000_000.5, hash: '0123456789abcdef' },
  { path: 'b/code.ts', size: 200, mtimeMs: 1_700_000_000_001, hash: 'fedcba9876543210', language: 'typescript' },
  { path: 'b/big.c', size: 3_000_000, mtimeMs: 1_700_000_000_002, hash: '00112233445566ff', language: 'c', blocks: [1000, 2000, 3000] },
  { path: 'c/minified.js', size: 90_000, mtimeMs: 1_700_000_000_003, hash: 'aabbccddeeff0011', language: 'javascript', unindexed: true },
  { path: 'c/again.ts', size: 5, mtimeMs: 1_700_000_000_004, hash: '1111222233334444', language: 'typescript' },
  { path: 'naïve name with spaces\tand tab.md', size: 1, mtimeMs: 0, hash: '9999999999999999', language: 'markdown' },
];

test('the file table goes through the header column by column and comes back as the same files', () => {
  const table = parseHeader(encodeHeader(FILES, ['gone/one.ts', 'gone/two.ts']));
  assert.is(table.count, FILES.length);
  assert.equal(table.all(), FILES);
  assert.equal(table.tombstones, ['gone/one.ts', 'gone/two.ts']);
  assert.is(table.pathOf(5), FILES[5]!.path);
  assert.equal(table.fileOf(2), FILES[2]);
  assert.is(table.fileOf(2), table.all()[2], 'one object per file, however it is asked for');
  // File 2 is four documents (blocks); the last entry counts them all.
  assert.equal([...table.firstDocuments()], [0, 1, 2, 6, ...FILES.slice(4).map((_, i) => 7 + i), FILES.length + 3]);
  assert.equal([...table.unindexedIds()], [3]);
  assert.equal(parseHeader(encodeHeader([], [])).all(), []);
});

test('a segment built from those files reads back the same through every reader, and a bad header is corrupt', () => {
  const builder = new SegmentBuilder();
  for (const file of FILES) builder.add(file, file.blocks ? file.blocks.map(() => new Int32Array([1, 2])).concat([new Int32Array([3])]) : new Int32Array([7]));
  builder.tombstones = ['gone.ts'];
  const bytes = builder.encode();
  const segment = new Segment(bytes);
  assert.equal(segment.files, FILES);
  assert.is(segment.fileCount, FILES.length);
  assert.is(segment.documentCount, FILES.length + 3);
  assert.equal([...segment.unindexedIds], [segment.firstDocument[3]]);
  assert.equal(
    segmentFiles((position, length) => bytes.subarray(position, position + length)),
    { files: FILES, tombstones: ['gone.ts'] },
  );

  const good = encodeHeader(FILES, []);
  const metaOnly = (meta: string): Buffer => {
    const json = Buffer.from(meta);
    const length = Buffer.alloc(4);
    length.writeUInt32LE(json.length);
    return Buffer.concat([length, json, Buffer.alloc(8)]);
  };
  const longer = Buffer.from(good);
  longer.writeUInt32LE(good.length, 0);
  const bad: Array<[string, Uint8Array]> = [
    ['empty', new Uint8Array(0)],
    ['meta longer than the header', longer],
    ['meta not an object', metaOnly('null')],
    ['meta without its fields', metaOnly('{"count":1}')],
    ['columns past the end', metaOnly('{"count":1000,"languageNames":[],"tombstones":[],"pathChars":0}')],
    ['paths cut short', good.subarray(0, good.length - 3)],
  ];
  for (const [why, header] of bad) assert.throws(() => parseHeader(header), /not a segment header|JSON/, why);
  // Through a segment, a bad header is CorruptSegmentError.
  assert.throws(
    () => segmentFiles((position, length) => (position === 12 ? Buffer.alloc(length) : bytes.subarray(position, position + length))),
    /Corrupt index segment: unreadable header/,
  );
});

test('a header holds any path (spaces, tabs, newlines, non-ASCII, astral) and reads each back alone', () => {
  const files: SegmentFile[] = ['a', 'dir/naïve — ü.ts', 'tab\there', 'new\nline', '😀/emoji.md', ''].map((path, i) => ({
    path,
    size: i,
    mtimeMs: i * 1.5,
    hash: `${i}`.repeat(16),
  }));
  const table = parseHeader(encodeHeader(files, []));
  assert.equal(
    files.map((_, id) => table.pathOf(id)),
    files.map((file) => file.path),
  );
  assert.equal(table.all(), files);
});

test.run();
