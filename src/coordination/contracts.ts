/**
 * The contracts of the seam beyond keys and tasks, in the shape a shared implementation needs, so
 * that the next one is written against them: leases, index generations and the project catalog.
 * Their file implementations are file-leases.ts, file-generations.ts and file-catalog.ts, and
 * their PostgreSQL ones are in pg/; what they refuse is in refusals.ts, the same for each. Last,
 * `Coordination`: the whole seam, as one process holds it.
 */
import type { StateKeys } from './state-keys.js';
import type { TaskLedger } from './task-ledger.js';

/**
 * The right to be the one writer of something (a project's index; the controller of a team).
 * @public for the team server (issue 27)
 */
export interface Lease {
  readonly name: string;
  readonly holder: string;
  /**
   * Grows at every grant of this lease. A writer passes it with each write, and a write with an
   * older token than the latest grant is refused: a holder that was paused and lost the lease
   * cannot write over its successor (fencing).
   */
  readonly token: number;
}

/** @public for the team server (issue 27) */
export interface Leases {
  /** The lease, or undefined while another live holder has it. */
  acquire(name: string, holder: string): Promise<Lease | undefined>;
  /** Whether `lease` is still the latest grant (its token current, its holder alive). */
  valid(lease: Lease): Promise<boolean>;
  release(lease: Lease): Promise<void>;
}

/**
 * A project's index at one moment: what a reader opens, what a writer replaces.
 */
export interface Generation {
  /** The project's catalog name, lower-cased (names are unique regardless of case). */
  readonly project: string;
  /** Grows at every commit. */
  readonly number: number;
  /** What the generation was built from: a commit id for a git project, else undefined. */
  readonly source?: string;
  readonly committedAt: string;
}

/** @public for the team server (issue 27) */
export interface Generations {
  current(project: string): Promise<Generation | undefined>;
  /**
   * Publishes `next` as the generation after `expected` if that is still the current one (compare
   * and swap), under a valid lease: GenerationConflictError when another writer committed first,
   * LeaseLostError when the lease is not the latest grant.
   */
  commit(lease: Lease, expected: Generation | undefined, next: Omit<Generation, 'number'>): Promise<Generation>;
  /**
   * Calls `listener` with the current generation of `project` whenever it is newer than the last
   * one heard, starting from number `after` (what the caller already has; 0 for nothing): one
   * already newer is heard at once, and each commit after, by any handle, once it is committed.
   * Generations overtaken before it looked are skipped. Returns how to stop.
   */
  watch(project: string, after: number, listener: (generation: Generation) => void): () => void;
  /** Asks whoever publishes generations (the controller) to look at `project` now, not at its next poll. */
  requestRefresh(project: string): Promise<void>;
  /** Calls `listener` with each project a refresh is asked for; resolves, once requests are heard, with how to stop. */
  onRefreshRequest(listener: (project: string) => void): Promise<() => void>;
}

/**
 * A project a home (or a team) knows by name.
 * @public for the team server (issue 27)
 */
export interface CatalogProject {
  readonly name: string;
  /** A local folder, or a git remote. */
  readonly location: { folder: string } | { git: string; ref: string };
}

/** @public for the team server (issue 27) */
export interface ProjectCatalog {
  list(): Promise<CatalogProject[]>;
  get(name: string): Promise<CatalogProject | undefined>;
  /** Refused (ProjectExistsError) when the name is taken, regardless of case: nothing is half-registered. */
  add(project: CatalogProject): Promise<void>;
  remove(name: string): Promise<boolean>;
}

export interface Coordination {
  /** Where it lives, for logs and /health: `files HOME`, or `postgres URL` (its password hidden). */
  readonly describe: string;
  /** Who this process is to the others: its pid on files, a replica id with a database. */
  readonly replica: string;
  /**
   * What is wrong with the shared state right now, in one line (the database does not answer),
   * as last seen by the replica's heartbeat; undefined while all is well, and always on files.
   */
  readonly problem: string | undefined;
  readonly keys: StateKeys;
  readonly tasks: TaskLedger;
  readonly leases: Leases;
  readonly generations: Generations;
  readonly catalog: ProjectCatalog;
  /** Lets go of what this process holds (leases, connections). */
  close(): Promise<void>;
}

export interface CoordinationOptions {
  /** SEXTANT_STATE_KEY and the like: read here, not from process.env, so that tests pass their own. */
  env?: NodeJS.ProcessEnv;
  /** PostgreSQL instead of files (--database-url, SEXTANT_DATABASE_URL). */
  databaseUrl?: string;
  /** With a database: how long a lease outlives its holder's last heartbeat. */
  leaseTtlMs?: number;
}
