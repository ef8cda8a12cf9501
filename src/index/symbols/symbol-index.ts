/**
 * A project's symbols: the segments its symbols manifest names, read as one. A path's newest
 * entry wins (a sync's delta shadows the base; a deletion entry hides the path), so every
 * lookup checks that the rows it returns are live. Lookups mean what the scan in lookup.ts
 * means (findSymbols): exact, case-insensitive and prefix matches come from the sorted name
 * tables, qualified names from their own table, and only a fuzzy lookup that those leave room
 * for scans the case-folded names.
 */
import { join } from 'node:path';
import type { IndexStore } from '../store/store.js';
import { SYMBOL_KINDS, type SymbolInfo, type SymbolKind } from './types.js';
import { scoreName, type FoundSymbol } from './lookup.js';
import { compareKeys, SymbolSegment } from './segment/index.js';
import { readSymbolsManifest, type SymbolsManifest } from './symbol-manifest.js';

export interface FoundReference {
  name: string;
  kind: 'call' | 'import';
  line: number;
  column: number;
  path: string;
}

/** A row that matched, with what ranking needs; decoded whole only if it is returned. */
interface Candidate {
  index: number;
  row: number;
  file: number;
  score: number;
  nameLength: number;
  path: string;
  line: number;
}

/** A definition not yet decoded (see briefsIn). */
export interface BriefSymbol {
  segment: number;
  file: number;
  row: number;
  /** The name's string id: equal for two definitions of one file exactly when their names are equal. */
  id: number;
  line: number;
  endLine: number;
  /** No parent (its qualified name is its name). */
  topLevel: boolean;
}

/** Where a path's live entry is: which segment, which file of it. */
interface Place {
  segment: number;
  file: number;
}

export interface SymbolIndexOptions {
  /**
   * Whether a path is still on disk: lookups leave out the files it denies, asked once per file
   * for this generation, so that no answer names a file removed since the index was written
   * (before the watcher or a sync catches up). Writers open without it: they must see every entry.
   */
  present?: (path: string) => boolean;
}

export class SymbolIndex {
  readonly manifest: SymbolsManifest;
  readonly #segments: SymbolSegment[];
  readonly #present: ((path: string) => boolean) | undefined;
  /** Per segment, per file: 1 present, 2 gone (0 not asked yet). */
  readonly #presence: Uint8Array[];
  #paths: string[] | undefined;

  private constructor(manifest: SymbolsManifest, segments: SymbolSegment[], options: SymbolIndexOptions) {
    this.manifest = manifest;
    this.#segments = segments;
    this.#present = options.present;
    this.#presence = options.present ? segments.map((segment) => new Uint8Array(segment.fileCount)) : [];
  }

  /** The project's symbols, or undefined before the first symbol phase committed. */
  static open(store: IndexStore, options: SymbolIndexOptions = {}): SymbolIndex | undefined {
    const manifest = readSymbolsManifest(store);
    if (!manifest) return undefined;
    const segments: SymbolSegment[] = [];
    try {
      for (const entry of manifest.segments) segments.push(SymbolSegment.open(join(store.dir, entry.name)));
    } catch (error) {
      for (const segment of segments) segment.close();
      throw error;
    }
    return new SymbolIndex(manifest, segments, options);
  }

  /**
   * The symbols manifest when the symbols reflect the text index as it is (the one whose
   * manifest says `textUpdatedAt`), every segment opens, and no symbol phase was left
   * interrupted: then a sync that changed no text has no symbol work either, and need not even
   * load the parser. Undefined otherwise (the symbol phase has work, or rebuilds them).
   */
  static current(store: IndexStore, textUpdatedAt: string): SymbolsManifest | undefined {
    try {
      const index = SymbolIndex.open(store);
      index?.close();
      return index?.manifest.textUpdatedAt === textUpdatedAt && store.interruptedJob()?.mode !== 'symbols' ? index.manifest : undefined;
    } catch {
      return undefined;
    }
  }

  close(): void {
    for (const segment of this.#segments) segment.close();
  }

  get segments(): readonly SymbolSegment[] {
    return this.#segments;
  }

  /** The live entry of `path` (newest segment first); undefined when none or deleted. */
  place(path: string): Place | undefined {
    for (let segment = this.#segments.length - 1; segment >= 0; segment--) {
      const file = this.#segments[segment]!.findFile(path);
      if (file >= 0) return this.#segments[segment]!.isDeleted(file) || !this.#onDisk(segment, file) ? undefined : { segment, file };
    }
    return undefined;
  }

  #onDisk(segment: number, file: number): boolean {
    if (!this.#present) return true;
    const known = this.#presence[segment]!;
    if (known[file] === 0) known[file] = this.#present(this.#segments[segment]!.path(file)) ? 1 : 2;
    return known[file] === 1;
  }

  /** Whether this is the path's newest entry, not a deletion, and (unless `disk` is false) still on disk. */
  #live(segment: number, file: number, disk = true): boolean {
    const owner = this.#segments[segment]!;
    if (owner.isDeleted(file) || (disk && !this.#onDisk(segment, file))) return false;
    if (segment === this.#segments.length - 1) return true;
    const path = owner.path(file);
    for (let newer = segment + 1; newer < this.#segments.length; newer++) if (this.#segments[newer]!.findFile(path) >= 0) return false;
    return true;
  }

  /** Every live entry, in path order within each segment (for reuse checks and merges). */
  *entries(): Generator<Place & { path: string }> {
    for (let segment = 0; segment < this.#segments.length; segment++) {
      const owner = this.#segments[segment]!;
      for (let file = 0; file < owner.fileCount; file++) if (this.#live(segment, file)) yield { segment, file, path: owner.path(file) };
    }
  }

  /** The files that have symbol support, in path order. */
  get paths(): readonly string[] {
    this.#paths ??= [...this.entries()].map((entry) => entry.path).sort(compareKeys);
    return this.#paths;
  }

  covers(path: string): boolean {
    return this.place(path) !== undefined;
  }

  /** `path`'s live entry with the range of its symbol rows; undefined for a file without symbols. */
  #symbolRows(path: string): (Place & { owner: SymbolSegment; start: number; end: number }) | undefined {
    const place = this.place(path);
    if (!place) return undefined;
    const owner = this.#segments[place.segment]!;
    const [start, end] = owner.fileSymbolRows(place.file);
    return { ...place, owner, start, end };
  }

  /** One file's definitions in source order; undefined for a file without symbols. */
  symbolsIn(path: string): SymbolInfo[] | undefined {
    const rows = this.#symbolRows(path);
    if (!rows) return undefined;
    const symbols: SymbolInfo[] = [];
    for (let row = rows.start; row < rows.end; row++) symbols.push(rows.owner.symbol(row, rows.file));
    return symbols;
  }

  /**
   * One file's definitions without decoding them (no string is read, no object made): enough to
   * count them, tell them apart and pick some; symbolOf decodes one. A related-symbols query over
   * a whole package touches every file's definitions but returns a few. False for a file without symbols.
   */
  visitBriefs(path: string, visit: (brief: Readonly<BriefSymbol>) => void): boolean {
    const rows = this.#symbolRows(path);
    if (!rows) return false;
    const { owner } = rows;
    // One object, refilled for each row: a visitor that keeps one copies it.
    const brief: BriefSymbol = { segment: rows.segment, file: rows.file, row: 0, id: 0, line: 0, endLine: 0, topLevel: false };
    for (let row = rows.start; row < rows.end; row++) {
      brief.row = row;
      brief.id = owner.symbolField(row, 0);
      brief.line = owner.symbolField(row, 3);
      brief.endLine = owner.symbolField(row, 4);
      brief.topLevel = owner.symbolField(row, 1) === brief.id;
      visit(brief);
    }
    return true;
  }

  symbolOf(brief: BriefSymbol): SymbolInfo {
    return this.#segments[brief.segment]!.symbol(brief.row, brief.file);
  }

  /** Definitions named exactly `name`, or whose qualified name is `name`, in (path, line) order. */
  definitions(name: string): Array<{ symbol: SymbolInfo; path: string }> {
    const found: Array<{ symbol: SymbolInfo; path: string }> = [];
    const take = (index: number, row: number, file: number, path: string): void => void found.push({ symbol: this.#segments[index]!.symbol(row, file), path });
    this.#visitNamed(name, true, take);
    this.#segments.forEach((segment, index) => {
      for (const row of segment.qualifiedRows(name)) {
        const file = segment.symbolFile(row);
        if (this.#live(index, file)) take(index, row, file, segment.path(file));
      }
    });
    return found.sort((a, b) => compareKeys(a.path, b.path) || a.symbol.line - b.symbol.line);
  }

  /**
   * Definitions whose name is `name` (any case unless `caseSensitive`; qualified names aside) in
   * the files `keep` accepts: the first `limit` by `prefer` (lower first, given each one's path
   * and name as written), then in (path, line) order. `complete`: none was left out by the limit.
   * What search_code ranks beside its text matches.
   */
  definitionsNamed(
    name: string,
    options: { caseSensitive: boolean; limit: number; prefer?: (path: string, name: string) => number; keep?: (path: string) => boolean },
  ): { found: Array<{ symbol: SymbolInfo; path: string }>; complete: boolean; leftOut: string[] } {
    // Placed first, decoded only once the limit has chosen them (a common name has thousands).
    const placed: Array<{ index: number; row: number; file: number; path: string; line: number; preference: number }> = [];
    this.#visitNamed(name, options.caseSensitive, (index, row, file, path, entryName) => {
      if (options.keep && !options.keep(path)) return;
      placed.push({ index, row, file, path, line: this.#segments[index]!.symbolField(row, 3), preference: options.prefer?.(path, entryName) ?? 0 });
    });
    placed.sort((a, b) => a.preference - b.preference || compareKeys(a.path, b.path) || a.line - b.line);
    return {
      found: placed.slice(0, options.limit).map((c) => ({ symbol: this.#segments[c.index]!.symbol(c.row, c.file), path: c.path })),
      complete: placed.length <= options.limit,
      // Where the definitions past the limit are, undecoded: a search knows which files hold a definition it did not rank.
      leftOut: [...new Set(placed.slice(options.limit).map((c) => c.path))],
    };
  }

  /** Every live definition named `name` (any case unless `caseSensitive`), without decoding it. */
  #visitNamed(name: string, caseSensitive: boolean, visit: (index: number, row: number, file: number, path: string, entryName: string) => void): void {
    const folded = name.toLowerCase();
    this.#segments.forEach((segment, index) => {
      for (let entry = segment.lowerBound(folded); entry < segment.nameCount && segment.folded(entry) === folded; entry++) {
        const { name: entryName, rowStart, rowCount } = segment.nameEntry(entry);
        if (caseSensitive && entryName !== name) continue;
        for (let at = rowStart; at < rowStart + rowCount; at++) {
          const row = segment.nameRow(at);
          const file = segment.symbolFile(row);
          if (this.#live(index, file)) visit(index, row, file, segment.path(file), entryName);
        }
      }
    });
  }

  /**
   * Best matches first: the same answers as findSymbols over every file's symbols. A name is
   * scored once for all its rows, and only the rows that make the cut are decoded whole.
   */
  find(query: string, options: { kind?: string; limit?: number } = {}): FoundSymbol[] {
    const limit = options.limit ?? 50;
    const kind = options.kind === undefined ? undefined : SYMBOL_KINDS.indexOf(options.kind as SymbolKind);
    const found: Candidate[] = [];
    const seen = new Set<number>();
    const consider = (index: number, row: number, nameScore: number, nameLength: number): void => {
      const key = row * this.#segments.length + index;
      if (seen.has(key)) return;
      const segment = this.#segments[index]!;
      if (kind !== undefined && (segment.symbolField(row, 6) & 15) !== kind) return;
      // A qualified name differs from the name only below a container: only then is it read.
      const qualifiedHit = nameScore < 100 && segment.symbolField(row, 1) !== segment.symbolField(row, 0) && segment.qualifiedName(row) === query;
      const score = qualifiedHit ? 100 : nameScore;
      if (score === 0) return;
      const file = segment.symbolFile(row);
      // Presence on disk is checked below, only for the rows that make the cut (a stat each).
      if (!this.#live(index, file, false)) return;
      seen.add(key);
      found.push({ index, row, file, score, nameLength, path: segment.path(file), line: segment.symbolField(row, 3) });
    };
    const rowsOf = (index: number, entry: number): void => {
      const segment = this.#segments[index]!;
      const { name, rowStart, rowCount } = segment.nameEntry(entry);
      const nameScore = scoreName(name, query);
      for (let at = rowStart; at < rowStart + rowCount; at++) consider(index, segment.nameRow(at), nameScore, name.length);
    };
    // Case-insensitive prefix range: exact, case-insensitive and prefix matches (scores 70-100).
    const folded = query.toLowerCase();
    const prefixRanges = this.#segments.map((segment, index) => {
      const first = segment.lowerBound(folded);
      let entry = first;
      for (; entry < segment.nameCount && segment.folded(entry).startsWith(folded); entry++) rowsOf(index, entry);
      return [first, entry] as const;
    });
    // A qualified name (`Class.method`, `Type::fn`) is matched as a whole.
    this.#segments.forEach((segment, index) => {
      for (const row of segment.qualifiedRows(query)) {
        const name = segment.symbolName(row);
        consider(index, row, scoreName(name, query), name.length);
      }
    });
    // Fuzzy matches score at most 60: needed only when the prefix range leaves room. Only names
    // holding the query's letters in order can match; they are scored name by name, and their
    // rows resolved best (score, then shortest name) first, until the limit is met: a group
    // that comes after a full list cannot displace any of it.
    const letters = folded.replace(/[_\-.\s]/g, '');
    if (found.length < limit && letters !== '') {
      const fuzzy: Array<{ index: number; entry: number; score: number; length: number }> = [];
      this.#segments.forEach((segment, index) => {
        const [first, end] = prefixRanges[index]!;
        const visit = (entry: number): void => {
          if (entry >= first && entry < end) return; // in the prefix range: done above
          const name = segment.nameEntry(entry).name;
          const score = scoreName(name, query);
          if (score > 0) fuzzy.push({ index, entry, score, length: name.length });
        };
        segment.fuzzyEntries(letters, visit);
      });
      fuzzy.sort((a, b) => b.score - a.score || a.length - b.length || a.index - b.index || a.entry - b.entry);
      for (let at = 0; at < fuzzy.length && found.length < limit;) {
        const group = fuzzy[at]!;
        for (; at < fuzzy.length && fuzzy[at]!.score === group.score && fuzzy[at]!.length === group.length; at++) rowsOf(fuzzy[at]!.index, fuzzy[at]!.entry);
      }
    }
    found.sort((a, b) => b.score - a.score || a.nameLength - b.nameLength || compareKeys(a.path, b.path) || a.line - b.line);
    const kept: FoundSymbol[] = [];
    for (const c of found) {
      if (kept.length === limit) break;
      if (this.#onDisk(c.index, c.file)) kept.push({ ...this.#segments[c.index]!.symbol(c.row, c.file), path: c.path, score: c.score });
    }
    return kept;
  }

  /**
   * Definitions whose case-folded name holds `word` (case-folded) anywhere: `handler` finds
   * ProxyHandler and handle_request_handler. The shortest names first (the word is most of
   * them), at most `limit`; `names`: how many distinct names hold it, all segments counted (a
   * word's document frequency, for ranking by rarity).
   */
  definitionsContaining(word: string, limit: number): { found: Array<{ symbol: SymbolInfo; path: string }>; names: number } {
    const folded = word.toLowerCase();
    const entries: Array<{ index: number; entry: number; length: number }> = [];
    this.#segments.forEach((segment, index) => segment.entriesContaining(folded, (entry, length) => entries.push({ index, entry, length })));
    entries.sort((a, b) => a.length - b.length || a.index - b.index || a.entry - b.entry);
    const found: Array<{ symbol: SymbolInfo; path: string }> = [];
    for (const { index, entry } of entries) {
      const segment = this.#segments[index]!;
      const { rowStart, rowCount } = segment.nameEntry(entry);
      for (let at = rowStart; at < rowStart + rowCount && found.length < limit; at++) {
        const row = segment.nameRow(at);
        const file = segment.symbolFile(row);
        if (this.#live(index, file)) found.push({ symbol: segment.symbol(row, file), path: segment.path(file) });
      }
      if (found.length >= limit) break;
    }
    return { found, names: entries.length };
  }

  /** Distinct names, all segments counted (the collection size that document frequencies are read against). */
  get nameCount(): number {
    return this.#segments.reduce((sum, segment) => sum + segment.nameCount, 0);
  }

  /** Calls and imports in one file, by position. */
  referencesIn(path: string): FoundReference[] {
    const place = this.place(path);
    if (!place) return [];
    const segment = this.#segments[place.segment]!;
    const [start, end] = segment.fileReferenceRows(place.file);
    const found: FoundReference[] = [];
    for (let row = start; row < end; row++) {
      const { file: _file, ...reference } = segment.reference(row, place.file);
      found.push({ ...reference, path });
    }
    return found;
  }

  /** Every call or import of `name`, in (path, line) order. */
  referencesTo(name: string): FoundReference[] {
    const found: FoundReference[] = [];
    this.#segments.forEach((segment, index) => {
      for (const row of segment.referenceRowsNamed(name)) {
        const { file, ...reference } = segment.reference(row);
        if (this.#live(index, file)) found.push({ ...reference, path: segment.path(file) });
      }
    });
    // Rows of one path come from one segment, already in line order: a stable sort by path is enough.
    return this.#segments.length > 1 ? found.sort((a, b) => compareKeys(a.path, b.path)) : found;
  }
}
