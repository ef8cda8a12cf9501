/**
 * A segment's header: its file table, column by column, in binary. A small JSON part holds the
 * counts, the language names and the tombstones; every other column is a typed array, read in
 * place, and a file's path is cut from one string of them all when it is asked for. Opening a
 * segment thus builds no object per file: the CLI's one search reads every header, and a JSON
 * header (format 5) cost it its parse and the collection of 26,000 paths and hashes it never
 * looked at (a third of a search on the Linux tree).
 *
 *   u32 JSON length | JSON {count, languageNames, tombstones, pathChars} | pad to 8 |
 *   f64 size[count] | f64 mtime[count] | u32 pathEnd[count] (UTF-16 units) | i32 language[count] |
 *   u32 unindexedCount | u32 unindexed[] | u32 blockWords | u32 blocks[] ([id, n, n first lines]…) |
 *   pad to 8 | hash bytes (16 ASCII hex each) | paths (UTF-8)
 */

/** A file as a segment lists it. */
export interface SegmentFile {
  path: string;
  size: number;
  mtimeMs: number;
  /** Content hash, for incremental sync. */
  hash: string;
  language?: string;
  /** Not in the trigram postings (too many distinct trigrams: data more than text): always a candidate. */
  unindexed?: boolean;
  /**
   * For a file indexed in blocks: the 0-based line where each block after the first starts
   * (block 0 starts at line 0). Each block is its own document in the postings.
   */
  blocks?: number[];
}

interface Meta {
  count: number;
  languageNames: string[];
  tombstones: string[];
  /** UTF-16 length of all paths end to end. */
  pathChars: number;
}

const HASH_BYTES = 16;
const align8 = (at: number): number => at + ((8 - (at % 8)) % 8);

export function encodeHeader(files: SegmentFile[], tombstones: string[]): Buffer {
  const count = files.length;
  const languageNames: string[] = [];
  const languageIds = new Map<string, number>();
  const sizes = new Float64Array(count);
  const mtimes = new Float64Array(count);
  const pathEnds = new Uint32Array(count);
  const languages = new Int32Array(count);
  const unindexed: number[] = [];
  const blocks: number[] = [];
  let pathChars = 0;
  files.forEach((file, id) => {
    sizes[id] = file.size;
    mtimes[id] = file.mtimeMs;
    pathChars += file.path.length;
    pathEnds[id] = pathChars;
    let language = -1;
    if (file.language !== undefined) {
      language = languageIds.get(file.language) ?? languageNames.push(file.language) - 1;
      languageIds.set(file.language, language);
    }
    languages[id] = language;
    if (file.unindexed) unindexed.push(id);
    if (file.blocks) blocks.push(id, file.blocks.length, ...file.blocks);
  });
  const hashes = Buffer.alloc(count * HASH_BYTES, 0x30);
  files.forEach((file, id) => {
    if (!/^[0-9a-f]{16}$/.test(file.hash)) throw new Error(`bad content hash ${JSON.stringify(file.hash)} for ${file.path}`);
    hashes.write(file.hash, id * HASH_BYTES, 'latin1');
  });
  const meta = Buffer.from(JSON.stringify({ count, languageNames, tombstones, pathChars } satisfies Meta), 'utf8');
  const words = new Uint32Array([unindexed.length, ...unindexed, blocks.length, ...blocks]);
  const parts = [
    Buffer.from(new Uint32Array([meta.length]).buffer),
    meta,
    Buffer.alloc(align8(4 + meta.length) - 4 - meta.length),
    Buffer.from(sizes.buffer),
    Buffer.from(mtimes.buffer),
    Buffer.from(pathEnds.buffer),
    Buffer.from(languages.buffer),
    Buffer.from(words.buffer),
  ];
  const before = parts.reduce((sum, part) => sum + part.length, 0);
  parts.push(Buffer.alloc(align8(before) - before), hashes, Buffer.from(files.map((file) => file.path).join(''), 'utf8'));
  return Buffer.concat(parts);
}

function isMeta(value: unknown): value is Meta {
  const meta = value as Meta | null;
  return (
    typeof meta === 'object' &&
    meta !== null &&
    Number.isInteger(meta.count) &&
    meta.count >= 0 &&
    Number.isInteger(meta.pathChars) &&
    meta.pathChars >= 0 &&
    Array.isArray(meta.languageNames) &&
    meta.languageNames.every((name) => typeof name === 'string') &&
    Array.isArray(meta.tombstones) &&
    meta.tombstones.every((path) => typeof path === 'string')
  );
}

/** The file table of a header; throws (a plain Error) when the bytes are not one. */
export function parseHeader(header: Uint8Array): FileTable {
  // Typed arrays need aligned offsets: one copy of the header to an offset of 0.
  const bytes = new Uint8Array(header.length);
  bytes.set(header);
  const buffer = Buffer.from(bytes.buffer);
  const fail = (why: string): never => {
    throw new Error(`not a segment header: ${why}`);
  };
  if (buffer.length < 4) fail('too short');
  const metaLength = buffer.readUInt32LE(0);
  if (4 + metaLength > buffer.length) fail('meta past the end');
  const meta: unknown = JSON.parse(buffer.toString('utf8', 4, 4 + metaLength));
  if (!isMeta(meta)) fail('meta');
  const { count } = meta as Meta;
  let at = align8(4 + metaLength);
  const take = (bytesPerItem: number, items: number): number => {
    const start = at;
    at += bytesPerItem * items;
    if (at > buffer.length) fail('columns past the end');
    return start;
  };
  const sizes = new Float64Array(bytes.buffer, take(8, count), count);
  const mtimes = new Float64Array(bytes.buffer, take(8, count), count);
  const pathEnds = new Uint32Array(bytes.buffer, take(4, count), count);
  const languages = new Int32Array(bytes.buffer, take(4, count), count);
  const unindexedCount = buffer.readUInt32LE(take(4, 1));
  const unindexed = new Uint32Array(bytes.buffer, take(4, unindexedCount), unindexedCount);
  const blockWords = buffer.readUInt32LE(take(4, 1));
  const blockColumn = new Uint32Array(bytes.buffer, take(4, blockWords), blockWords);
  at = align8(at);
  const hashesAt = take(HASH_BYTES, count);
  const paths = buffer.toString('utf8', at);
  if (paths.length !== (meta as Meta).pathChars || (count > 0 && pathEnds[count - 1] !== paths.length)) fail('paths');
  // Both columns are written in id order (encodeHeader); readers rely on it.
  for (let i = 0; i < unindexedCount; i++) if (unindexed[i]! >= count || (i > 0 && unindexed[i]! <= unindexed[i - 1]!)) fail('unindexed ids');
  const blocks = new Map<number, number[]>();
  for (let i = 0, previous = -1; i < blockWords;) {
    const id = blockColumn[i]!;
    const n = blockColumn[i + 1]!;
    if (id >= count || id <= previous || i + 2 + n > blockWords) fail('blocks');
    blocks.set(id, Array.from(blockColumn.subarray(i + 2, i + 2 + n)));
    previous = id;
    i += 2 + n;
  }
  return new FileTable({
    meta: meta as Meta,
    sizes,
    mtimes,
    pathEnds,
    paths,
    languages,
    unindexed,
    blocks,
    hashes: buffer.subarray(hashesAt, hashesAt + count * HASH_BYTES),
  });
}

interface Columns {
  meta: Meta;
  sizes: Float64Array;
  mtimes: Float64Array;
  pathEnds: Uint32Array;
  paths: string;
  languages: Int32Array;
  unindexed: Uint32Array;
  blocks: Map<number, number[]>;
  hashes: Buffer;
}

/** A segment's files, built as objects only when asked for. */
export class FileTable {
  readonly count: number;
  readonly tombstones: string[];
  readonly #columns: Columns;
  readonly #unindexed: Set<number>;
  readonly #files: Array<SegmentFile | undefined>;
  #all: SegmentFile[] | undefined;

  constructor(columns: Columns) {
    this.#columns = columns;
    this.count = columns.meta.count;
    this.tombstones = columns.meta.tombstones;
    this.#unindexed = new Set(columns.unindexed);
    this.#files = new Array<SegmentFile | undefined>(this.count);
  }

  pathOf(id: number): string {
    const { pathEnds, paths } = this.#columns;
    const start = id === 0 ? 0 : pathEnds[id - 1]!;
    const end = pathEnds[id]!;
    // The header passed its checksum; this guards against a writer's bug, not damage.
    if (start > end) throw new Error(`not a segment header: path ${id}`);
    return paths.slice(start, end);
  }

  /** Each file's first document, and (last) how many documents there are: one pass over the block column (in id order). */
  firstDocuments(): Uint32Array {
    const first = new Uint32Array(this.count + 1);
    let documents = 0;
    let id = 0;
    for (const [blocked, lines] of this.#columns.blocks) {
      for (; id <= blocked; id++) first[id] = documents++;
      documents += lines.length;
    }
    for (; id < this.count; id++) first[id] = documents++;
    first[this.count] = documents;
    return first;
  }

  /** The files kept out of the postings, ascending. */
  unindexedIds(): Uint32Array {
    return this.#columns.unindexed;
  }

  fileOf(id: number): SegmentFile {
    let file = this.#files[id];
    if (file) return file;
    const columns = this.#columns;
    file = {
      path: this.pathOf(id),
      size: columns.sizes[id]!,
      mtimeMs: columns.mtimes[id]!,
      hash: columns.hashes.toString('latin1', id * HASH_BYTES, (id + 1) * HASH_BYTES),
    };
    const language = columns.languages[id]!;
    if (language >= columns.meta.languageNames.length || language < -1) throw new Error(`not a segment header: language of ${id}`);
    if (language >= 0) file.language = columns.meta.languageNames[language]!;
    if (this.#unindexed.has(id)) file.unindexed = true;
    const blocks = columns.blocks.get(id);
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
