/**
 * project-file.ts: the one reader of project files. Regular files inside the workspace, bounded,
 * never a blocking open; and the kept buffer reads every size back byte for byte.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ProjectFiles } from '../../../src/index/files/project-file.js';

const MIB = 1 << 20;

function content(length: number, salt: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) bytes[i] = 97 + ((i * 31 + salt) % 26);
  return bytes;
}

test('files below, at and past the kept buffer read back byte for byte, in any order', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-read-'));
  try {
    const files = new ProjectFiles(dir, { maxBytes: 32 * MIB });
    const sizes = [0, 1, MIB - 1, MIB, MIB + 1, 3 * MIB + 5, 17 * MIB, 10, 2 * MIB];
    sizes.forEach((size, index) => writeFileSync(join(dir, `f${index}`), content(size, index)));
    for (const order of [sizes.map((_, i) => i), sizes.map((_, i) => sizes.length - 1 - i)]) {
      for (const index of order) {
        for (const bytes of [files.bytesShared(`f${index}`), (files.read(`f${index}`) as { bytes: Buffer }).bytes]) {
          assert.ok(bytes, `f${index} was read`);
          assert.is(bytes!.length, sizes[index], `f${index}: length`);
          assert.ok(bytes!.equals(content(sizes[index]!, index)), `f${index}: the same bytes`);
        }
      }
    }
    assert.is(files.text('f7'), content(10, 7).toString('latin1'));
    assert.equal(files.read('missing'), { refused: 'gone' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('only regular files inside the workspace, within the limit, are read', () => {
  const base = mkdtempSync(join(tmpdir(), 'sextant-read-'));
  try {
    const root = join(base, 'project');
    const outside = join(base, 'outside');
    mkdirSync(join(root, 'sub'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.go'), 'package secret\n');
    writeFileSync(join(root, 'sub/inner.go'), 'package inner\n');
    writeFileSync(join(root, 'big.txt'), 'x'.repeat(101));
    symlinkSync(join(outside, 'secret.go'), join(root, 'linkfile.go'));
    symlinkSync(outside, join(root, 'linkdir'));
    symlinkSync('sub/inner.go', join(root, 'inner-link.go'));
    symlinkSync('sub', join(root, 'sublink'));
    symlinkSync('/dev/zero', join(root, 'zero.go'));
    symlinkSync(join(base, 'nothing'), join(root, 'broken.go'));
    execFileSync('mkfifo', [join(root, 'pipe.go')]);
    const files = new ProjectFiles(root, { maxBytes: 100 });
    assert.is(files.text('sub/inner.go'), 'package inner\n');
    // A link to a file inside is followed; through a linked directory too, as long as it stays inside.
    assert.is(files.text('inner-link.go'), 'package inner\n');
    assert.is(files.text('sublink/inner.go'), 'package inner\n');
    assert.equal(files.read('linkfile.go'), { refused: 'outside' });
    assert.equal(files.read('linkdir/secret.go'), { refused: 'outside' });
    assert.equal(files.read('../outside/secret.go'), { refused: 'outside' });
    assert.equal(files.read(join(outside, 'secret.go')), { refused: 'outside' });
    assert.equal(files.read('zero.go'), { refused: 'outside' });
    // A FIFO is never opened for a read that would wait for a writer.
    assert.equal(files.read('pipe.go'), { refused: 'not_regular' });
    assert.equal(files.read('sub'), { refused: 'not_regular' });
    assert.equal(files.read('big.txt'), { refused: 'too_large' });
    assert.equal(files.read('broken.go'), { refused: 'gone' });
    assert.is(files.bytesShared('pipe.go'), undefined);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test.run();
