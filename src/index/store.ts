/**
 * Where a project's index lives and how it is written: one folder per project under
 * `$SEXTANT_HOME` (else `$XDG_CACHE_HOME/sextant`, else `~/.cache/sextant`), a manifest with a
 * format version, immutable segment files, and a journal of the running job. Every write is
 * atomic (temp file, fsync, rename), and the manifest is swapped last, so a crash at any moment
 * leaves the previous complete index in place.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';

/** Bump when the on-disk layout changes; an index of another format is never read. */
export const INDEX_FORMAT_VERSION = 2;

export interface Manifest {
  format: number;
  root: string;
  createdAt: string;
  updatedAt: string;
  segments: string[];
  /** How many of `segments` (the first ones) a full build wrote; the rest are sync deltas. */
  baseSegments?: number;
  files: number;
  bytes: number;
  skipped: Record<string, number>;
}

export interface JobJournal {
  mode: 'index' | 'sync';
  pid: number;
  startedAt: string;
  stage: string;
  done: number;
  total: number;
  /** Set when the job stopped early in a process that lives on (cancelled, failed). */
  stopped?: string;
}

export class IndexIncompatibleError extends Error {
  readonly code = 'index_incompatible';
  constructor(found: unknown) {
    super(`The index was written by format ${JSON.stringify(found)}, this Sextant reads format ${INDEX_FORMAT_VERSION}: rebuild it with "sextant index --force"`);
    this.name = 'IndexIncompatibleError';
  }
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

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function sextantHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SEXTANT_HOME) return env.SEXTANT_HOME;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'sextant');
  return join(homedir(), '.cache', 'sextant');
}

/** The folder of one project's index, keyed by the project's real path. */
export function projectDir(realRoot: string, home = sextantHome()): string {
  const key = createHash('sha256').update(realRoot).digest('hex').slice(0, 16);
  return join(home, 'projects', `${basename(realRoot).replace(/[^A-Za-z0-9._-]/g, '_') || 'root'}-${key}`);
}

/** Writes a file so that readers see the old content or the new, never a part. */
export function writeAtomic(path: string, data: Buffer | string): void {
  const temp = `${path}.tmp-${process.pid}-${Date.now()}`;
  const fd = openSync(temp, 'w');
  try {
    const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let written = 0;
    while (written < buffer.length) written += writeSync(fd, buffer, written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
  // The rename itself must reach the disk too.
  const dirFd = openSync(join(path, '..'), 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

export class IndexStore {
  readonly dir: string;

  constructor(realRoot: string, home = sextantHome()) {
    this.dir = projectDir(realRoot, home);
  }

  get manifestPath(): string {
    return join(this.dir, 'manifest.json');
  }

  get journalPath(): string {
    return join(this.dir, 'job.json');
  }

  /** Held (created exclusively) for as long as a job writes the index: one writer at a time, across processes. */
  get lockPath(): string {
    return join(this.dir, 'job.lock');
  }

  /** The manifest, `undefined` when there is no index; throws IndexIncompatibleError for another format. */
  readManifest(): Manifest | undefined {
    if (!existsSync(this.manifestPath)) return undefined;
    const manifest = JSON.parse(readFileSync(this.manifestPath, 'utf8')) as Manifest;
    if (manifest.format !== INDEX_FORMAT_VERSION) throw new IndexIncompatibleError(manifest.format);
    return manifest;
  }

  readSegment(name: string): Buffer {
    return readFileSync(join(this.dir, name));
  }

  /** Writes the segments, then swaps the manifest, then removes segments no manifest names. */
  commit(manifest: Manifest, segments: Array<{ name: string; data: Buffer }>, previous: Manifest | undefined): void {
    mkdirSync(this.dir, { recursive: true });
    for (const segment of segments) writeAtomic(join(this.dir, segment.name), segment.data);
    writeAtomic(this.manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    for (const old of previous?.segments ?? []) {
      if (!manifest.segments.includes(old)) rmSync(join(this.dir, old), { force: true });
    }
  }

  /** Takes the project's job lock (or throws IndexBusyError) and writes the journal. */
  startJob(journal: JobJournal): void {
    mkdirSync(this.dir, { recursive: true });
    this.lock(journal.pid);
    writeAtomic(this.journalPath, JSON.stringify(journal));
  }

  /** Takes the job lock alone (a short write, such as a merge, that needs no journal). */
  lock(pid = process.pid): void {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(this.lockPath, 'wx');
        try {
          writeSync(fd, String(pid));
        } finally {
          closeSync(fd);
        }
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      let owner = Number.NaN;
      try {
        owner = Number(readFileSync(this.lockPath, 'utf8'));
      } catch {
        continue; // released meanwhile: try again
      }
      if (Number.isInteger(owner) && owner > 0 && alive(owner)) throw new IndexBusyError(owner);
      // Left by a process that died (kill -9): the journal tells what it was doing; the lock is free.
      rmSync(this.lockPath, { force: true });
    }
    throw new IndexBusyError(pid);
  }

  updateJob(journal: JobJournal): void {
    writeAtomic(this.journalPath, JSON.stringify(journal));
  }

  endJob(): void {
    rmSync(this.journalPath, { force: true });
    this.unlock();
  }

  unlock(): void {
    rmSync(this.lockPath, { force: true });
  }

  /** The job stopped early in a process that lives on: the journal says why, the lock is released. */
  stopJob(journal: JobJournal): void {
    writeAtomic(this.journalPath, JSON.stringify(journal));
    rmSync(this.lockPath, { force: true });
  }

  /** A journal whose process still runs it: a job in progress (maybe in another process). */
  runningJob(): JobJournal | undefined {
    const journal = this.#journal();
    if (!journal || journal.stopped) return undefined;
    try {
      process.kill(journal.pid, 0);
      return journal;
    } catch {
      return undefined;
    }
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
    try {
      process.kill(journal.pid, 0);
      return undefined; // still running
    } catch {
      return journal;
    }
  }
}
