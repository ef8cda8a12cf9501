/**
 * The one way a project file is read, by the indexer, the search, the tools and the CLI alike.
 * A read is refused, never attempted, for:
 * - anything but a regular file (a FIFO would block the thread for ever, `/dev/zero` never ends);
 * - a file that resolves, through any link on its way, outside the workspace (the walk's rule:
 *   a link is followed only to a file inside);
 * - a file past the size limit (read no further than the limit, whatever fstat said).
 * The open never blocks (O_NONBLOCK) and never follows a last link before it was judged.
 *
 * Reads through `bytesShared` use one buffer kept between reads, without the stat and the fresh
 * buffer of `readFileSync(path, 'utf8')`; decoding is the same (invalid UTF-8 becomes U+FFFD).
 */
import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import { maxFileBytes } from './file-limit.js';

const FIRST_BUFFER_BYTES = 1 << 20;
/** A buffer grown past this for one large file is not kept for the next. */
const KEPT_BUFFER_BYTES = 16 << 20;
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW | (constants.O_NOCTTY ?? 0);
/** Where Linux names what a descriptor opened: its real path, links resolved, in one call. */
const FD_PATHS = process.platform === 'linux' ? '/proc/self/fd/' : undefined;

/** Why a file was not read. */
export type Refusal = 'gone' | 'outside' | 'not_regular' | 'too_large' | 'unreadable';

export type ReadResult = { bytes: Buffer } | { refused: Refusal };

let kept: Buffer | undefined;

/** The real path of a workspace root, or the path itself when it cannot be resolved (reads then fail as gone). */
function realRootOf(root: string): string {
  try {
    return realpathSync.native(root);
  } catch {
    return root;
  }
}

/** Reads the files of one workspace; cheap to make (one realpath), so made per reader or per call. */
export class ProjectFiles {
  readonly root: string;
  readonly maxBytes: number;
  readonly #realRoot: string;

  constructor(root: string, options: { maxBytes?: number } = {}) {
    this.root = root;
    this.#realRoot = realRootOf(root);
    this.maxBytes = options.maxBytes ?? maxFileBytes();
  }

  /** Whether `real` (a path with no links) lies inside the workspace. */
  inside(real: string): boolean {
    return real === this.#realRoot || real.startsWith(this.#realRoot.endsWith(sep) ? this.#realRoot : this.#realRoot + sep);
  }

  /** The bytes of workspace-relative `path` in a fresh buffer, or why not. */
  read(path: string): ReadResult {
    return this.#read(path, false);
  }

  /** The bytes of `path` as a view of a buffer kept between reads: valid until the next read (decode or copy what is kept). */
  bytesShared(path: string): Buffer | undefined {
    const result = this.#read(path, true);
    return 'bytes' in result ? result.bytes : undefined;
  }

  /** The text of `path`, or undefined when it is not read (see Refusal). */
  text(path: string): string | undefined {
    return this.bytesShared(path)?.toString('utf8');
  }

  #read(path: string, shared: boolean): ReadResult {
    if (path === '' || isAbsolute(path) || path.split(/[\\/]/).includes('..')) return { refused: 'outside' };
    const opened = this.#open(join(this.#realRoot, path));
    if (typeof opened === 'string') return { refused: opened };
    const fd = opened;
    try {
      const stats = fstatSync(fd);
      if (!stats.isFile()) return { refused: 'not_regular' };
      if (!this.inside(whereOpened(fd, join(this.#realRoot, path)))) return { refused: 'outside' };
      if (stats.size > this.maxBytes) return { refused: 'too_large' };
      return readBounded(fd, stats.size, this.maxBytes, shared);
    } catch {
      return { refused: 'unreadable' };
    } finally {
      closeSync(fd);
    }
  }

  /** A descriptor for `absolute`, its last link (if any) judged first; or why not. */
  #open(absolute: string): number | Refusal {
    try {
      return openSync(absolute, OPEN_FLAGS);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return 'gone';
      // ELOOP: the last part is a link (macOS says EMLINK). Followed only to somewhere inside.
      if (code !== 'ELOOP' && code !== 'EMLINK') return 'unreadable';
    }
    let target: string;
    try {
      target = realpathSync.native(absolute);
    } catch {
      return 'gone'; // a link to nothing
    }
    if (!this.inside(target)) return 'outside';
    try {
      return openSync(target, OPEN_FLAGS);
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'unreadable';
    }
  }
}

/**
 * The text of a small file the walk itself needs (a .gitignore, .sextantignore, info/exclude),
 * read as ProjectFiles reads: a regular file only, opened without blocking, at most `maxBytes`.
 * Undefined when there is none or it is not to be read.
 */
export function readRulesFile(absolute: string, maxBytes = RULES_FILE_BYTES): string | undefined {
  let fd: number;
  try {
    fd = openSync(absolute, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > maxBytes) return undefined;
    const read = readBounded(fd, stats.size, maxBytes, false);
    return 'bytes' in read ? read.bytes.toString('utf8') : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The largest ignore file read (a larger one is not a list of rules). */
const RULES_FILE_BYTES = 4 * 1024 * 1024;

/** The real path of what `fd` opened (a link in a directory on the way is resolved too). */
function whereOpened(fd: number, opened: string): string {
  if (FD_PATHS) {
    try {
      return readlinkSync(FD_PATHS + fd);
    } catch {
      // /proc not mounted: resolve the path instead
    }
  }
  return realpathSync.native(opened);
}

/** At most `limit` bytes of `fd` (one more is looked for: a file grown past the limit is refused). */
function readBounded(fd: number, size: number, limit: number, shared: boolean): ReadResult {
  let bytes = shared ? (kept ?? Buffer.allocUnsafe(FIRST_BUFFER_BYTES)) : Buffer.allocUnsafe(Math.min(size, limit) + 1);
  let length = 0;
  for (let read; (read = readSync(fd, bytes, length, bytes.length - length, length)) > 0;) {
    length += read;
    if (length > limit) return { refused: 'too_large' };
    if (length === bytes.length) {
      // Past the buffer: room for the whole file at once (and a byte to see its end), not
      // doublings that each copy what was read.
      const grown = Buffer.allocUnsafe(Math.min(Math.max(bytes.length * 2, fstatSync(fd).size + 1), limit + 1));
      bytes.copy(grown, 0, 0, length);
      bytes = grown;
    }
  }
  if (shared) kept = bytes.length <= KEPT_BUFFER_BYTES ? bytes : undefined;
  return { bytes: bytes.subarray(0, length) };
}
