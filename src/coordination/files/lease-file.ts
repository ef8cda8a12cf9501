/**
 * A lease as a file, for processes of one machine: `NAME` names its holder ("pid nonce thread-N").
 * It appears whole or not at all (a staged file hard-linked into place), and a lease whose holder
 * died is taken over without a read-then-delete window: whoever first creates the takeover claim
 * of that exact content (O_EXCL) may replace it, and checks it is still that content first;
 * everyone else backs off. A claimant that died is taken over the same way.
 *
 * Every grant also raises the lease's epoch (`NAME.epoch`, written by the new holder while it
 * holds the lease): the grant's fencing token. A holder that was taken for dead and replaced sees
 * its token outdated (`valid()` is false) before it writes.
 *
 * Synchronous, unlike the Leases interface: the index's writers take it on threads that do
 * nothing else. Imported by path by the index's job lock, so that it loads nothing else of this
 * room.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive as alive } from '../../platform/process-alive.js';
import { crypto } from '../../util/lazy-crypto.js';
import { writeAtomic } from '../../util/write-atomic.js';

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

/** The pid in a lease file ("pid nonce", or a bare pid from before the nonce); undefined when there is none. */
function holderPid(content: string): number | undefined {
  const pid = Number(content.trim().split(/\s+/)[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * The thread that takes leases here (0: the main thread). A worker thread that writes an index
 * says which it is (setLeaseThread), so that its parent can release a lease it was stopped
 * holding; worker_threads is not loaded for that, so the CLI's search starts light.
 */
let leaseThreadId = 0;

export function setLeaseThread(threadId: number): void {
  leaseThreadId = threadId;
}

/** The thread of this process that holds a lease ("pid nonce thread-N"); undefined for older ones. */
function leaseThread(content: string): number | undefined {
  const match = /\sthread-(\d+)\s*$/.exec(content);
  return match ? Number(match[1]) : undefined;
}

/** A live holder has the lease. */
export class LeaseHeldError extends Error {
  readonly code = 'lease_held';
  readonly pid: number;
  constructor(pid: number) {
    super(`Another process (${pid}) holds this lease`);
    this.name = 'LeaseHeldError';
    this.pid = pid;
  }
}

export class FileLease {
  readonly dir: string;
  readonly name: string;
  /** What this holder wrote into the lease file while it holds it ("pid nonce thread-N"). */
  #content: string | undefined;
  #token = 0;

  constructor(dir: string, name: string) {
    this.dir = dir;
    this.name = name;
  }

  get path(): string {
    return join(this.dir, this.name);
  }

  get #epochPath(): string {
    return join(this.dir, `${this.name}.epoch`);
  }

  /** The fencing token of this holder's grant (0 while it holds none). */
  get token(): number {
    return this.#content === undefined ? 0 : this.#token;
  }

  /** A staged lease of a process (`NAME.PID-NONCE.new`): group 1 is the pid. */
  get stagedName(): RegExp {
    return new RegExp(`^${this.name.replace(/\./g, '\\.')}\\.(\\d+)-[0-9a-f]+\\.new$`);
  }

  /** A takeover claim: only meaningful while nobody holds the lease. */
  get claimName(): RegExp {
    return new RegExp(`^${this.name.replace(/\./g, '\\.')}\\.takeover-[0-9a-f]+$`);
  }

  /** The pid that holds the lease now, if any. */
  holder(): number | undefined {
    return holderPid(readOrUndefined(this.path) ?? '');
  }

  /** Takes the lease for `pid`, or throws LeaseHeldError naming its live holder. */
  acquire(pid = process.pid): number {
    mkdirSync(this.dir, { recursive: true });
    // The thread too: a thread stopped while it holds the lease is released by its parent (releaseForThread).
    const content = `${pid} ${crypto().randomBytes(8).toString('hex')} thread-${leaseThreadId}`;
    const staged = join(this.dir, `${this.name}.${pid}-${crypto().randomBytes(4).toString('hex')}.new`);
    writeFileSync(staged, content, { flag: 'wx' });
    try {
      for (let attempt = 0; attempt < 8; attempt++) {
        if (tryLink(staged, this.path)) return this.#granted(content);
        const held = readOrUndefined(this.path);
        if (held === undefined) continue; // released meanwhile: try again
        const owner = holderPid(held);
        if (owner !== undefined && alive(owner)) throw new LeaseHeldError(owner);
        if (this.#takeOver(held, staged)) return this.#granted(content);
      }
      throw new LeaseHeldError(this.holder() ?? 0);
    } finally {
      rmSync(staged, { force: true });
    }
  }

  /** Whether this holder's grant is still the lease's latest: its content in place, its token current. */
  valid(): boolean {
    return this.#content !== undefined && readOrUndefined(this.path) === this.#content && this.#epoch() === this.#token;
  }

  /** Releases the lease if this holder holds it (never another holder's). */
  release(): void {
    if (this.#content !== undefined && readOrUndefined(this.path) === this.#content) rmSync(this.path, { force: true });
    this.#content = undefined;
  }

  /**
   * For a thread of this process that was stopped holding the lease: `settle` runs (its stop
   * record), then the lease is released for it. A lease another thread or process holds is left.
   */
  releaseForThread(threadId: number, settle: () => void): void {
    const held = readOrUndefined(this.path);
    if (held === undefined || holderPid(held) !== process.pid || leaseThread(held) !== threadId) return;
    try {
      settle();
    } finally {
      if (readOrUndefined(this.path) === held) rmSync(this.path, { force: true });
    }
  }

  #epoch(): number {
    const epoch = Number(readOrUndefined(this.#epochPath)?.trim());
    return Number.isSafeInteger(epoch) && epoch > 0 ? epoch : 0;
  }

  /** The lease is ours: its epoch goes up by one, and that is this grant's token. */
  #granted(content: string): number {
    this.#content = content;
    this.#token = this.#epoch() + 1;
    writeAtomic(this.#epochPath, String(this.#token));
    return this.#token;
  }

  /** Replaces the stale `held` by `staged` if this process wins its claim; false to look again. */
  #takeOver(held: string, staged: string): boolean {
    let key = held;
    for (let depth = 0; depth < 8; depth++) {
      const claim = join(this.dir, `${this.name}.takeover-${crypto().createHash('sha256').update(key).digest('hex').slice(0, 24)}`);
      if (tryLink(staged, claim)) {
        // Won: nobody else may replace `held` now. It must still be what is in place.
        if (readOrUndefined(this.path) !== held) return false;
        renameSync(staged, this.path);
        return true;
      }
      const claimant = readOrUndefined(claim);
      if (claimant === undefined) return false; // cleared by a new holder: look at the lease again
      const claimantPid = holderPid(claimant);
      if (claimantPid !== undefined && alive(claimantPid)) throw new LeaseHeldError(claimantPid);
      key = `${key}\n${claimant}`; // the claimant died mid-takeover: claim its claim
    }
    return false;
  }
}
