/**
 * The symbol segment's format: its layout (segment-layout.ts), the packed rows a build gathers
 * (packed.ts), the writer, and the reader over paged blocks of records.
 */
export { FILE_FIELDS, PackedBuilder, type PackedFiles, SYMBOL_FIELDS } from './packed.js';
export { compareKeys, HEADER_BYTES, qualifiedSeparator, sectionAt } from './segment-layout.js';
export { SymbolSegment } from './segment-reader.js';
export { encodeSymbolSegment, SegmentStrings } from './segment-writer.js';
