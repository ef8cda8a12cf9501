/**
 * State keys in PostgreSQL, shared by every replica: the newest key seals, and every key younger
 * than the acceptance window still opens, so that a key rotated in does not break a round sealed
 * a moment before with the previous one. The first replica to find no key makes one.
 * SEXTANT_STATE_KEY, when set, overrides the table as it does the file.
 */
import { randomBytes } from 'node:crypto';
import type { StateKey, StateKeys } from '../contracts.js';
import { environmentKeyRing, KeyRing, KEY_ACCEPTED_MS, StateKeyFromEnvironmentError } from '../state-keys.js';
import type { Sql } from './database.js';

export class PgStateKeys implements StateKeys {
  readonly #sql: Sql;
  readonly #env: NodeJS.ProcessEnv;

  constructor(sql: Sql, env: NodeJS.ProcessEnv) {
    this.#sql = sql;
    this.#env = env;
  }

  async ring(): Promise<KeyRing> {
    const fromEnvironment = environmentKeyRing(this.#env);
    if (fromEnvironment) return fromEnvironment;
    let keys = await this.#read();
    if (keys.length === 0) {
      await this.#make(true);
      keys = await this.#read();
    }
    const [current, ...accepted] = keys;
    return new KeyRing(current!, accepted);
  }

  async rotate(): Promise<StateKey> {
    if (environmentKeyRing(this.#env)) throw new StateKeyFromEnvironmentError();
    return this.#make(false);
  }

  /** A new current key; `onlyIfNone`: unless one exists (two replicas starting at once make one). */
  async #make(onlyIfNone: boolean): Promise<StateKey> {
    const key = KeyRing.of(randomBytes(32)).current;
    if (onlyIfNone) {
      await this.#sql.begin(async (tx) => {
        await tx`lock table sextant_state_keys in exclusive mode`;
        const [row] = await tx`select 1 from sextant_state_keys limit 1`;
        if (!row) await tx`insert into sextant_state_keys (id, secret) values (${key.id}, ${key.secret})`;
      });
    } else {
      await this.#sql`insert into sextant_state_keys (id, secret) values (${key.id}, ${key.secret})`;
    }
    return key;
  }

  async #read(): Promise<StateKey[]> {
    const rows = await this.#sql<{ id: string; secret: Buffer }[]>`
      select id, secret from sextant_state_keys
      where created_at > now() - make_interval(secs => ${KEY_ACCEPTED_MS / 1000})
         or created_at = (select max(created_at) from sextant_state_keys)
      order by created_at desc, id`;
    return rows.map((row) => ({ id: row.id, secret: Buffer.from(row.secret) }));
  }
}
