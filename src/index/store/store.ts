/**
 * Where a project's index lives and how it is written: one folder per project under
 * `$SEXTANT_HOME` (else `$XDG_CACHE_HOME/sextant`, else `~/.cache/sextant`), a manifest with a
 * format version, immutable segment files, and a journal of the running job. Every write is
 * atomic (temp file, fsync, rename), and the manifest is swapped last, so a crash at any moment
 * leaves the previous complete index in place.
 */
import { processAlive as alive } from '../../process-alive.js';
import { crypto } from '../../util/lazy-crypto.js';
import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { IndexCorruptError, parseManifest, SEGMENT_NAME, type Manifest } from './manifest.js';
import { TEMP_FILE, writeAtomic } from '../../util/write-atomic.js';

export interface JobJournal {
  /** `symbols`: the symbol phase, which follows an index or sync job (or a watcher refresh). */
  mode: 'index' | 'sync' | 'symbols';
  pid: number;
  startedAt: string;
  stage: string;
  done: number;
  total: number;
  /** Set when the job stopped early in a process that lives on (cancelled, failed). */
  stopped?: string;
}

/** The command that redoes an interrupted job: an interrupted symbol phase is finished by a sync. */
export function resumeCommand(journal: JobJournal, root: string): string {
  return `sextant ${journal.mode === 'symbols' ? 'sync' : journal.mode} ${root}`;
}

/** Another job (in this process or another) holds the project's index. */
export class IndexBusyError extends Error {
  readonly code = 'index_in_progress';
  readonly pid: number;
  constructor(pid: number) {
    super(`Another index job (process ${pid}) is updating this project's index; try again when it ends`);
    this.name = 'IndexBusyError';
    this.pid = pid;
  }
}

/** Creates `to` as a second name of `from`; false when `to` exists. */
function tryLink(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The pid in a lock file ("pid nonce", or a bare pid from before the nonce); undefined when there is none. */
function holderPid(content: string): number | undefined {
  const pid = Number(content.trim().split(/\s+/)[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * The thread that takes locks here (0: the main thread). A worker thread that writes an index
 * says which it is (setLockThread), so that its parent can release a lock it was stopped holding;
 * worker_threads is not loaded for that, so the CLI's search starts light.
 */
let lockThreadId = 0;

export function setLockThread(threadId: number): void {
  lockThreadId = threadId;
}

/** The thread of this process that holds a lock ("pid nonce thread-N"); undefined for older locks. */
function lockThread(content: string): number | undefined {
  const match = /\sthread-(\d+)\s*$/.exec(content);
  return match ? Number(match[1]) : undefined;
}

export function sextantHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SEXTANT_HOME) return env.SEXTANT_HOME;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'sextant');
  return join(homedir(), '.cache', 'sextant');
}

/** A project folder's name before its key: the root's last component, made safe for a file name. */
function folderStem(realRoot: string): string {
  return basename(realRoot).replace(/[^A-Za-z0-9._-]/g, '_') || 'root';
}

/** The folder of one project's index, keyed by the project's real path. */
export function projectDir(realRoot: string, home = sextantHome()): string {
  const key = crypto().createHash('sha256').update(realRoot).digest('hex').slice(0, 16);
  return join(home, 'projects', `${folderStem(realRoot)}-${key}`);
}

/** `<stem>-<16 hex digits>`: the stem of a project folder's name. */
const PROJECT_FOLDER = /^(.+)-[0-9a-f]{16}$/;

/**
 * The project folders of a home, read once, to find which directories are indexed without
 * hashing their paths: a folder named after a directory's last component whose manifest names
 * that directory is its index. Hashing would load node:crypto, a tenth of a CLI search.
 */
/**
 * Every index folder under `home`, with what its manifest says, read leniently (a damaged one
 * still lists): the root it names (undefined: none, or unreadable), its files and last update.
 */
export function indexFolders(home = sextantHome()): Array<{ dir: string; root: string | undefined; files: number; updatedAt: string | null }> {
  let names: string[];
  try {
    names = readdirSync(join(home, 'projects'));
  } catch {
    return [];
  }
  return names
    .filter((name) => PROJECT_FOLDER.test(name))
    .sort()
    .map((name) => {
      const dir = join(home, 'projects', name);
      const manifest = ((): { root?: unknown; files?: unknown; updatedAt?: unknown } | null => {
        try {
          return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { root?: unknown } | null;
        } catch {
          return null; // none, or unreadable
        }
      })();
      return {
        dir,
        root: typeof manifest?.root === 'string' ? manifest.root : undefined,
        files: typeof manifest?.files === 'number' ? manifest.files : 0,
        updatedAt: typeof manifest?.updatedAt === 'string' ? manifest.updatedAt : null,
      };
    });
}

export class ProjectFolders {
  readonly #home: string;
  readonly #byStem = new Map<string, string[]>();

  constructor(home = sextantHome()) {
    this.#home = home;
    let names: string[] = [];
    try {
      names = readdirSync(join(home, 'projects'));
    } catch {
      // No projects folder: nothing is indexed.
    }
    for (const name of names) {
      const stem = PROJECT_FOLDER.exec(name)?.[1];
      if (stem === undefined) continue;
      const named = this.#byStem.get(stem);
      if (named) named.push(name);
      else this.#byStem.set(stem, [name]);
    }
  }

  /**
   * The store of `realRoot`'s index when it has a manifest. A manifest whose root cannot be
   * read (damaged, say) is settled by the hash, so that reading it reports the damage.
   */
  indexed(realRoot: string): IndexStore | undefined {
    for (const name of this.#byStem.get(folderStem(realRoot)) ?? []) {
      const dir = join(this.#home, 'projects', name);
      let root: unknown;
      try {
        root = (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { root?: unknown } | null)?.root;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        const store = new IndexStore(realRoot, this.#home);
        if (store.dir === dir) return store;
        continue;
      }
      if (root === realRoot) return new IndexStore(realRoot, this.#home, dir);
    }
    return undefined;
  }
}

/**
 * Which version of a file is there: inode, mtime and size. Index files are replaced by rename,
 * so a new version is a new inode; '' when there is none.
 */
export function fileStamp(path: string): string {
  try {
    const stats = statSync(path);
    return `${stats.ino}:${stats.mtimeMs}:${stats.size}`;
  } catch {
    return '';
  }
}

export class IndexStore {
  readonly dir: string;
  readonly #root: string;
  /** What this store wrote into job.lock while it holds it ("pid nonce"). */
  #lockContent: string | undefined;

  /** `dir`: the project's folder when it is known already (ProjectFolders), else found by hashing the root. */
  constructor(realRoot: string, home = sextantHome(), dir = projectDir(realRoot, home)) {
    this.dir = dir;
    this.#root = realRoot;
  }

  get root(): string {
    return this.#root;
  }

  get manifestPath(): string {
    return join(this.dir, 'manifest.json');
  }

  get journalPath(): string {
    return join(this.dir, 'job.json');
  }

  /** Files found not to be text (binary, unreadable), with the size and mtime they had then. */
  get nonTextPath(): string {
    return join(this.dir, 'non-text.json');
  }

  /**
   * What the last build or sync found not to be text: a sync skips such a file while its size
   * and mtime are unchanged, instead of reading it again every time. A hint only: unreadable or
   * missing, every such file is simply read again.
   */
  readNonText(): Map<string, { size: number; mtimeMs: number }> {
    const found = new Map<string, { size: number; mtimeMs: number }>();
    try {
      const { files } = JSON.parse(readFileSync(this.nonTextPath, 'utf8')) as { files?: unknown };
      if (Array.isArray(files)) {
        for (const entry of files)
          if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number' && typeof entry[2] === 'number')
            found.set(entry[0], { size: entry[1], mtimeMs: entry[2] });
      }
    } catch {
      // none, or unreadable: nothing is skipped
    }
    return found;
  }

  writeNonText(files: Map<string, { size: number; mtimeMs: number }>): void {
    mkdirSync(this.dir, { recursive: true });
    writeAtomic(this.nonTextPath, JSON.stringify({ files: [...files].map(([path, { size, mtimeMs }]) => [path, size, mtimeMs]) }));
  }

  /** Held (created exclusively) for as long as a job writes the index: one writer at a time, across processes. */
  get lockPath(): string {
    return join(this.dir, 'job.lock');
  }

  /**
   * The manifest, `undefined` when there is no index; throws IndexIncompatibleError for another
   * format and IndexCorruptError for one that cannot be read.
   */
  readManifest(): Manifest | undefined {
    let text: string;
    try {
      text = readFileSync(this.manifestPath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new IndexCorruptError(`manifest.json cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, this.#root);
    }
    return parseManifest(text, this.#root);
  }

  /** Where a segment the manifest names lives (a name that is not a segment's is corrupt: `../x`). */
  segmentPath(name: string): string {
    if (!SEGMENT_NAME.test(name)) throw new IndexCorruptError(`bad segment name ${JSON.stringify(name)}`, this.#root);
    return join(this.dir, name);
  }

  readSegment(name: string): Buffer {
    return readFileSync(this.segmentPath(name));
  }

  /**
   * Reads parts of a segment through one open file: `read(position, length)` gives those bytes
   * (fewer at the end of the file). What reading its file list needs, without the postings (a
   * sync compares files, it does not search).
   */
  readSegmentPart<T>(name: string, use: (read: (position: number, length: number) => Buffer) => T): T {
    const fd = openSync(this.segmentPath(name), 'r');
    try {
      return use((position, length) => {
        const bytes = Buffer.alloc(length);
        let read = 0;
        for (let n; read < length && (n = readSync(fd, bytes, read, length - read, position + read)) > 0;) read += n;
        return bytes.subarray(0, read);
      });
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Writes the segments, then swaps the manifest, then removes every segment the new manifest
   * does not name: the previous manifest's, and any left by a job that died before its commit.
   */
  commit(manifest: Manifest, segments: Array<{ name: string; data: Buffer }>): void {
    mkdirSync(this.dir, { recursive: true });
    for (const segment of segments) writeAtomic(join(this.dir, segment.name), segment.data);
    writeAtomic(this.manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    this.#removeSegmentsBut(new Set(manifest.segments));
  }

  #removeSegmentsBut(keep: Set<string>): string[] {
    const removed: string[] = [];
    for (const name of this.#entries()) {
      if (SEGMENT_NAME.test(name) && !keep.has(name)) {
        rmSync(join(this.dir, name), { force: true });
        removed.push(name);
      }
    }
    return removed;
  }

  #entries(): string[] {
    try {
      return readdirSync(this.dir);
    } catch {
      return [];
    }
  }

  /**
   * Removes what interrupted jobs left behind; only the lock holder calls it (startJob does).
   * Temporary files of processes that are gone (or of this one: every writer here holds the lock,
   * so none is being written now), takeover claims and staged locks, and, when the
   * manifest can be read, segments it does not name. What was removed is returned (tests, logs).
   */
  collectDebris(): string[] {
    const removed: string[] = [];
    for (const name of this.#entries()) {
      const temp = TEMP_FILE.exec(name);
      const staged = /^job\.lock\.(\d+)-[0-9a-f]+\.new$/.exec(name);
      const owner = Number((temp ?? staged)?.[1]);
      // A claim only matters while nobody holds the lock, and this process holds it now.
      if (/^job\.lock\.takeover-[0-9a-f]+$/.test(name)) removed.push(name);
      else if (temp && (owner === process.pid || !alive(owner))) removed.push(name);
      else if (staged && owner !== process.pid && !alive(owner)) removed.push(name);
    }
    for (const name of removed) rmSync(join(this.dir, name), { force: true });
    let manifest: Manifest | undefined;
    try {
      manifest = this.readManifest();
    } catch {
      return removed; // unreadable: its segments may be all that is left to understand it
    }
    if (manifest) removed.push(...this.#removeSegmentsBut(new Set(manifest.segments)));
    return removed;
  }

  /** Takes the project's job lock (or throws IndexBusyError), collects debris, and writes the journal. */
  startJob(journal: JobJournal): void {
    mkdirSync(this.dir, { recursive: true });
    this.lock(journal.pid);
    try {
      this.collectDebris();
      writeAtomic(this.journalPath, JSON.stringify(journal));
    } catch (error) {
      this.unlock();
      throw error;
    }
  }

  /**
   * Takes the job lock alone (a short write, such as a merge, that needs no journal). The lock
   * file appears whole or not at all (a staged file hard-linked into place), and a lock whose
   * holder died is taken over without a read-then-delete window: whoever first creates the
   * takeover claim of that exact lock content (O_EXCL) may replace it, and checks it is still
   * that content first; everyone else backs off. A claimant that died is taken over the same way.
   */
  lock(pid = process.pid): void {
    mkdirSync(this.dir, { recursive: true });
    // The thread too: a thread stopped while it holds the lock is released by its parent (abandonThread).
    const content = `${pid} ${crypto().randomBytes(8).toString('hex')} thread-${lockThreadId}`;
    const staged = join(this.dir, `job.lock.${pid}-${crypto().randomBytes(4).toString('hex')}.new`);
    writeFileSync(staged, content, { flag: 'wx' });
    try {
      for (let attempt = 0; attempt < 8; attempt++) {
        if (tryLink(staged, this.lockPath)) return void (this.#lockContent = content);
        const held = readOrUndefined(this.lockPath);
        if (held === undefined) continue; // released meanwhile: try again
        const owner = holderPid(held);
        if (owner !== undefined && alive(owner)) throw new IndexBusyError(owner);
        if (this.#takeOver(held, staged)) return void (this.#lockContent = content);
      }
      throw new IndexBusyError(holderPid(readOrUndefined(this.lockPath) ?? '') ?? 0);
    } finally {
      rmSync(staged, { force: true });
    }
  }

  /** Replaces the stale lock `held` by `staged` if this process wins its claim; false to look again. */
  #takeOver(held: string, staged: string): boolean {
    let key = held;
    for (let depth = 0; depth < 8; depth++) {
      const claim = join(this.dir, `job.lock.takeover-${crypto().createHash('sha256').update(key).digest('hex').slice(0, 24)}`);
      if (tryLink(staged, claim)) {
        // Won: nobody else may replace `held` now. It must still be what is in place.
        if (readOrUndefined(this.lockPath) !== held) return false;
        renameSync(staged, this.lockPath);
        return true;
      }
      const claimant = readOrUndefined(claim);
      if (claimant === undefined) return false; // cleared by a new holder: look at the lock again
      const claimantPid = holderPid(claimant);
      if (claimantPid !== undefined && alive(claimantPid)) throw new IndexBusyError(claimantPid);
      key = `${key}\n${claimant}`; // the claimant died mid-takeover: claim its claim
    }
    return false;
  }

  updateJob(journal: JobJournal): void {
    writeAtomic(this.journalPath, JSON.stringify(journal));
  }

  endJob(): void {
    try {
      rmSync(this.journalPath, { force: true });
    } finally {
      this.unlock();
    }
  }

  /**
   * A thread of this process (`threadId`), terminated mid-job, can no longer end its job: if it
   * holds the lock, its stop record is written and the lock released for it. A job that ended
   * meanwhile, or a lock someone else holds now, is left as it is.
   */
  abandonThread(threadId: number, reason: string): void {
    const lock = readOrUndefined(this.lockPath);
    if (lock === undefined || holderPid(lock) !== process.pid || lockThread(lock) !== threadId) return;
    try {
      const journal = this.#journal();
      if (journal && !journal.stopped) writeAtomic(this.journalPath, JSON.stringify({ ...journal, stopped: reason }));
    } finally {
      if (readOrUndefined(this.lockPath) === lock) rmSync(this.lockPath, { force: true });
    }
  }

  /** Releases the lock if this store holds it (never another holder's). */
  unlock(): void {
    if (this.#lockContent !== undefined && readOrUndefined(this.lockPath) === this.#lockContent) rmSync(this.lockPath, { force: true });
    this.#lockContent = undefined;
  }

  /**
   * The job stopped early in a process that lives on: the journal says why, the lock is released.
   * Where even the stop record cannot be written (a full disk), the journal is removed instead:
   * a journal left saying "running" would show a job that nothing runs.
   */
  stopJob(journal: JobJournal): void {
    try {
      writeAtomic(this.journalPath, JSON.stringify(journal));
    } catch {
      rmSync(this.journalPath, { force: true, recursive: true });
    } finally {
      this.unlock();
    }
  }

  /**
   * A journal whose job still runs (maybe in another process): its process is alive and holds the
   * lock. Every running job holds it, so a journal without it is a job that stopped unrecorded.
   */
  runningJob(): JobJournal | undefined {
    const journal = this.#journal();
    if (!journal || journal.stopped || !alive(journal.pid)) return undefined;
    return holderPid(readOrUndefined(this.lockPath) ?? '') === journal.pid ? journal : undefined;
  }

  #journal(): JobJournal | undefined {
    if (!existsSync(this.journalPath)) return undefined;
    try {
      return JSON.parse(readFileSync(this.journalPath, 'utf8')) as JobJournal;
    } catch {
      return undefined;
    }
  }

  /** A journal whose process is gone: the job was interrupted. */
  interruptedJob(): JobJournal | undefined {
    if (!existsSync(this.journalPath)) return undefined;
    let journal: JobJournal;
    try {
      journal = JSON.parse(readFileSync(this.journalPath, 'utf8')) as JobJournal;
    } catch {
      return undefined;
    }
    if (journal.stopped) return journal;
    return alive(journal.pid) && holderPid(readOrUndefined(this.lockPath) ?? '') === journal.pid ? undefined : journal;
  }
}
