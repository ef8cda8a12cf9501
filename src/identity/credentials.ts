/**
 * Who a request's credential says it is. One verifier for every HTTP route: the static
 * `--auth-token` (one principal that sees everything, as before) and the named tokens of the
 * store. Identities are configured once a named token was created; until then nothing changes.
 *
 * Lookups are cached for CACHE_MS, so that a burst of requests asks the store once, and a token
 * revoked on any replica stops working here within that time (the issue asks for 5 s).
 */
import { timingSafeEqual } from 'node:crypto';
import type { Identity } from '../caller.js';
import type { NamedToken, TokenStore } from '../coordination/index.js';
import type { OAuthVerifier } from './oauth/index.js';
import { secretDigest, TOKEN_PREFIX } from './secrets.js';

/** How long a lookup (a token found, a token not found, whether any exists) is trusted. */
const CACHE_MS = 2_000;
/** How often a token's use is written down, per process. */
const USE_RECORDED_EVERY_MS = 60_000;
/** Lookups kept at once: a flood of made-up tokens cannot grow the cache without bound. */
const MAX_CACHED_LOOKUPS = 1_000;

/** The principal of the static `--auth-token`: no named token can take this name (a colon is not allowed in one). */
const STATIC_PRINCIPAL = 'static:auth-token';

/** `Authorization: Bearer <credential>`: the credential, or undefined for any other shape. */
function bearerOf(header: string | undefined): string | undefined {
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1] : undefined;
}

/** A token looked up by digest: the answer in flight, and the last one the store gave. */
interface Lookup {
  at: number;
  value: Promise<NamedToken | undefined>;
  known?: { token: NamedToken | undefined };
}

export interface CredentialsOptions {
  authToken?: string;
  tokens?: TokenStore;
  /** Access tokens of the team's authorization server (--oauth-issuer). */
  oauth?: OAuthVerifier;
  now?: () => number;
}

/** What a request's credential comes to: who it is, or why it is refused (RFC 6750's error codes). */
export type Verdict = { identity: Identity } | { refused: 'missing' | 'invalid_token' | 'insufficient_scope' | 'unavailable'; why?: string };

export class Credentials {
  readonly #authDigest: Buffer | undefined;
  readonly #tokens: TokenStore | undefined;
  readonly oauth: OAuthVerifier | undefined;
  readonly #now: () => number;
  #configured: { at: number; value: Promise<boolean> } | undefined;
  /** The store's last answer; once true, not asked again (configured once, configured for good). */
  #lastKnown: boolean | undefined;
  readonly #lookups = new Map<string, Lookup>();
  readonly #usedAt = new Map<string, number>();

  constructor(options: CredentialsOptions = {}) {
    this.#authDigest = options.authToken ? Buffer.from(secretDigest(options.authToken), 'hex') : undefined;
    this.#tokens = options.tokens;
    this.oauth = options.oauth;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Whether identities are configured: a named token was ever created (revoking the last one
   * closes the server rather than opening it). A store that cannot be read keeps the last answer
   * it gave (a database away must not lock every caller out, nor let anyone in); one never read
   * counts as yes.
   */
  async identitiesOn(): Promise<boolean> {
    if (this.oauth) return true;
    if (!this.#tokens) return false;
    const now = this.#now();
    if (!this.#configured || (now - this.#configured.at >= CACHE_MS && this.#lastKnown !== true)) {
      const tokens = this.#tokens;
      const value = tokens.configured().then(
        (configured) => (this.#lastKnown = this.#lastKnown === true || configured),
        () => this.#lastKnown ?? true,
      );
      this.#configured = { at: now, value };
    }
    return this.#configured.value;
  }

  /** Whether a data route needs a credential at all. */
  async required(): Promise<boolean> {
    return this.#authDigest !== undefined || (await this.identitiesOn());
  }

  /**
   * Who the header's bearer credential names: the --auth-token, a named token (`sxt_…`), or an
   * OAuth access token; else why not.
   */
  async identify(authorization: string | undefined): Promise<Verdict> {
    const secret = bearerOf(authorization);
    // Another scheme (Basic, …) is no credential of ours: answered as none, with no error code (RFC 6750 §3.1).
    if (secret === undefined) return { refused: 'missing' };
    const digest = secretDigest(secret);
    if (this.#authDigest && timingSafeEqual(Buffer.from(digest, 'hex'), this.#authDigest))
      return { identity: { principal: STATIC_PRINCIPAL, admin: true, groups: [] } };
    if (this.oauth && !secret.startsWith(TOKEN_PREFIX)) return this.oauth.verify(secret);
    const token = await this.#find(digest);
    if (!token) return { refused: 'invalid_token' };
    this.#recordUse(token.name);
    return { identity: { principal: `token:${token.name.toLowerCase()}`, admin: token.admin, groups: [] } };
  }

  async #find(digest: string): Promise<NamedToken | undefined> {
    if (!this.#tokens) return undefined;
    const now = this.#now();
    const cached = this.#lookups.get(digest);
    if (cached && now - cached.at < CACHE_MS) return cached.value;
    if (this.#lookups.size >= MAX_CACHED_LOOKUPS) {
      for (const [key, entry] of this.#lookups) if (now - entry.at >= CACHE_MS) this.#lookups.delete(key);
      if (this.#lookups.size >= MAX_CACHED_LOOKUPS) this.#lookups.clear();
    }
    // A store that cannot be read (the database away) gives the last answer it gave for this
    // token, so that an outage does not lock out every caller; one never seen is refused.
    const lookup: Lookup = { at: now, value: Promise.resolve(undefined), ...(cached?.known && { known: cached.known }) };
    lookup.value = this.#tokens.find(digest).then(
      (token) => {
        lookup.known = { token };
        return token;
      },
      () => lookup.known?.token,
    );
    this.#lookups.set(digest, lookup);
    return lookup.value;
  }

  #recordUse(name: string): void {
    const now = this.#now();
    if (now - (this.#usedAt.get(name) ?? -Infinity) < USE_RECORDED_EVERY_MS) return;
    this.#usedAt.set(name, now);
    void this.#tokens?.used(name).catch(() => undefined);
  }
}
