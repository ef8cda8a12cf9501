/**
 * State keys on one machine: SEXTANT_STATE_KEY (any text; hashed to 32 bytes), else `state.key`
 * under the home, created with mode 0600 by whichever process comes first (O_EXCL, so two starting
 * at once agree on one key). A rotation puts a new key in its place (a rename: a reader sees the
 * old or the new, whole) and keeps the old one in `state-keys-accepted/`, where it still opens
 * states until it is older than any state lives.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StateKey, StateKeys } from '../contracts.js';
import { environmentKeyRing, KeyRing, KEY_ACCEPTED_MS, StateKeyFromEnvironmentError } from '../state-keys.js';

const STATE_KEY_FILE = 'state.key';
const ACCEPTED_FOLDER = 'state-keys-accepted';
const KEY_TEXT = /^[0-9a-f]{64}$/;

export class FileStateKeys implements StateKeys {
  readonly #home: string;
  readonly #env: NodeJS.ProcessEnv;

  constructor(home: string, env: NodeJS.ProcessEnv) {
    this.#home = home;
    this.#env = env;
  }

  async ring(): Promise<KeyRing> {
    const fromEnvironment = environmentKeyRing(this.#env);
    if (fromEnvironment) return fromEnvironment;
    return new KeyRing(KeyRing.of(this.#secret()).current, this.#accepted());
  }

  async rotate(): Promise<StateKey> {
    if (environmentKeyRing(this.#env)) throw new StateKeyFromEnvironmentError();
    const previous = KeyRing.of(this.#secret()).current;
    const folder = join(this.#home, ACCEPTED_FOLDER);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `${previous.id}.key`), previous.secret.toString('hex'), { mode: 0o600 });
    const secret = randomBytes(32);
    const staged = this.#staged(secret);
    renameSync(staged, join(this.#home, STATE_KEY_FILE));
    return KeyRing.of(secret).current;
  }

  /** Keys rotated out within the acceptance window; older ones are removed. */
  #accepted(): StateKey[] {
    const folder = join(this.#home, ACCEPTED_FOLDER);
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return [];
    }
    const keys: StateKey[] = [];
    for (const name of names) {
      const path = join(folder, name);
      try {
        if (Date.now() - statSync(path).mtimeMs > KEY_ACCEPTED_MS) {
          rmSync(path, { force: true });
          continue;
        }
        const text = readFileSync(path, 'utf8').trim();
        if (KEY_TEXT.test(text)) keys.push(KeyRing.of(Buffer.from(text, 'hex')).current);
      } catch {
        // removed meanwhile
      }
    }
    return keys;
  }

  /** A key written whole under another name, mode 0600, ready to be linked or renamed into place. */
  #staged(secret: Buffer): string {
    mkdirSync(this.#home, { recursive: true });
    const staged = join(this.#home, `${STATE_KEY_FILE}.${process.pid}-${randomBytes(4).toString('hex')}`);
    writeFileSync(staged, secret.toString('hex'), { flag: 'wx', mode: 0o600 });
    return staged;
  }

  #secret(): Buffer {
    const file = join(this.#home, STATE_KEY_FILE);
    const staged = this.#staged(randomBytes(32));
    try {
      linkSync(staged, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(staged, { force: true });
    }
    const text = readFileSync(file, 'utf8').trim();
    if (!KEY_TEXT.test(text)) throw new Error(`${file} is not a Sextant state key (64 hex digits): remove it to have a new one made`);
    return Buffer.from(text, 'hex');
  }
}
