/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) for 2026-07-28 requests. A
 * tool that supports tasks may, when the request declared the extension, hand its work to a task:
 * the call answers at once with a `CreateTaskResult` (`resultType: "task"`), the work runs on,
 * and the client polls `tasks/get`, answers mid-flight input with `tasks/update`, and may
 * `tasks/cancel`. The task is registered, and written to the ledger, before the answer goes out,
 * so a `tasks/get` right after it always finds it, and it stays readable for its `ttlMs`.
 *
 * With a ledger (src/coordination: `serve` keeps one under SEXTANT_HOME) every task is also
 * written there at each change, so any process sharing it answers `tasks/get` for it; the work
 * itself and its mid-flight input stay with the process that runs it, and a cancel reaches it
 * only if the ledger can tell it.
 *
 * Every task reaches a terminal state, here or after a restart: a server that stops fails its
 * unfinished tasks (close), and a task whose owner died without a word (kill -9) is failed by
 * whichever process next reads it. Finished tasks are forgotten once past their ttlMs, whoever
 * wrote them.
 */
import { randomUUID } from 'node:crypto';
import type { TaskEntry, TaskLedger, TaskStatus } from '../coordination/index.js';
import { InternalError, InvalidParamsError, toErrorObject, type ErrorObject, type Params, type Result } from '../jsonrpc/index.js';
import { MissingRequiredClientCapabilityError } from './errors.js';
import type { InputRequest } from './multi-round-trip.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** How long a finished task stays readable. */
const DEFAULT_TASK_TTL_MS = 10 * 60_000;
/** How often a client is asked to poll. */
const DEFAULT_POLL_INTERVAL_MS = 500;
/** Tasks one server holds at once; the oldest finished ones go first. */
const DEFAULT_MAX_TASKS = 1_000;
/** How often the task directory is looked through for the files of other (perhaps ended) processes. */
const LEDGER_SWEEP_MS = 60_000;

const TERMINAL = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

/** What the work of a task can do besides running: wait for the client's input, notice cancellation. */
export interface TaskControl {
  readonly signal: AbortSignal;
  /** Parks the task in input_required until every request is answered through tasks/update. */
  requestInput(requests: Record<string, InputRequest>): Promise<Record<string, unknown>>;
}

/** Returned by a tool that handed its work to a task. */
export class TaskStarted {
  constructor(readonly taskId: string) {}
}

/** A task as this process holds it: the ledger's fields (owner: who runs it), and the work's live parts. */
interface TaskRecord extends Omit<TaskEntry, 'result' | 'error' | 'pending'> {
  result?: Result;
  error?: ErrorObject;
  pending: Map<string, InputRequest>;
  answers: Record<string, unknown>;
  wake?: () => void;
  controller: AbortController;
  /** The ledger's copy is written up to the last change once this settles. */
  written: Promise<void>;
}

export function declaresTasks(capabilities: Params): boolean {
  const extensions = capabilities.extensions;
  return typeof extensions === 'object' && extensions !== null && typeof (extensions as Params)[TASKS_EXTENSION] === 'object';
}

export function requireTasks(capabilities: Params): void {
  if (!declaresTasks(capabilities))
    throw new MissingRequiredClientCapabilityError(
      { extensions: { [TASKS_EXTENSION]: {} } },
      `This needs the ${TASKS_EXTENSION} extension: declare it in the request's client capabilities`,
    );
}

export class TaskStore {
  readonly #tasks = new Map<string, TaskRecord>();
  /** Told of every change of a task of this process (notifications/tasks on listen streams). */
  readonly #watchers = new Set<(taskId: string) => void>();
  readonly #now: () => number;
  readonly #ledger: TaskLedger | undefined;
  /** When the ledger was last looked through (-Infinity: not yet). */
  #ledgerSweptAt = -Infinity;

  constructor(options: { now?: () => number; ledger?: TaskLedger } = {}) {
    this.#now = options.now ?? Date.now;
    this.#ledger = options.ledger;
  }

  /** Registers a task, then starts `work` on it; `finish` turns the work's outcome into the task's result. */
  start(work: (control: TaskControl) => Promise<Result>): TaskStarted {
    this.#forgetExpired();
    const now = this.#now();
    const stamp = new Date(now).toISOString();
    const task: TaskRecord = {
      taskId: randomUUID(),
      status: 'working',
      createdAt: stamp,
      lastUpdatedAt: stamp,
      ttlMs: DEFAULT_TASK_TTL_MS,
      pollIntervalMs: DEFAULT_POLL_INTERVAL_MS,
      expiresAt: now + DEFAULT_TASK_TTL_MS,
      pending: new Map(),
      answers: {},
      controller: new AbortController(),
      owner: this.#ledger?.self ?? '',
      written: Promise.resolve(),
    };
    this.#tasks.set(task.taskId, task);
    this.#persist(task);
    const control: TaskControl = {
      signal: task.controller.signal,
      requestInput: (requests) => {
        for (const [key, request] of Object.entries(requests)) task.pending.set(key, request);
        this.#set(task, 'input_required');
        return new Promise((resolve) => {
          task.wake = () => {
            if (task.pending.size > 0) return;
            task.wake = undefined;
            const answers = task.answers;
            task.answers = {};
            this.#set(task, 'working');
            resolve(answers);
          };
        });
      },
    };
    void Promise.resolve()
      .then(() => work(control))
      .then(
        (result) => {
          if (TERMINAL.has(task.status)) return;
          task.result = result;
          this.#set(task, 'completed');
        },
        (error: unknown) => {
          if (TERMINAL.has(task.status)) return;
          task.error = toErrorObject(error);
          this.#set(task, 'failed');
        },
      );
    return new TaskStarted(task.taskId);
  }

  /** The CreateTaskResult of a task just started, once the ledger holds it (any process can then answer for it). */
  async created(taskId: string): Promise<Result> {
    const task = this.#tasks.get(taskId);
    if (!task) throw new InvalidParamsError(`Invalid params: no task ${JSON.stringify(taskId)}`);
    await task.written;
    return { resultType: 'task', ...taskState(task) };
  }

  /** tasks/get: the task, with its result, error or pending input requests as its status has them. */
  async get(taskId: unknown): Promise<Result> {
    return this.#detailed(await this.#find(taskId));
  }

  /** A task this process runs, as tasks/get shows it (for notifications as it changes). */
  describe(taskId: string): Result | undefined {
    const task = this.#tasks.get(taskId);
    return task && this.#detailed(task);
  }

  /** tasks/update: answers for pending input requests (unknown keys ignored); acknowledged with nothing. */
  async update(taskId: unknown, responses: unknown): Promise<Result> {
    const task = await this.#find(taskId);
    if (!this.#tasks.has(task.taskId)) throw new InvalidParamsError(`Invalid params: task ${task.taskId} runs in another process; send its input there`);
    if (responses !== undefined && (typeof responses !== 'object' || responses === null || Array.isArray(responses))) {
      throw new InvalidParamsError('Invalid params: "inputResponses" must be an object keyed like the task\'s inputRequests');
    }
    for (const [key, answer] of Object.entries((responses ?? {}) as Params)) {
      if (!task.pending.has(key)) continue;
      task.pending.delete(key);
      task.answers[key] = answer;
    }
    task.lastUpdatedAt = new Date(this.#now()).toISOString();
    this.#persist(task);
    task.wake?.();
    return {};
  }

  /** tasks/cancel: cooperative; a finished task stays as it is. Acknowledged with nothing. */
  async cancel(taskId: unknown): Promise<Result> {
    const task = await this.#find(taskId);
    if (TERMINAL.has(task.status)) return {};
    if (this.#tasks.has(task.taskId)) {
      this.#set(task, 'cancelled');
      task.controller.abort(new Error('The task was cancelled'));
    } else {
      // Another process runs it: cancelled if the ledger can tell that process, else only acknowledged.
      await this.#ledger?.requestCancel(task.taskId);
    }
    return {};
  }

  /**
   * The server stops: every unfinished task of this process fails with `reason` (its work is
   * told to stop too), so no client polls a task that nobody runs. Settles once the ledger has it.
   */
  async close(reason = 'The server stopped before the task finished'): Promise<void> {
    for (const task of this.#tasks.values()) {
      if (TERMINAL.has(task.status)) continue;
      task.error = toErrorObject(new InternalError(reason));
      this.#set(task, 'failed');
      task.controller.abort(new Error(reason));
    }
    await Promise.all([...this.#tasks.values()].map((task) => task.written));
  }

  /** Whether this process runs the task (only its owner sees it change). */
  owns(taskId: string): boolean {
    return this.#tasks.has(taskId);
  }

  /** Calls `watcher` with a task's id whenever one of this process changes; returns how to stop. */
  watch(watcher: (taskId: string) => void): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  #detailed(task: TaskRecord): Result {
    const detailed: Result = taskState(task);
    if (task.status === 'input_required') detailed.inputRequests = Object.fromEntries(task.pending);
    if (task.status === 'completed' && task.result) detailed.result = task.result;
    if (task.status === 'failed' && task.error) detailed.error = task.error;
    return detailed;
  }

  #set(task: TaskRecord, status: TaskStatus): void {
    const now = this.#now();
    task.status = status;
    task.lastUpdatedAt = new Date(now).toISOString();
    // Readable for its whole ttlMs from its last change.
    task.expiresAt = now + task.ttlMs;
    this.#persist(task);
    for (const watcher of this.#watchers) watcher(task.taskId);
  }

  /** Queued behind the task's previous write: the ledger sees its changes in order. */
  #persist(task: TaskRecord): void {
    const ledger = this.#ledger;
    if (!ledger) return;
    const entry = entryOf(task);
    task.written = task.written.then(() => ledger.put(entry)).catch(() => undefined);
  }

  /** A task of another process, from the ledger: read-only here; failed (there too) if its owner is gone unfinished. */
  async #load(taskId: string): Promise<TaskRecord | undefined> {
    const entry = await this.#ledger?.get(taskId);
    if (!entry) return undefined;
    if (entry.expiresAt < this.#now() && TERMINAL.has(entry.status)) return undefined;
    return this.#settleOrphan(entry);
  }

  async #settleOrphan(entry: TaskEntry): Promise<TaskRecord> {
    const { pending, result, error, ...rest } = entry;
    const task: TaskRecord = {
      ...rest,
      ...(result ? { result: result as Result } : {}),
      ...(error ? { error: error as unknown as ErrorObject } : {}),
      pending: new Map(pending as Array<[string, InputRequest]>),
      answers: {},
      controller: new AbortController(),
      written: Promise.resolve(),
    };
    if (!TERMINAL.has(task.status) && !(await this.#ledger!.ownerAlive(entry.owner))) {
      task.error = toErrorObject(new InternalError(`The process running this task (${ownerName(entry.owner)}) stopped before it finished`));
      task.pending.clear();
      const now = this.#now();
      task.status = 'failed';
      task.lastUpdatedAt = new Date(now).toISOString();
      task.expiresAt = now + task.ttlMs;
      await this.#ledger!.put(entryOf(task));
    }
    return task;
  }

  /**
   * The ledger's tasks of other processes, at most once a LEDGER_SWEEP_MS: finished ones past
   * their ttlMs forgotten, unfinished ones of owners that are gone failed (then forgotten in turn).
   */
  async #sweepLedger(): Promise<void> {
    const now = this.#now();
    if (!this.#ledger || now - this.#ledgerSweptAt < LEDGER_SWEEP_MS) return;
    this.#ledgerSweptAt = now;
    for (const entry of await this.#ledger.list()) {
      if (this.#tasks.has(entry.taskId)) continue;
      if (!TERMINAL.has(entry.status)) await this.#settleOrphan(entry);
      else if (entry.expiresAt < now) await this.#ledger.remove(entry.taskId);
    }
  }

  async #find(taskId: unknown): Promise<TaskRecord> {
    this.#forgetExpired();
    await this.#sweepLedger();
    const task = typeof taskId === 'string' ? (this.#tasks.get(taskId) ?? (await this.#load(taskId))) : undefined;
    if (!task) throw new InvalidParamsError(`Invalid params: no task ${JSON.stringify(taskId)} (unknown, or past its ttlMs)`);
    return task;
  }

  /** This process's finished tasks past their ttlMs; past the cap, the oldest finished go first. */
  #forgetExpired(): void {
    const now = this.#now();
    for (const [id, task] of this.#tasks) {
      if (!TERMINAL.has(task.status) || task.expiresAt >= now) continue;
      this.#forget(id);
    }
    for (const [id, task] of this.#tasks) {
      if (this.#tasks.size <= DEFAULT_MAX_TASKS) break;
      if (TERMINAL.has(task.status)) this.#forget(id);
    }
  }

  #forget(taskId: string): void {
    const task = this.#tasks.get(taskId);
    this.#tasks.delete(taskId);
    const ledger = this.#ledger;
    if (ledger && task) void task.written.then(() => ledger.remove(taskId)).catch(() => undefined);
  }
}

/** The fields of a task that the protocol's envelope and the ledger both carry. */
function taskState(task: TaskRecord): Pick<TaskEntry, 'taskId' | 'status' | 'createdAt' | 'lastUpdatedAt' | 'ttlMs' | 'pollIntervalMs'> {
  return {
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
}

/** What the ledger keeps of a task. */
function entryOf(task: TaskRecord): TaskEntry {
  return {
    ...taskState(task),
    expiresAt: task.expiresAt,
    pending: [...task.pending],
    owner: task.owner,
    ...(task.result ? { result: task.result } : {}),
    ...(task.error ? { error: task.error as unknown as Record<string, unknown> } : {}),
  };
}

/** An owner as a person reads it: a pid of this machine, or a replica. */
function ownerName(owner: string): string {
  return /^\d+$/.test(owner) ? `pid ${owner}` : owner;
}
