/**
 * Writes one symbol segment from packed batches (parser threads' output, or live files read
 * back from older segments by a merge). See segment-layout.ts for what goes where.
 */
import { endianness } from 'node:os';
import { deflateRawSync } from 'node:zlib';
import { crc32 } from '../../text/checksum.js';
import {
  compareKeys,
  countAt,
  CRC_AT,
  FILE_RECORD,
  FORMAT_AT,
  HEADER_BYTES,
  letterMask,
  MAGIC,
  NAME_RECORD,
  qualifiedSeparator,
  QUALIFIED_RECORD,
  RECORDS_PER_BLOCK,
  REFERENCE_NAME_RECORD,
  REFERENCE_RECORD,
  sectionAt,
  SYMBOL_RECORD,
  SYMBOL_SEGMENT_FORMAT,
  STRINGS_PER_BLOCK,
  type CountName,
  type SectionName,
} from './segment-layout.js';
import { encodeBlock, REFERENCE_PREDICTORS, SYMBOL_PREDICTORS, type Predictor } from './record-blocks.js';
import { FILE_FIELDS, NONE, StringIds, REFERENCE_FIELDS, SYMBOL_FIELDS, type PackedFiles } from './packed.js';

interface FilePlace {
  part: PackedFiles;
  /** Index of the file's first field, first symbol row and first reference row in its part. */
  field: number;
  symbolRow: number;
  referenceRow: number;
  path: string;
}

export interface SegmentCounts {
  files: number;
  symbols: number;
  references: number;
}

/**
 * The strings of the parts a segment is written from, numbered in one table. Parts can be added
 * as they arrive (the main thread does it while parser threads still parse); a part not added
 * is added when the segment is encoded.
 */
export class SegmentStrings {
  readonly table = new StringIds();
  readonly #remaps = new Map<PackedFiles, Uint32Array>();

  add(part: PackedFiles): Uint32Array {
    const remap = new Uint32Array(part.strings.length);
    for (let local = 0; local < part.strings.length; local++) remap[local] = this.table.id(part.strings[local]!);
    this.#remaps.set(part, remap);
    return remap;
  }

  id(part: PackedFiles, local: number): number {
    if (local === NONE) return NONE;
    return (this.#remaps.get(part) ?? this.add(part))[local]!;
  }
}

/** `emit` for rows first..first+count in `compare`'s order (a stable sort): most come in order already, and are not sorted. */
function inOrder(first: number, count: number, compare: (a: number, b: number) => number, emit: (row: number) => void): void {
  let sorted = true;
  for (let row = first + 1; row < first + count && sorted; row++) sorted = compare(row - 1, row) <= 0;
  if (sorted) for (let row = first; row < first + count; row++) emit(row);
  else for (const row of Array.from({ length: count }, (_, i) => first + i).sort(compare)) emit(row);
}

/** Whether `qualified` is `parent` + separator + `name` (or `name` alone when there is no parent), without building it. */
function headIsParent(qualified: string, name: string, parent: string | undefined, separator: string): boolean {
  if (parent === undefined) return qualified === name;
  return (
    qualified.length === parent.length + separator.length + name.length &&
    qualified.startsWith(parent) &&
    qualified.startsWith(separator, parent.length) &&
    qualified.endsWith(name)
  );
}

/** Every file of every part, in path order; a path given twice is a caller's bug. */
function placeFiles(parts: PackedFiles[]): FilePlace[] {
  const places: FilePlace[] = [];
  for (const part of parts) {
    let symbolRow = 0;
    let referenceRow = 0;
    for (let field = 0; field < part.files.length; field += FILE_FIELDS) {
      places.push({ part, field, symbolRow, referenceRow, path: part.strings[part.files[field]!]! });
      symbolRow += part.files[field + 3]!;
      referenceRow += part.files[field + 4]!;
    }
  }
  places.sort((a, b) => compareKeys(a.path, b.path));
  for (let i = 1; i < places.length; i++)
    if (places[i]!.path === places[i - 1]!.path) throw new Error(`Two entries for ${places[i]!.path} in one symbol segment`);
  return places;
}

export function encodeSymbolSegment(parts: PackedFiles[], ids = new SegmentStrings()): { bytes: Buffer; counts: SegmentCounts } {
  const places = placeFiles(parts);
  const strings = ids.table.strings;
  const sid = (part: PackedFiles, local: number): number => ids.id(part, local);

  const totalSymbols = parts.reduce((sum, part) => sum + part.symbols.length / SYMBOL_FIELDS, 0);
  const totalReferences = parts.reduce((sum, part) => sum + part.references.length / REFERENCE_FIELDS, 0);
  const files = new Uint32Array(places.length * FILE_RECORD);
  const symbols = new Uint32Array(totalSymbols * SYMBOL_RECORD);
  const references = new Uint32Array(totalReferences * REFERENCE_RECORD);
  let symbolRow = 0;
  let referenceRow = 0;
  places.forEach((place, file) => {
    const { part, field } = place;
    const symbolCount = part.files[field + 3]!;
    const referenceCount = part.files[field + 4]!;
    files.set(
      [
        sid(part, part.files[field]!),
        sid(part, part.files[field + 1]!),
        sid(part, part.files[field + 2]!),
        symbolRow,
        symbolCount,
        referenceRow,
        referenceCount,
        part.files[field + 5]!,
      ],
      file * FILE_RECORD,
    );
    // Symbols by position; at one position, by name (as an outline lists them).
    const at = (row: number, n: number): number => part.symbols[row * SYMBOL_FIELDS + n]!;
    const nameOf = (row: number): string => part.strings[at(row, 0)]!;
    const byPlace = (a: number, b: number): number =>
      at(a, 5) - at(b, 5) || at(a, 6) - at(b, 6) || compareKeys(nameOf(a).toLowerCase(), nameOf(b).toLowerCase()) || compareKeys(nameOf(a), nameOf(b));
    const language = part.strings[part.files[field + 2]!]!;
    const separator = qualifiedSeparator(language);
    const emitSymbol = (row: number): void => {
      const o = symbolRow++ * SYMBOL_RECORD;
      // Stored implicitly: a symbol whose parent is not its qualified name's head cannot be written.
      if (!headIsParent(part.strings[at(row, 1)]!, nameOf(row), at(row, 3) === NONE ? undefined : part.strings[at(row, 3)], separator))
        throw new Error(`${place.path}: the parent of ${nameOf(row)} is not the head of its qualified name`);
      symbols[o] = sid(part, at(row, 0));
      symbols[o + 1] = sid(part, at(row, 1));
      symbols[o + 2] = sid(part, at(row, 2));
      symbols[o + 3] = at(row, 5);
      symbols[o + 4] = at(row, 7);
      symbols[o + 5] = at(row, 6);
      symbols[o + 6] = (at(row, 8) << 4) | at(row, 9);
    };
    inOrder(place.symbolRow, symbolCount, byPlace, emitSymbol);
    // References by position (a stable sort keeps the parser's order at one position).
    const ref = (row: number, n: number): number => part.references[row * REFERENCE_FIELDS + n]!;
    const byPosition = (a: number, b: number): number => ref(a, 2) - ref(b, 2) || (ref(a, 3) >>> 1) - (ref(b, 3) >>> 1);
    const emit = (row: number): void => {
      const o = referenceRow++ * REFERENCE_RECORD;
      references[o] = sid(part, ref(row, 0));
      references[o + 1] = ref(row, 2);
      references[o + 2] = ref(row, 3);
    };
    inOrder(place.referenceRow, referenceCount, byPosition, emit);
  });

  // Names first (in name-table order), then qualified and referenced names (sorted), then the
  // files' paths and hashes, then the rest: the strings read together share compressed blocks.
  const order = stringOrder(strings, files, symbols, references, totalSymbols, totalReferences);
  const renumber = new Uint32Array(strings.length);
  order.forEach((id, n) => (renumber[id] = n));
  for (const [table, width, fields] of [
    [files, FILE_RECORD, [0, 1, 2]],
    [symbols, SYMBOL_RECORD, [0, 1, 2]],
    [references, REFERENCE_RECORD, [0]],
  ] as const) {
    for (let o = 0; o < table.length; o += width) for (const f of fields) table[o + f] = renumber[table[o + f]!]!;
  }
  // From here on `strings` are the stored strings, by their new ids (a part's string no record uses is not stored).
  const ordered = order.map((id) => strings[id]!);
  strings.length = 0;
  for (const value of ordered) strings.push(value);

  // The name table: distinct names by (case-folded, name); each name's rows in row order.
  // stringOrder numbered the names first, in (case-folded, name) order: their ids sort them, and
  // the rows grouped by id are the name table's rows as they stand.
  const byName = groupRows(symbols, SYMBOL_RECORD, totalSymbols, strings.length);
  const nameIds: number[] = [];
  for (let id = 0; id < strings.length; id++) if (byName.start[id + 1]! > byName.start[id]!) nameIds.push(id);
  const nameTable = new Uint32Array(nameIds.length * NAME_RECORD);
  const nameRows = byName.rows;
  const nameLetters = new Uint32Array(nameIds.length);
  const foldedTexts: string[] = [];
  let foldedBytes = 0;
  nameIds.forEach((id, n) => {
    const folded = strings[id]!.toLowerCase();
    const o = n * NAME_RECORD;
    nameTable[o] = foldedBytes;
    nameTable[o + 1] = id;
    nameTable[o + 2] = byName.start[id]!;
    nameTable[o + 3] = byName.start[id + 1]! - byName.start[id]!;
    nameLetters[n] = letterMask(folded);
    foldedTexts.push(folded);
    foldedBytes += byteLength(folded) + 1;
  });
  const foldedNames = Buffer.from(`${foldedTexts.join('\0')}\0`, 'utf8');

  const qualifiedRows: number[] = [];
  for (let row = 0; row < totalSymbols; row++) if (symbols[row * SYMBOL_RECORD + 1] !== symbols[row * SYMBOL_RECORD]) qualifiedRows.push(row);
  const qualifiedOf = (row: number): string => strings[symbols[row * SYMBOL_RECORD + 1]!]!;
  qualifiedRows.sort((a, b) => compareKeys(qualifiedOf(a), qualifiedOf(b)) || a - b);
  const qualified = new Uint32Array(qualifiedRows.length * QUALIFIED_RECORD);
  qualifiedRows.forEach((row, n) => qualified.set([symbols[row * SYMBOL_RECORD + 1]!, row], n * QUALIFIED_RECORD));

  const byReference = groupRows(references, REFERENCE_RECORD, totalReferences, strings.length);
  const referenced: number[] = [];
  for (let id = 0; id < strings.length; id++) if (byReference.start[id + 1]! > byReference.start[id]!) referenced.push(id);
  referenced.sort((a, b) => compareKeys(strings[a]!, strings[b]!));
  const referenceNames = new Uint32Array(referenced.length * REFERENCE_NAME_RECORD);
  const referenceRows = new Uint32Array(totalReferences);
  let at = 0;
  referenced.forEach((id, n) => {
    const from = byReference.start[id]!;
    const to = byReference.start[id + 1]!;
    const o = n * REFERENCE_NAME_RECORD;
    referenceNames[o] = id;
    referenceNames[o + 1] = at;
    referenceNames[o + 2] = to - from;
    referenceRows.set(byReference.rows.subarray(from, to), at);
    at += to - from;
  });

  const blocks: Buffer[] = [];
  for (let start = 0; start < strings.length; start += STRINGS_PER_BLOCK) {
    blocks.push(
      deflateRawSync(
        Buffer.from(
          strings
            .slice(start, start + STRINGS_PER_BLOCK)
            .map((value) => `${value.replaceAll('\0', '\uFFFD')}\0`)
            .join(''),
          'utf8',
        ),
        BLOCK_DEFLATE,
      ),
    );
  }
  const blockOffsets = new Uint32Array(blocks.length + 1);
  blocks.forEach((block, n) => (blockOffsets[n + 1] = blockOffsets[n]! + block.length));

  const sections: Array<[SectionName, Uint32Array | Buffer]> = [
    ['stringBlocks', blockOffsets],
    ['stringData', Buffer.concat(blocks)],
    ['files', files],
    ['symbols', recordTable(symbols, SYMBOL_PREDICTORS)],
    ['names', nameTable],
    ['nameRows', nameRows],
    ['foldedNames', foldedNames],
    ['nameLetters', nameLetters],
    ['qualified', qualified],
    ['references', recordTable(references, REFERENCE_PREDICTORS)],
    ['referenceNames', referenceNames],
    ['referenceRows', referenceRows],
  ];
  const counts: Record<CountName, number> = {
    files: places.length,
    symbols: totalSymbols,
    names: nameIds.length,
    qualified: qualifiedRows.length,
    references: totalReferences,
    referenceNames: referenced.length,
    strings: strings.length,
  };
  return { bytes: assemble(sections, counts), counts: { files: places.length, symbols: totalSymbols, references: totalReferences } };
}

/** Records in blocks of RECORDS_PER_BLOCK (record-blocks.ts) behind a table of block end offsets (relative to the first block). */
function recordTable(records: Uint32Array, predictors: Predictor[]): Buffer {
  const rows = records.length / predictors.length;
  const blocks: Buffer[] = [];
  for (let start = 0; start < rows; start += RECORDS_PER_BLOCK) blocks.push(encodeBlock(records, start, Math.min(RECORDS_PER_BLOCK, rows - start), predictors));
  const head = Buffer.alloc(4 * (blocks.length + 1));
  let offset = 0;
  blocks.forEach((block, n) => head.writeUInt32LE((offset += block.length), 4 * (n + 1)));
  return Buffer.concat([head, ...blocks]);
}

/** String ids in storage order: names by (case-folded, name), qualified names, referenced names, the files' strings, then signatures in row order. */
function stringOrder(
  strings: string[],
  files: Uint32Array,
  symbols: Uint32Array,
  references: Uint32Array,
  symbolCount: number,
  referenceCount: number,
): number[] {
  const names = distinctIds(symbols, SYMBOL_RECORD, 0, symbolCount, strings.length);
  const qualified = distinctIds(symbols, SYMBOL_RECORD, 1, symbolCount, strings.length);
  const referenced = distinctIds(references, REFERENCE_RECORD, 0, referenceCount, strings.length);
  const placed = new Uint8Array(strings.length);
  const order: number[] = [];
  const take = (ids: number[]): void => {
    for (const id of ids) {
      if (placed[id] !== 0) continue;
      placed[id] = 1;
      order.push(id);
    }
  };
  const folded = names.map((id) => ({ id, folded: strings[id]!.toLowerCase(), name: strings[id]! }));
  folded.sort((a, b) => compareKeys(a.folded, b.folded) || compareKeys(a.name, b.name));
  take(folded.map((entry) => entry.id));
  take(qualified.filter((id) => placed[id] === 0).sort((a, b) => compareKeys(strings[a]!, strings[b]!)));
  take(referenced.filter((id) => placed[id] === 0).sort((a, b) => compareKeys(strings[a]!, strings[b]!)));
  // Each file's path, hash and language together: a pass over the files (a sync's reuse check) reads few blocks.
  const fileStrings: number[] = [];
  for (let o = 0; o < files.length; o += FILE_RECORD) fileStrings.push(files[o]!, files[o + 1]!, files[o + 2]!);
  take(fileStrings);
  const signatures: number[] = [];
  for (let row = 0; row < symbolCount; row++) signatures.push(symbols[row * SYMBOL_RECORD + 2]!);
  take(signatures);
  return order;
}

/** The distinct values of one field of the records (string ids below `ids`), each once. */
function distinctIds(records: Uint32Array, width: number, field: number, count: number, ids: number): number[] {
  const seen = new Uint8Array(ids);
  const distinct: number[] = [];
  for (let row = 0; row < count; row++) {
    const id = records[row * width + field]!;
    if (seen[id] !== 0) continue;
    seen[id] = 1;
    distinct.push(id);
  }
  return distinct;
}

/**
 * Row numbers grouped by the u32 in the first field of each record (a string id below `ids`), in
 * row order: the rows of id `i` are `rows[start[i]]` up to `rows[start[i + 1]]` (a counting sort).
 */
function groupRows(records: Uint32Array, width: number, count: number, ids: number): { start: Uint32Array; rows: Uint32Array } {
  const start = new Uint32Array(ids + 1);
  for (let row = 0; row < count; row++) start[records[row * width]! + 1]!++;
  for (let id = 0; id < ids; id++) start[id + 1]! += start[id]!;
  const next = start.slice(0, ids);
  const rows = new Uint32Array(count);
  for (let row = 0; row < count; row++) rows[next[records[row * width]!]!++] = row;
  return { start, rows };
}

const align4 = (n: number): number => (n + 3) & ~3;

/**
 * A block of strings is a few KiB: a 4 KiB window loses nothing of the ratio, and zlib's set-up for
 * the default 32 KiB window was half the time of writing a segment's strings. Any inflater reads it.
 */
const BLOCK_DEFLATE = { windowBits: 12, memLevel: 4 } as const;

/** UTF-8 length: names are nearly always ASCII, where it is the string's length. */
function byteLength(text: string): number {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return Buffer.byteLength(text, 'utf8');
  return text.length;
}

/** The layout is little-endian: on such a machine a Uint32Array's bytes are copied as they are. */
const LITTLE_ENDIAN = endianness() === 'LE';

function assemble(sections: Array<[SectionName, Uint32Array | Buffer]>, counts: Record<CountName, number>): Buffer {
  let size = HEADER_BYTES;
  const offsets: number[] = [];
  for (const [, data] of sections) {
    offsets.push(size);
    size = align4(size + data.byteLength);
  }
  const out = Buffer.alloc(size);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(SYMBOL_SEGMENT_FORMAT, FORMAT_AT);
  for (const [name, value] of Object.entries(counts) as Array<[CountName, number]>) out.writeUInt32LE(value, countAt(name));
  sections.forEach(([name, data], n) => {
    out.writeUInt32LE(offsets[n]!, sectionAt(name));
    if (data instanceof Buffer) data.copy(out, offsets[n]!);
    else if (LITTLE_ENDIAN) Buffer.from(data.buffer, data.byteOffset, data.byteLength).copy(out, offsets[n]!);
    else for (let i = 0; i < data.length; i++) out.writeUInt32LE(data[i]!, offsets[n]! + 4 * i);
  });
  out.writeUInt32LE(size, sectionAt('end'));
  out.writeUInt32LE(crc32(out.subarray(0, CRC_AT)), CRC_AT);
  return out;
}
