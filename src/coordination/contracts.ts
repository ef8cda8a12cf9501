/**
 * The contracts of the seam, in the shape a shared implementation needs, so that the next one is
 * written against them: the keys that seal request state, leases, index generations, the
 * project catalog and the task ledger. Their file implementations are in files/, their
 * PostgreSQL ones in pg/ (the key ring both hand out is state-keys.ts); what they refuse is in refusals.ts, the same for
 * each. Last, `Coordination`: the whole seam, as one process holds it.
 */
/** A key that seals multi round-trip request state. */
export interface StateKey {
  /** Short, public, stable for the same secret. */
  readonly id: string;
  readonly secret: Buffer;
}

/** The keys a process seals and opens with: the current one, and those it still accepts. */
export interface StateKeyRing {
  readonly current: StateKey;
  /** The key a state names; a state from before key ids names none and was sealed with the current key. */
  find(id: string | undefined): StateKey | undefined;
}

/** The keys of request state, shared by the processes of a home or a team. */
export interface StateKeys {
  /** The keys to seal and open with now. */
  ring(): Promise<StateKeyRing>;
  /** Makes a new key the current one; the previous one still opens states for KEY_ACCEPTED_MS (state-keys.ts). */
  rotate(): Promise<StateKey>;
}

/**
 * The right to be the one writer of something (a project's index; the controller of a team).
 * @public for the team server
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

/** @public for the team server */
export interface Leases {
  /** The lease, or undefined while another live holder has it. */
  acquire(name: string, holder: string): Promise<Lease | undefined>;
  /** Whether `lease` is still the latest grant (its token current, its holder alive). */
  valid(lease: Lease): Promise<boolean>;
  release(lease: Lease): Promise<void>;
  /** Who holds the lease now (a live holder's name), if anyone: for the status page. */
  holder(name: string): Promise<string | undefined>;
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

/** @public for the team server */
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
 * @public for the team server
 */
export interface CatalogProject {
  readonly name: string;
  /** A local folder, or a git remote. */
  readonly location: { folder: string } | { git: string; ref: string };
  /**
   * Who may see it once identities are configured (`user:SUB`, `group:NAME`, `token:NAME`,
   * `everyone`), sorted; admins see every project. Read back always, empty when nobody is named.
   */
  readonly allowed?: readonly string[];
}

/** @public for the team server */
export interface ProjectCatalog {
  list(): Promise<CatalogProject[]>;
  get(name: string): Promise<CatalogProject | undefined>;
  /** Refused (ProjectExistsError) when the name is taken, regardless of case: nothing is half-registered. */
  add(project: CatalogProject): Promise<void>;
  remove(name: string): Promise<boolean>;
  /** Lets `who` see the project; false when there is no such project. Allowing twice is allowing once. */
  allow(name: string, who: string): Promise<boolean>;
  /** Takes `who` off the project's list; false when there is no such project. */
  disallow(name: string, who: string): Promise<boolean>;
}

/** A named credential for the HTTP server. Only a digest of its secret is kept. */
export interface NamedToken {
  readonly name: string;
  /** May see every project, and do what only an operator may (`/hooks/refresh`). */
  readonly admin: boolean;
  readonly createdAt: string;
  /** When a request last carried it, to the minute; absent if never. */
  readonly lastUsedAt?: string;
}

/** The named credentials of a home or a team. */
export interface TokenStore {
  /** `digest`: SHA-256 of the secret, hex. Refused (TokenExistsError) when the name is taken, regardless of case. */
  create(token: { name: string; admin: boolean; digest: string }): Promise<NamedToken>;
  list(): Promise<NamedToken[]>;
  /** The token whose secret has this digest, if it exists (revoked ones do not). */
  find(digest: string): Promise<NamedToken | undefined>;
  /** Ends the token; false when there is none of that name. */
  revoke(name: string): Promise<boolean>;
  /** Records that a request carried it now (best effort: coarse, may be lost). */
  used(name: string): Promise<void>;
  /**
   * Whether a token was ever created here. Identities stay configured once they were, so that
   * revoking the last token closes the server to everyone rather than opening it.
   */
  configured(): Promise<boolean>;
}

/** A process of a team (or of a home, on files) as the others see it. */
export interface ReplicaEntry {
  /** Coordination.replica of that process. */
  readonly id: string;
  readonly startedAt: string;
  /** When it last said it was alive. */
  readonly seenAt: string;
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
  readonly tokens: TokenStore;
  /** The processes alive now (on files, this one alone: the others of the home are not known to it). */
  replicas(): Promise<ReplicaEntry[]>;
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

/**
 * The task ledger: where tasks (the MCP tasks extension) are kept so that any process sharing a home (or a team's
 * database) can answer for them. The process that runs a task writes it at every change; any
 * process reads it, and hears when it changes. What only the owner can do (stop the work, hand it
 * the client's input) is sent to the owner as a message. A task whose owner is gone unfinished is
 * failed by whoever reads it next.
 */

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as kept: its state, without the work's live parts. Results and errors are JSON. */
export interface TaskEntry {
  taskId: string;
  status: TaskStatus;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  /** Epoch ms after which a finished task may be forgotten. */
  expiresAt: number;
  result?: Record<string, unknown>;
  error?: Record<string, unknown>;
  /** Input requests the task waits on, by key. */
  pending: Array<[string, unknown]>;
  /** Who runs it: a process of this machine (its pid), or, with a database, a replica. */
  owner: string;
  /** Who may see it: a digest of the credentials of the request that created it, when it had any. */
  principal?: string;
}

/** What a process asks of the owner of a task it does not run. */
export type TaskMessage = { taskId: string; cancel: true } | { taskId: string; inputResponses: Record<string, unknown> };

export interface TaskLedger {
  /** Writes the entry whole: a reader sees the previous state or this one. */
  put(entry: TaskEntry): Promise<void>;
  get(taskId: string): Promise<TaskEntry | undefined>;
  /** Every entry (for the sweep that forgets the expired and fails the orphaned). */
  list(): Promise<TaskEntry[]>;
  remove(taskId: string): Promise<void>;
  /** The owner string of this process. */
  readonly self: string;
  /** Whether an owner still runs its tasks (here: its process is alive). */
  ownerAlive(owner: string): Promise<boolean>;
  /**
   * Leaves `message` for the owner of its task, which hears it even if it was briefly away (the
   * message waits for it); false when the task is unknown or its owner is gone.
   */
  send(message: TaskMessage): Promise<boolean>;
  /** Calls `listener` with each message for this process's tasks; resolves, once they are heard, with how to stop. */
  onMessage(listener: (message: TaskMessage) => void): Promise<() => void>;
  /** Calls `listener` with the id of each task written by any process; resolves, once changes are heard, with how to stop. */
  onChange(listener: (taskId: string) => void): Promise<() => void>;
}
