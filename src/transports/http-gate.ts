/**
 * The security gate every HTTP request and upgrade passes before it is routed: Host and Origin
 * against DNS rebinding, then the credential. It answers with the caller the request speaks for
 * (see caller.ts), or throws the HttpError to send.
 *
 * Host and Origin are parsed, never prefix-matched: a page at `127.0.0.1.attacker.example`, rebound
 * to 127.0.0.1, sends exactly that name, and only an exact loopback name lets it through.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Caller } from '../caller.js';
import { httpErrors } from './http-errors.js';

/** `a.b.c.d` in canonical dotted decimal (no leading zeros, no other radix), each part 0–255. */
const DOTTED_QUAD = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * The names of this machine a browser can be pointed at without anyone's DNS: `localhost`, `[::1]`
 * and 127.0.0.0/8 in dotted decimal. Browsers send these canonical forms; a decimal or octal
 * spelling (`2130706433`, `0177.0.0.1`) is refused rather than interpreted, so that no parser's
 * reading of it matters.
 */
export function isLoopbackName(host: string): boolean {
  const name = host.toLowerCase();
  if (name === 'localhost' || name === '[::1]') return true;
  return DOTTED_QUAD.test(name) && name.startsWith('127.');
}

/** A bind address that only this machine can reach (the listening side, not a Host header). */
export function isLoopbackBind(address: string): boolean {
  return address === '::1' || isLoopbackName(address);
}

/** `host[:port]` or `[v6][:port]`: the host part, lowercased; undefined when it is not that shape. */
export function hostOf(authority: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^\s:/?#@[\]]+)(?::(\d{1,5}))?$/i.exec(authority);
  return match ? match[1]!.toLowerCase() : undefined;
}

/** An Origin header's host, when it is the serialised origin a browser sends (`scheme://host[:port]`). */
function originHost(origin: string): string | undefined {
  const match = /^https?:\/\/([^/?#]+)$/i.exec(origin);
  return match ? hostOf(match[1]!) : undefined;
}

export interface GateOptions {
  /** The address the server listens on. */
  bind: string;
  authToken?: string;
  /** Origins allowed besides this server's own names, compared as written (`https://ide.example.com`). */
  allowedOrigins?: string[];
  /** Names of this server besides the loopback ones (a reverse proxy's public name), host part only. */
  allowedHosts?: string[];
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** `Authorization: <scheme> <credential>`: the scheme lowercased (RFC 9110 makes it case-insensitive). */
function credentialOf(header: string | undefined): { scheme: string; credential: string } | undefined {
  const match = /^\s*([A-Za-z][\w!#$%&'*+.^`|~-]*)\s+(\S+)\s*$/.exec(header ?? '');
  return match ? { scheme: match[1]!.toLowerCase(), credential: match[2]! } : undefined;
}

/** One principal per credential, whatever the spelling of the header that carried it. */
function principalOf(header: string | undefined): string | undefined {
  const parsed = credentialOf(header);
  return parsed ? createHash('sha256').update(`${parsed.scheme} ${parsed.credential}`).digest('base64url') : undefined;
}

export class HttpGate {
  readonly #loopback: boolean;
  readonly #tokenDigest: Buffer | undefined;
  readonly #allowedOrigins: Set<string>;
  readonly #allowedHosts: Set<string>;
  /**
   * Over loopback with no credential, and no other name through which others may arrive, the
   * caller is the local user; otherwise a stranger until the token says so.
   */
  readonly reach: Caller['reach'];

  constructor(options: GateOptions) {
    this.#loopback = isLoopbackBind(options.bind);
    this.#tokenDigest = options.authToken ? digest(options.authToken) : undefined;
    this.#allowedOrigins = new Set(options.allowedOrigins ?? []);
    this.#allowedHosts = new Set((options.allowedHosts ?? []).map((host) => host.toLowerCase()));
    this.reach = this.#loopback && !this.#tokenDigest && this.#allowedHosts.size === 0 ? 'local' : 'remote';
  }

  /** Whether a request must show the token to be served (`/health` details, every data route). */
  get hasCredential(): boolean {
    return this.#tokenDigest !== undefined;
  }

  /** Host and Origin, then (when `needsToken`) the bearer token; the caller the request speaks for. */
  admit(req: IncomingMessage, needsToken: boolean): Caller {
    this.#checkHost(req.headers.host);
    this.#checkOrigin(req.headers.origin);
    const authorization = req.headers.authorization;
    if (needsToken && this.#tokenDigest && !this.verifies(authorization)) throw httpErrors.unauthorized();
    const principal = principalOf(authorization);
    return principal === undefined ? { reach: this.reach } : { reach: this.reach, principal };
  }

  /** Whether the header carries this server's bearer token (timing-safe). */
  verifies(authorization: string | undefined): boolean {
    const parsed = credentialOf(authorization);
    return !!this.#tokenDigest && parsed?.scheme === 'bearer' && timingSafeEqual(digest(parsed.credential), this.#tokenDigest);
  }

  /**
   * On loopback every Host must be a loopback name or an --allowed-host: that is what keeps a
   * rebound name out. On another address the token does that, and --allowed-host, when given,
   * turns the same check on.
   */
  #checkHost(header: string | undefined): void {
    if (!this.#loopback && this.#allowedHosts.size === 0) return;
    const host = header === undefined ? undefined : hostOf(header);
    if (host !== undefined && (isLoopbackName(host) || this.#allowedHosts.has(host))) return;
    throw httpErrors.forbidden(`Forbidden: Host "${header ?? ''}" is not a name of this server (see --allowed-host)`);
  }

  /** A browser's page may call only from an allowed origin, or from this server's own names. */
  #checkOrigin(origin: string | undefined): void {
    if (origin === undefined || this.#allowedOrigins.has(origin)) return;
    const host = originHost(origin);
    if (host !== undefined && ((this.#loopback && isLoopbackName(host)) || this.#allowedHosts.has(host))) return;
    throw httpErrors.forbidden(`Forbidden: Origin "${origin}" is not allowed (see --allowed-origin)`);
  }
}
