/**
 * The contracts of the seam beyond keys and tasks, in the shape a shared implementation needs, so
 * that the next one is written against them: leases (implemented on files by file-leases.ts),
 * and index generations and a project catalog, whose first implementation is still the index
 * store's own manifest and folders (src/index/store).
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
 * @public for the team server (issue 27)
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
  /** Publishes `next` if the current one is still `expected` (compare and swap), under a valid lease. */
  commit(lease: Lease, expected: Generation | undefined, next: Omit<Generation, 'number'>): Promise<Generation>;
  /** Calls `listener` when another process commits a generation of `project`; returns how to stop. */
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
  /** Refused when the name is taken: nothing is half-registered. */
  add(project: CatalogProject): Promise<void>;
  remove(name: string): Promise<boolean>;
}
