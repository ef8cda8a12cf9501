/**
 * Sealed `requestState` for multi round-trip requests (2026-07-28, basic/patterns/mrtr): the
 * server keeps nothing between rounds, so what it must remember travels through the client, which
 * the spec tells us to treat as an attacker. The state is HMAC-SHA256-signed over the method, a
 * digest of the request's salient parameters, an expiry, the principal (the bearer token's
 * digest when auth is on) and the data; anything that fails to verify is refused.
 *
 * The keys come from the coordination seam (SEXTANT_STATE_KEY, else `state.key` under
 * SEXTANT_HOME, else a team's database): processes that share them accept each other's state, so
 * a retry may land on another replica behind a load balancer. Keys rotate: the ring is read again
 * now and then (so that sealing moves to a new key), and at once when a state names a key this
 * process has not seen (another replica already seals with it).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { KeyRing, type StateKeyRing } from '../coordination/index.js';
import { InvalidParamsError, type Params } from '../jsonrpc/index.js';

/** How long a state stays acceptable: long enough for a user to answer an elicitation, short enough to bound replay. */
const DEFAULT_REQUEST_STATE_TTL_MS = 10 * 60_000;
const STATE_VERSION = 1;
/** How old the ring may get before it is read again, for sealing with a key rotated in elsewhere. */
const KEY_RING_REFRESH_MS = 60_000;
/** At most one read of the ring for unknown key ids this often: a stream of forged ids costs little. */
const KEY_MISS_REFRESH_MS = 1_000;

/** What a request is, for the purpose of its state: the method and the parameters that decide its outcome. */
function requestDigest(method: string, params: Params): string {
  const salient = method === 'resources/read' ? { uri: params.uri } : { name: params.name, arguments: params.arguments ?? {} };
  return createHash('sha256').update(method).update('\0').update(stableJson(salient)).digest('base64url');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Params)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

interface Sealed {
  v: number;
  m: string;
  d: string;
  e: number;
  p?: string;
  s: unknown;
}

export class RequestStateSealer {
  #keys: StateKeyRing;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #reload: (() => Promise<StateKeyRing>) | undefined;
  #readAt: number;
  /** When a state naming an unknown key last made the ring be read (the first such always does). */
  #missReadAt = -Infinity;
  #reading: Promise<void> | undefined;

  /** `reload`: reads the ring again (its store may have rotated); without it the ring never changes. */
  constructor(keys: StateKeyRing, options: { ttlMs?: number; now?: () => number; reload?: () => Promise<StateKeyRing> } = {}) {
    this.#keys = keys;
    this.#ttlMs = options.ttlMs ?? DEFAULT_REQUEST_STATE_TTL_MS;
    this.#now = options.now ?? Date.now;
    this.#reload = options.reload;
    this.#readAt = this.#now();
  }

  /** A key for this process alone (tests, a server nobody shares). */
  static ephemeral(): RequestStateSealer {
    return new RequestStateSealer(KeyRing.ephemeral());
  }

  seal(method: string, params: Params, data: unknown, principal?: string): string {
    if (this.#now() - this.#readAt > KEY_RING_REFRESH_MS) void this.#read(); // this seal uses the ring as it is
    const payload: Sealed = { v: STATE_VERSION, m: method, d: requestDigest(method, params), e: this.#now() + this.#ttlMs, s: data };
    if (principal) payload.p = principal;
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    // `keyId.body.mac`: the id says which key to check the mac with (the mac covers it too).
    const key = this.#keys.current;
    const signed = `${key.id}.${body}`;
    return `${signed}.${this.#mac(key.secret, signed)}`;
  }

  /** The data sealed into `state`, once it is proven to be ours, current, and for this very request and principal. */
  async open(state: unknown, method: string, params: Params, principal?: string): Promise<unknown> {
    const refuse = (why: string): never => {
      throw new InvalidParamsError(`Invalid params: requestState ${why}; send the request again without requestState and inputResponses`);
    };
    if (typeof state !== 'string') return refuse('must be the string this server returned');
    const parts = state.split('.');
    // Two parts: sealed before keys had ids, with the key that is current.
    if (parts.length !== 2 && parts.length !== 3) return refuse('is not one this server issued');
    const [keyId, body, mac] = parts.length === 3 ? parts : [undefined, ...parts];
    if (!body || !mac) return refuse('is not one this server issued');
    if (!this.#keys.find(keyId) && this.#now() - this.#missReadAt > KEY_MISS_REFRESH_MS) {
      this.#missReadAt = this.#now();
      await this.#read();
    }
    const key = this.#keys.find(keyId);
    if (!key) return refuse('was sealed with a key this server does not accept (unknown, or rotated out)');
    const expected = Buffer.from(this.#mac(key.secret, keyId === undefined ? body : `${keyId}.${body}`));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return refuse('failed its integrity check (tampered, or sealed with another key)');
    let payload: Sealed;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Sealed;
    } catch {
      return refuse('is not one this server issued');
    }
    if (payload.v !== STATE_VERSION) return refuse('is of another version');
    if (payload.e < this.#now()) return refuse('has expired');
    if (payload.m !== method || payload.d !== requestDigest(method, params)) return refuse('belongs to another request');
    if ((payload.p ?? undefined) !== (principal ?? undefined)) return refuse('belongs to another principal');
    return payload.s;
  }

  /** Reads the ring again, once at a time; a store that cannot be read leaves the ring as it was. */
  #read(): Promise<void> {
    const reload = this.#reload;
    if (!reload) return Promise.resolve();
    this.#reading ??= reload()
      .then(
        (keys) => {
          this.#keys = keys;
        },
        () => undefined,
      )
      .finally(() => {
        this.#readAt = this.#now();
        this.#reading = undefined;
      });
    return this.#reading;
  }

  #mac(secret: Buffer, signed: string): string {
    return createHmac('sha256', secret).update(signed).digest('base64url');
  }
}
