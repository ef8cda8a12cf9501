/**
 * The tables Sextant keeps in PostgreSQL, created and migrated by Sextant itself. One row says
 * which version of them the database has; a replica that starts applies what is missing, in one
 * transaction under an advisory lock (so two replicas starting at once do not race), and refuses a
 * database that a newer Sextant set up, whose tables it might misread.
 */
import { DatabaseError } from '../database-error.js';
import type { Sql } from './database.js';

/** The schema this Sextant reads and writes; each step below takes the database one version up. */
export const SCHEMA_VERSION = 3;
/** Key of the advisory lock migrations take: "SXTM" in ASCII. */
const MIGRATION_LOCK = 0x5358544d;

export const MIGRATIONS: readonly string[] = [
  // 1: everything the seam shares.
  `
  create table sextant_projects (
    key text primary key,
    name text not null,
    location jsonb not null,
    created_at timestamptz not null default now()
  );
  create table sextant_leases (
    name text primary key,
    holder text not null,
    token bigint not null,
    granted_at timestamptz not null
  );
  create table sextant_generations (
    project text not null,
    number bigint not null,
    source text,
    committed_at text not null,
    lease text not null,
    token bigint not null,
    primary key (project, number)
  );
  create table sextant_tasks (
    task_id text primary key,
    owner text not null,
    entry jsonb not null,
    updated_at timestamptz not null default now()
  );
  create table sextant_replicas (
    id text primary key,
    started_at timestamptz not null default now(),
    heartbeat_at timestamptz not null default now()
  );
  create table sextant_state_keys (
    id text primary key,
    secret bytea not null,
    created_at timestamptz not null default now()
  );
  `,
  // 2: messages for the replica that runs a task (cancels, input), kept until it takes them.
  `
  create table sextant_task_messages (
    id bigserial primary key,
    owner text not null,
    task_id text not null,
    body jsonb not null,
    sent_at timestamptz not null default now()
  );
  create index sextant_task_messages_owner on sextant_task_messages (owner);
  `,
  // 3: named tokens (a digest of each secret, never the secret) and who may see each project.
  `
  create table sextant_tokens (
    key text primary key,
    name text not null,
    digest text not null unique,
    admin boolean not null,
    created_at timestamptz not null default now(),
    last_used_at timestamptz
  );
  create table sextant_identities (
    one boolean primary key default true check (one),
    since timestamptz not null default now()
  );
  create table sextant_project_access (
    project text not null references sextant_projects (key) on delete cascade,
    who text not null,
    primary key (project, who)
  );
  `,
];

/** Brings the database to SCHEMA_VERSION, or refuses one that is ahead of it. */
export async function migrate(sql: Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`create table if not exists sextant_schema (one boolean primary key default true check (one), version integer not null)`;
    const [row] = await tx<{ version: number }[]>`select version from sextant_schema`;
    const found = row?.version ?? 0;
    if (found > SCHEMA_VERSION) {
      throw new DatabaseError(
        'database_schema_too_new',
        `The database was set up by a newer Sextant (schema version ${found}; this one knows up to ${SCHEMA_VERSION}): upgrade Sextant on this machine`,
      );
    }
    for (let version = found + 1; version <= SCHEMA_VERSION; version++) await tx.unsafe(MIGRATIONS[version - 1]!);
    if (found === 0) await tx`insert into sextant_schema (version) values (${SCHEMA_VERSION})`;
    else if (found < SCHEMA_VERSION) await tx`update sextant_schema set version = ${SCHEMA_VERSION}`;
  });
}
