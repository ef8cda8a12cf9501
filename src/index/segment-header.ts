/**
 * A segment's header: its file table, column by column, as JSON. Arrays of plain values parse
 * about twice as fast as an array of objects, and a reader that needs only some files' paths
 * (the CLI's one search, which paths a delta shadows) builds no object for the others.
 *
 *   { "paths": [...], "sizes": [...], "mtimes": [...], "hashes": [...],
 *     "languageNames": ["c", ...], "languages": [index into languageNames, or -1],
 *     "unindexed": [file ids], "blocks": [[file id, [first line of each block after the first]]],
 *     "tombstones": [...] }
 */
import type { SegmentFile } from './segment.js';

interface Columns {
  paths: string[];
  sizes: number[];
  mtimes: number[];
  hashes: string[];
  languageNames: string[];
  languages: number[];
  unindexed: number[];
  blocks: Array<[number, number[]]>;
  tombstones: string[];
}

export function encodeHeader(files: SegmentFile[], tombstones: string[]): string {
  const languageNames: string[] = [];
  const languageIds = new Map<string, number>();
  const columns: Columns = { paths: [], sizes: [], mtimes: [], hashes: [], languageNames, languages: [], unindexed: [], blocks: [], tombstones };
  files.forEach((file, id) => {
    columns.paths.push(file.path);
    columns.sizes.push(file.size);
    columns.mtimes.push(file.mtimeMs);
    columns.hashes.push(file.hash);
    let language = -1;
    if (file.language !== undefined) {
      language = languageIds.get(file.language) ?? languageNames.push(file.language) - 1;
      languageIds.set(file.language, language);
    }
    columns.languages.push(language);
    if (file.unindexed) columns.unindexed.push(id);
    if (file.blocks) columns.blocks.push([id, file.blocks]);
  });
  return JSON.stringify(columns);
}

const isArrayOf = (value: unknown, type: 'string' | 'number', length?: number): boolean =>
  Array.isArray(value) && (length === undefined || value.length === length) && value.every((item) => typeof item === type);

/** The file table of a header; throws (a plain Error) when the text is not one. */
export function parseHeader(text: string): FileTable {
  const columns = JSON.parse(text) as Columns;
  const count = Array.isArray(columns?.paths) ? columns.paths.length : -1;
  const shaped =
    isArrayOf(columns.paths, 'string') &&
    isArrayOf(columns.sizes, 'number', count) &&
    isArrayOf(columns.mtimes, 'number', count) &&
    isArrayOf(columns.hashes, 'string', count) &&
    isArrayOf(columns.languageNames, 'string') &&
    isArrayOf(columns.languages, 'number', count) &&
    columns.languages.every((language) => language >= -1 && language < columns.languageNames.length) &&
    isArrayOf(columns.unindexed, 'number') &&
    columns.unindexed.every((id) => Number.isInteger(id) && id >= 0 && id < count) &&
    Array.isArray(columns.blocks) &&
    columns.blocks.every((entry) => Array.isArray(entry) && Number.isInteger(entry[0]) && entry[0] >= 0 && entry[0] < count && isArrayOf(entry[1], 'number')) &&
    isArrayOf(columns.tombstones, 'string');
  if (!shaped) throw new Error('not a segment header');
  return new FileTable(columns);
}

/** A segment's files, built as objects only when asked for. */
export class FileTable {
  readonly count: number;
  readonly tombstones: string[];
  readonly #columns: Columns;
  readonly #unindexed: Set<number>;
  readonly #blocks: Map<number, number[]>;
  readonly #files: Array<SegmentFile | undefined>;
  #all: SegmentFile[] | undefined;

  constructor(columns: Columns) {
    this.#columns = columns;
    this.count = columns.paths.length;
    this.tombstones = columns.tombstones;
    this.#unindexed = new Set(columns.unindexed);
    this.#blocks = new Map(columns.blocks);
    this.#files = new Array<SegmentFile | undefined>(this.count);
  }

  pathOf(id: number): string {
    return this.#columns.paths[id]!;
  }

  /** Each file's first document, and (last) how many documents there are, in one pass without a lookup per file. */
  firstDocuments(): Uint32Array {
    const first = new Uint32Array(this.count + 1);
    const blocks = [...this.#blocks].sort((a, b) => a[0] - b[0]);
    let documents = 0;
    let id = 0;
    for (const [blocked, lines] of blocks) {
      for (; id <= blocked; id++) first[id] = documents++;
      documents += lines.length;
    }
    for (; id < this.count; id++) first[id] = documents++;
    first[this.count] = documents;
    return first;
  }

  /** The files kept out of the postings, ascending. */
  unindexedIds(): number[] {
    return [...this.#unindexed].sort((a, b) => a - b);
  }

  fileOf(id: number): SegmentFile {
    let file = this.#files[id];
    if (file) return file;
    const columns = this.#columns;
    file = { path: columns.paths[id]!, size: columns.sizes[id]!, mtimeMs: columns.mtimes[id]!, hash: columns.hashes[id]! };
    const language = columns.languages[id]!;
    if (language >= 0) file.language = columns.languageNames[language]!;
    if (this.#unindexed.has(id)) file.unindexed = true;
    const blocks = this.#blocks.get(id);
    if (blocks) file.blocks = blocks;
    this.#files[id] = file;
    return file;
  }

  /** Every file, in id order. */
  all(): SegmentFile[] {
    if (!this.#all) {
      const files = new Array<SegmentFile>(this.count);
      for (let id = 0; id < this.count; id++) files[id] = this.fileOf(id);
      this.#all = files;
    }
    return this.#all;
  }
}
