/**
 * One writer at a time for a project's index, across processes: `job.lock` names its holder
 * ("pid nonce thread-N"). The lock file appears whole or not at all (a staged file hard-linked
 * into place), and a lock whose holder died is taken over without a read-then-delete window.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive as alive } from '../../process-alive.js';
import { crypto } from '../../util/lazy-crypto.js';
import { CodedError, ERROR_CODES } from '../../errors.js';

/** Another job (in this process or another) holds the project's index. */
export class IndexBusyError extends CodedError {
  readonly pid: number;
  constructor(pid: number) {
    super(`Another index job (process ${pid}) is updating this project's index; try again when it ends`, {
      code: 'index_in_progress',
      remedy: ERROR_CODES.index_in_progress.remedy,
    });
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

/** A staged lock of a process (`job.lock.PID-NONCE.new`): group 1 is the pid. */
export const STAGED_LOCK = /^job\.lock\.(\d+)-[0-9a-f]+\.new$/;
/** A takeover claim: only meaningful while nobody holds the lock. */
export const TAKEOVER_CLAIM = /^job\.lock\.takeover-[0-9a-f]+$/;

/** The job lock of one index folder. */
export class JobLock {
  readonly dir: string;
  /** What this holder wrote into job.lock while it holds it ("pid nonce thread-N"). */
  #lockContent: string | undefined;

  constructor(dir: string) {
    this.dir = dir;
  }

  get lockPath(): string {
    return join(this.dir, 'job.lock');
  }

  /** The pid that holds the lock now, if any. */
  holder(): number | undefined {
    return holderPid(readOrUndefined(this.lockPath) ?? '');
  }

  /**
   * Takes the job lock alone (a short write, such as a merge, that needs no journal). The lock
   * file appears whole or not at all (a staged file hard-linked into place), and a lock whose
   * holder died is taken over without a read-then-delete window: whoever first creates the
   * takeover claim of that exact lock content (O_EXCL) may replace it, and checks it is still
   * that content first; everyone else backs off. A claimant that died is taken over the same way.
   */
  acquire(pid = process.pid): void {
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

  /** Releases the lock if this holder holds it (never another holder's). */
  release(): void {
    if (this.#lockContent !== undefined && readOrUndefined(this.lockPath) === this.#lockContent) rmSync(this.lockPath, { force: true });
    this.#lockContent = undefined;
  }

  /**
   * For a thread of this process that was stopped holding the lock: `settle` runs (its stop
   * record), then the lock is released for it. A lock another thread or process holds is left.
   */
  releaseForThread(threadId: number, settle: () => void): void {
    const lock = readOrUndefined(this.lockPath);
    if (lock === undefined || holderPid(lock) !== process.pid || lockThread(lock) !== threadId) return;
    try {
      settle();
    } finally {
      if (readOrUndefined(this.lockPath) === lock) rmSync(this.lockPath, { force: true });
    }
  }
}
