/**
 * CRC-32 (IEEE) of index files. zlib's native one where Node has it (20.15 and later: the
 * fastest by far, bench/RESULTS.md); a table-driven one otherwise, so an older Node 20 still
 * verifies, only slower.
 */
import * as zlib from 'node:zlib';

const native = (zlib as unknown as { crc32?: (data: Uint8Array) => number }).crc32;

let table: Uint32Array | undefined;

function tableCrc32(data: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export function crc32(data: Uint8Array): number {
  return native ? native(data) >>> 0 : tableCrc32(data);
}

/** For tests: the portable implementation, to check it against the native one. */
export const portableCrc32 = tableCrc32;
