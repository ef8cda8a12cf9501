/**
 * The task ledger in PostgreSQL, for replicas on many machines. A task's owner is a replica, which
 * heartbeats its row; one whose heartbeat is older than the bound is taken for dead, and its
 * unfinished tasks are failed by whoever reads them next. Every write of a task is announced with
 * NOTIFY (listen streams on other replicas follow it). A message for an owner (a cancel, input
 * for a pending request) is a row addressed to it, announced the same way: the owner takes its
 * rows when told, and again whenever its LISTEN is re-armed, so a message sent while it was
 * briefly disconnected still arrives.
 *
 * Every failure of the database comes out as one line (DatabaseError), never the client's own.
 */
import type { TaskEntry, TaskLedger, TaskMessage } from '../contracts.js';
import { describeFailure, type Sql } from './database.js';
import { listenOrFail, type Notifications } from './notifications.js';

const CHANGE_CHANNEL = 'sextant_task_changed';
const MESSAGE_CHANNEL = 'sextant_task_message';
const TASK_ID = /^[0-9a-f-]{36}$/;

export class PgTaskLedger implements TaskLedger {
  readonly self: string;
  readonly #sql: Sql;
  readonly #url: string;
  readonly #deadAfterMs: number;
  readonly #notifications: Notifications;

  constructor(sql: Sql, url: string, notifications: Notifications, replica: string, deadAfterMs: number) {
    this.#sql = sql;
    this.#url = url;
    this.#notifications = notifications;
    this.self = replica;
    this.#deadAfterMs = deadAfterMs;
  }

  put(entry: TaskEntry): Promise<void> {
    return this.#described(async () => {
      await this.#sql.begin(async (tx) => {
        await tx`
          insert into sextant_tasks (task_id, owner, entry, updated_at) values (${entry.taskId}, ${entry.owner}, ${tx.json(entry as never)}, now())
          on conflict (task_id) do update set owner = excluded.owner, entry = excluded.entry, updated_at = now()`;
        await tx`select pg_notify(${CHANGE_CHANNEL}, ${entry.taskId})`;
      });
    });
  }

  get(taskId: string): Promise<TaskEntry | undefined> {
    if (!TASK_ID.test(taskId)) return Promise.resolve(undefined);
    return this.#described(async () => {
      const [row] = await this.#sql<{ entry: TaskEntry }[]>`select entry from sextant_tasks where task_id = ${taskId}`;
      return row?.entry;
    });
  }

  list(): Promise<TaskEntry[]> {
    return this.#described(async () => {
      // Messages for replicas that are gone: nobody will take them.
      await this.#sql`
        delete from sextant_task_messages m where not exists (
          select 1 from sextant_replicas r where r.id = m.owner and r.heartbeat_at > now() - make_interval(secs => ${this.#deadAfterMs / 1000}))`;
      const rows = await this.#sql<{ entry: TaskEntry }[]>`select entry from sextant_tasks`;
      return rows.map((row) => row.entry);
    });
  }

  remove(taskId: string): Promise<void> {
    if (!TASK_ID.test(taskId)) return Promise.resolve();
    return this.#described(async () => {
      await this.#sql`delete from sextant_tasks where task_id = ${taskId}`;
      await this.#sql`delete from sextant_task_messages where task_id = ${taskId}`;
    });
  }

  ownerAlive(owner: string): Promise<boolean> {
    if (owner === this.self) return Promise.resolve(false); // this replica would have it in memory: an earlier run's
    return this.#described(async () => {
      const [row] = await this.#sql<{ alive: boolean }[]>`
        select heartbeat_at > now() - make_interval(secs => ${this.#deadAfterMs / 1000}) as alive from sextant_replicas where id = ${owner}`;
      return row?.alive === true;
    });
  }

  async send(message: TaskMessage): Promise<boolean> {
    const entry = await this.get(message.taskId);
    if (!entry || !(await this.ownerAlive(entry.owner))) return false;
    return this.#described(async () => {
      await this.#sql.begin(async (tx) => {
        await tx`insert into sextant_task_messages (owner, task_id, body) values (${entry.owner}, ${message.taskId}, ${tx.json(message as never)})`;
        await tx`select pg_notify(${MESSAGE_CHANNEL}, ${entry.owner})`;
      });
      return true;
    });
  }

  async onMessage(listener: (message: TaskMessage) => void): Promise<() => void> {
    // One take at a time, in the order sent; a take asked for during one runs after it.
    let taking: Promise<void> = Promise.resolve();
    const take = (): void => {
      taking = taking.then(async () => {
        const rows = await this.#sql<{ body: TaskMessage }[]>`
          with taken as (delete from sextant_task_messages where owner = ${this.self} returning id, body) select body from taken order by id`.catch(() => []);
        for (const { body } of rows)
          listener('cancel' in body ? { taskId: body.taskId, cancel: true } : { taskId: body.taskId, inputResponses: body.inputResponses });
      });
    };
    // The first listen and every re-arm after a lost connection take what was sent meanwhile.
    return this.#described(() => listenOrFail(this.#notifications, MESSAGE_CHANNEL, (owner) => owner === this.self && take(), take));
  }

  onChange(listener: (taskId: string) => void): Promise<() => void> {
    return this.#described(() => listenOrFail(this.#notifications, CHANGE_CHANNEL, listener));
  }

  async #described<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw describeFailure(error, this.#url);
    }
  }
}
