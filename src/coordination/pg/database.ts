/**
 * The connection to PostgreSQL, and what can go wrong with it said in one line: a URL that is not
 * one, a server that does not answer, a refused login, a missing database, a server too old. Only
 * this file imports the client; the room is loaded only when a database URL is given.
 */
import postgres from 'postgres';
import { DatabaseError, redactUrl } from '../database-error.js';

export type Sql = postgres.Sql;
export type Transaction = postgres.TransactionSql;

/** How long to wait for a server that does not answer, before saying so. */
const CONNECT_TIMEOUT_S = 10;
/** Connections a replica keeps for coordination; searches never use them. */
const POOL_SIZE = 4;
/** idle_session_timeout (the lease's bound) is 14+. */
const OLDEST_SERVER = 140000;

/** A client for `url`, checked by one round trip, so that a bad URL fails here and not at first use. */
export async function connect(url: string, options: { max?: number; applicationName?: string } = {}): Promise<Sql> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DatabaseError('database_url_invalid', `The database URL is not a URL: give postgres://USER:PASSWORD@HOST:PORT/DATABASE`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new DatabaseError('database_url_invalid', `The database URL must start with postgres:// or postgresql://, got ${parsed.protocol}//`);
  }
  const sql = postgres(url, {
    max: options.max ?? POOL_SIZE,
    connect_timeout: CONNECT_TIMEOUT_S,
    onnotice: () => {},
    fetch_types: false,
    connection: { application_name: options.applicationName ?? 'sextant' },
  });
  try {
    const [row] = await sql<{ version: string }[]>`select current_setting('server_version_num') as version`;
    if (Number(row!.version) < OLDEST_SERVER) {
      throw new DatabaseError('database_too_old', `PostgreSQL ${row!.version} at ${redactUrl(url)} is too old: Sextant needs 14 or newer`);
    }
    return sql;
  } catch (error) {
    await sql.end({ timeout: 0 }).catch(() => undefined);
    throw describeFailure(error, url);
  }
}

/** A failure of the database as one line that names the server and what to do. */
export function describeFailure(error: unknown, url: string): Error {
  if (error instanceof DatabaseError) return error;
  const where = redactUrl(url);
  const code = (error as { code?: string }).code;
  const message = (error as Error).message ?? String(error);
  switch (code) {
    case '28P01':
    case '28000':
      return new DatabaseError('database_login_refused', `PostgreSQL at ${where} refused the login: check the user and password in the URL`);
    case '3D000':
      return new DatabaseError('database_missing', `PostgreSQL at ${where} has no such database: create it first (createdb), or fix the URL`);
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
    case 'CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return new DatabaseError('database_unreachable', `PostgreSQL at ${where} does not answer (${code}): is it running, and is the host and port right?`);
    default:
      return new DatabaseError('database_failed', `PostgreSQL at ${where} failed: ${message.split('\n')[0]}`);
  }
}
