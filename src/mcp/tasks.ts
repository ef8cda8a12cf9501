/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) for 2026-07-28 requests. A
 * tool that supports tasks may, when the request declared the extension, hand its work to a task:
 * the call answers at once with a `CreateTaskResult` (`resultType: "task"`), the work runs on,
 * and the client polls `tasks/get`, answers mid-flight input with `tasks/update`, and may
 * `tasks/cancel`. The task is registered before the answer goes out, so a `tasks/get` right after
 * it always finds it, and it stays readable for its `ttlMs`.
 *
 * With a directory (`serve` uses `tasks/` under SEXTANT_HOME) every task is also written there at
 * each change, so any process sharing the home answers `tasks/get` for it; the work itself, its
 * mid-flight input and its cancellation stay with the process that runs it.
 *
 * Every task reaches a terminal state, here or after a restart: a server that stops fails its
 * unfinished tasks (close), and a task whose process died without a word (kill -9) is failed by
 * whichever process next reads it. Files of finished tasks are removed once past their ttlMs,
 * whoever wrote them.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from '../process-alive.js';
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
const DIRECTORY_SWEEP_MS = 60_000;

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
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

interface TaskRecord {
  taskId: string;
  status: TaskStatus;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  expiresAt: number;
  result?: Result;
  error?: ErrorObject;
  pending: Map<string, InputRequest>;
  answers: Record<string, unknown>;
  wake?: () => void;
  controller: AbortController;
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

/** What a task looks like on disk: its state, without the work's live parts. */
type TaskFile = Pick<TaskRecord, 'taskId' | 'status' | 'createdAt' | 'lastUpdatedAt' | 'ttlMs' | 'pollIntervalMs' | 'expiresAt' | 'result' | 'error'> & {
  pending: Array<[string, InputRequest]>;
  /** The process that runs it: a task unfinished when its process is gone never will be. */
  ownerPid?: number;
};

const TASK_ID = /^[0-9a-f-]{36}$/;
const TASK_FILE = /^([0-9a-f-]{36})\.json$/;
const TEMP_FILE = /^[0-9a-f-]{36}\.json\.tmp-(\d+)$/;

export class TaskStore {
  readonly #tasks = new Map<string, TaskRecord>();
  /** Told of every change of a task of this process (notifications/tasks on listen streams). */
  readonly #watchers = new Set<(taskId: string) => void>();
  readonly #now: () => number;
  readonly #dir: string | undefined;
  /** When the directory was last looked through (-Infinity: not yet). */
  #directorySweptAt = -Infinity;

  constructor(options: { now?: () => number; dir?: string } = {}) {
    this.#now = options.now ?? Date.now;
    this.#dir = options.dir;
  }

  /** Registers a task, then starts `work` on it; `finish` turns the work's outcome into the task's result. */
  start(work: (control: TaskControl) => Promise<Result>): TaskStarted {
    this.#sweep();
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

  /** The CreateTaskResult of a task just started. */
  created(taskId: string): Result {
    const task = this.#find(taskId);
    return { resultType: 'task', ...this.#envelope(task) };
  }

  /** tasks/get: the task, with its result, error or pending input requests as its status has them. */
  get(taskId: unknown): Result {
    const task = this.#find(taskId);
    const detailed: Result = this.#envelope(task);
    if (task.status === 'input_required') detailed.inputRequests = Object.fromEntries(task.pending);
    if (task.status === 'completed' && task.result) detailed.result = task.result;
    if (task.status === 'failed' && task.error) detailed.error = task.error;
    return detailed;
  }

  /** tasks/update: answers for pending input requests (unknown keys ignored); acknowledged with nothing. */
  update(taskId: unknown, responses: unknown): Result {
    const task = this.#find(taskId);
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
  cancel(taskId: unknown): Result {
    const task = this.#find(taskId);
    // Cooperative: a task another process runs is acknowledged, and left to that process.
    if (!TERMINAL.has(task.status) && this.#tasks.has(task.taskId)) {
      this.#set(task, 'cancelled');
      task.controller.abort(new Error('The task was cancelled'));
    }
    return {};
  }

  /**
   * The server stops: every unfinished task of this process fails with `reason` (its work is
   * told to stop too), so no client polls a task that nobody runs.
   */
  close(reason = 'The server stopped before the task finished'): void {
    for (const task of this.#tasks.values()) {
      if (TERMINAL.has(task.status)) continue;
      task.error = toErrorObject(new InternalError(reason));
      this.#set(task, 'failed');
      task.controller.abort(new Error(reason));
    }
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

  #envelope(task: TaskRecord): Result {
    return {
      taskId: task.taskId,
      status: task.status,
      createdAt: task.createdAt,
      lastUpdatedAt: task.lastUpdatedAt,
      ttlMs: task.ttlMs,
      pollIntervalMs: task.pollIntervalMs,
    };
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

  /** Written whole (temp file, rename): a reader in another process sees the old state or the new. */
  #persist(task: TaskRecord): void {
    this.#write(task, process.pid);
  }

  #write(task: TaskRecord, ownerPid: number): void {
    if (!this.#dir) return;
    const file: TaskFile = {
      taskId: task.taskId,
      status: task.status,
      createdAt: task.createdAt,
      lastUpdatedAt: task.lastUpdatedAt,
      ttlMs: task.ttlMs,
      pollIntervalMs: task.pollIntervalMs,
      expiresAt: task.expiresAt,
      pending: [...task.pending],
      ownerPid,
      ...(task.result ? { result: task.result } : {}),
      ...(task.error ? { error: task.error } : {}),
    };
    try {
      mkdirSync(this.#dir, { recursive: true });
      const path = join(this.#dir, `${task.taskId}.json`);
      writeFileSync(`${path}.tmp-${process.pid}`, JSON.stringify(file));
      renameSync(`${path}.tmp-${process.pid}`, path);
    } catch {
      // A task another process cannot see is still served here.
    }
  }

  /** A task of another process sharing the directory: read-only here. */
  #load(taskId: string): TaskRecord | undefined {
    if (!this.#dir || !TASK_ID.test(taskId)) return undefined;
    let file: TaskFile;
    try {
      file = JSON.parse(readFileSync(join(this.#dir, `${taskId}.json`), 'utf8')) as TaskFile;
    } catch {
      return undefined;
    }
    if (file.expiresAt < this.#now() && TERMINAL.has(file.status)) return undefined;
    return this.#settleOrphan(file);
  }

  /** A task from another process's file; failed here (and on disk) if that process is gone unfinished. */
  #settleOrphan(file: TaskFile): TaskRecord {
    const { pending, ownerPid, ...rest } = file;
    const task: TaskRecord = { ...rest, pending: new Map(pending), answers: {}, controller: new AbortController() };
    // This pid running it would have it in memory: the pid is a new process's, the owner is gone.
    const orphaned = ownerPid !== undefined && (ownerPid === process.pid || !processAlive(ownerPid));
    if (!TERMINAL.has(task.status) && orphaned) {
      task.error = toErrorObject(new InternalError(`The process running this task (pid ${ownerPid}) stopped before it finished`));
      task.pending.clear();
      const now = this.#now();
      task.status = 'failed';
      task.lastUpdatedAt = new Date(now).toISOString();
      task.expiresAt = now + task.ttlMs;
      this.#write(task, ownerPid);
    }
    return task;
  }

  /**
   * The files of other processes: finished ones past their ttlMs removed, unfinished ones of
   * processes that are gone failed (then removed in turn), temporary files of the gone removed.
   */
  #sweepDirectory(): void {
    const now = this.#now();
    if (!this.#dir || now - this.#directorySweptAt < DIRECTORY_SWEEP_MS) return;
    this.#directorySweptAt = now;
    let names: string[];
    try {
      names = readdirSync(this.#dir);
    } catch {
      return;
    }
    for (const name of names) {
      const temp = TEMP_FILE.exec(name);
      if (temp) {
        if (!processAlive(Number(temp[1]))) rmSync(join(this.#dir, name), { force: true });
        continue;
      }
      const id = TASK_FILE.exec(name)?.[1];
      if (!id || this.#tasks.has(id)) continue;
      let file: TaskFile;
      try {
        file = JSON.parse(readFileSync(join(this.#dir, name), 'utf8')) as TaskFile;
      } catch {
        continue; // being written, or not ours to judge
      }
      if (!TERMINAL.has(file.status)) this.#settleOrphan(file);
      else if (file.expiresAt < now) rmSync(join(this.#dir, name), { force: true });
    }
  }

  #find(taskId: unknown): TaskRecord {
    this.#sweep();
    const task = typeof taskId === 'string' ? (this.#tasks.get(taskId) ?? this.#load(taskId)) : undefined;
    if (!task) throw new InvalidParamsError(`Invalid params: no task ${JSON.stringify(taskId)} (unknown, or past its ttlMs)`);
    return task;
  }

  #sweep(): void {
    this.#sweepDirectory();
    const now = this.#now();
    for (const [id, task] of this.#tasks) {
      if (!TERMINAL.has(task.status) || task.expiresAt >= now) continue;
      this.#tasks.delete(id);
      if (this.#dir) rmSync(join(this.#dir, `${id}.json`), { force: true });
    }
    // Bounded: past the cap, the oldest finished tasks go first.
    for (const [id, task] of this.#tasks) {
      if (this.#tasks.size <= DEFAULT_MAX_TASKS) break;
      if (!TERMINAL.has(task.status)) continue;
      this.#tasks.delete(id);
      if (this.#dir) rmSync(join(this.#dir, `${id}.json`), { force: true });
    }
  }
}
