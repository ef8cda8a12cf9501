/**
 * Sealed `requestState` for multi round-trip requests (2026-07-28, basic/patterns/mrtr): the
 * server keeps nothing between rounds, so what it must remember travels through the client, which
 * the spec tells us to treat as an attacker. The state is HMAC-SHA256-signed over the method, a
 * digest of the request's salient parameters, an expiry, the principal (the bearer token's
 * digest when auth is on) and the data; anything that fails to verify is refused.
 *
 * The key comes from SEXTANT_STATE_KEY, else from `state.key` under SEXTANT_HOME (created once,
 * mode 0600): processes that share a home accept each other's state, so a retry may land on
 * another process behind a load balancer.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidParamsError, type Params } from '../jsonrpc/index.js';

/** How long a state stays acceptable: long enough for a user to answer an elicitation, short enough to bound replay. */
const DEFAULT_REQUEST_STATE_TTL_MS = 10 * 60_000;
const STATE_VERSION = 1;
const STATE_KEY_FILE = 'state.key';

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
  readonly #key: Buffer;
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(key: Buffer, options: { ttlMs?: number; now?: () => number } = {}) {
    this.#key = key;
    this.#ttlMs = options.ttlMs ?? DEFAULT_REQUEST_STATE_TTL_MS;
    this.#now = options.now ?? Date.now;
  }

  /** A key for this process alone (tests, a server nobody shares). */
  static ephemeral(): RequestStateSealer {
    return new RequestStateSealer(randomBytes(32));
  }

  seal(method: string, params: Params, data: unknown, principal?: string): string {
    const payload: Sealed = { v: STATE_VERSION, m: method, d: requestDigest(method, params), e: this.#now() + this.#ttlMs, s: data };
    if (principal) payload.p = principal;
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.#mac(body)}`;
  }

  /** The data sealed into `state`, once it is proven to be ours, current, and for this very request and principal. */
  open(state: unknown, method: string, params: Params, principal?: string): unknown {
    const refuse = (why: string): never => {
      throw new InvalidParamsError(`Invalid params: requestState ${why}; send the request again without requestState and inputResponses`);
    };
    if (typeof state !== 'string') return refuse('must be the string this server returned');
    const [body, mac, extra] = state.split('.');
    if (!body || !mac || extra !== undefined) return refuse('is not one this server issued');
    const expected = Buffer.from(this.#mac(body));
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

  #mac(body: string): string {
    return createHmac('sha256', this.#key).update(body).digest('base64url');
  }
}

/**
 * The shared key: SEXTANT_STATE_KEY (any text; hashed to 32 bytes), else `state.key` under
 * `home`, created with mode 0600 by whichever process comes first (O_EXCL, so two starting at
 * once agree on one key).
 */
export function loadStateKey(home: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  if (env.SEXTANT_STATE_KEY) return createHash('sha256').update(env.SEXTANT_STATE_KEY).digest();
  const file = join(home, STATE_KEY_FILE);
  mkdirSync(home, { recursive: true });
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
