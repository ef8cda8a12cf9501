/**
 * Record tables stored in blocks of RECORDS_PER_BLOCK rows, each block field by field as
 * zigzag varints of what is left after a prediction: the previous row's value (names and lines
 * that climb slowly), another field of the same row (a qualified name that is the name, an end
 * line after its line), or nothing. Symbols and references shrink to about a third, and a block
 * decodes in microseconds in plain JavaScript (deflate cost a native call per block, which was
 * most of the time spent writing a segment).
 */

/** How a field is predicted: from the previous row, from an earlier field of this row, or not. */
export type Predictor = 'previous' | 'none' | { field: number };

/** name, qualified name (from the name), signature, line, end line (from the line), column, end column and kind. */
export const SYMBOL_PREDICTORS: Predictor[] = ['previous', { field: 0 }, 'previous', 'previous', { field: 3 }, 'none', 'none'];
/** name, line, column and kind. */
export const REFERENCE_PREDICTORS: Predictor[] = ['previous', 'previous', 'none'];

function predicted(predictor: Predictor, values: ArrayLike<number>, row: number, width: number, field: number): number {
  if (predictor === 'none') return 0;
  if (predictor === 'previous') return row === 0 ? 0 : values[(row - 1) * width + field]!;
  return values[row * width + predictor.field]!;
}

/** `rows` records of `width` fields from `records` at row `start`, encoded. */
export function encodeBlock(records: Uint32Array, start: number, rows: number, predictors: Predictor[]): Buffer {
  const width = predictors.length;
  const block = records.subarray(start * width, (start + rows) * width);
  const out: number[] = [];
  for (let field = 0; field < width; field++) {
    for (let row = 0; row < rows; row++) {
      const residual = block[row * width + field]! - predicted(predictors[field]!, block, row, width, field);
      // Zigzag without 32-bit operators: residuals span (-2^32, 2^32).
      let value = residual >= 0 ? residual * 2 : -residual * 2 - 1;
      while (value >= 0x80) {
        out.push((value % 0x80) | 0x80);
        value = Math.floor(value / 0x80);
      }
      out.push(value);
    }
  }
  return Buffer.from(out);
}

/** The block's records, or undefined when the bytes do not hold exactly `rows` of them. */
export function decodeBlock(bytes: Uint8Array, rows: number, predictors: Predictor[]): Uint32Array | undefined {
  const width = predictors.length;
  const values = new Uint32Array(rows * width);
  let at = 0;
  for (let field = 0; field < width; field++) {
    const predictor = predictors[field]!;
    for (let row = 0; row < rows; row++) {
      let value = 0;
      let scale = 1;
      for (;;) {
        if (at >= bytes.length || scale > 2 ** 35) return undefined;
        const byte = bytes[at++]!;
        value += (byte & 0x7f) * scale;
        if (byte < 0x80) break;
        scale *= 0x80;
      }
      const residual = value % 2 === 0 ? value / 2 : -(value + 1) / 2;
      const decoded = residual + predicted(predictor, values, row, width, field);
      if (decoded < 0 || decoded > 0xffffffff) return undefined;
      values[row * width + field] = decoded;
    }
  }
  return at === bytes.length ? values : undefined;
}
