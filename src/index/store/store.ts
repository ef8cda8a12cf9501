/**
 * Where a project's index lives and how it is written: one folder per project under
 * `$SEXTANT_HOME` (else `$XDG_CACHE_HOME/sextant`, else `~/.cache/sextant`), a manifest with a
 * format version, immutable segment files, and a journal of the running job (journal.ts)
 * under the job lock (job-lock.ts). Every write is
 * atomic (temp file, fsync, rename), and the manifest is swapped last, so a crash at any moment
 * leaves the previous complete index in place.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive as alive } from '../../platform/process-alive.js';
import { TEMP_FILE, writeAtomic } from '../../util/write-atomic.js';
import { projectDir, sextantHome } from './home.js';
import { IndexBusyError, JobLock } from './job-lock.js';
import { readJournal, type JobJournal } from './journal.js';
import { IndexCorruptError, parseManifest, SEGMENT_NAME, type Manifest } from './manifest.js';

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
  readonly #lock: JobLock;

  /** `dir`: the project's folder when it is known already (ProjectFolders), else found by hashing the root. */
  constructor(realRoot: string, home = sextantHome(), dir = projectDir(realRoot, home)) {
    this.dir = dir;
    this.#root = realRoot;
    this.#lock = new JobLock(dir);
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
    return this.#lock.path;
  }

  /** Takes the job lock alone (a short write, such as a merge, that needs no journal), or throws IndexBusyError. */
  lock(pid = process.pid): void {
    this.#lock.acquire(pid);
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
   * A store that took the job lock commits only while its grant is the latest (its fencing token
   * current): one taken for dead and replaced meanwhile is refused, before the manifest moves.
   */
  commit(manifest: Manifest, segments: Array<{ name: string; data: Buffer }>): void {
    mkdirSync(this.dir, { recursive: true });
    for (const segment of segments) writeAtomic(join(this.dir, segment.name), segment.data);
    if (this.#lock.token > 0 && !this.#lock.valid()) throw new IndexBusyError(this.#lock.holder() ?? 0);
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
      const staged = this.#lock.stagedName.exec(name);
      const owner = Number((temp ?? staged)?.[1]);
      // A claim only matters while nobody holds the lock, and this process holds it now.
      if (this.#lock.claimName.test(name)) removed.push(name);
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

  updateJob(journal: JobJournal): void {
    writeAtomic(this.journalPath, JSON.stringify(journal));
  }

  /**
   * A job promised but not begun (the server has said it started): recorded at once, without the
   * lock, so that a process stopped before the job takes the lock still leaves its trace. The
   * job's own startJob writes over it; `settlePendingJob` takes it back if the job never did.
   * Nothing is written while another job's journal is live.
   */
  recordPendingJob(journal: JobJournal): boolean {
    if (this.runningJob()) return false;
    try {
      mkdirSync(this.dir, { recursive: true });
      writeAtomic(this.journalPath, JSON.stringify(journal));
      return true;
    } catch {
      // A home that cannot be written: the job fails on it itself, and says why.
      return false;
    }
  }

  /** After a job settled: its pending journal, if no job of its own replaced it, is removed (it completed) or marked stopped. */
  settlePendingJob(journal: JobJournal, stopped: string | undefined): void {
    const current = readJournal(this.journalPath);
    if (!current || current.pid !== journal.pid || current.startedAt !== journal.startedAt || current.stage !== journal.stage) return;
    try {
      if (stopped === undefined) rmSync(this.journalPath, { force: true });
      else writeAtomic(this.journalPath, JSON.stringify({ ...journal, stopped }));
    } catch {
      // The home went away or cannot be written: there is nothing to settle.
    }
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
    this.#lock.releaseForThread(threadId, () => {
      const journal = readJournal(this.journalPath);
      if (journal && !journal.stopped) writeAtomic(this.journalPath, JSON.stringify({ ...journal, stopped: reason }));
    });
  }

  /** Releases the lock if this store holds it (never another holder's). */
  unlock(): void {
    this.#lock.release();
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
    const journal = readJournal(this.journalPath);
    if (!journal || journal.stopped || !alive(journal.pid)) return undefined;
    return this.#lock.holder() === journal.pid ? journal : undefined;
  }

  /** A journal whose process is gone: the job was interrupted. */
  interruptedJob(): JobJournal | undefined {
    const journal = readJournal(this.journalPath);
    if (!journal || journal.stopped) return journal;
    return alive(journal.pid) && this.#lock.holder() === journal.pid ? undefined : journal;
  }
}
