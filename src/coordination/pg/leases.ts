/**
 * Leases in PostgreSQL: a session-level advisory lock held on a connection of its own, and a row
 * whose token goes up at every grant (the fencing epoch). The lock's connection sets
 * idle_session_timeout to the lease's time to live and is kept busy by a heartbeat, so that:
 *  - a holder that dies (kill -9) loses the lock as soon as its connection closes;
 *  - a holder that is paused stops its heartbeat, and the server ends its session (and so its
 *    lock) after the time to live: another process takes the lease with a greater token, and the
 *    paused one, when it resumes, finds its connection gone and its token outdated.
 * Writes fenced by a lease (generations) compare its token with the row in their transaction.
 */
import type { Lease, Leases } from '../contracts.js';
import { connect, type Sql, type Transaction } from './database.js';

/** Advisory lock keys of leases live in their own space: "SXTL" in ASCII. */
const LEASE_LOCK_SPACE = 0x5358544c;
const LEASE_NAME = /^[A-Za-z0-9._-]{1,100}$/;

interface Held {
  readonly lease: Lease;
  readonly sql: Sql;
  /** The server process of the lock's session: another one means the session (and the lock) was lost. */
  readonly backend: number;
  readonly heartbeat: NodeJS.Timeout;
}

export class PgLeases implements Leases {
  readonly #sql: Sql;
  readonly #url: string;
  readonly #ttlMs: number;
  readonly #held = new Map<string, Held>();

  constructor(sql: Sql, url: string, ttlMs: number) {
    this.#sql = sql;
    this.#url = url;
    this.#ttlMs = ttlMs;
  }

  async acquire(name: string, holder: string): Promise<Lease | undefined> {
    if (!LEASE_NAME.test(name)) throw new TypeError(`Invalid lease name ${JSON.stringify(name)}`);
    if (this.#held.has(name)) return undefined; // one grant per handle: the holder is this handle
    // Replicas that are not the holder try again and again: asking the pool whether the lock is held costs no new connection.
    const [seen] = await this.#sql<{ held: boolean }[]>`
      select exists (
        select 1 from pg_locks
        where locktype = 'advisory' and granted and classid = ${LEASE_LOCK_SPACE}::oid and objid = hashtext(${name})::oid and objsubid = 2
          and database = (select oid from pg_database where datname = current_database())
      ) as held`;
    if (seen!.held) return undefined;
    const sql = await connect(this.#url, { max: 1, applicationName: `sextant lease ${name}` });
    try {
      await sql.unsafe(`set idle_session_timeout = ${Math.ceil(this.#ttlMs)}`);
      const [row] = await sql<{ locked: boolean; backend: number }[]>`
        select pg_try_advisory_lock(${LEASE_LOCK_SPACE}, hashtext(${name})) as locked, pg_backend_pid() as backend`;
      if (!row!.locked) {
        await sql.end({ timeout: 0 });
        return undefined;
      }
      const [grant] = await sql<{ token: string }[]>`
        insert into sextant_leases (name, holder, token, granted_at) values (${name}, ${holder}, 1, now())
        on conflict (name) do update set token = sextant_leases.token + 1, holder = excluded.holder, granted_at = now()
        returning token`;
      const lease: Lease = { name, holder, token: Number(grant!.token) };
      const heartbeat = setInterval(() => void sql`select 1`.catch(() => undefined), Math.max(50, this.#ttlMs / 3));
      heartbeat.unref();
      this.#held.set(name, { lease, sql, backend: row!.backend, heartbeat });
      return lease;
    } catch (error) {
      await sql.end({ timeout: 0 }).catch(() => undefined);
      throw error;
    }
  }

  async holder(name: string): Promise<string | undefined> {
    if (!LEASE_NAME.test(name)) throw new TypeError(`Invalid lease name ${JSON.stringify(name)}`);
    // The row names the last holder; the advisory lock says whether it still holds it.
    const [row] = await this.#sql<{ holder: string }[]>`
      select holder from sextant_leases
      where name = ${name} and exists (
        select 1 from pg_locks
        where locktype = 'advisory' and granted and classid = ${LEASE_LOCK_SPACE}::oid and objid = hashtext(${name})::oid and objsubid = 2
          and database = (select oid from pg_database where datname = current_database())
      )`;
    return row?.holder;
  }

  async valid(lease: Lease): Promise<boolean> {
    const held = this.#held.get(lease.name);
    if (!held || held.lease.token !== lease.token) return false;
    let valid: boolean;
    try {
      const [row] = await held.sql<{ backend: number; token: string | null }[]>`
        select pg_backend_pid() as backend, (select token from sextant_leases where name = ${lease.name}) as token`;
      valid = row!.backend === held.backend && Number(row!.token) === lease.token;
    } catch {
      valid = false;
    }
    // Lost for good (its session ended, or a newer grant exists): forgotten, so that this handle may
    // be granted it again; no unlock, which would only open a new session to find nothing held.
    if (!valid && this.#held.get(lease.name) === held) {
      this.#held.delete(lease.name);
      clearInterval(held.heartbeat);
      await held.sql.end({ timeout: 0 }).catch(() => undefined);
    }
    return valid;
  }

  async release(lease: Lease): Promise<void> {
    const held = this.#held.get(lease.name);
    if (!held || held.lease.token !== lease.token) return;
    this.#held.delete(lease.name);
    clearInterval(held.heartbeat);
    // Closing the session releases its lock; an unlock first makes it prompt even if the close lingers.
    await held.sql`select pg_advisory_unlock(${LEASE_LOCK_SPACE}, hashtext(${lease.name}))`.catch(() => undefined);
    await held.sql.end({ timeout: 1 }).catch(() => undefined);
  }

  /** Lets go of every lease this handle holds (the process stops). */
  async close(): Promise<void> {
    await Promise.all([...this.#held.values()].map((held) => this.release(held.lease)));
  }

  /** For writes fenced by a lease: whether `lease` is the latest grant, read in the writer's transaction. */
  static async current(tx: Transaction, lease: Lease): Promise<boolean> {
    const [row] = await tx<{ token: string }[]>`select token from sextant_leases where name = ${lease.name} for update`;
    return row !== undefined && Number(row.token) === lease.token;
  }
}
