/**
 * The persistent symbol name index: every definition of the project in one sorted table
 * (case-folded name, then name, path, line), stored column by column so that it loads with one
 * JSON parse and no per-symbol objects. Exact, case-insensitive and prefix lookups are a binary
 * search; only a fuzzy lookup that the prefix range cannot fill scans the names.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeAtomic, type IndexStore } from '../store.js';
import type { FileSymbols } from './build.js';
import { SYMBOL_KINDS, type SymbolInfo, type SymbolKind } from './extract.js';
import { scoreName, type FoundSymbol } from './lookup.js';

export const NAMES_FILE = 'names.json';
/** Bump when the columns change; another format is rebuilt from symbols.json, never misread. */
const NAMES_FORMAT = 1;

interface NameColumns {
  format: number;
  paths: string[];
  languages: string[];
  name: string[];
  kind: number[];
  language: number[];
  file: number[];
  line: number[];
  column: number[];
  endLine: number[];
  endColumn: number[];
  parent: Array<string | null>;
  qualifiedName: string[];
  signature: string[];
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Writes the index for these files' symbols (as buildSymbols has them, in path order). */
export function writeNameIndex(store: IndexStore, files: FileSymbols[]): void {
  const entries: Array<{ lower: string; symbol: SymbolInfo; file: number }> = [];
  files.forEach((file, index) => {
    for (const symbol of file.symbols) entries.push({ lower: symbol.name.toLowerCase(), symbol, file: index });
  });
  entries.sort((a, b) => compareKeys(a.lower, b.lower) || compareKeys(a.symbol.name, b.symbol.name) || a.file - b.file || a.symbol.line - b.symbol.line);
  const languages = [...new Set(entries.map((entry) => entry.symbol.language))];
  const columns: NameColumns = {
    format: NAMES_FORMAT,
    paths: files.map((file) => file.path),
    languages,
    name: entries.map((entry) => entry.symbol.name),
    kind: entries.map((entry) => SYMBOL_KINDS.indexOf(entry.symbol.kind)),
    language: entries.map((entry) => languages.indexOf(entry.symbol.language)),
    file: entries.map((entry) => entry.file),
    line: entries.map((entry) => entry.symbol.line),
    column: entries.map((entry) => entry.symbol.column),
    endLine: entries.map((entry) => entry.symbol.endLine),
    endColumn: entries.map((entry) => entry.symbol.endColumn),
    parent: entries.map((entry) => entry.symbol.parent ?? null),
    qualifiedName: entries.map((entry) => entry.symbol.qualifiedName),
    signature: entries.map((entry) => entry.symbol.signature),
  };
  writeAtomic(join(store.dir, NAMES_FILE), JSON.stringify(columns));
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

export class NameIndex {
  readonly #columns: NameColumns;
  readonly #lower: string[];
  #byQualifiedName: Map<string, number[]> | undefined;

  private constructor(columns: NameColumns) {
    this.#columns = columns;
    this.#lower = columns.name.map((name) => name.toLowerCase());
  }

  /** The stored index, or undefined when there is none (or of another format). */
  static load(store: IndexStore): NameIndex | undefined {
    const path = join(store.dir, NAMES_FILE);
    if (!existsSync(path)) return undefined;
    let columns: NameColumns;
    try {
      columns = JSON.parse(readFileSync(path, 'utf8')) as NameColumns;
    } catch {
      return undefined;
    }
    return columns.format === NAMES_FORMAT ? new NameIndex(columns) : undefined;
  }

  get size(): number {
    return this.#columns.name.length;
  }

  /** The files that have symbols, in path order. */
  get paths(): readonly string[] {
    return this.#columns.paths;
  }

  #rowsByFile: Map<string, number[]> | undefined;

  /** The definitions in one file, in source order (what an outline or a ranking needs, without every file's symbols). */
  symbolsIn(path: string): SymbolInfo[] {
    if (!this.#rowsByFile) {
      const byFile = new Map<string, number[]>();
      this.#columns.file.forEach((file, row) => {
        const key = this.#columns.paths[file]!;
        const rows = byFile.get(key);
        if (rows) rows.push(row);
        else byFile.set(key, [row]);
      });
      this.#rowsByFile = byFile;
    }
    const rows = this.#rowsByFile.get(path);
    if (!rows) return [];
    return rows
      .map((row) => this.#plain(row))
      .sort((a, b) => a.line - b.line || a.column - b.column);
  }

  /** Whether the index covers `path` (a file in a language with symbol support). */
  covers(path: string): boolean {
    // A set, not a scan of every path: ranking asks this once per matched file (the load profile).
    this.#pathSet ??= new Set(this.#columns.paths);
    return this.#pathSet.has(path);
  }

  #pathSet: Set<string> | undefined;

  /** Definitions named exactly `name`, or whose qualified name is `name`, with their paths. */
  definitions(name: string): Array<{ symbol: SymbolInfo; path: string }> {
    const found: Array<{ symbol: SymbolInfo; path: string }> = [];
    const lower = name.toLowerCase();
    for (let row = this.#lowerBound(lower); row < this.#lower.length && this.#lower[row] === lower; row++) {
      if (this.#columns.name[row] === name) found.push({ symbol: this.#plain(row), path: this.#columns.paths[this.#columns.file[row]!]! });
    }
    this.#columns.qualifiedName.forEach((qualified, row) => {
      if (qualified === name && this.#columns.name[row] !== name) found.push({ symbol: this.#plain(row), path: this.#columns.paths[this.#columns.file[row]!]! });
    });
    return found.sort((a, b) => compareKeys(a.path, b.path) || a.symbol.line - b.symbol.line);
  }

  #plain(row: number): SymbolInfo {
    const { path: _path, score: _score, ...symbol } = this.#symbol(row, 0);
    return symbol;
  }

  /** Same answers as findSymbols over every file, best first. */
  find(query: string, options: { kind?: string; limit?: number } = {}): FoundSymbol[] {
    const limit = options.limit ?? 50;
    const found: FoundSymbol[] = [];
    const seen = new Set<number>();
    const consider = (row: number): void => {
      if (seen.has(row)) return;
      if (options.kind && SYMBOL_KINDS[this.#columns.kind[row]!] !== options.kind) return;
      const score = Math.max(scoreName(this.#columns.name[row]!, query), this.#columns.qualifiedName[row] === query ? 100 : 0);
      if (score === 0) return;
      seen.add(row);
      found.push(this.#symbol(row, score));
    };
    // Case-insensitive prefix range: exact, case-insensitive and prefix matches (scores 70-100).
    const lowerQuery = query.toLowerCase();
    for (let row = this.#lowerBound(lowerQuery); row < this.#lower.length && this.#lower[row]!.startsWith(lowerQuery); row++) consider(row);
    // A qualified name (`Class.method`, `Type::fn`) is matched as a whole.
    if (!this.#byQualifiedName) {
      this.#byQualifiedName = new Map();
      const byName = this.#byQualifiedName;
      this.#columns.qualifiedName.forEach((name, row) => {
        if (name === this.#columns.name[row]) return; // top level: the name lookup has it
        const rows = byName.get(name);
        if (rows) rows.push(row);
        else byName.set(name, [row]);
      });
    }
    for (const row of this.#byQualifiedName.get(query) ?? []) consider(row);
    // Fuzzy matches score at most 60: needed only when the prefix range leaves room. Outside the
    // range only the fuzzy rule can match, so rows whose case-folded name lacks the query's
    // letters in order are passed over before any scoring.
    const letters = lowerQuery.replace(/[_\-.\s]/g, '');
    if (found.length < limit && letters !== '') {
      let previous: string | undefined;
      let previousMatched = false;
      for (let row = 0; row < this.#lower.length; row++) {
        const lower = this.#lower[row]!;
        // The table is sorted by case-folded name: equal neighbours share the answer.
        if (lower !== previous) {
          previous = lower;
          previousMatched = hasInOrder(lower, letters);
        }
        if (previousMatched) consider(row);
      }
    }
    found.sort((a, b) => b.score - a.score || a.name.length - b.name.length || compareKeys(a.path, b.path) || a.line - b.line);
    return found.slice(0, limit);
  }

  #lowerBound(key: string): number {
    let low = 0;
    let high = this.#lower.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.#lower[mid]! < key) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  #symbol(row: number, score: number): FoundSymbol {
    const c = this.#columns;
    const symbol: FoundSymbol = {
      name: c.name[row]!,
      kind: SYMBOL_KINDS[c.kind[row]!] as SymbolKind,
      language: c.languages[c.language[row]!]!,
      line: c.line[row]!,
      column: c.column[row]!,
      endLine: c.endLine[row]!,
      endColumn: c.endColumn[row]!,
      qualifiedName: c.qualifiedName[row]!,
      signature: c.signature[row]!,
      path: c.paths[c.file[row]!]!,
      score,
    };
    const parent = c.parent[row];
    if (parent !== null && parent !== undefined) symbol.parent = parent;
    return symbol;
  }
}
