/**
 * Symbols of a batch of files as packed columns: one string table and three integer arrays.
 * This is how parser threads hand results to the writer (the arrays are transferred, not
 * copied, and no per-symbol object crosses threads) and how a merge reads a segment back.
 */
import { SYMBOL_KINDS, type ReferenceInfo, type SymbolInfo } from '../types.js';
import type { Unparsed } from '../parse-limits.js';

/** Per file: path, hash, language (string ids), symbol count, reference count, flags. */
export const FILE_FIELDS = 6;
/** Per symbol: name, qualified name, signature, parent (or NONE), file, line, column, end line, end column, kind. */
export const SYMBOL_FIELDS = 10;
/** Per reference: name, file, line, column << 1 | kind (0 call, 1 import). */
export const REFERENCE_FIELDS = 4;
export const NONE = 0xffffffff;
/** A file that was removed: it shadows older symbols of its path and has none of its own. */
export const FLAG_DELETED = 1;

export const REFERENCE_KINDS = ['call', 'import'] as const;

export interface PackedFiles {
  strings: string[];
  files: Uint32Array;
  symbols: Uint32Array;
  references: Uint32Array;
  /** Files of the batch left unparsed, and why (parse-limits.ts): they are in `files`, with no symbols. */
  unparsed?: Array<[string, Unparsed]>;
}

/** Strings numbered as first met, each once; id 0 is the empty string. */
export class StringIds {
  readonly strings: string[] = [''];
  readonly #ids = new Map<string, number>([['', 0]]);

  id(value: string): number {
    let id = this.#ids.get(value);
    if (id === undefined) {
      id = this.strings.push(value) - 1;
      this.#ids.set(value, id);
    }
    return id;
  }
}

export class PackedBuilder {
  readonly #strings = new StringIds();
  readonly #files: number[] = [];
  readonly #symbols: number[] = [];
  readonly #references: number[] = [];
  #fileCount = 0;

  id(value: string): number {
    return this.#strings.id(value);
  }

  /** Symbols in source order; references in any order (the writer orders them by position). */
  add(path: string, hash: string, language: string, symbols: readonly SymbolInfo[], references: readonly ReferenceInfo[]): void {
    const file = this.#fileCount++;
    this.#files.push(this.id(path), this.id(hash), this.id(language), symbols.length, references.length, 0);
    for (const s of symbols) {
      this.#symbols.push(
        this.id(s.name),
        this.id(s.qualifiedName),
        this.id(s.signature),
        s.parent === undefined ? NONE : this.id(s.parent),
        file,
        s.line,
        s.column,
        s.endLine,
        s.endColumn,
        kindIndex(s.kind),
      );
    }
    for (const r of references) this.#references.push(this.id(r.name), file, r.line, (r.column << 1) | (r.kind === 'import' ? 1 : 0));
  }

  /** A removed file: only its path counts. */
  addDeleted(path: string): void {
    this.#fileCount++;
    this.#files.push(this.id(path), 0, 0, 0, 0, FLAG_DELETED);
  }

  get fileCount(): number {
    return this.#fileCount;
  }

  build(): PackedFiles {
    return {
      strings: this.#strings.strings,
      files: Uint32Array.from(this.#files),
      symbols: Uint32Array.from(this.#symbols),
      references: Uint32Array.from(this.#references),
    };
  }
}

/** A kind's place in SYMBOL_KINDS; one not there (a tag query's typo) is stored as a variable, as the reader reads an unknown place. */
function kindIndex(kind: string): number {
  const index = SYMBOL_KINDS.indexOf(kind as (typeof SYMBOL_KINDS)[number]);
  return index >= 0 ? index : SYMBOL_KINDS.indexOf('variable');
}
