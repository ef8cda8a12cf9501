/**
 * Where tasks (the MCP tasks extension) are kept so that any process sharing a home can answer
 * for them. The process that runs a task writes it at every change; any process reads it. A
 * task whose owner is gone unfinished is failed by whoever reads it next.
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
}

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
   * Asks the owner of a task to cancel it; true when the owner will be told. Processes on files
   * have no way to tell one another: false, and the cancel is only acknowledged.
   */
  requestCancel(taskId: string): Promise<boolean>;
  /**
   * Calls `listener` with each task id another process asks this one to cancel; resolves, once
   * requests are heard, with how to stop.
   */
  onCancelRequest(listener: (taskId: string) => void): Promise<() => void>;
}
