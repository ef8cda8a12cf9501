/**
 * Where tasks (the MCP tasks extension) are kept so that any process sharing a home (or a team's
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
