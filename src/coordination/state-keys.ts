/**
 * The keys that seal multi round-trip request state. Each has an id, which a sealed state names,
 * so that a new key can be rotated in while states sealed with the previous one stay valid until
 * they expire.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { StateKey, StateKeyRing } from './contracts.js';

/** The keys a process seals and opens with: the current one, and those it still accepts. */
export class KeyRing implements StateKeyRing {
  readonly current: StateKey;
  readonly #accepted: Map<string, StateKey>;

  constructor(current: StateKey, accepted: readonly StateKey[] = []) {
    this.current = current;
    this.#accepted = new Map([current, ...accepted].map((key) => [key.id, key]));
  }

  /** One key made from a secret. */
  static of(secret: Buffer): KeyRing {
    return new KeyRing({ id: keyId(secret), secret });
  }

  /** A key for this process alone (tests, a server nobody shares). */
  static ephemeral(): KeyRing {
    return KeyRing.of(randomBytes(32));
  }

  /** The key a state names; a state from before key ids names none and was sealed with the current key. */
  find(id: string | undefined): StateKey | undefined {
    return id === undefined ? this.current : this.#accepted.get(id);
  }
}

/** The id of a secret: a digest of it, so that two processes with the same secret agree without talking. */
function keyId(secret: Buffer): string {
  return createHash('sha256').update('sextant state key id\0').update(secret).digest('base64url').slice(0, 12);
}

/** How long a key still opens states after a newer one was rotated in: longer than any state lives. */
export const KEY_ACCEPTED_MS = 24 * 3600_000;

/** A rotation asked for while SEXTANT_STATE_KEY decides the key: that is where it changes. */
export class StateKeyFromEnvironmentError extends Error {
  readonly code = 'state_key_from_environment';
  constructor() {
    super('SEXTANT_STATE_KEY is set, and it overrides the stored keys: change it on every server instead (states sealed with the old one are then refused)');
  }
}

/** SEXTANT_STATE_KEY (any text, hashed to 32 bytes) when set: it overrides every shared store of keys. */
export function environmentKeyRing(env: NodeJS.ProcessEnv): KeyRing | undefined {
  return env.SEXTANT_STATE_KEY ? KeyRing.of(createHash('sha256').update(env.SEXTANT_STATE_KEY).digest()) : undefined;
}
