/** read-text.ts: one kept buffer for every file a search reads, whatever their sizes and order. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readBytesOnce, readTextOnce } from '../src/index/read-text.js';

const MIB = 1 << 20;

function content(length: number, salt: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) bytes[i] = 97 + ((i * 31 + salt) % 26);
  return bytes;
}

test('files below, at and past the kept buffer read back byte for byte, in any order', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-read-'));
  const sizes = [0, 1, MIB - 1, MIB, MIB + 1, 3 * MIB + 5, 17 * MIB, 10, 2 * MIB];
  sizes.forEach((size, index) => writeFileSync(join(dir, `f${index}`), content(size, index)));
  for (const order of [sizes.map((_, i) => i), sizes.map((_, i) => sizes.length - 1 - i)]) {
    for (const index of order) {
      const bytes = readBytesOnce(join(dir, `f${index}`));
      assert.ok(bytes, `f${index} was read`);
      assert.is(bytes!.length, sizes[index], `f${index}: length`);
      assert.ok(bytes!.equals(content(sizes[index]!, index)), `f${index}: the same bytes`);
    }
  }
  assert.is(readTextOnce(join(dir, 'f7')), content(10, 7).toString('latin1'));
  assert.is(readBytesOnce(join(dir, 'missing')), undefined);
});

test.run();
