/**
 * Named tokens in PostgreSQL: one row per token, keyed by its lower-cased name; the secret's
 * digest is unique, and the secret itself is never sent to the database.
 */
import { projectKey } from '../../util/project-key.js';
import type { NamedToken, TokenStore } from '../contracts.js';
import { checkTokenName, TokenExistsError } from '../refusals.js';
import { checkTokenEntry, shownToken } from '../token-entry.js';
import type { Sql } from './database.js';

interface Row {
  name: string;
  admin: boolean;
  digest: string;
  created_at: Date;
  last_used_at: Date | null;
}

const entryOf = (row: Row) =>
  checkTokenEntry({
    name: row.name,
    admin: row.admin,
    digest: row.digest,
    createdAt: row.created_at.toISOString(),
    ...(row.last_used_at ? { lastUsedAt: row.last_used_at.toISOString() } : {}),
  });

export class PgTokenStore implements TokenStore {
  readonly #sql: Sql;

  constructor(sql: Sql) {
    this.#sql = sql;
  }

  async create(token: { name: string; admin: boolean; digest: string }): Promise<NamedToken> {
    const entry = checkTokenEntry({ ...token, createdAt: new Date().toISOString() });
    const [row] = await this.#sql.begin(async (tx) => {
      // Identities stay configured from the first token on (TokenStore.configured).
      await tx`insert into sextant_identities (one) values (true) on conflict do nothing`;
      return tx<Row[]>`
        insert into sextant_tokens (key, name, digest, admin) values (${projectKey(entry.name)}, ${entry.name}, ${entry.digest}, ${entry.admin})
        on conflict (key) do nothing returning name, admin, digest, created_at, last_used_at`;
    });
    if (!row) throw new TokenExistsError(entry.name);
    return shownToken(entryOf(row));
  }

  async list(): Promise<NamedToken[]> {
    const rows = await this.#sql<Row[]>`select name, admin, digest, created_at, last_used_at from sextant_tokens`;
    return rows.map((row) => shownToken(entryOf(row))).sort((a, b) => a.name.localeCompare(b.name));
  }

  async find(digest: string): Promise<NamedToken | undefined> {
    const [row] = await this.#sql<Row[]>`select name, admin, digest, created_at, last_used_at from sextant_tokens where digest = ${digest}`;
    return row && shownToken(entryOf(row));
  }

  async revoke(name: string): Promise<boolean> {
    const deleted = await this.#sql`delete from sextant_tokens where key = ${projectKey(checkTokenName(name))} returning key`;
    return deleted.length > 0;
  }

  async configured(): Promise<boolean> {
    const [row] = await this.#sql<{ one: boolean }[]>`select one from sextant_identities`;
    return row !== undefined;
  }

  async used(name: string): Promise<void> {
    await this.#sql`update sextant_tokens set last_used_at = now() where key = ${projectKey(checkTokenName(name))}`;
  }
}
