/**
 * One symbol segment, read in place: opening reads the 96-byte header; each lookup reads the
 * table entries it binary-searches and the records it returns (through a PagedFile).
 */
import { basename } from 'node:path';
import { crc32 } from '../checksum.js';
import { IndexCorruptError } from '../manifest.js';
import { SYMBOL_KINDS, type SymbolInfo, type SymbolKind } from './extract.js';
import { FILE_FIELDS, FLAG_DELETED, NONE, REFERENCE_KINDS, type PackedFiles } from './packed.js';
import { PAGE_BYTES, PagedFile } from './paged-file.js';
import {
  compareKeys,
  COUNTS,
  countAt,
  CRC_AT,
  FILE_RECORD,
  FORMAT_AT,
  HEADER_BYTES,
  MAGIC,
  NAME_RECORD,
  QUALIFIED_RECORD,
  REFERENCE_NAME_RECORD,
  REFERENCE_RECORD,
  sectionAt,
  SECTIONS,
  SYMBOL_RECORD,
  SYMBOL_SEGMENT_FORMAT,
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

export class SymbolSegment {
  readonly name: string;
  readonly #file: PagedFile;
  readonly #counts: Record<CountName, number>;
  readonly #sections: Record<SectionName, number>;
  #paths: Map<number, string> | undefined;

  private constructor(path: string, file: PagedFile, counts: Record<CountName, number>, sections: Record<SectionName, number>) {
    this.name = basename(path);
    this.#file = file;
    this.#counts = counts;
    this.#sections = sections;
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
    if (header.readUInt32LE(CRC_AT) !== crc32(header.subarray(0, CRC_AT))) throw corrupt('header checksum mismatch');
    if (header.readUInt32LE(FORMAT_AT) !== SYMBOL_SEGMENT_FORMAT) throw corrupt(`format ${header.readUInt32LE(FORMAT_AT)}, this Sextant reads ${SYMBOL_SEGMENT_FORMAT}`);
    const counts = Object.fromEntries(COUNTS.map((name) => [name, header.readUInt32LE(countAt(name))])) as Record<CountName, number>;
    const sections = Object.fromEntries(SECTIONS.map((name) => [name, header.readUInt32LE(sectionAt(name))])) as Record<SectionName, number>;
    if (sections.end !== file.size) throw corrupt(`${file.size} bytes where its header says ${sections.end}`);
    // Each table must fit between its offset and the next section's: a lookup never reads past it.
    const widths: Partial<Record<SectionName, number>> = {
      stringOffsets: 4 * (counts.strings + 1),
      files: 4 * FILE_RECORD * counts.files,
      symbols: 4 * SYMBOL_RECORD * counts.symbols,
      names: 4 * NAME_RECORD * counts.names,
      nameRows: 4 * counts.symbols,
      qualified: 4 * QUALIFIED_RECORD * counts.qualified,
      references: 4 * REFERENCE_RECORD * counts.references,
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

  get symbolCount(): number {
    return this.#counts.symbols;
  }

  get referenceCount(): number {
    return this.#counts.references;
  }

  /** Bytes of each part: records and strings (symbols), name tables (names), references. */
  get sizes(): { symbols: number; names: number; references: number } {
    const s = this.#sections;
    return {
      symbols: s.names - HEADER_BYTES,
      names: s.references - s.names,
      references: s.end - s.references,
    };
  }

  close(): void {
    this.#file.close();
  }

  #u32(section: SectionName, index: number): number {
    return this.#file.u32(this.#sections[section] + 4 * index);
  }

  string(id: number): string {
    const start = this.#u32('stringOffsets', id);
    const end = this.#u32('stringOffsets', id + 1);
    if (end < start || this.#sections.stringBytes + end > this.#sections.files) throw new IndexCorruptError(`symbol segment ${this.name}: string ${id} out of bounds`);
    return this.#file.string(this.#sections.stringBytes + start, end - start);
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
    let low = 0;
    let high = this.#counts.files;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compareKeys(this.path(mid), path) < 0) low = mid + 1;
      else high = mid;
    }
    return low < this.#counts.files && this.path(low) === path ? low : -1;
  }

  // Symbols.

  symbolFile(row: number): number {
    return this.#u32('symbols', row * SYMBOL_RECORD + 4);
  }

  symbolKind(row: number): string {
    return SYMBOL_KINDS[this.#u32('symbols', row * SYMBOL_RECORD + 9)] ?? 'variable';
  }

  symbolName(row: number): string {
    return this.string(this.#u32('symbols', row * SYMBOL_RECORD));
  }

  qualifiedName(row: number): string {
    return this.string(this.#u32('symbols', row * SYMBOL_RECORD + 1));
  }

  symbol(row: number): SymbolInfo {
    const field = (n: number): number => this.#u32('symbols', row * SYMBOL_RECORD + n);
    const symbol: SymbolInfo = {
      name: this.string(field(0)),
      kind: (SYMBOL_KINDS[field(9)] ?? 'variable') as SymbolKind,
      language: this.language(field(4)),
      line: field(5),
      column: field(6),
      endLine: field(7),
      endColumn: field(8),
      qualifiedName: this.string(field(1)),
      signature: this.string(field(2)),
    };
    const parent = field(3);
    if (parent !== NONE) symbol.parent = this.string(parent);
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
    const section = this.#sections.qualified - this.#sections.foldedNames;
    let end = start;
    while (end < section && this.#file.bytes(this.#sections.foldedNames + end, 1)[0] !== 0) end++;
    return [start, end];
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
    let low = 0;
    let high = this.#counts.names;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compareKeys(this.folded(mid), folded) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /**
   * Name entries whose case-folded name holds `letters` in order, by a pass over the folded-name
   * bytes (no string is decoded unless it matches). `letters` must be ASCII; see names that are not.
   */
  scanFolded(letters: string, visit: (entry: number) => void): void {
    const start = this.#sections.foldedNames;
    const length = this.#sections.qualified - start;
    const wanted = Buffer.from(letters, 'latin1');
    let entry = 0;
    let next = 0;
    // Page by page, so the scan reads through the cache instead of copying the whole table.
    for (let at = 0; at < length; ) {
      const chunk = this.#file.bytes(start + at, Math.min(length - at, PAGE_BYTES - ((start + at) % PAGE_BYTES)));
      at += chunk.length;
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i]!;
        if (byte === 0) {
          if (entry >= this.#counts.names) return; // the padding after the last name
          if (next === wanted.length) visit(entry);
          entry++;
          next = 0;
        } else if (next < wanted.length && byte === wanted[next]) next++;
      }
    }
  }

  // Qualified names.

  /** Rows whose qualified name (differing from their name) is `qualified`. */
  qualifiedRows(qualified: string): number[] {
    const count = this.#counts.qualified;
    const key = (n: number): string => this.string(this.#u32('qualified', n * QUALIFIED_RECORD));
    let low = 0;
    let high = count;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compareKeys(key(mid), qualified) < 0) low = mid + 1;
      else high = mid;
    }
    const rows: number[] = [];
    for (let n = low; n < count && key(n) === qualified; n++) rows.push(this.#u32('qualified', n * QUALIFIED_RECORD + 1));
    return rows;
  }

  // References.

  reference(row: number): ReferenceRecord {
    const field = (n: number): number => this.#u32('references', row * REFERENCE_RECORD + n);
    const packed = field(3);
    return { name: this.string(field(0)), kind: REFERENCE_KINDS[packed & 1]!, line: field(2), column: packed >>> 1, file: field(1) };
  }

  fileReferenceRows(file: number): [number, number] {
    const start = this.fileField(file, 5);
    return [start, start + this.fileField(file, 6)];
  }

  /** Reference rows naming `name`, in (path, line) order. */
  referenceRowsNamed(name: string): number[] {
    const count = this.#counts.referenceNames;
    const key = (n: number): string => this.string(this.#u32('referenceNames', n * REFERENCE_NAME_RECORD));
    let low = 0;
    let high = count;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compareKeys(key(mid), name) < 0) low = mid + 1;
      else high = mid;
    }
    if (low >= count || key(low) !== name) return [];
    const start = this.#u32('referenceNames', low * REFERENCE_NAME_RECORD + 1);
    const length = this.#u32('referenceNames', low * REFERENCE_NAME_RECORD + 2);
    return Array.from({ length }, (_, n) => this.#u32('referenceRows', start + n));
  }

  /** The chosen files with their symbols and references, packed again (what a merge folds). */
  pack(files: number[]): PackedFiles {
    const used = new Map<number, number>([[0, 0]]);
    const out: string[] = [''];
    const local = (id: number): number => {
      if (id === NONE) return NONE;
      let mapped = used.get(id);
      if (mapped === undefined) {
        mapped = out.push(this.string(id)) - 1;
        used.set(id, mapped);
      }
      return mapped;
    };
    const fileFields: number[] = [];
    const symbols: number[] = [];
    const references: number[] = [];
    files.forEach((file, n) => {
      const [symbolStart, symbolEnd] = this.fileSymbolRows(file);
      const [referenceStart, referenceEnd] = this.fileReferenceRows(file);
      fileFields.push(local(this.fileField(file, 0)), local(this.fileField(file, 1)), local(this.fileField(file, 2)), symbolEnd - symbolStart, referenceEnd - referenceStart, this.fileField(file, 7));
      for (let row = symbolStart; row < symbolEnd; row++) {
        const field = (f: number): number => this.#u32('symbols', row * SYMBOL_RECORD + f);
        symbols.push(local(field(0)), local(field(1)), local(field(2)), local(field(3)), n, field(5), field(6), field(7), field(8), field(9));
      }
      for (let row = referenceStart; row < referenceEnd; row++) {
        const field = (f: number): number => this.#u32('references', row * REFERENCE_RECORD + f);
        references.push(local(field(0)), n, field(2), field(3));
      }
    });
    if (fileFields.length !== files.length * FILE_FIELDS) throw new Error('pack: file fields miscounted');
    return { strings: out, files: Uint32Array.from(fileFields), symbols: Uint32Array.from(symbols), references: Uint32Array.from(references) };
  }
}
