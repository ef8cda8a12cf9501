/**
 * The PostgreSQL implementation of the coordination seam, for replicas on many machines: loaded
 * only when a database URL is given (its own bundle chunk, with the client). PostgreSQL is the
 * control plane here and never the search path: a search reads only the replica's local index.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Coordination, CoordinationOptions } from '../contracts.js';
import { PgProjectCatalog } from './catalog.js';
import { redactUrl } from '../database-error.js';
import { connect, describeFailure } from './database.js';
import { PgGenerations } from './generations.js';
import { PgStateKeys } from './keys.js';
import { PgLeases } from './leases.js';
import { Notifications } from './notifications.js';
import { migrate } from './schema.js';
import { PgTaskLedger } from './tasks.js';
import { PgTokenStore } from './tokens.js';

/** How often a replica says it is alive. */
const REPLICA_HEARTBEAT_MS = 5_000;
/** A replica silent for this long is taken for dead, and its unfinished tasks are failed. */
const REPLICA_DEAD_AFTER_MS = 20_000;
/** A lease's holder that stops answering loses it after this long (a paused process, say). */
const LEASE_TTL_MS = 15_000;

export async function openPostgresCoordination(url: string, options: CoordinationOptions): Promise<Coordination> {
  const sql = await connect(url);
  try {
    await migrate(sql);
  } catch (error) {
    await sql.end({ timeout: 0 }).catch(() => undefined);
    throw describeFailure(error, url);
  }
  const replica = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  let problem: string | undefined;
  const beat = (): Promise<unknown> =>
    sql`insert into sextant_replicas (id) values (${replica}) on conflict (id) do update set heartbeat_at = now()`.then(
      () => (problem = undefined),
      (error: unknown) => (problem = describeFailure(error, url).message),
    );
  await beat();
  const heartbeat = setInterval(beat, REPLICA_HEARTBEAT_MS);
  heartbeat.unref();
  const leases = new PgLeases(sql, url, options.leaseTtlMs ?? LEASE_TTL_MS);
  const notifications = new Notifications(url);
  return {
    describe: `postgres ${redactUrl(url)}`,
    replica,
    get problem() {
      return problem;
    },
    keys: new PgStateKeys(sql, options.env ?? process.env),
    tasks: new PgTaskLedger(sql, url, notifications, replica, REPLICA_DEAD_AFTER_MS),
    leases,
    generations: new PgGenerations(sql, leases, notifications),
    catalog: new PgProjectCatalog(sql),
    tokens: new PgTokenStore(sql),
    async replicas() {
      const rows = await sql<{ id: string; started_at: Date; heartbeat_at: Date }[]>`
        select id, started_at, heartbeat_at from sextant_replicas
        where heartbeat_at > now() - make_interval(secs => ${REPLICA_DEAD_AFTER_MS / 1000}) order by started_at, id`;
      return rows.map((row) => ({ id: row.id, startedAt: row.started_at.toISOString(), seenAt: row.heartbeat_at.toISOString() }));
    },
    async close() {
      clearInterval(heartbeat);
      await leases.close();
      await notifications.close();
      await sql`delete from sextant_replicas where id = ${replica}`.catch(() => undefined);
      await sql.end({ timeout: 2 });
    },
  };
}
