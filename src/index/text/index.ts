/**
 * The text index's on-disk format: trigrams of each file, packed into immutable segments
 * (`segment-*.sxt`) with a checked header and checked parts. Builders write it, the search reads it.
 */
export { crc32 } from './checksum.js';
export { lineAt, LineIndex, lineStartsOf } from './line-index.js';
export { byPath, documentsOf, Segment, SegmentBuilder, type SegmentFile, segmentFiles } from './segment.js';
export { blockEnd, blockTrigramsOf, DEFAULT_BLOCK_BYTES, literalTrigrams, trigramsOf } from './trigrams.js';
