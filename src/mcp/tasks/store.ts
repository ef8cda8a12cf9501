/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) for 2026-07-28 requests. A
 * tool that supports tasks may, when the request declared the extension, hand its work to a task:
 * the call answers at once with a `CreateTaskResult` (`resultType: "task"`), the work runs on,
 * and the client polls `tasks/get`, answers mid-flight input with `tasks/update`, and may
 * `tasks/cancel`. The task is registered, and written to the ledger, before the answer goes out,
 * so a `tasks/get` right after it always finds it, and it stays readable for its `ttlMs`.
 *
 * With a ledger (src/coordination: files under SEXTANT_HOME, or a team's database) every task is
 * also written there at each change, so any process sharing it answers `tasks/get` for it, and a
 * listen stream anywhere hears it change. The work stays with the process that runs it: a cancel
 * or an answer sent to another process reaches it as a message through the ledger. The first
 * write must succeed before the CreateTaskResult goes out; if the ledger cannot be reached, the
 * call fails with TasksUnavailableError instead of handing out a task nobody else can find.
 *
 * A task belongs to the principal that created it (a digest of the request's credentials): to
 * any other, it does not exist.
 *
 * Every task reaches a terminal state, here or after a restart: a server that stops fails its
 * unfinished tasks (close), and a task whose owner died without a word (kill -9) is failed by
 * whichever process next reads it. Finished tasks are forgotten once past their ttlMs, whoever
 * wrote them.
 */
import { randomUUID } from 'node:crypto';
import type { TaskLedger, TaskMessage, TaskStatus } from '../../coordination/index.js';
import { InternalError, InvalidParamsError, toErrorObject, type Result } from '../../jsonrpc/index.js';
import { TasksUnavailableError } from '../errors.js';
import { TaskStarted, type TaskControl } from './extension.js';
import { ledgerWork } from './ledger-work.js';
import { detailed, entryOf, ownerName, recordOf, taskState, type TaskRecord } from './record.js';

/** How long a finished task stays readable. */
const DEFAULT_TASK_TTL_MS = 10 * 60_000;
/** How often a client is asked to poll. */
const DEFAULT_POLL_INTERVAL_MS = 500;
/** Tasks one server holds at once; the oldest finished ones go first. */
const DEFAULT_MAX_TASKS = 1_000;
/** How often the task directory is looked through for the files of other (perhaps ended) processes. */
const LEDGER_SWEEP_MS = 60_000;

const TERMINAL = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

export class TaskStore {
  readonly #tasks = new Map<string, TaskRecord>();
  /** Told of every change of a task of this process (listen streams). */
  readonly #watchers = new Set<(taskId: string) => void>();
  /** Told of tasks other processes wrote, while any listen stream follows one. */
  readonly #remoteWatchers = new Set<(taskId: string) => void>();
  #stopRemote: Promise<(() => void) | undefined> | undefined;
  readonly #now: () => number;
  readonly #ledger: TaskLedger | undefined;
  /** Messages for this process's tasks (cancels, answers) sent by others; undefined until heard, or after a failed try. */
  #hearing: Promise<(() => void) | undefined> | undefined;
  /** When the ledger was last looked through (-Infinity: not yet). */
  #ledgerSweptAt = -Infinity;

  constructor(options: { now?: () => number; ledger?: TaskLedger } = {}) {
    this.#now = options.now ?? Date.now;
    this.#ledger = options.ledger;
  }

  /** Registers a task for `principal`, then starts `work` on it. */
  start(work: (control: TaskControl) => Promise<Result>, principal?: string): TaskStarted {
    this.#forgetExpired();
    this.#hear();
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
      ...(principal !== undefined && { principal }),
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

  /**
   * The CreateTaskResult of a task just started, once the ledger holds it (any process can then
   * answer for it). A ledger that cannot take it fails the call, and the work is stopped.
   */
  async created(taskId: string): Promise<Result> {
    const task = this.#tasks.get(taskId);
    if (!task) throw new InvalidParamsError(`Invalid params: no task ${JSON.stringify(taskId)}`);
    await ledgerWork(
      () => task.written,
      () => {
        this.#tasks.delete(taskId);
        task.controller.abort(new Error('The task could not be recorded'));
      },
    );
    return { resultType: 'task', ...taskState(task) };
  }

  /** tasks/get: the task, with its result, error or pending input requests as its status has them. */
  async get(taskId: unknown, principal?: string): Promise<Result> {
    return detailed(await this.#find(taskId, principal));
  }

  /** tasks/update: answers for pending input requests (unknown keys ignored); acknowledged with nothing. */
  async update(taskId: unknown, responses: unknown, principal?: string): Promise<Result> {
    const task = await this.#find(taskId, principal);
    if (responses !== undefined && (typeof responses !== 'object' || responses === null || Array.isArray(responses))) {
      throw new InvalidParamsError('Invalid params: "inputResponses" must be an object keyed like the task\'s inputRequests');
    }
    const answers = (responses ?? {}) as Record<string, unknown>;
    if (this.#tasks.has(task.taskId)) this.#answer(task, answers);
    else if (!TERMINAL.has(task.status)) await this.#send({ taskId: task.taskId, inputResponses: answers });
    return {};
  }

  /** tasks/cancel: cooperative; a finished task stays as it is. Acknowledged with nothing. */
  async cancel(taskId: unknown, principal?: string): Promise<Result> {
    const task = await this.#find(taskId, principal);
    if (TERMINAL.has(task.status)) return {};
    if (this.#tasks.has(task.taskId)) this.#cancel(task);
    else await this.#send({ taskId: task.taskId, cancel: true });
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
    await Promise.all([...this.#tasks.values()].map((task) => task.written.catch(() => undefined)));
    (await this.#hearing)?.();
    (await this.#stopRemote)?.();
  }

  /**
   * Follows tasks for a listen stream: those of `taskIds` that `principal` can see (here or in
   * the ledger) are honored, and `listener` gets each as tasks/get shows it whenever it changes,
   * whichever process changed it.
   */
  async follow(taskIds: readonly string[], principal: string | undefined, listener: (task: Result) => void): Promise<{ honored: string[]; stop: () => void }> {
    const honored: string[] = [];
    for (const taskId of taskIds) {
      const visible = await this.#find(taskId, principal).then(
        () => true,
        (error: unknown) => {
          if (error instanceof TasksUnavailableError) throw error;
          return false;
        },
      );
      if (visible) honored.push(taskId);
    }
    const followed = new Set(honored);
    if (followed.size === 0) return { honored, stop: () => {} };
    const local = (taskId: string): void => {
      const task = this.#tasks.get(taskId);
      if (task && followed.has(taskId)) listener(detailed(task));
    };
    const remote = (taskId: string): void => {
      if (!followed.has(taskId) || this.#tasks.has(taskId)) return;
      void this.#ledger
        ?.get(taskId)
        .then((entry) => entry && listener(detailed(recordOf(entry))))
        .catch(() => undefined);
    };
    this.#watchers.add(local);
    const remoteFollowed = honored.some((taskId) => !this.#tasks.has(taskId));
    if (remoteFollowed) await this.#watchRemote(remote);
    return {
      honored,
      stop: () => {
        this.#watchers.delete(local);
        if (remoteFollowed) this.#unwatchRemote(remote);
      },
    };
  }

  /**
   * Messages from other processes for tasks this one runs: listened for while it runs any (an
   * idle server listens for nothing), tried again at the next task if the ledger was away. A
   * message sent meanwhile waits in the ledger and is taken when listening starts.
   */
  #hear(): void {
    const ledger = this.#ledger;
    if (!ledger || this.#hearing) return;
    this.#hearing = ledger
      .onMessage((message) => this.#heard(message))
      .catch(() => {
        this.#hearing = undefined;
        return undefined;
      });
  }

  /** Stops listening once every task of this process has ended. */
  #quietIfIdle(): void {
    const hearing = this.#hearing;
    if (!hearing || [...this.#tasks.values()].some((task) => !TERMINAL.has(task.status))) return;
    this.#hearing = undefined;
    void hearing.then((stop) => stop?.());
  }

  #heard(message: TaskMessage): void {
    const task = this.#tasks.get(message.taskId);
    if (!task || TERMINAL.has(task.status)) return;
    if ('cancel' in message) this.#cancel(task);
    else this.#answer(task, message.inputResponses);
  }

  async #send(message: TaskMessage): Promise<void> {
    await ledgerWork(async () => this.#ledger?.send(message));
  }

  #cancel(task: TaskRecord): void {
    this.#set(task, 'cancelled');
    task.controller.abort(new Error('The task was cancelled'));
  }

  #answer(task: TaskRecord, answers: Record<string, unknown>): void {
    for (const [key, answer] of Object.entries(answers)) {
      if (!task.pending.has(key)) continue;
      task.pending.delete(key);
      task.answers[key] = answer;
    }
    task.lastUpdatedAt = new Date(this.#now()).toISOString();
    this.#persist(task);
    task.wake?.();
  }

  async #watchRemote(watcher: (taskId: string) => void): Promise<void> {
    this.#remoteWatchers.add(watcher);
    this.#stopRemote ??= ledgerWork(
      () =>
        this.#ledger!.onChange((taskId) => {
          for (const remote of this.#remoteWatchers) remote(taskId);
        }),
      () => {
        this.#stopRemote = undefined;
        this.#remoteWatchers.delete(watcher);
      },
    );
    await this.#stopRemote;
  }

  #unwatchRemote(watcher: (taskId: string) => void): void {
    this.#remoteWatchers.delete(watcher);
    if (this.#remoteWatchers.size > 0 || !this.#stopRemote) return;
    const stopping = this.#stopRemote;
    this.#stopRemote = undefined;
    void stopping.then(
      (stop) => stop?.(),
      () => undefined,
    );
  }

  /** A task of this process moves to `status`: written to the ledger, and its watchers told. */
  #set(task: TaskRecord, status: TaskStatus): void {
    this.#stamp(task, status);
    this.#persist(task);
    for (const watcher of this.#watchers) watcher(task.taskId);
    if (TERMINAL.has(status)) this.#quietIfIdle();
  }

  /**
   * Queued behind the task's previous write: the ledger sees its changes in order. `written`
   * rejects while the latest write failed (created() reports it); the next write tries again.
   */
  #persist(task: TaskRecord): void {
    const ledger = this.#ledger;
    if (!ledger) return;
    const entry = entryOf(task);
    task.written = task.written.catch(() => undefined).then(() => ledger.put(entry));
    task.written.catch(() => undefined); // nobody may wait on a later write: not unhandled
  }

  /** A task of another process, from the ledger: read-only here; failed (there too) if its owner is gone unfinished. */
  async #load(taskId: string): Promise<TaskRecord | undefined> {
    const entry = await this.#ledger?.get(taskId);
    if (!entry) return undefined;
    if (entry.expiresAt < this.#now() && TERMINAL.has(entry.status)) return undefined;
    const task = recordOf(entry);
    await this.#settleOrphan(task);
    return task;
  }

  /** Another process's unfinished task whose owner is gone: failed, in the ledger too. */
  async #settleOrphan(task: TaskRecord): Promise<void> {
    if (TERMINAL.has(task.status) || (await this.#ledger!.ownerAlive(task.owner))) return;
    task.error = toErrorObject(new InternalError(`The process running this task (${ownerName(task.owner)}) stopped before it finished`));
    task.pending.clear();
    this.#stamp(task, 'failed');
    await this.#ledger!.put(entryOf(task));
  }

  /** A task's status changes now, and it stays readable for its whole ttlMs from this change. */
  #stamp(task: TaskRecord, status: TaskStatus): void {
    const now = this.#now();
    task.status = status;
    task.lastUpdatedAt = new Date(now).toISOString();
    task.expiresAt = now + task.ttlMs;
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
      if (!TERMINAL.has(entry.status)) await this.#settleOrphan(recordOf(entry));
      else if (entry.expiresAt < now) await this.#ledger.remove(entry.taskId);
    }
  }

  /** The task, if `principal` may see it: one of another principal is as unknown as one that never was. */
  async #find(taskId: unknown, principal: string | undefined): Promise<TaskRecord> {
    this.#forgetExpired();
    const task = await ledgerWork(async () => {
      await this.#sweepLedger();
      return typeof taskId === 'string' ? (this.#tasks.get(taskId) ?? (await this.#load(taskId))) : undefined;
    });
    if (!task || task.principal !== principal) {
      throw new InvalidParamsError(`Invalid params: no task ${JSON.stringify(taskId)} (unknown, or past its ttlMs)`);
    }
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
    if (ledger && task)
      void task.written
        .catch(() => undefined)
        .then(() => ledger.remove(taskId))
        .catch(() => undefined);
  }
}
