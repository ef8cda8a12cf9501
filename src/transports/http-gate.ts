/**
 * The security gate every HTTP request and upgrade passes before it is routed: Host and Origin
 * against DNS rebinding, then the credential. It answers with the caller the request speaks for
 * (see caller.ts), or throws the HttpError to send.
 *
 * Host and Origin are parsed, never prefix-matched: a page at `127.0.0.1.attacker.example`, rebound
 * to 127.0.0.1, sends exactly that name, and only an exact loopback name lets it through.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Caller } from '../caller.js';
import { SEARCH_SCOPE, type Credentials, type Verdict } from '../identity/index.js';
import { type HttpError, httpErrors } from './http-errors.js';

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

/** RFC 9728 §3.1: the well-known segment goes between the host and the resource's path. */
export function resourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname === '/' ? '' : url.pathname}`;
}

export interface GateOptions {
  /** The address the server listens on. */
  bind: string;
  /** Who a credential names (the static --auth-token and the named tokens). */
  credentials: Credentials;
  /** Origins allowed besides this server's own names, compared as written (`https://ide.example.com`). */
  allowedOrigins?: string[];
  /** Names of this server besides the loopback ones (a reverse proxy's public name), host part only. */
  allowedHosts?: string[];
}

/** `Authorization: <scheme> <credential>`: the scheme lowercased (RFC 9110 makes it case-insensitive). */
function credentialOf(header: string | undefined): { scheme: string; credential: string } | undefined {
  const match = /^\s*([A-Za-z][\w!#$%&'*+.^`|~-]*)\s+(\S+)\s*$/.exec(header ?? '');
  return match ? { scheme: match[1]!.toLowerCase(), credential: match[2]! } : undefined;
}

/** Where no credential is asked for, a header still keeps one caller's tasks apart from another's, whatever its spelling. */
function headerPrincipal(header: string | undefined): string | undefined {
  const parsed = credentialOf(header);
  return parsed ? createHash('sha256').update(`${parsed.scheme} ${parsed.credential}`).digest('base64url') : undefined;
}

/** Query parameters that carry a credential in a URL, where logs and proxies keep it: refused, never read. */
const CREDENTIAL_PARAMETERS = ['access_token', 'token', 'auth_token', 'authorization'];

export class HttpGate {
  readonly #loopback: boolean;
  readonly #credentials: Credentials;
  readonly #allowedOrigins: Set<string>;
  readonly #allowedHosts: Set<string>;

  constructor(options: GateOptions) {
    this.#loopback = isLoopbackBind(options.bind);
    this.#credentials = options.credentials;
    this.#allowedOrigins = new Set(options.allowedOrigins ?? []);
    this.#allowedHosts = new Set((options.allowedHosts ?? []).map((host) => host.toLowerCase()));
  }

  /**
   * Host and Origin, then the credential: on a data route (`needsCredential`) one is required
   * wherever any is configured (the --auth-token, or a named token), and a missing or unknown
   * one is a 401. Over loopback with no credential configured and no other name through which
   * others may arrive, the caller is the local user; otherwise a stranger until the credential
   * says who it is (`identity`).
   */
  async admit(req: IncomingMessage, query: Record<string, string>, needsCredential: boolean): Promise<Caller> {
    this.#checkHost(req.headers.host);
    this.#checkOrigin(req.headers.origin);
    const inUrl = CREDENTIAL_PARAMETERS.find((name) => query[name] !== undefined);
    if (inUrl) throw httpErrors.badRequest(`Bad request: a credential goes in the Authorization header, never in the URL (?${inUrl}= is refused)`);
    const authorization = req.headers.authorization;
    const [required, verdict] = await Promise.all([this.#credentials.required(), this.#credentials.identify(authorization)]);
    const identity = 'identity' in verdict ? verdict.identity : undefined;
    if (needsCredential && required && 'refused' in verdict) throw this.#refusal(verdict);
    const reach = this.#loopback && !required && this.#allowedHosts.size === 0 ? 'local' : 'remote';
    const principal = identity?.principal ?? (required ? undefined : headerPrincipal(authorization));
    return { reach, ...(principal !== undefined ? { principal } : {}), ...(identity ? { identity } : {}) };
  }

  /**
   * The answer RFC 6750 and the MCP authorization spec ask for: 401 with a challenge (naming the
   * Protected Resource Metadata when an OAuth issuer is configured), 403 for too little scope.
   */
  #refusal(verdict: Exclude<Verdict, { identity: unknown }>): HttpError {
    const oauth = this.#credentials.oauth;
    if (verdict.refused === 'unavailable') return httpErrors.authUnavailable();
    if (!oauth) return httpErrors.unauthorized(verdict.refused !== 'missing');
    const metadata = `resource_metadata="${resourceMetadataUrl(oauth.resource)}"`;
    if (verdict.refused === 'insufficient_scope')
      return httpErrors.insufficientScope(`Bearer error="insufficient_scope", scope="${SEARCH_SCOPE}", ${metadata}`);
    const error = verdict.refused === 'invalid_token' ? ', error="invalid_token"' : '';
    return httpErrors.unauthorized(true, `Bearer ${metadata}, scope="${SEARCH_SCOPE}"${error}`);
  }

  /** Whether the caller may see the server's own state (/health details) and act as its operator (/hooks/refresh). */
  async operates(caller: Caller): Promise<boolean> {
    return caller.identity?.admin === true || !(await this.#credentials.required());
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
