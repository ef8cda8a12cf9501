/**
 * The pieces of the symbol segment format: record blocks round-trip every u32 under every
 * predictor, a torn block is refused, the page cache reads across page edges, and a segment
 * whose blocks are damaged is index_corrupt where it is read (never a crash or a wrong answer).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PAGE_BYTES, PagedFile } from '../../../../src/index/symbols/segment/paged-file.js';
import { PackedBuilder } from '../../../../src/index/symbols/segment/packed.js';
import { decodeBlock, encodeBlock, REFERENCE_PREDICTORS, SYMBOL_PREDICTORS } from '../../../../src/index/symbols/segment/record-blocks.js';
import { SymbolSegment } from '../../../../src/index/symbols/segment/segment-reader.js';
import { encodeSymbolSegment } from '../../../../src/index/symbols/segment/segment-writer.js';
import { letterMask, sectionAt } from '../../../../src/index/symbols/segment/segment-layout.js';

test('record blocks round-trip extreme and ordinary values under every predictor', () => {
  const values = [0, 1, 2, 127, 128, 0xffff, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff];
  for (const predictors of [SYMBOL_PREDICTORS, REFERENCE_PREDICTORS]) {
    const width = predictors.length;
    const rows = 300;
    const records = new Uint32Array(rows * width);
    for (let i = 0; i < records.length; i++) records[i] = values[(i * 7 + Math.floor(i / 5)) % values.length]!;
    for (const [start, count] of [
      [0, 128],
      [128, 128],
      [256, 44],
      [0, 1],
    ] as const) {
      const bytes = encodeBlock(records, start, count, predictors);
      assert.equal(decodeBlock(bytes, count, predictors), records.subarray(start * width, (start + count) * width), `rows ${start}+${count}`);
      // Torn or padded blocks are refused, never decoded into other numbers.
      assert.is(decodeBlock(bytes.subarray(0, bytes.length - 1), count, predictors), undefined);
      assert.is(decodeBlock(Buffer.concat([bytes, Buffer.from([0])]), count, predictors), undefined);
    }
  }
});

test('letter masks hold every letter a name can be matched by', () => {
  assert.is(letterMask('abc') & letterMask('ca'), letterMask('ca'));
  assert.is(letterMask('a1') & letterMask('1'), letterMask('1'));
  assert.not.equal(letterMask('xyz') & letterMask('q'), letterMask('q'));
  assert.ok(letterMask('é') !== 0 && (letterMask('zé') & letterMask('é')) === letterMask('é'));
});

test('the page cache reads across page edges, within its ceiling', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'sextant-paged-')), 'data');
  const data = Buffer.alloc(6 * PAGE_BYTES + 100);
  for (let i = 0; i < data.length; i++) data[i] = (i * 31) % 251;
  writeFileSync(path, data);
  const file = new PagedFile(path, 2);
  try {
    // Short ranges come through the pages, long ones (a table read whole) in one read around them.
    for (const [offset, length] of [
      [0, 10],
      [PAGE_BYTES - 5, 10],
      [PAGE_BYTES - 1, 2 * PAGE_BYTES + 2],
      [3 * PAGE_BYTES, 100],
      [12, 0],
      [7, 5 * PAGE_BYTES],
      [PAGE_BYTES + 3, 5 * PAGE_BYTES + 97],
    ] as const) {
      assert.equal(file.bytes(offset, length), data.subarray(offset, offset + length), `${offset}+${length}`);
    }
    assert.is(file.u32(PAGE_BYTES + 4), data.readUInt32LE(PAGE_BYTES + 4));
  } finally {
    file.close();
  }
  try {
    file.bytes(0, 1);
    assert.unreachable('a closed file is not read');
  } catch (error) {
    assert.match(String(error), 'closed');
  }
});

test('a damaged symbol block or string block is index_corrupt where it is read', () => {
  const batch = new PackedBuilder();
  for (let f = 0; f < 3; f++) {
    const symbols = Array.from({ length: 200 }, (_, n) => ({
      name: `name_${f}_${n}`,
      kind: 'function' as const,
      language: 'typescript',
      line: n + 1,
      column: 1,
      endLine: n + 1,
      endColumn: 10,
      qualifiedName: `name_${f}_${n}`,
      signature: `function name_${f}_${n}()`,
    }));
    batch.add(`file-${f}.ts`, `hash-${f}`, 'typescript', symbols, [{ name: 'callee', kind: 'call', line: 1, column: 3 }]);
  }
  const { bytes } = encodeSymbolSegment([batch.build()]);
  const dir = mkdtempSync(join(tmpdir(), 'sextant-segment-'));
  const whole = join(dir, 'whole.sxs');
  writeFileSync(whole, bytes);
  const segment = SymbolSegment.open(whole);
  assert.is(segment.symbol(450).name, 'name_2_50');
  segment.close();
  // Damage the first symbol block and the first string block: the header still opens, the reads fail cleanly.
  for (const section of ['symbols', 'stringData'] as const) {
    const damaged = Buffer.from(readFileSync(whole));
    const at = damaged.readUInt32LE(sectionAt(section)) + (section === 'symbols' ? 4 * 12 : 0);
    for (let i = at; i < at + 16; i++) damaged[i] = 0xff;
    const path = join(dir, `${section}.sxs`);
    writeFileSync(path, damaged);
    const opened = SymbolSegment.open(path);
    try {
      opened.symbol(0);
      assert.unreachable(`damaged ${section} read as data`);
    } catch (error) {
      assert.is((error as { code?: string }).code, 'index_corrupt', String(error));
    } finally {
      opened.close();
    }
  }
});

test.run();
