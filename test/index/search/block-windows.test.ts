import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { byteWindows } from '../../../src/index/search/block-windows.js';
import { buildIndex } from '../../../src/index/build/indexer.js';
import { compileMatcher } from '../../../src/index/search/matcher.js';
import { IndexReader } from '../../../src/index/search/reader.js';
import { blockTrigramsOf, DEFAULT_BLOCK_BYTES } from '../../../src/index/text/trigrams.js';
import { projectTree } from '../../helpers/projects.js';

const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));

/** A file of `lines` lines of varied length, some non-ASCII, with `marker` on line `at` (0-based). */
function text(lines: number, at: number, marker: string): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(i === at ? marker : `${'x'.repeat(i % 61)} line ${i}${i % 400 === 0 ? ' ünïcödé 漢字' : ''}`);
  return `${out.join('\n')}\n`;
}

test('byte windows fall on the blocks the index cut, start at the line the index recorded, and join neighbours', () => {
  const bytes = Buffer.from(text(8_000, 5_000, 'needle'));
  const { startLines } = blockTrigramsOf(bytes, DEFAULT_BLOCK_BYTES);
  assert.ok(startLines.length >= 6, `several blocks (${startLines.length + 1})`);
  const lines = bytes.toString('utf8').split('\n');
  const windows = byteWindows(bytes, startLines, [0, 2, 3, startLines.length])!;
  assert.equal(windows.length, 3, 'blocks 2 and 3 are one window');
  for (const window of windows) {
    const slice = bytes.toString('utf8', window.start, window.end);
    assert.ok(slice.endsWith('\n'), 'whole lines');
    assert.equal(slice.split('\n')[0], lines[window.line], `window at line ${window.line}`);
  }
  assert.equal(windows[0]!.line, 0);
  assert.equal(windows[1]!.line, startLines[1]);
  assert.equal(windows[2]!.end, bytes.length, 'the last block ends the file');
});

test('bytes that no longer cut into the indexed blocks give no windows: the file is searched whole', () => {
  const bytes = Buffer.from(text(8_000, 5_000, 'needle'));
  const { startLines } = blockTrigramsOf(bytes, DEFAULT_BLOCK_BYTES);
  assert.equal(byteWindows(bytes.subarray(0, bytes.length - DEFAULT_BLOCK_BYTES * 2), startLines, [0]), undefined, 'shorter');
  assert.equal(byteWindows(Buffer.concat([bytes, bytes]), startLines, [0]), undefined, 'longer');
});

test('a search that reads files from disk looks only at candidate blocks, and finds what the whole file holds', async () => {
  const root = projectTree({ 'big.txt': text(8_000, 6_500, 'the needle 2024-05-17 here') });
  await buildIndex(root, { home });
  const reader = IndexReader.open(root, home, { lazy: true, cacheBypassCandidates: 0 });
  for (const [query, column] of [
    [{ pattern: 'needle', caseSensitive: true }, 5],
    [{ pattern: '[0-9]{4}-[0-9]{2}-[0-9]{2}', regex: true, caseSensitive: true }, 12],
  ] as const) {
    const [candidate] = reader.candidates(compileMatcher(query).plan);
    assert.equal(candidate?.blocks?.length, 1, 'one candidate block');
    assert.equal(
      reader.search(query).matches.map((match) => [match.line, match.column]),
      [[6_501, column]],
      query.pattern,
    );
  }
  // A date written since indexing into block 0, same size, same line ends: not looked at, which
  // shows that only the candidate block is read (a sync would index it; the CLI says when to).
  const path = join(root, 'big.txt');
  const original = readFileSync(path, 'utf8');
  const edited = original.replace(`${'x'.repeat(60)} line 60\n`, `${'x'.repeat(54)} 2024-01-01 60\n`);
  assert.ok(edited !== original && edited.length === original.length);
  writeFileSync(path, edited);
  const date = { pattern: '[0-9]{4}-[0-9]{2}-[0-9]{2}', regex: true, caseSensitive: true };
  assert.equal(
    reader.search(date).matches.map((match) => match.line),
    [6_501],
  );
});

test.run();
