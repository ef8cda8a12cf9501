/**
 * The issuer's signing keys (its JWKS), public and asymmetric only, fetched on first use. A token
 * naming a key not in the set fetches the set again, at most once every REFETCH_MS, so that the
 * issuer can rotate its keys while a flood of made-up key ids cannot make this server hammer it.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { fetchJson, IssuerError } from './fetch-json.js';

/** Least time between two fetches of the key set caused by an unknown key id. */
export const REFETCH_MS = 30_000;
const KEY_TYPES = new Set(['RSA', 'EC', 'OKP']);

export class KeySet {
  readonly #url: URL;
  readonly #now: () => number;
  #keys = new Map<string, KeyObject>();
  #loaded = false;
  /** When the first fetch last failed: it is not tried again sooner than REFETCH_MS. */
  #failedAt = -Infinity;
  /** When an unknown key id last made the set be fetched again. */
  #refetchedAt = -Infinity;
  #fetching: Promise<void> | undefined;

  constructor(url: URL, now: () => number = Date.now) {
    this.#url = url;
    this.#now = now;
  }

  /** The key `kid` names (or the only key, when the token names none and there is one). */
  async key(kid: string | undefined): Promise<KeyObject | undefined> {
    if (!this.#loaded) {
      if (this.#now() - this.#failedAt < REFETCH_MS) throw new IssuerError(`The issuer's keys (${this.#url.href}) could not be fetched; trying again shortly`);
      await this.#fetchOnce().catch((error: unknown) => {
        this.#failedAt = this.#now();
        throw error;
      });
    }
    const found = this.#find(kid);
    if (found || this.#now() - this.#refetchedAt < REFETCH_MS) return found;
    this.#refetchedAt = this.#now();
    await this.#fetchOnce();
    return this.#find(kid);
  }

  /** One fetch at a time, shared by whoever asks meanwhile. */
  #fetchOnce(): Promise<void> {
    return (this.#fetching ??= this.#fetch().finally(() => (this.#fetching = undefined)));
  }

  #find(kid: string | undefined): KeyObject | undefined {
    if (kid !== undefined) return this.#keys.get(kid);
    return this.#keys.size === 1 ? [...this.#keys.values()][0] : undefined;
  }

  async #fetch(): Promise<void> {
    const document = await fetchJson(this.#url);
    const keys = new Map<string, KeyObject>();
    let unnamed = 0;
    for (const jwk of Array.isArray(document.keys) ? (document.keys as Array<Record<string, unknown>>) : []) {
      if (typeof jwk !== 'object' || jwk === null || !KEY_TYPES.has(jwk.kty as string) || jwk.d !== undefined) continue;
      if (jwk.use !== undefined && jwk.use !== 'sig') continue;
      try {
        keys.set(typeof jwk.kid === 'string' ? jwk.kid : `#${unnamed++}`, createPublicKey({ key: jwk as never, format: 'jwk' }));
      } catch {
        // a key this runtime cannot read is not one a token can be checked with
      }
    }
    this.#keys = keys;
    this.#loaded = true;
  }
}
