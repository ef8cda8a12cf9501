/**
 * The text index's on-disk format: trigrams of each file, packed into immutable segments
 * (`segment-*.sxt`) with a checked header and checked parts. Builders write it, the search reads it.
 */

export { lineStartsOf } from './line-index.js';
