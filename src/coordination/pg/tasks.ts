/**
 * The task ledger in PostgreSQL, for replicas on many machines. A task's owner is a replica, which
 * heartbeats its row; one whose heartbeat is older than the bound is taken for dead, and its
 * unfinished tasks are failed by whoever reads them next. A cancel for another replica's task is
 * sent to it with NOTIFY, and that replica stops the work.
 */
import type { TaskEntry, TaskLedger } from '../task-ledger.js';
import type { Sql } from './database.js';

const CANCEL_CHANNEL = 'sextant_task_cancel';
const TASK_ID = /^[0-9a-f-]{36}$/;

export class PgTaskLedger implements TaskLedger {
  readonly self: string;
  readonly #sql: Sql;
  readonly #deadAfterMs: number;

  constructor(sql: Sql, replica: string, deadAfterMs: number) {
    this.#sql = sql;
    this.self = replica;
    this.#deadAfterMs = deadAfterMs;
  }

  async put(entry: TaskEntry): Promise<void> {
    await this.#sql`
      insert into sextant_tasks (task_id, owner, entry, updated_at) values (${entry.taskId}, ${entry.owner}, ${this.#sql.json(entry as never)}, now())
      on conflict (task_id) do update set owner = excluded.owner, entry = excluded.entry, updated_at = now()`;
  }

  async get(taskId: string): Promise<TaskEntry | undefined> {
    if (!TASK_ID.test(taskId)) return undefined;
    const [row] = await this.#sql<{ entry: TaskEntry }[]>`select entry from sextant_tasks where task_id = ${taskId}`;
    return row?.entry;
  }

  async list(): Promise<TaskEntry[]> {
    const rows = await this.#sql<{ entry: TaskEntry }[]>`select entry from sextant_tasks`;
    return rows.map((row) => row.entry);
  }

  async remove(taskId: string): Promise<void> {
    if (TASK_ID.test(taskId)) await this.#sql`delete from sextant_tasks where task_id = ${taskId}`;
  }

  async ownerAlive(owner: string): Promise<boolean> {
    if (owner === this.self) return false; // this replica would have it in memory: an earlier run's
    const [row] = await this.#sql<{ alive: boolean }[]>`
      select heartbeat_at > now() - make_interval(secs => ${this.#deadAfterMs / 1000}) as alive from sextant_replicas where id = ${owner}`;
    return row?.alive === true;
  }

  async requestCancel(taskId: string): Promise<boolean> {
    const entry = await this.get(taskId);
    if (!entry || !(await this.ownerAlive(entry.owner))) return false;
    await this.#sql`select pg_notify(${CANCEL_CHANNEL}, ${taskId})`;
    return true;
  }

  async onCancelRequest(listener: (taskId: string) => void): Promise<() => void> {
    const listening = await this.#sql.listen(CANCEL_CHANNEL, listener);
    return () => void listening.unlisten().catch(() => undefined);
  }
}
