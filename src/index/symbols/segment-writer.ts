/**
 * Writes one symbol segment from packed batches (parser threads' output, or live files read
 * back from older segments by a merge). See segment-layout.ts for what goes where.
 */
import { deflateRawSync } from 'node:zlib';
import { crc32 } from '../checksum.js';
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
  parentOf,
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
  for (let i = 1; i < places.length; i++) if (places[i]!.path === places[i - 1]!.path) throw new Error(`Two entries for ${places[i]!.path} in one symbol segment`);
  return places;
}

export function encodeSymbolSegment(parts: PackedFiles[]): { bytes: Buffer; counts: SegmentCounts } {
  const places = placeFiles(parts);
  const table = new StringIds();
  const strings = table.strings;
  const remaps = new Map<PackedFiles, Uint32Array>(parts.map((part) => [part, new Uint32Array(part.strings.length).fill(NONE)]));
  const sid = (part: PackedFiles, local: number): number => {
    if (local === NONE) return NONE;
    const remap = remaps.get(part)!;
    if (remap[local] === NONE) remap[local] = table.id(part.strings[local]!);
    return remap[local]!;
  };

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
    files.set([sid(part, part.files[field]!), sid(part, part.files[field + 1]!), sid(part, part.files[field + 2]!), symbolRow, symbolCount, referenceRow, referenceCount, part.files[field + 5]!], file * FILE_RECORD);
    // Symbols by position; at one position, by name (as an outline lists them).
    const local = Array.from({ length: symbolCount }, (_, i) => place.symbolRow + i);
    const at = (row: number, n: number): number => part.symbols[row * SYMBOL_FIELDS + n]!;
    const nameOf = (row: number): string => part.strings[at(row, 0)]!;
    local.sort((a, b) => at(a, 5) - at(b, 5) || at(a, 6) - at(b, 6) || compareKeys(nameOf(a).toLowerCase(), nameOf(b).toLowerCase()) || compareKeys(nameOf(a), nameOf(b)));
    const language = part.strings[part.files[field + 2]!]!;
    for (const row of local) {
      const o = symbolRow++ * SYMBOL_RECORD;
      const parent = at(row, 3) === NONE ? undefined : part.strings[at(row, 3)];
      // Stored implicitly: a symbol whose parent is not its qualified name's head cannot be written.
      if (parentOf(part.strings[at(row, 1)]!, nameOf(row), language) !== parent) throw new Error(`${place.path}: the parent of ${nameOf(row)} is not the head of its qualified name`);
      symbols[o] = sid(part, at(row, 0));
      symbols[o + 1] = sid(part, at(row, 1));
      symbols[o + 2] = sid(part, at(row, 2));
      symbols[o + 3] = at(row, 5);
      symbols[o + 4] = at(row, 7);
      symbols[o + 5] = at(row, 6);
      symbols[o + 6] = (at(row, 8) << 4) | at(row, 9);
    }
    // References by position (a stable sort keeps the parser's order at one position).
    const refs = Array.from({ length: referenceCount }, (_, i) => place.referenceRow + i);
    const ref = (row: number, n: number): number => part.references[row * REFERENCE_FIELDS + n]!;
    refs.sort((a, b) => ref(a, 2) - ref(b, 2) || (ref(a, 3) >>> 1) - (ref(b, 3) >>> 1));
    for (const row of refs) {
      references.set([sid(part, ref(row, 0)), ref(row, 2), ref(row, 3)], referenceRow++ * REFERENCE_RECORD);
    }
  });

  // Names first (in name-table order), then qualified and referenced names (sorted), then the
  // files' paths and hashes, then the rest: the strings read together share compressed blocks.
  const order = stringOrder(strings, files, symbols, references, totalSymbols, totalReferences);
  const renumber = new Uint32Array(strings.length);
  order.forEach((id, n) => (renumber[id] = n));
  for (const [table, width, fields] of [[files, FILE_RECORD, [0, 1, 2]], [symbols, SYMBOL_RECORD, [0, 1, 2]], [references, REFERENCE_RECORD, [0]]] as const) {
    for (let o = 0; o < table.length; o += width) for (const f of fields) table[o + f] = renumber[table[o + f]!]!;
  }
  const ordered = order.map((id) => strings[id]!);
  ordered.forEach((value, n) => (strings[n] = value));

  // The name table: distinct names by (case-folded, name); each name's rows in row order.
  const rowsByName = groupRows(symbols, SYMBOL_RECORD, totalSymbols);
  // stringOrder numbered the names first, in (case-folded, name) order: their ids sort them.
  const names = [...rowsByName.keys()].sort((a, b) => a - b).map((id) => ({ id, folded: strings[id]!.toLowerCase() }));
  const nameTable = new Uint32Array(names.length * NAME_RECORD);
  const nameRows = new Uint32Array(totalSymbols);
  const foldedParts: Buffer[] = [];
  const nameLetters = new Uint32Array(names.length);
  let foldedBytes = 0;
  let nameRow = 0;
  names.forEach((entry, n) => {
    const rows = rowsByName.get(entry.id)!;
    nameTable.set([foldedBytes, entry.id, nameRow, rows.length], n * NAME_RECORD);
    nameRows.set(rows, nameRow);
    nameRow += rows.length;
    nameLetters[n] = letterMask(entry.folded);
    const folded = Buffer.from(`${entry.folded}\0`, 'utf8');
    foldedParts.push(folded);
    foldedBytes += folded.length;
  });

  const qualifiedRows: number[] = [];
  for (let row = 0; row < totalSymbols; row++) if (symbols[row * SYMBOL_RECORD + 1] !== symbols[row * SYMBOL_RECORD]) qualifiedRows.push(row);
  const qualifiedOf = (row: number): string => strings[symbols[row * SYMBOL_RECORD + 1]!]!;
  qualifiedRows.sort((a, b) => compareKeys(qualifiedOf(a), qualifiedOf(b)) || a - b);
  const qualified = new Uint32Array(qualifiedRows.length * QUALIFIED_RECORD);
  qualifiedRows.forEach((row, n) => qualified.set([symbols[row * SYMBOL_RECORD + 1]!, row], n * QUALIFIED_RECORD));

  const rowsByReference = groupRows(references, REFERENCE_RECORD, totalReferences);
  const referenced = [...rowsByReference.keys()].sort((a, b) => compareKeys(strings[a]!, strings[b]!));
  const referenceNames = new Uint32Array(referenced.length * REFERENCE_NAME_RECORD);
  const referenceRows = new Uint32Array(totalReferences);
  let at = 0;
  referenced.forEach((id, n) => {
    const rows = rowsByReference.get(id)!;
    referenceNames.set([id, at, rows.length], n * REFERENCE_NAME_RECORD);
    referenceRows.set(rows, at);
    at += rows.length;
  });

  const blocks: Buffer[] = [];
  for (let start = 0; start < strings.length; start += STRINGS_PER_BLOCK) {
    blocks.push(deflateRawSync(Buffer.from(strings.slice(start, start + STRINGS_PER_BLOCK).map((value) => `${value.replaceAll('\0', '\uFFFD')}\0`).join(''), 'utf8')));
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
    ['foldedNames', Buffer.concat(foldedParts, foldedBytes)],
    ['nameLetters', nameLetters],
    ['qualified', qualified],
    ['references', recordTable(references, REFERENCE_PREDICTORS)],
    ['referenceNames', referenceNames],
    ['referenceRows', referenceRows],
  ];
  const counts: Record<CountName, number> = { files: places.length, symbols: totalSymbols, names: names.length, qualified: qualifiedRows.length, references: totalReferences, referenceNames: referenced.length, strings: strings.length };
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

/** String ids in storage order: names by (case-folded, name), qualified names, referenced names, the files' strings, then the rest as first met. */
function stringOrder(strings: string[], files: Uint32Array, symbols: Uint32Array, references: Uint32Array, symbolCount: number, referenceCount: number): number[] {
  const names = new Set<number>();
  const qualified = new Set<number>();
  const referenced = new Set<number>();
  for (let row = 0; row < symbolCount; row++) {
    names.add(symbols[row * SYMBOL_RECORD]!);
    qualified.add(symbols[row * SYMBOL_RECORD + 1]!);
  }
  for (let row = 0; row < referenceCount; row++) referenced.add(references[row * REFERENCE_RECORD]!);
  const placed = new Set<number>();
  const order: number[] = [];
  const take = (ids: number[]): void => {
    for (const id of ids) if (!placed.has(id)) (placed.add(id), order.push(id));
  };
  const folded = [...names].map((id) => ({ id, folded: strings[id]!.toLowerCase(), name: strings[id]! }));
  folded.sort((a, b) => compareKeys(a.folded, b.folded) || compareKeys(a.name, b.name));
  take(folded.map((entry) => entry.id));
  take([...qualified].filter((id) => !placed.has(id)).sort((a, b) => compareKeys(strings[a]!, strings[b]!)));
  take([...referenced].filter((id) => !placed.has(id)).sort((a, b) => compareKeys(strings[a]!, strings[b]!)));
  // Each file's path, hash and language together: a pass over the files (a sync's reuse check) reads few blocks.
  const fileStrings: number[] = [];
  for (let o = 0; o < files.length; o += FILE_RECORD) fileStrings.push(files[o]!, files[o + 1]!, files[o + 2]!);
  take(fileStrings);
  take(strings.map((_, id) => id));
  return order;
}

/** Row numbers grouped by the u32 in the first field of each record (a name's string id), in row order. */
function groupRows(records: Uint32Array, width: number, count: number): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (let row = 0; row < count; row++) {
    const key = records[row * width]!;
    const rows = groups.get(key);
    if (rows) rows.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

const align4 = (n: number): number => (n + 3) & ~3;

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
    else for (let i = 0; i < data.length; i++) out.writeUInt32LE(data[i]!, offsets[n]! + 4 * i);
  });
  out.writeUInt32LE(size, sectionAt('end'));
  out.writeUInt32LE(crc32(out.subarray(0, CRC_AT)), CRC_AT);
  return out;
}
