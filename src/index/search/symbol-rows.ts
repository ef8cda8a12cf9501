/**
 * A file's definitions as ranking reads them: row, first and last line of each, read from the
 * symbol records without decoding a string. A match needs only the definitions on its line and
 * the one enclosing it, each decoded once.
 */
import type { BriefSymbol, SymbolIndex, SymbolInfo } from '../symbols/index.js';
import { cacheOf, keep, touch } from '../../util/lru.js';

/** The symbols ranking reads: a file's definitions, one decoded, and the definitions of a name (definition-seeds.ts). */
export type RankingSymbols = Pick<SymbolIndex, 'visitBriefs' | 'symbolOf' | 'definitionsNamed'>;

/** Where to decode a file's definitions, (row, line, end line) of each, and their triples' offsets by first line. */
interface FileRows {
  place: BriefSymbol | undefined;
  lines: Int32Array;
  byLine: Int32Array;
}

/** Files whose rows are kept between rankings, per generation of the symbols (~12 bytes a definition). */
const CACHED_FILE_ROWS = 4_096;
/**
 * The rows read by earlier rankings, kept with the symbols they came from: a warm query reads no
 * file's records again, and a new generation of the symbols (after a sync) starts afresh.
 */
const rowsCaches = new WeakMap<object, Map<string, FileRows>>();

const NO_ROWS: FileRows = { place: undefined, lines: new Int32Array(0), byLine: new Int32Array(0) };

/** Offsets of `lines`' triples, ordered by first line (stored order at a tie). */
function orderByLine(lines: Int32Array): Int32Array {
  const offsets = new Int32Array(lines.length / 3);
  for (let at = 0; at < offsets.length; at++) offsets[at] = at * 3;
  return offsets.sort((a, b) => lines[a + 1]! - lines[b + 1]! || a - b);
}

/** One ranking's view of the symbols: rows shared with every ranking of the same generation, definitions decoded once. */
export class SymbolRows {
  readonly #symbols: RankingSymbols | undefined;
  readonly #perFile: Map<string, FileRows>;
  readonly #decoded = new Map<string, SymbolInfo>();

  constructor(symbols: RankingSymbols | undefined) {
    this.#symbols = symbols;
    this.#perFile = symbols ? cacheOf(rowsCaches, symbols) : new Map();
  }

  #rowsOf(path: string): FileRows {
    if (!this.#symbols) return NO_ROWS;
    const known = touch(this.#perFile, path);
    if (known) return known;
    const triples: number[] = [];
    let place: BriefSymbol | undefined;
    this.#symbols.visitBriefs(path, (brief) => {
      place ??= { ...brief };
      triples.push(brief.row, brief.line, brief.endLine);
    });
    const lines = Int32Array.from(triples);
    const rows = { place, lines, byLine: orderByLine(lines) };
    keep(this.#perFile, path, rows, CACHED_FILE_ROWS);
    return rows;
  }

  #symbolAt(path: string, place: BriefSymbol, row: number): SymbolInfo {
    const key = `${path}\0${row}`;
    let symbol = this.#decoded.get(key);
    if (!symbol) {
      symbol = this.#symbols!.symbolOf({ ...place, row });
      this.#decoded.set(key, symbol);
    }
    return symbol;
  }

  /**
   * Each definition that starts on `line`, or up to `headerLines` above it and still spans it
   * (a name may sit a line or two below where its definition starts: `static inline int` /
   * `name(…)`); `header` says which.
   */
  visitLine(path: string, line: number, headerLines: number, visit: (symbol: SymbolInfo, header: boolean) => void): void {
    const { place, lines, byLine } = this.#rowsOf(path);
    // The definitions that start from `headerLines` above on, found by halving (a bundle holds
    // very many), then visited in stored order, as a scan of them all would.
    let low = 0;
    let high = byLine.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (lines[byLine[middle]! + 1]! < line - headerLines) low = middle + 1;
      else high = middle;
    }
    const near: number[] = [];
    for (let at = low; at < byLine.length && lines[byLine[at]! + 1]! <= line; at++) near.push(byLine[at]!);
    if (near.length > 1) near.sort((a, b) => a - b);
    for (const at of near) {
      const first = lines[at + 1]!;
      const last = lines[at + 2]!;
      const header = first < line && line - first <= headerLines && last >= line;
      if (first === line || header) visit(this.#symbolAt(path, place!, lines[at]!), header);
    }
  }

  /** The innermost definition around a line: the first of the shortest spans, in source order. */
  enclosingOf(path: string, line: number): SymbolInfo | undefined {
    const { place, lines } = this.#rowsOf(path);
    let enclosingRow = -1;
    let enclosingSpan = Infinity;
    for (let at = 0; at < lines.length; at += 3) {
      const first = lines[at + 1]!;
      const last = lines[at + 2]!;
      if (first <= line && last >= line && last - first < enclosingSpan) {
        enclosingRow = lines[at]!;
        enclosingSpan = last - first;
      }
    }
    return enclosingRow >= 0 ? this.#symbolAt(path, place!, enclosingRow) : undefined;
  }
}
