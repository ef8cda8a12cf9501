/**
 * The persistent reference index: every call and import the symbol phase found, one table
 * stored column by column with each name once. Rows are in (file, line) order, so a file's
 * references are one range; a name's references are found through an index built on load.
 * Related-symbol queries read this instead of every file's symbols.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeAtomic, type IndexStore } from '../store.js';
import type { FileSymbols } from './build.js';
import type { ReferenceInfo } from './extract.js';

export const REFERENCES_FILE = 'references.json';
const REFERENCES_FORMAT = 1;
const KINDS = ['call', 'import'] as const;

interface ReferenceColumns {
  format: number;
  paths: string[];
  names: string[];
  name: number[];
  kind: number[];
  file: number[];
  line: number[];
  column: number[];
}

export interface FoundReference extends ReferenceInfo {
  path: string;
}

/** Writes the references of these files (in path order, as buildSymbols has them). */
export function writeReferenceIndex(store: IndexStore, files: FileSymbols[]): void {
  writeAtomic(join(store.dir, REFERENCES_FILE), JSON.stringify(referenceColumns(files)));
}

function referenceColumns(files: FileSymbols[]): ReferenceColumns {
  const nameIds = new Map<string, number>();
  const columns: ReferenceColumns = { format: REFERENCES_FORMAT, paths: [], names: [], name: [], kind: [], file: [], line: [], column: [] };
  for (const file of files) {
    if (!file.references || file.references.length === 0) continue;
    const fileId = columns.paths.push(file.path) - 1;
    const sorted = [...file.references].sort((a, b) => a.line - b.line || a.column - b.column);
    for (const reference of sorted) {
      let id = nameIds.get(reference.name);
      if (id === undefined) {
        id = columns.names.push(reference.name) - 1;
        nameIds.set(reference.name, id);
      }
      columns.name.push(id);
      columns.kind.push(KINDS.indexOf(reference.kind));
      columns.file.push(fileId);
      columns.line.push(reference.line);
      columns.column.push(reference.column);
    }
  }
  return columns;
}

export class ReferenceIndex {
  readonly #columns: ReferenceColumns;
  readonly #fileRows = new Map<string, [number, number]>();
  readonly #nameIds: Map<string, number>;
  /** Rows grouped by name: rows of name n are byName[byNameStart[n] .. byNameStart[n + 1]). */
  #byName: Int32Array | undefined;
  #byNameStart: Int32Array | undefined;

  private constructor(columns: ReferenceColumns) {
    this.#columns = columns;
    this.#nameIds = new Map(columns.names.map((name, id) => [name, id]));
    for (let row = 0; row < columns.file.length; ) {
      const file = columns.file[row]!;
      let end = row + 1;
      while (end < columns.file.length && columns.file[end] === file) end++;
      this.#fileRows.set(columns.paths[file]!, [row, end]);
      row = end;
    }
  }

  /** The same index built in memory, for symbols written before the reference file existed. */
  static fromFiles(files: FileSymbols[]): ReferenceIndex {
    return new ReferenceIndex(referenceColumns(files));
  }

  static load(store: IndexStore): ReferenceIndex | undefined {
    const path = join(store.dir, REFERENCES_FILE);
    if (!existsSync(path)) return undefined;
    try {
      const columns = JSON.parse(readFileSync(path, 'utf8')) as ReferenceColumns;
      return columns.format === REFERENCES_FORMAT ? new ReferenceIndex(columns) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The references in one file, in line order. */
  inFile(path: string): FoundReference[] {
    const range = this.#fileRows.get(path);
    if (!range) return [];
    const found: FoundReference[] = [];
    for (let row = range[0]; row < range[1]; row++) found.push(this.#row(row));
    return found;
  }

  /** Every reference to `name`, in (file, line) order. */
  named(name: string): FoundReference[] {
    const id = this.#nameIds.get(name);
    if (id === undefined) return [];
    if (!this.#byName || !this.#byNameStart) {
      // A counting sort of the rows by name, once: rows keep their (file, line) order within a name.
      const count = this.#columns.names.length;
      const starts = new Int32Array(count + 1);
      for (const nameId of this.#columns.name) starts[nameId + 1]!++;
      for (let n = 0; n < count; n++) starts[n + 1]! += starts[n]!;
      const next = starts.slice(0, count);
      const rows = new Int32Array(this.#columns.name.length);
      this.#columns.name.forEach((nameId, row) => (rows[next[nameId]!++] = row));
      this.#byName = rows;
      this.#byNameStart = starts;
    }
    const found: FoundReference[] = [];
    for (let at = this.#byNameStart[id]!; at < this.#byNameStart[id + 1]!; at++) found.push(this.#row(this.#byName[at]!));
    return found;
  }

  #row(row: number): FoundReference {
    const c = this.#columns;
    return { name: c.names[c.name[row]!]!, kind: KINDS[c.kind[row]!]!, line: c.line[row]!, column: c.column[row]!, path: c.paths[c.file[row]!]! };
  }
}
