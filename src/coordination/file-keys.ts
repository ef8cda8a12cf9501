/**
 * State keys on one machine: SEXTANT_STATE_KEY (any text; hashed to 32 bytes), else `state.key`
 * under the home, created with mode 0600 by whichever process comes first (O_EXCL, so two starting
 * at once agree on one key). One key, no rotation: a new one means removing the file, and states
 * sealed with the old one are then refused.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { environmentKeyRing, KeyRing, type StateKeys } from './state-keys.js';

const STATE_KEY_FILE = 'state.key';

export class FileStateKeys implements StateKeys {
  readonly #home: string;
  readonly #env: NodeJS.ProcessEnv;

  constructor(home: string, env: NodeJS.ProcessEnv) {
    this.#home = home;
    this.#env = env;
  }

  async ring(): Promise<KeyRing> {
    return environmentKeyRing(this.#env) ?? KeyRing.of(this.#secret());
  }

  #secret(): Buffer {
    const file = join(this.#home, STATE_KEY_FILE);
    mkdirSync(this.#home, { recursive: true });
    // Written whole under another name, then linked into place: a reader never sees half a key.
    const staged = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
    writeFileSync(staged, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
    try {
      linkSync(staged, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(staged, { force: true });
    }
    const text = readFileSync(file, 'utf8').trim();
    if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`${file} is not a Sextant state key (64 hex digits): remove it to have a new one made`);
    return Buffer.from(text, 'hex');
  }
}
