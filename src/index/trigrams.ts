/**
 * Trigrams: three consecutive bytes of UTF-8 text, ASCII case-folded, packed into a 24-bit
 * integer. Folding only ASCII keeps byte lengths unchanged; non-ASCII letters are matched
 * exactly, and a case-insensitive query simply does not rely on trigrams that contain them.
 */
const A = 0x41;
const Z = 0x5a;

export function foldAscii(byte: number): number {
  return byte >= A && byte <= Z ? byte | 0x20 : byte;
}

/** Distinct trigrams of a buffer, sorted ascending. */
export function trigramsOf(bytes: Uint8Array): Int32Array {
  if (bytes.length < 3) return new Int32Array(0);
  const all = new Int32Array(bytes.length - 2);
  let t = (foldAscii(bytes[0]!) << 8) | foldAscii(bytes[1]!);
  for (let i = 2; i < bytes.length; i++) {
    t = ((t << 8) | foldAscii(bytes[i]!)) & 0xffffff;
    all[i - 2] = t;
  }
  all.sort();
  let unique = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[unique - 1]) all[unique++] = all[i]!;
  return all.subarray(0, unique);
}

const encoder = new TextEncoder();

/** Trigrams a literal string contributes to a query; `undefined` for one too short to have any. */
export function literalTrigrams(literal: string, caseInsensitive: boolean): number[] | undefined {
  const bytes = encoder.encode(literal);
  if (bytes.length < 3) return undefined;
  const result = new Set<number>();
  for (let i = 0; i + 2 < bytes.length; i++) {
    const [a, b, c] = [bytes[i]!, bytes[i + 1]!, bytes[i + 2]!];
    // A non-ASCII byte may belong to a letter whose other case has other bytes.
    if (caseInsensitive && (a > 0x7f || b > 0x7f || c > 0x7f)) continue;
    result.add((foldAscii(a) << 16) | (foldAscii(b) << 8) | foldAscii(c));
  }
  return [...result];
}
