/**
 * Access tokens from the team's own authorization server (`serve --oauth-issuer URL --public-url
 * URL`): discovered once (retried at most every REFETCH_MS while the issuer is away), checked
 * locally (access-token.ts), and kept until they expire, so that a call costs a map lookup.
 *
 * A token needs the scope `sextant:search`; `sextant:admin` makes its holder an admin. Its
 * principal is `user:SUB`, its groups the `--groups-claim` claim (default `groups`).
 */
import { createHash } from 'node:crypto';
import type { Identity } from '../../caller.js';
import { checkAccessToken, InvalidTokenError } from './access-token.js';
import { discoverIssuer, type IssuerMetadata } from './discovery.js';
import { checkIssuerUrl } from './fetch-json.js';
import { KeySet, REFETCH_MS } from './key-set.js';

export const SEARCH_SCOPE = 'sextant:search';
export const ADMIN_SCOPE = 'sextant:admin';
/** Checked tokens kept at once (each until it expires). */
const MAX_CACHED_TOKENS = 10_000;

export interface OAuthOptions {
  issuer: string;
  /** Where clients reach this server (`https://sextant.internal`): its resource is PUBLIC_URL/mcp. */
  publicUrl: string;
  groupsClaim?: string;
  now?: () => number;
}

export type OAuthVerdict = { identity: Identity } | { refused: 'invalid_token' | 'insufficient_scope' | 'unavailable'; why: string };

/** The canonical resource URI (RFC 8707) of a server reached at `publicUrl`: lower-case scheme and host, no trailing slash, no fragment. */
function resourceOf(publicUrl: string): string {
  const url = new URL(publicUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`--public-url ${publicUrl} is not an http(s) URL`);
  if (url.search || url.hash || url.username || url.password) throw new Error(`--public-url ${publicUrl} must be a plain origin and path`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}/mcp`;
}

export class OAuthVerifier {
  readonly issuer: string;
  readonly resource: string;
  readonly #groupsClaim: string;
  readonly #now: () => number;
  #keys: Promise<KeySet> | undefined;
  #metadata: IssuerMetadata | undefined;
  #failedAt = -Infinity;
  readonly #checked = new Map<string, { expiresAt: number; identity: Identity; scopes: Set<string> }>();

  constructor(options: OAuthOptions) {
    checkIssuerUrl(options.issuer, 'The OAuth issuer');
    this.issuer = options.issuer;
    this.resource = resourceOf(options.publicUrl);
    this.#groupsClaim = options.groupsClaim ?? 'groups';
    this.#now = options.now ?? Date.now;
  }

  /** Discovers the issuer now (serve does, to say at start-up whether it answers). */
  async start(): Promise<void> {
    await this.#keySet();
  }

  /** Where a browser signs in with this issuer (authorization code with PKCE), once discovered and if it says. */
  async browserEndpoints(): Promise<{ authorization: string; token: string } | undefined> {
    await this.#keySet().catch(() => undefined);
    const metadata = this.#metadata;
    if (!metadata?.authorizationEndpoint || !metadata.tokenEndpoint) return undefined;
    return { authorization: metadata.authorizationEndpoint.href, token: metadata.tokenEndpoint.href };
  }

  async verify(token: string): Promise<OAuthVerdict> {
    const now = this.#now();
    const digest = createHash('sha256').update(token).digest('base64url');
    let checked = this.#checked.get(digest);
    if (checked && checked.expiresAt <= now) {
      this.#checked.delete(digest);
      checked = undefined;
    }
    if (!checked) {
      let claims: Record<string, unknown>;
      try {
        const keys = await this.#keySet();
        claims = await checkAccessToken(token, { issuer: this.issuer, audience: this.resource, key: (kid) => keys.key(kid), nowSeconds: now / 1000 });
      } catch (error) {
        // A token that cannot be checked for want of the issuer is not called invalid: a client would drop a good one.
        if (!(error instanceof InvalidTokenError)) return { refused: 'unavailable', why: 'the issuer cannot be reached to check it' };
        return { refused: 'invalid_token', why: error.message };
      }
      const scopes = new Set(
        typeof claims.scope === 'string'
          ? claims.scope.split(' ').filter(Boolean)
          : Array.isArray(claims.scp)
            ? claims.scp.filter((s) => typeof s === 'string')
            : [],
      );
      const claimed = claims[this.#groupsClaim];
      const groups = Array.isArray(claimed) ? claimed.filter((group): group is string => typeof group === 'string') : [];
      checked = {
        expiresAt: (claims.exp as number) * 1000,
        identity: { principal: `user:${claims.sub as string}`, admin: scopes.has(ADMIN_SCOPE), groups },
        scopes,
      };
      if (this.#checked.size >= MAX_CACHED_TOKENS) this.#checked.delete(this.#checked.keys().next().value!);
      this.#checked.set(digest, checked);
    }
    if (!checked.scopes.has(SEARCH_SCOPE) && !checked.scopes.has(ADMIN_SCOPE))
      return { refused: 'insufficient_scope', why: `the token lacks the scope ${SEARCH_SCOPE}` };
    return { identity: checked.identity };
  }

  /** The issuer's keys, once discovered; a failed discovery is tried again after REFETCH_MS, not on every request. */
  async #keySet(): Promise<KeySet> {
    if (!this.#keys && this.#now() - this.#failedAt >= REFETCH_MS) {
      this.#keys = discoverIssuer(this.issuer).then(
        (metadata) => {
          this.#metadata = metadata;
          return new KeySet(metadata.jwksUri, this.#now);
        },
        (error: unknown) => {
          this.#failedAt = this.#now();
          this.#keys = undefined;
          throw error;
        },
      );
    }
    if (!this.#keys) throw new Error('The OAuth issuer could not be reached; trying again shortly');
    return this.#keys;
  }
}
