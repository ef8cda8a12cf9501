/**
 * One symbol segment, read in place: opening reads the 96-byte header; each lookup reads the
 * table entries it binary-searches and the records it returns (through a PagedFile).
 */
import { basename } from 'node:path';
import { crc32 } from '../../text/checksum.js';
import { IndexCorruptError, IndexIncompatibleError } from '../../store/manifest.js';
import { SYMBOL_KINDS, type ReferenceInfo, type SymbolInfo, type SymbolKind } from '../types.js';
import { FLAG_DELETED, PackedBuilder, REFERENCE_KINDS, type PackedFiles } from './packed.js';
import { PagedFile } from './paged-file.js';
import { REFERENCE_PREDICTORS, SYMBOL_PREDICTORS } from './record-blocks.js';
import { RecordTable, StringTable } from './segment-blocks.js';
import {
  compareKeys,
  COUNTS,
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
  REFERENCE_NAME_RECORD,
  sectionAt,
  SECTIONS,
  SYMBOL_SEGMENT_FORMAT,
  STRINGS_PER_BLOCK,
  type CountName,
  type SectionName,
} from './segment-layout.js';

export interface ReferenceRecord {
  name: string;
  kind: (typeof REFERENCE_KINDS)[number];
  line: number;
  column: number;
  file: number;
}

/** A name-table entry: the case-folded name, the name, and its rows in the name-rows table. */
export interface NameEntry {
  folded: string;
  name: string;
  rowStart: number;
  rowCount: number;
}

/** The first of `count` sorted entries for which `below(entry)` is false (every table here is searched so). */
function firstNotBelow(count: number, below: (entry: number) => boolean): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (below(mid)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Whether `letters` occur in `name` in order (the fuzzy rule of scoreName, without the scoring). */
function hasInOrder(name: string, letters: string): boolean {
  let at = 0;
  for (let i = 0; i < letters.length; i++) {
    const found = name.indexOf(letters[i]!, at);
    if (found < 0) return false;
    at = found + 1;
  }
  return true;
}

export class SymbolSegment {
  readonly name: string;
  readonly #file: PagedFile;
  readonly #counts: Record<CountName, number>;
  readonly #sections: Record<SectionName, number>;
  #paths: Map<number, string> | undefined;
  /** What fuzzy lookups scan, read on the first one (see #readFuzzy). */
  #fuzzy: { masks: Uint32Array; offsets: Uint32Array; bytes: Buffer } | undefined;
  readonly #strings: StringTable;
  readonly #symbols: RecordTable;
  readonly #references: RecordTable;

  private constructor(path: string, file: PagedFile, counts: Record<CountName, number>, sections: Record<SectionName, number>) {
    this.name = basename(path);
    this.#file = file;
    this.#counts = counts;
    this.#sections = sections;
    this.#strings = new StringTable(file, this.name, { offsets: sections.stringBlocks, data: sections.stringData, end: sections.files, count: counts.strings });
    this.#symbols = new RecordTable(file, `symbol segment ${this.name}: symbols`, {
      start: sections.symbols,
      end: sections.names,
      count: counts.symbols,
      predictors: SYMBOL_PREDICTORS,
    });
    this.#references = new RecordTable(file, `symbol segment ${this.name}: references`, {
      start: sections.references,
      end: sections.referenceNames,
      count: counts.references,
      predictors: REFERENCE_PREDICTORS,
    });
  }

  /** Opens and checks the header; a segment that is not one of ours, or torn, is index_corrupt. */
  static open(path: string): SymbolSegment {
    const file = new PagedFile(path);
    const corrupt = (why: string): IndexCorruptError => {
      file.close();
      return new IndexCorruptError(`symbol segment ${basename(path)}: ${why}`);
    };
    if (file.size < HEADER_BYTES) throw corrupt('shorter than its header');
    const header = file.bytes(0, HEADER_BYTES);
    if (header.toString('latin1', 0, MAGIC.length) !== MAGIC) throw corrupt('not a symbol segment');
    if (header.readUInt32LE(FORMAT_AT) !== SYMBOL_SEGMENT_FORMAT) {
      file.close();
      throw new IndexIncompatibleError(header.readUInt32LE(FORMAT_AT), `symbol segments of format ${SYMBOL_SEGMENT_FORMAT}`);
    }
    if (header.readUInt32LE(CRC_AT) !== crc32(header.subarray(0, CRC_AT))) throw corrupt('header checksum mismatch');
    const counts = Object.fromEntries(COUNTS.map((name) => [name, header.readUInt32LE(countAt(name))])) as Record<CountName, number>;
    const sections = Object.fromEntries(SECTIONS.map((name) => [name, header.readUInt32LE(sectionAt(name))])) as Record<SectionName, number>;
    if (sections.end !== file.size) throw corrupt(`${file.size} bytes where its header says ${sections.end}`);
    // Each table must fit between its offset and the next section's: a lookup never reads past it.
    const widths: Partial<Record<SectionName, number>> = {
      stringBlocks: 4 * (Math.ceil(counts.strings / STRINGS_PER_BLOCK) + 1),
      files: 4 * FILE_RECORD * counts.files,
      symbols: RecordTable.headBytes(counts.symbols),
      names: 4 * NAME_RECORD * counts.names,
      nameRows: 4 * counts.symbols,
      nameLetters: 4 * counts.names,
      qualified: 4 * QUALIFIED_RECORD * counts.qualified,
      references: RecordTable.headBytes(counts.references),
      referenceNames: 4 * REFERENCE_NAME_RECORD * counts.referenceNames,
      referenceRows: 4 * counts.references,
    };
    for (let n = 0; n < SECTIONS.length - 1; n++) {
      const name = SECTIONS[n]!;
      const start = sections[name];
      const end = sections[SECTIONS[n + 1]!];
      if (start < HEADER_BYTES || start % 4 !== 0 || end < start || start + (widths[name] ?? 0) > end) throw corrupt(`section ${name} out of bounds`);
    }
    return new SymbolSegment(path, file, counts, sections);
  }

  get fileCount(): number {
    return this.#counts.files;
  }

  close(): void {
    this.#file.close();
  }

  #u32(section: SectionName, index: number): number {
    return this.#file.u32(this.#sections[section] + 4 * index);
  }

  string(id: number): string {
    return this.#strings.get(id);
  }

  // Files: sorted by path.

  path(file: number): string {
    this.#paths ??= new Map();
    let path = this.#paths.get(file);
    if (path === undefined) {
      path = this.string(this.#u32('files', file * FILE_RECORD));
      this.#paths.set(file, path);
    }
    return path;
  }

  fileField(file: number, field: number): number {
    return this.#u32('files', file * FILE_RECORD + field);
  }

  isDeleted(file: number): boolean {
    return (this.fileField(file, 7) & FLAG_DELETED) !== 0;
  }

  hash(file: number): string {
    return this.string(this.fileField(file, 1));
  }

  language(file: number): string {
    return this.string(this.fileField(file, 2));
  }

  /** The file's index, or -1. */
  findFile(path: string): number {
    const file = firstNotBelow(this.#counts.files, (mid) => compareKeys(this.path(mid), path) < 0);
    return file < this.#counts.files && this.path(file) === path ? file : -1;
  }

  // Symbols.

  /** The file whose rows hold `row` (field 3: first symbol row, or field 5: first reference row). */
  #fileOfRow(row: number, startField: number): number {
    // The last file starting at or before `row` (files without rows share the next one's start).
    return Math.max(0, firstNotBelow(this.#counts.files, (mid) => this.fileField(mid, startField) <= row) - 1);
  }

  symbolFile(row: number): number {
    return this.#fileOfRow(row, 3);
  }

  /** One u32 of a symbol record (see segment-layout.ts for which is which). */
  symbolField(row: number, field: number): number {
    return this.#symbols.field(row, field);
  }

  symbolName(row: number): string {
    return this.string(this.#symbols.field(row, 0));
  }

  qualifiedName(row: number): string {
    return this.string(this.#symbols.field(row, 1));
  }

  symbol(row: number, file = this.symbolFile(row)): SymbolInfo {
    const field = (n: number): number => this.#symbols.field(row, n);
    const name = this.string(field(0));
    const qualifiedName = this.string(field(1));
    const language = this.language(file);
    const packed = field(6);
    const symbol: SymbolInfo = {
      name,
      kind: (SYMBOL_KINDS[packed & 15] ?? 'variable') as SymbolKind,
      language,
      line: field(3),
      column: field(5),
      endLine: field(4),
      endColumn: packed >>> 4,
      qualifiedName,
      signature: this.string(field(2)),
    };
    const parent = parentOf(qualifiedName, name, language);
    if (parent !== undefined) symbol.parent = parent;
    return symbol;
  }

  /** The rows of one file's symbols, in source order. */
  fileSymbolRows(file: number): [number, number] {
    const start = this.fileField(file, 3);
    return [start, start + this.fileField(file, 4)];
  }

  // The name table.

  get nameCount(): number {
    return this.#counts.names;
  }

  #foldedAt(entry: number): [number, number] {
    const start = this.#u32('names', entry * NAME_RECORD);
    if (entry + 1 < this.#counts.names) return [start, this.#u32('names', (entry + 1) * NAME_RECORD) - 1];
    // The last name ends at its NUL (the section is padded after it).
    const rest = this.#file.bytes(this.#sections.foldedNames + start, this.#sections.nameLetters - this.#sections.foldedNames - start);
    const end = rest.indexOf(0);
    return [start, start + (end < 0 ? rest.length : end)];
  }

  folded(entry: number): string {
    const [start, end] = this.#foldedAt(entry);
    return this.#file.string(this.#sections.foldedNames + start, end - start);
  }

  nameEntry(entry: number): NameEntry {
    const field = (n: number): number => this.#u32('names', entry * NAME_RECORD + n);
    return { folded: this.folded(entry), name: this.string(field(1)), rowStart: field(2), rowCount: field(3) };
  }

  nameRow(at: number): number {
    return this.#u32('nameRows', at);
  }

  /** The first name entry whose case-folded name is not below `folded`. */
  lowerBound(folded: string): number {
    return firstNotBelow(this.#counts.names, (mid) => compareKeys(this.folded(mid), folded) < 0);
  }

  /**
   * Name entries whose case-folded name holds `letters` in order: the letter masks (one u32 a
   * name, read once and kept) rule out most names without reading them.
   */
  fuzzyEntries(letters: string, visit: (entry: number) => void): void {
    const wanted = letterMask(letters);
    const { masks, offsets, bytes } = (this.#fuzzy ??= this.#readFuzzy());
    // ASCII letters are matched on the stored bytes (a UTF-8 name holds them as single bytes): no string is made.
    const ascii = /^[\x00-\x7f]*$/.test(letters) ? Buffer.from(letters, 'latin1') : undefined;
    for (let entry = 0; entry < masks.length; entry++) {
      if ((masks[entry]! & wanted) !== wanted) continue;
      const start = offsets[entry]!;
      const end = offsets[entry + 1]! - 1; // before the NUL
      let matched: boolean;
      if (ascii) {
        let next = 0;
        for (let i = start; i < end && next < ascii.length; i++) if (bytes[i] === ascii[next]) next++;
        matched = next === ascii.length;
      } else matched = hasInOrder(bytes.toString('utf8', start, end), letters);
      if (matched) visit(entry);
    }
  }

  /**
   * Name entries whose case-folded name holds `folded` anywhere, with that name's length: from
   * the fuzzy lookup's table, so no name is read through the page cache to be tested.
   */
  entriesContaining(folded: string, visit: (entry: number, length: number) => void): void {
    const wanted = letterMask(folded);
    const { masks, offsets, bytes } = (this.#fuzzy ??= this.#readFuzzy());
    const needle = Buffer.from(folded, 'utf8');
    for (let entry = 0; entry < masks.length; entry++) {
      if ((masks[entry]! & wanted) !== wanted) continue;
      const start = offsets[entry]!;
      const end = offsets[entry + 1]! - 1; // before the NUL
      if (end - start >= needle.length && bytes.subarray(start, end).indexOf(needle) >= 0) visit(entry, end - start);
    }
  }

  /**
   * What a fuzzy lookup scans, read whole on the first one and kept: per name its letter mask
   * and where its case-folded form starts, and the case-folded names (about 25 bytes a name).
   * A scan in memory takes a few milliseconds where paging it through the cache took tens.
   */
  #readFuzzy(): { masks: Uint32Array; offsets: Uint32Array; bytes: Buffer } {
    const count = this.#counts.names;
    const maskBytes = this.#file.bytes(this.#sections.nameLetters, 4 * count);
    const masks = new Uint32Array(count);
    for (let n = 0; n < count; n++) masks[n] = maskBytes.readUInt32LE(4 * n);
    const names = this.#file.bytes(this.#sections.names, 4 * NAME_RECORD * count);
    const bytes = Buffer.from(this.#file.bytes(this.#sections.foldedNames, this.#sections.nameLetters - this.#sections.foldedNames));
    const offsets = new Uint32Array(count + 1);
    for (let n = 0; n < count; n++) offsets[n] = names.readUInt32LE(4 * NAME_RECORD * n);
    // The last name ends at its NUL (the section is padded after it).
    offsets[count] = count === 0 ? 0 : bytes.indexOf(0, offsets[count - 1]) + 1;
    return { masks, offsets, bytes };
  }

  // Qualified names.

  /** Rows whose qualified name (differing from their name) is `qualified`. */
  qualifiedRows(qualified: string): number[] {
    const count = this.#counts.qualified;
    const key = (n: number): string => this.string(this.#u32('qualified', n * QUALIFIED_RECORD));
    const rows: number[] = [];
    for (let n = firstNotBelow(count, (mid) => compareKeys(key(mid), qualified) < 0); n < count && key(n) === qualified; n++)
      rows.push(this.#u32('qualified', n * QUALIFIED_RECORD + 1));
    return rows;
  }

  // References.

  reference(row: number, file = this.#fileOfRow(row, 5)): ReferenceRecord {
    const field = (n: number): number => this.#references.field(row, n);
    const packed = field(2);
    return { name: this.string(field(0)), kind: REFERENCE_KINDS[packed & 1]!, line: field(1), column: packed >>> 1, file };
  }

  fileReferenceRows(file: number): [number, number] {
    const start = this.fileField(file, 5);
    return [start, start + this.fileField(file, 6)];
  }

  /** Reference rows naming `name`, in (path, line) order. */
  referenceRowsNamed(name: string): number[] {
    const count = this.#counts.referenceNames;
    const key = (n: number): string => this.string(this.#u32('referenceNames', n * REFERENCE_NAME_RECORD));
    const low = firstNotBelow(count, (mid) => compareKeys(key(mid), name) < 0);
    if (low >= count || key(low) !== name) return [];
    const start = this.#u32('referenceNames', low * REFERENCE_NAME_RECORD + 1);
    const length = this.#u32('referenceNames', low * REFERENCE_NAME_RECORD + 2);
    return Array.from({ length }, (_, n) => this.#u32('referenceRows', start + n));
  }

  /** The chosen files with their symbols and references, packed again (what a merge folds). */
  pack(files: number[]): PackedFiles {
    // Packing much of a segment (a fold) touches nearly every string block, in no useful order
    // (names are stored sorted): inflate them all once instead of block by block through the cache.
    if (files.length > this.#counts.files / 8) this.#strings.loadAll();
    const batch = new PackedBuilder();
    for (const file of files) {
      const path = this.path(file);
      if (this.isDeleted(file)) {
        batch.addDeleted(path);
        continue;
      }
      const [symbolStart, symbolEnd] = this.fileSymbolRows(file);
      const [referenceStart, referenceEnd] = this.fileReferenceRows(file);
      const symbols: SymbolInfo[] = [];
      for (let row = symbolStart; row < symbolEnd; row++) symbols.push(this.symbol(row, file));
      const references: ReferenceInfo[] = [];
      for (let row = referenceStart; row < referenceEnd; row++) {
        const { file: _file, ...reference } = this.reference(row, file);
        references.push(reference);
      }
      batch.add(path, this.hash(file), this.language(file), symbols, references);
    }
    return batch.build();
  }
}
