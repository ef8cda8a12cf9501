/**
 * The one node:http server behind every network transport: routing, the security gate (Host,
 * Origin, bearer token) applied to every request and upgrade, and `/health`.
 *
 *   /mcp       Streamable HTTP; a GET without a session id or a protocol version is a legacy SSE connection
 *   /sse       legacy HTTP+SSE stream      /messages  legacy HTTP+SSE posts
 *   /ws        WebSocket (upgrade)         /health    liveness for load balancers
 *   /status/events  the status page's live feed (http-status.ts); the page itself: http-page.ts
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { AuditLog } from '../platform/audit.js';
import { silentLogger, type Logger } from '../platform/log.js';
import type { McpServer } from '../mcp/index.js';
import { DEFAULT_MAX_BODY_BYTES } from './http-body.js';
import { HttpError, httpErrors, sendHttpError } from './http-errors.js';
import { LegacySseEndpoint, MESSAGES_PATH } from './legacy-sse.js';
import { DEFAULT_MAX_SESSIONS, StreamableHttpEndpoint } from './streamable-http.js';
import { WebSocketEndpoint } from './websocket.js';
import { HttpGate, isLoopbackBind, resourceMetadataUrl } from './http-gate.js';
import { boundConnections } from './http-connections.js';
import { isPagePath, servePage, type PageSignIn } from './http-page.js';
import { STATUS_EVENTS_PATH, StatusEvents, type StatusSource } from './http-status.js';
import type { Caller } from '../caller.js';
import { ADMIN_SCOPE, Credentials, SEARCH_SCOPE } from '../identity/index.js';
import { REGISTRY_LESS_PATHS, type ProjectPathCheck } from '../workspace/detect.js';

import { DEFAULT_BIND, DEFAULT_MAX_CONNECTIONS, DEFAULT_PORT } from './http-defaults.js';
/**
 * Time allowed to receive a whole request (headers and body; a response may stream for as long
 * as it likes). A client that declares more body than it sends, or trickles it, is answered 408
 * and disconnected instead of holding a connection for Node's default 300 s.
 */
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Time allowed to receive a request's headers (slowloris). */
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
const TRANSPORT_NAMES = ['streamable-http', 'sse', 'websocket'] as const;

export interface HttpServerOptions {
  port?: number;
  host?: string;
  authToken?: string;
  /** Who a credential names: the --auth-token and the named tokens (without it, the --auth-token alone). */
  credentials?: Credentials;
  /** `--audit-log`: a line per refusal at the gate (401, 403). */
  audit?: AuditLog;
  /** Origins allowed besides loopback ones (e.g. `https://ide.example.com`). */
  allowedOrigins?: string[];
  /** Names of this server besides the loopback ones, for the Host check (a reverse proxy's public name). */
  allowedHosts?: string[];
  /** How the server's places are shown to a caller (ProjectService.pathMask): /health's details to a remote token holder. */
  pathMask?: (caller: Caller) => (text: string) => string;
  /** How `?project_path=` is checked for a caller (ProjectService.checkProjectPath); without it, only the local user names paths. */
  projectPaths?: ProjectPathCheck;
  maxBodyBytes?: number;
  maxSessions?: number;
  /** Open connections at once (DEFAULT_MAX_CONNECTIONS); past it new ones are closed as they arrive. */
  maxConnections?: number;
  /** See DEFAULT_MAX_QUEUED_OUTPUT_BYTES. */
  maxQueuedOutputBytes?: number;
  sessionIdleMs?: number;
  /** See DEFAULT_UNINITIALIZED_IDLE_MS. */
  uninitializedIdleMs?: number;
  requestTimeoutMs?: number;
  headersTimeoutMs?: number;
  retryMs?: number;
  /** SSE polling (SEP-1699): close a call's stream after this long, leaving the client to resume it. Off by default. */
  pollAfterMs?: number;
  logger?: Logger;
  tap?: (sessionLabel: string) => Parameters<McpServer['createSession']>[0]['tap'];
  /** A team replica: what /health adds (the replica, and the commit served per project). */
  replicaHealth?: () => Record<string, unknown>;
  /** A team replica: whether it serves every registered project's target (/ready answers 200, else 503), and why not. */
  readiness?: () => { ready: boolean; detail: Record<string, unknown> };
  /** A team replica: POST /hooks/refresh?project=NAME (token required) asks for the project's branch to be looked at now; false for an unknown name. */
  refreshHook?: (project: string) => Promise<boolean>;
  /** `--web-client-id`: the web page signs in through the OAuth issuer as this public client. */
  webClientId?: string;
  /** What GET /status/events pushes to the status page (without it, that route is not here). */
  status?: StatusSource;
}

export interface RunningHttpServer {
  port: number;
  host: string;
  urls: { mcp: string; sse: string; ws: string; health: string };
  close(): Promise<void>;
}

class PortInUseError extends Error {
  readonly code = 'SEXTANT_ERR_PORT_IN_USE';
  constructor(host: string, port: number) {
    super(`Port ${port} on ${host} is already in use: stop what is using it, or pick another with --port`);
  }
}

export class UnsafeBindError extends Error {
  readonly code = 'SEXTANT_ERR_UNSAFE_BIND';
  constructor(message: string) {
    super(message);
  }
}

/**
 * What the listener refuses to start with: an open door to others, or a token no header can
 * carry. `guarded`: a credential is required (the --auth-token, or a named token exists).
 */
function checkExposure(host: string, options: HttpServerOptions, guarded: boolean): void {
  if (!isLoopbackBind(host) && !guarded)
    throw new UnsafeBindError(
      `Refusing to listen on ${host} without credentials: set --auth-token or SEXTANT_AUTH_TOKEN, ` +
        'create a token (sextant token create NAME), or bind 127.0.0.1',
    );
  // A proxy's public name lets others in through loopback: they are strangers, as on any address.
  if ((options.allowedHosts ?? []).length > 0 && !guarded)
    throw new UnsafeBindError(
      'Refusing --allowed-host without credentials: clients arriving by that name are not the local user; set --auth-token or create a token',
    );
  if (options.authToken !== undefined && /\s/.test(options.authToken))
    throw new UnsafeBindError('The auth token must not contain white space: no Authorization header could carry it');
}

export async function startHttpServer(server: McpServer, options: HttpServerOptions = {}): Promise<RunningHttpServer> {
  const host = options.host ?? DEFAULT_BIND;
  const credentials = options.credentials ?? new Credentials({ authToken: options.authToken });
  checkExposure(host, options, await credentials.required());
  const gate = new HttpGate({ bind: host, credentials, allowedOrigins: options.allowedOrigins, allowedHosts: options.allowedHosts });
  const projectPaths = options.projectPaths ?? REGISTRY_LESS_PATHS;
  /**
   * `?project_path=` names the client's project on any MCP URL: one this caller may not reach, or
   * that does not exist, is refused at the door (400) in the same words, before any session exists.
   */
  const checkProjectParameter = (query: Record<string, string>, caller: Caller): void => {
    if (query.project_path === undefined) return;
    const checked = projectPaths(query.project_path, caller);
    if ('error' in checked) throw httpErrors.badRequest(checked.error);
  };
  const logger = options.logger ?? silentLogger;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const startedAt = Date.now();

  const streamable = new StreamableHttpEndpoint({
    server,
    logger,
    maxBodyBytes,
    maxSessions,
    sessionIdleMs: options.sessionIdleMs,
    uninitializedIdleMs: options.uninitializedIdleMs,
    retryMs: options.retryMs,
    pollAfterMs: options.pollAfterMs,
    maxQueuedOutputBytes: options.maxQueuedOutputBytes,
    tap: options.tap,
  });
  const shared = { server, logger, maxSessions, maxQueuedOutputBytes: options.maxQueuedOutputBytes, tap: options.tap };
  const legacy = new LegacySseEndpoint({ ...shared, maxBodyBytes });
  const websocket = new WebSocketEndpoint({ ...shared, maxPayloadBytes: maxBodyBytes });
  /** A long-lived connection's caller now, if its credential still holds and names the same principal (asked before each use). */
  const callerNow = (req: IncomingMessage, query: Record<string, string>, caller: Caller): Promise<Caller | undefined> =>
    gate.admit(req, query, true).then(
      (now) => (now.principal === caller.principal ? now : undefined),
      () => undefined,
    );
  const statusEvents =
    options.status &&
    new StatusEvents({
      server,
      source: options.status,
      startedAt,
      operates: (caller) => gate.operates(caller),
      callerNow: (req, caller) => callerNow(req, {}, caller),
      mask: (caller) => (options.pathMask ? options.pathMask(caller) : (text) => text),
    });

  /**
   * Liveness for anyone; the details (projects, sessions, the replica) only for whoever operates
   * the server: where credentials are configured, the --auth-token's holder or an admin token's.
   */
  const health = async (caller: Caller, res: ServerResponse): Promise<void> => {
    if (!(await gate.operates(caller))) {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify({ status: 'up' }));
      return;
    }
    const sessions = { 'streamable-http': streamable.sessionCount, sse: legacy.sessionCount, websocket: websocket.sessionCount };
    const details = JSON.stringify({
      status: 'ready',
      ...server.health(),
      version: server.identity.version,
      uptime_seconds: Math.round((Date.now() - startedAt) / 100) / 10,
      transports: TRANSPORT_NAMES,
      sessions: { ...sessions, total: sessions['streamable-http'] + sessions.sse + sessions.websocket },
      ...options.replicaHealth?.(),
    });
    // A token holder is still a remote caller: the server's places by name (the threat model).
    const body = options.pathMask ? options.pathMask(caller)(details) : details;
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(body);
  };

  /** Readiness for a load balancer: a server with no team work is ready once it listens. */
  const ready = async (caller: Caller, res: ServerResponse): Promise<void> => {
    const { ready: isReady, detail } = options.readiness?.() ?? { ready: true, detail: {} };
    const shown = (await gate.operates(caller)) ? detail : {};
    res.writeHead(isReady ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify({ ready: isReady, ...shown }));
  };

  /**
   * With an OAuth issuer, the Protected Resource Metadata (RFC 9728) at the resource's own
   * well-known URL and at the root form; anything else under /.well-known is not here.
   */
  const protectedResourceMetadata = (path: string, req: IncomingMessage, res: ServerResponse): void => {
    const oauth = credentials.oauth;
    const own = oauth && new URL(resourceMetadataUrl(oauth.resource)).pathname;
    if (!oauth || (path !== own && path !== '/.well-known/oauth-protected-resource')) throw httpErrors.notFound(path);
    if (req.method !== 'GET' && req.method !== 'HEAD') throw httpErrors.methodNotAllowed(req.method ?? '?', ['GET']);
    const document = {
      resource: oauth.resource,
      authorization_servers: [oauth.issuer],
      scopes_supported: [SEARCH_SCOPE, ADMIN_SCOPE],
      bearer_methods_supported: ['header'],
      resource_name: 'Sextant',
    };
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' }).end(JSON.stringify(document));
  };

  /** How the page signs in through the issuer, once its endpoints are known (undefined without --web-client-id). */
  const pageSignIn = async (): Promise<PageSignIn | undefined> => {
    const oauth = credentials.oauth;
    if (!oauth || options.webClientId === undefined) return undefined;
    const endpoints = await oauth.browserEndpoints();
    if (!endpoints) return undefined;
    return {
      issuer: oauth.issuer,
      authorizationEndpoint: endpoints.authorization,
      tokenEndpoint: endpoints.token,
      clientId: options.webClientId,
      resource: oauth.resource,
      scope: SEARCH_SCOPE,
    };
  };

  const refresh = async (caller: Caller, query: Record<string, string>, res: ServerResponse): Promise<void> => {
    // Asking every replica to fetch now is the operator's to do: with named tokens, an admin's.
    if (!(await gate.operates(caller))) {
      const oauth = credentials.oauth;
      if (oauth && caller.identity?.principal.startsWith('user:'))
        throw httpErrors.insufficientScope(
          `Bearer error="insufficient_scope", scope="${ADMIN_SCOPE}", resource_metadata="${resourceMetadataUrl(oauth.resource)}"`,
        );
      throw httpErrors.forbidden('Forbidden: /hooks/refresh needs an admin credential');
    }
    const project = query.project;
    if (!project) throw httpErrors.badRequest('Bad request: name the project: POST /hooks/refresh?project=NAME');
    if (!options.refreshHook) throw httpErrors.notFound('/hooks/refresh');
    if (!(await options.refreshHook(project))) throw httpErrors.notFound(`/hooks/refresh?project=${project} (no project of that name is registered)`);
    res.writeHead(202, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify({ requested: project }));
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const query = Object.fromEntries(url.searchParams);
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    // A static token is not MCP authorization: OAuth discovery finds nothing here, token or not,
    // so a client does not start an OAuth flow that cannot exist (Host and Origin still apply).
    const discovery = path.startsWith('/.well-known/');
    const probe = path === '/health' || path === '/ready';
    // The web page's document and files hold no data: they need no credential (its MCP calls do).
    const page = isPagePath(path);
    const caller = await gate.admit(req, query, !probe && !discovery && !page);
    if (discovery) return protectedResourceMetadata(path, req, res);
    if (page) return servePage(path, req, res, pageSignIn);
    if (!probe) checkProjectParameter(query, caller);
    switch (path) {
      case '/health':
        if (req.method !== 'GET' && req.method !== 'HEAD') throw httpErrors.methodNotAllowed(req.method ?? '?', ['GET']);
        return health(caller, res);
      case '/ready':
        if (req.method !== 'GET' && req.method !== 'HEAD') throw httpErrors.methodNotAllowed(req.method ?? '?', ['GET']);
        return ready(caller, res);
      case '/hooks/refresh':
        if (req.method !== 'POST') throw httpErrors.methodNotAllowed(req.method ?? '?', ['POST']);
        return refresh(caller, query, res);
      case '/mcp':
        // A GET without a session id that wants SSE is an old (2024-11-05) client looking for the
        // legacy stream, unless it sends MCP-Protocol-Version, which no 2024-11-05 client does: a
        // Streamable HTTP client (the AI SDK opens one before initialize) is told there is no
        // stream for it without a session (405: the answer clients take for "no GET stream").
        if (req.method === 'GET' && req.headers['mcp-session-id'] === undefined && (req.headers.accept ?? '').includes('text/event-stream')) {
          if (req.headers['mcp-protocol-version'] !== undefined) throw httpErrors.noSessionStream();
          return legacy.open(req, res, query, caller);
        }
        return streamable.handle(req, res, query, caller);
      case '/sse':
        if (req.method !== 'GET') throw httpErrors.methodNotAllowed(req.method ?? '?', ['GET']);
        return legacy.open(req, res, query, caller);
      case MESSAGES_PATH:
        if (req.method !== 'POST') throw httpErrors.methodNotAllowed(req.method ?? '?', ['POST']);
        return legacy.post(req, res, query, caller);
      case STATUS_EVENTS_PATH:
        if (!statusEvents) throw httpErrors.notFound(path);
        return statusEvents.open(req, res, caller);
      case '/ws':
        throw httpErrors.badRequest('Bad request: /ws expects a WebSocket upgrade');
      default:
        throw httpErrors.notFound(path);
    }
  };

  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, requestTimeout);
  // Node checks these timeouts on an interval (30 s by default): often enough that they hold to the second.
  const timeouts = { requestTimeout, headersTimeout, connectionsCheckingInterval: Math.max(50, Math.min(1_000, headersTimeout / 2)) };
  /** A refusal for want of a credential or a right, in the audit log: the route, never its query (which may hold a token). */
  const audited = (error: HttpError, url: string | undefined): void => {
    if (!options.audit || (error.status !== 401 && error.status !== 403)) return;
    const challenge = error.headers['www-authenticate'] ?? '';
    const outcome = /insufficient_scope/.test(challenge)
      ? 'insufficient_scope'
      : /invalid_token/.test(challenge)
        ? 'invalid_token'
        : error.status === 401
          ? 'missing'
          : 'forbidden';
    options.audit.record({ event: 'refusal', outcome, status: error.status, route: new URL(url ?? '/', 'http://localhost').pathname });
  };
  const httpServer: Server = createServer(timeouts, (req, res) => {
    route(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) {
        audited(error, req.url);
        return sendHttpError(res, error);
      }
      // The route, never its query: an address may carry what must not be logged (an authorization code on /signed-in).
      logger.error(`Failed to handle ${req.method} ${new URL(req.url ?? '/', 'http://localhost').pathname}`, error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end();
    });
  });
  boundConnections(httpServer, { maxConnections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS, silentMs: headersTimeout, logger });

  httpServer.on('upgrade', function serverOnUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    // Node takes its own error listener off the socket before 'upgrade'; until ws puts one on, a
    // peer that resets the connection while the credential is checked must not crash the process.
    socket.on('error', () => socket.destroy());
    const upgrade = async (): Promise<void> => {
      if (url.pathname !== '/ws') throw httpErrors.notFound(url.pathname);
      const query = Object.fromEntries(url.searchParams);
      const caller = await gate.admit(req, query, true);
      checkProjectParameter(query, caller);
      const stillAdmitted = (): Promise<boolean> => callerNow(req, query, caller).then((now) => now !== undefined);
      if (socket.destroyed) return;
      if (!websocket.upgrade(req, socket, head, query, caller, stillAdmitted)) throw httpErrors.busy(maxSessions);
    };
    upgrade().catch((error: unknown) => {
      if (error instanceof HttpError) audited(error, req.url);
      const status = error instanceof HttpError ? error.status : 500;
      const message = error instanceof Error ? error.message : 'error';
      const challenge = error instanceof HttpError && error.headers['www-authenticate'] ? `WWW-Authenticate: ${error.headers['www-authenticate']}\r\n` : '';
      socket.end(`HTTP/1.1 ${status} ${message.replace(/[\r\n]/g, ' ')}\r\n${challenge}Connection: close\r\nContent-Length: 0\r\n\r\n`);
    });
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(host, options.port ?? DEFAULT_PORT) : error),
    );
    httpServer.listen(options.port ?? DEFAULT_PORT, host, () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;
  const base = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    port,
    host,
    urls: { mcp: `http://${base}/mcp`, sse: `http://${base}/sse`, ws: `ws://${base}/ws`, health: `http://${base}/health` },
    close: () =>
      new Promise<void>((resolve) => {
        streamable.close();
        legacy.close();
        websocket.close();
        statusEvents?.close();
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      }),
  };
}
