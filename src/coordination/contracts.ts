/**
 * The contracts of the seam beyond keys and tasks, in the shape a shared implementation needs, so
 * that the next one is written against them: leases, index generations and the project catalog.
 * Their file implementations are file-leases.ts, file-generations.ts and file-catalog.ts; what
 * they refuse is in errors.ts, and every implementation throws the same errors.
 */

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
   * Calls `listener` with each newer generation of `project` once it is committed (by any handle,
   * this one too), skipping none but the ones overtaken before it looked; returns how to stop.
   */
  watch(project: string, listener: (generation: Generation) => void): () => void;
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
