/**
 * The layout of a symbol segment (`symbols-*.sxs`), shared by its writer and its reader. Every
 * number is a little-endian u32 and every section starts 4-aligned, so a field never straddles
 * two pages of the reader's cache.
 *
 *   header        magic, format, counts, section offsets, CRC-32 of the header
 *   strings       every name, path and signature once, NUL-terminated, 64 to a block, each block
 *                 deflated (raw); block offsets (blocks + 1), then the blocks. Names come first, in
 *                 name-table order, so a lookup's names share blocks
 *   files         path, hash, language, first symbol, symbols, first reference, references, flags
 *   symbols       name, qualified name, signature, line, end line, column, end column << 4 | kind
 *                 (the file is the one whose rows hold it; the parent is the qualified name's head);
 *                 a record table: block offsets (blocks + 1), then 128 records a block, each
 *                 field as predicted varints (record-blocks.ts)
 *   names         one per distinct name, sorted by (case-folded, name): folded-name offset, name, rows
 *   name rows     symbol rows grouped by name, in (path, line) order
 *   folded names  the case-folded names, NUL-terminated, in name order
 *   name letters  per name, a bit per letter it holds (letterMask): a fuzzy lookup reads only
 *                 the names that hold every letter of the query
 *   qualified     (qualified name, row) for rows whose qualified name is not their name, sorted
 *   references    name, line, column << 1 | kind, in (path, line, column) order; a record table
 *   ref names     one per distinct referenced name, sorted: name, rows
 *   ref rows      reference rows grouped by name
 */
export const MAGIC = 'SXSYMBOL';
/** Bump when the layout changes: a segment of another format is never misread. */
export const SYMBOL_SEGMENT_FORMAT = 4;
export const HEADER_BYTES = 96;

export const COUNTS = ['files', 'symbols', 'names', 'qualified', 'references', 'referenceNames', 'strings'] as const;
export const SECTIONS = [
  'stringBlocks',
  'stringData',
  'files',
  'symbols',
  'names',
  'nameRows',
  'foldedNames',
  'nameLetters',
  'qualified',
  'references',
  'referenceNames',
  'referenceRows',
  'end',
] as const;
export type CountName = (typeof COUNTS)[number];
export type SectionName = (typeof SECTIONS)[number];

export const FORMAT_AT = 8;
export const countAt = (name: CountName): number => 12 + 4 * COUNTS.indexOf(name);
export const sectionAt = (name: SectionName): number => 12 + 4 * COUNTS.length + 4 * SECTIONS.indexOf(name);
export const CRC_AT = sectionAt('end') + 4;

/** u32 fields per record of each table. */
export const FILE_RECORD = 8;
export const SYMBOL_RECORD = 7;
export const NAME_RECORD = 4;
export const QUALIFIED_RECORD = 2;
export const REFERENCE_RECORD = 3;
export const REFERENCE_NAME_RECORD = 3;

export const STRINGS_PER_BLOCK = 64;
/** Records per block of a record table (symbols, references). */
export const RECORDS_PER_BLOCK = 128;

/** Separators of qualified names: `Type::fn` in Rust and C++, `Class.method` elsewhere. */
export function qualifiedSeparator(language: string): string {
  return language === 'rust' || language === 'cpp' ? '::' : '.';
}

/** The parent a qualified name implies (the extractor builds it as parent + separator + name). */
export function parentOf(qualified: string, name: string, language: string): string | undefined {
  if (qualified === name) return undefined;
  return qualified.slice(0, qualified.length - name.length - qualifiedSeparator(language).length);
}

/** Bits 0-25: a-z; 26: a digit; 27: anything else. A name can match a query only if its mask holds the query's. */
export function letterMask(text: string): number {
  let mask = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 97 && code <= 122) mask |= 1 << (code - 97);
    else if (code >= 48 && code <= 57) mask |= 1 << 26;
    else mask |= 1 << 27;
  }
  return mask >>> 0;
}

/** The one order of every sorted table: UTF-16 code units, as JavaScript compares strings. */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
