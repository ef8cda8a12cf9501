/**
 * Index generations in PostgreSQL: one row per generation. A commit is one transaction that
 * checks the lease's token against its row (fencing), checks the current generation is the one
 * expected, inserts the next, and notifies; the primary key makes a second insert of the same
 * number fail, so two writers cannot both win. Watchers LISTEN, with a poll as the bound for
 * notifications lost while the listening connection was down.
 */
import { projectKey } from '../../util/project-key.js';
import type { Generation, Generations, Lease } from '../contracts.js';
import { checkProjectName, GenerationConflictError, LeaseLostError } from '../refusals.js';
import { checkNext } from '../generation-entry.js';
import type { Sql } from './database.js';
import { PgLeases } from './leases.js';
import { listenOrFail, type Notifications } from './notifications.js';

const GENERATION_CHANNEL = 'sextant_generation';
const REFRESH_CHANNEL = 'sextant_refresh';
/** How often a watcher reads even when no notification came. */
const WATCH_POLL_MS = 2_000;
/** Generations kept behind the current one; older rows are deleted by the commit that passes them. */
const GENERATIONS_KEPT = 3;

interface Row {
  project: string;
  number: string;
  source: string | null;
  committed_at: string;
}

function fromRow(row: Row): Generation {
  return { project: row.project, number: Number(row.number), ...(row.source !== null && { source: row.source }), committedAt: row.committed_at };
}

export class PgGenerations implements Generations {
  readonly #sql: Sql;
  readonly #leases: PgLeases;
  readonly #notifications: Notifications;

  constructor(sql: Sql, leases: PgLeases, notifications: Notifications) {
    this.#sql = sql;
    this.#leases = leases;
    this.#notifications = notifications;
  }

  async current(project: string): Promise<Generation | undefined> {
    const key = projectKey(checkProjectName(project));
    const [row] = await this.#sql<Row[]>`
      select project, number, source, committed_at from sextant_generations where project = ${key} order by number desc limit 1`;
    return row && fromRow(row);
  }

  async commit(lease: Lease, expected: Generation | undefined, next: Omit<Generation, 'number'>): Promise<Generation> {
    const project = checkNext(expected, next);
    const key = projectKey(project);
    // Held by this handle (not released, its session alive), then, in the transaction, still the latest grant.
    if (!(await this.#leases.valid(lease))) throw new LeaseLostError(lease.name, lease.token);
    return this.#sql.begin(async (tx) => {
      if (!(await PgLeases.current(tx, lease))) throw new LeaseLostError(lease.name, lease.token);
      const [top] = await tx<{ number: string }[]>`select max(number) as number from sextant_generations where project = ${key}`;
      const current = Number(top?.number ?? 0);
      if (current !== (expected?.number ?? 0)) throw new GenerationConflictError(project, expected?.number ?? 0, current);
      const [row] = await tx<Row[]>`
        insert into sextant_generations (project, number, source, committed_at, lease, token)
        values (${key}, ${current + 1}, ${next.source ?? null}, ${next.committedAt}, ${lease.name}, ${lease.token})
        on conflict do nothing
        returning project, number, source, committed_at`;
      if (!row) throw new GenerationConflictError(project, current, current + 1);
      await tx`delete from sextant_generations where project = ${key} and number <= ${current + 1 - GENERATIONS_KEPT}`;
      await tx`select pg_notify(${GENERATION_CHANNEL}, ${key})`;
      return fromRow(row);
    }) as Promise<Generation>;
  }

  watch(project: string, after: number, listener: (generation: Generation) => void): () => void {
    const key = projectKey(checkProjectName(project));
    let seen = after;
    let stopped = false;
    // One look at a time, in order: a notification and a poll at once deliver a generation once.
    let looking = Promise.resolve();
    const look = (): void => {
      looking = looking.then(async () => {
        if (stopped) return;
        const generation = await this.current(key).catch(() => undefined);
        if (stopped || !generation || generation.number <= seen) return;
        seen = generation.number;
        listener(generation);
      });
    };
    const listening = this.#notifications.listen(GENERATION_CHANNEL, (payload) => payload === key && look(), look);
    listening.listening.catch(() => undefined); // the server is away: the poll keeps the bound until it is back
    const poll = setInterval(look, WATCH_POLL_MS);
    look();
    return () => {
      stopped = true;
      clearInterval(poll);
      listening.stop();
    };
  }

  async requestRefresh(project: string): Promise<void> {
    await this.#sql`select pg_notify(${REFRESH_CHANNEL}, ${projectKey(checkProjectName(project))})`;
  }

  onRefreshRequest(listener: (project: string) => void): Promise<() => void> {
    return listenOrFail(this.#notifications, REFRESH_CHANNEL, listener);
  }
}
