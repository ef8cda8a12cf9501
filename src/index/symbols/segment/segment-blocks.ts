/**
 * The two block-compressed tables of a symbol segment, each behind a small cache of decoded
 * blocks: the string table (64 strings a deflated block) and the record tables (symbols and
 * references, 128 records a block of predicted varints). Whatever does not decode exactly is
 * index_corrupt where it is read.
 */
import { inflateRawSync } from 'node:zlib';
import { keep, touch } from '../../../util/lru.js';
import { IndexCorruptError } from '../../store/manifest.js';
import type { PagedFile } from './paged-file.js';
import { decodeBlock, type Predictor } from './record-blocks.js';
import { RECORDS_PER_BLOCK, STRINGS_PER_BLOCK } from './segment-layout.js';

/** Inflated string blocks kept per segment (64 strings each). */
const MAX_STRING_BLOCKS = 512;
/** Decoded record blocks kept per table and segment (128 records each, under 4 KiB). */
const MAX_RECORD_BLOCKS = 256;

export class StringTable {
  readonly #file: PagedFile;
  readonly #segment: string;
  /** Where the block offsets start, where the block data starts and ends. */
  readonly #offsets: number;
  readonly #data: number;
  readonly #end: number;
  readonly #count: number;
  readonly #blocks = new Map<number, string[]>();
  /** Every string, once a fold has needed them all (a segment being folded is read once and dropped). */
  #all: string[] | undefined;

  constructor(file: PagedFile, segment: string, layout: { offsets: number; data: number; end: number; count: number }) {
    this.#file = file;
    this.#segment = segment;
    this.#offsets = layout.offsets;
    this.#data = layout.data;
    this.#end = layout.end;
    this.#count = layout.count;
  }

  get(id: number): string {
    if (this.#all) {
      const value = this.#all[id];
      if (value === undefined) throw new IndexCorruptError(`symbol segment ${this.#segment}: string ${id} out of bounds`);
      return value;
    }
    const value = this.#block(Math.floor(id / STRINGS_PER_BLOCK), id)[id % STRINGS_PER_BLOCK];
    if (value === undefined) throw new IndexCorruptError(`symbol segment ${this.#segment}: string ${id} missing from its block`);
    return value;
  }

  /** Inflates every block once and keeps the strings (a fold reads nearly all of them, in no useful order). */
  loadAll(): void {
    if (this.#all) return;
    const all: string[] = [];
    for (let id = 0; id < this.#count; id += STRINGS_PER_BLOCK) {
      const block = this.#block(Math.floor(id / STRINGS_PER_BLOCK), id);
      for (let n = 0; n < block.length - 1 && id + n < this.#count; n++) all.push(block[n]!);
    }
    if (all.length !== this.#count) throw new IndexCorruptError(`symbol segment ${this.#segment}: ${all.length} strings where the header says ${this.#count}`);
    this.#all = all;
  }

  #block(block: number, id: number): string[] {
    const cached = touch(this.#blocks, block);
    if (cached) return cached;
    const start = this.#file.u32(this.#offsets + 4 * block);
    const end = this.#file.u32(this.#offsets + 4 * (block + 1));
    if (id >= this.#count || end < start || this.#data + end > this.#end)
      throw new IndexCorruptError(`symbol segment ${this.#segment}: string ${id} out of bounds`);
    let strings: string[];
    try {
      strings = inflateRawSync(this.#file.bytes(this.#data + start, end - start))
        .toString('utf8')
        .split('\0');
    } catch {
      throw new IndexCorruptError(`symbol segment ${this.#segment}: string block ${block} does not inflate`);
    }
    keep(this.#blocks, block, strings, MAX_STRING_BLOCKS);
    return strings;
  }
}

export class RecordTable {
  readonly #file: PagedFile;
  readonly #what: string;
  readonly #start: number;
  readonly #end: number;
  readonly #count: number;
  readonly #predictors: Predictor[];
  readonly #blocks = new Map<number, Uint32Array>();
  /** The block read last: reads come in runs on one block (a record's fields, a file's rows) and skip the LRU. */
  #last: { number: number; block: Uint32Array } | undefined;

  /** `start` and `end` bound the table's section; `what` names it in errors. */
  constructor(file: PagedFile, what: string, layout: { start: number; end: number; count: number; predictors: Predictor[] }) {
    this.#file = file;
    this.#what = what;
    this.#start = layout.start;
    this.#end = layout.end;
    this.#count = layout.count;
    this.#predictors = layout.predictors;
  }

  /** Bytes the block offsets take at the start of the section (what a reader checks fits). */
  static headBytes(count: number): number {
    return 4 * (Math.ceil(count / RECORDS_PER_BLOCK) + 1);
  }

  field(row: number, field: number): number {
    const number = Math.floor(row / RECORDS_PER_BLOCK);
    const at = (row % RECORDS_PER_BLOCK) * this.#predictors.length + field;
    const last = this.#last;
    if (last && last.number === number && at < last.block.length) return last.block[at]!;
    const block = touch(this.#blocks, number) ?? this.#decode(number);
    this.#last = { number, block };
    if (at >= block.length) throw new IndexCorruptError(`${this.#what}: record ${row} missing from its block`);
    return block[at]!;
  }

  #decode(number: number): Uint32Array {
    const blocks = Math.ceil(this.#count / RECORDS_PER_BLOCK);
    const first = this.#start + RecordTable.headBytes(this.#count);
    const start = number === 0 ? 0 : this.#file.u32(this.#start + 4 * number);
    const end = this.#file.u32(this.#start + 4 * (number + 1));
    if (number >= blocks || end < start || first + end > this.#end) throw new IndexCorruptError(`${this.#what}: block ${number} out of bounds`);
    const rows = Math.min(RECORDS_PER_BLOCK, this.#count - number * RECORDS_PER_BLOCK);
    const block = decodeBlock(this.#file.bytes(first + start, end - start), rows, this.#predictors);
    if (!block) throw new IndexCorruptError(`${this.#what}: block ${number} does not decode`);
    keep(this.#blocks, number, block, MAX_RECORD_BLOCKS);
    return block;
  }
}
