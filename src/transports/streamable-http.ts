/**
 * Streamable HTTP (MCP 2025-03-26 and later) on the `/mcp` endpoint: POST carries one message
 * (or a 2025-03-26 batch), GET opens or resumes a stream, DELETE ends a session. Gate checks
 * (headers, session, version) happen here; everything else is the session's business.
 */
import type { Caller } from '../caller.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { batchTooLarge, classify, MAX_BATCH_ENTRIES, type Params, type RequestId } from '../jsonrpc/index.js';
import { batchRefusal, isHandshakeVersion, isStatelessRequest, type McpServer, type MessageContext } from '../mcp/index.js';
import type { Logger } from '../platform/log.js';
import { HttpError, httpErrors, sendHttpError } from './http-errors.js';
import { DEFAULT_SSE_AFTER_MS, HttpSession } from './http-session.js';
import { readJsonBody } from './http-body.js';
import { serveStatelessRequest } from './http-stateless.js';

export const DEFAULT_MAX_SESSIONS = 256;
const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
/**
 * A session whose client never finished initializing (no notifications/initialized, nothing
 * since) is let go after this long: an abandoned handshake must not hold a slot for 30 minutes.
 */
const DEFAULT_UNINITIALIZED_IDLE_MS = 30_000;
/** Retry-After when the limit is reached because sessions hold open streams (long-lived by nature). */
const STREAMS_RETRY_AFTER_S = 60;
/** Retry-After when some sessions at the limit only wait for an answer (they go idle soon). */
const REQUESTS_RETRY_AFTER_S = 1;

export interface StreamableHttpOptions {
  server: McpServer;
  logger: Logger;
  maxBodyBytes: number;
  maxSessions?: number;
  sessionIdleMs?: number;
  uninitializedIdleMs?: number;
  retryMs?: number;
  pollAfterMs?: number;
  maxQueuedOutputBytes?: number;
  /** See DEFAULT_SSE_AFTER_MS. */
  sseAfterMs?: number;
  tap?: (sessionId: string) => Parameters<McpServer['createSession']>[0]['tap'];
}

function accepts(req: IncomingMessage, type: string): boolean {
  const accept = req.headers.accept ?? '';
  return accept.split(',').some((part) => {
    const value = part.split(';')[0]!.trim().toLowerCase();
    return value === type || value === '*/*' || value === `${type.split('/')[0]}/*`;
  });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export class StreamableHttpEndpoint {
  readonly #options: StreamableHttpOptions;
  readonly #sessions = new Map<string, HttpSession>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(options: StreamableHttpOptions) {
    this.#options = options;
    const idle = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
    const uninitialized = options.uninitializedIdleMs ?? DEFAULT_UNINITIALIZED_IDLE_MS;
    this.#sweeper = setInterval(() => this.#expire(idle, uninitialized), Math.max(50, Math.min(idle, uninitialized, 10_000) / 2));
    this.#sweeper.unref();
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  async handle(req: IncomingMessage, res: ServerResponse, query: Record<string, string>, caller: Caller): Promise<void> {
    try {
      if (req.method === 'POST') return await this.#post(req, res, query, caller);
      if (req.method === 'GET') return this.#get(req, res, caller);
      if (req.method === 'DELETE') return this.#delete(req, res, caller);
      throw httpErrors.methodNotAllowed(req.method ?? '?', ['GET', 'POST', 'DELETE']);
    } catch (error) {
      if (error instanceof HttpError) return sendHttpError(res, error);
      throw error;
    }
  }

  close(): void {
    clearInterval(this.#sweeper);
    for (const session of this.#sessions.values()) session.close();
    this.#sessions.clear();
  }

  async #post(req: IncomingMessage, res: ServerResponse, query: Record<string, string>, caller: Caller): Promise<void> {
    const type = header(req, 'content-type');
    if (!type || type.split(';')[0]!.trim().toLowerCase() !== 'application/json') throw httpErrors.unsupportedMediaType(type);
    if (!accepts(req, 'application/json') || !accepts(req, 'text/event-stream')) {
      throw httpErrors.notAcceptable('Accept must list both application/json and text/event-stream');
    }
    const body = await readJsonBody(req, this.#options.maxBodyBytes);
    const sessionId = header(req, 'mcp-session-id');
    const single = Array.isArray(body) ? undefined : classify(body);

    // 2026-07-28 (even an `initialize` carrying 2026-07-28 _meta, which that revision removed): no session; the request carries its version
    // and capabilities (http-stateless.ts).
    if (
      sessionId === undefined &&
      single?.kind === 'request' &&
      isStatelessRequest(single.message.method, single.message.params?._meta as Params | undefined)
    ) {
      const extra: MessageContext = { transport: 'streamable-http', caller, query, headers: req.headers, paramHeaders: req.headers };
      return serveStatelessRequest(this.#options.server, req, res, single.message, extra, this.#options.tap?.('http-2026'));
    }
    if (single?.kind === 'request' && single.message.method === 'initialize') {
      if (sessionId !== undefined) throw httpErrors.badRequest('initialize must be sent without an MCP-Session-Id header');
      return this.#initialize(body, res, query, req, caller);
    }
    const session = this.#session(sessionId, caller);
    this.#checkVersionHeader(req);
    const extra = this.#extra(session, query, req, caller);

    if (Array.isArray(body)) return this.#batch(session, body, res, extra);
    if (!single || single.kind === 'invalid') {
      const error = single?.kind === 'invalid' ? single.error : httpErrors.badRequest('Invalid request');
      throw new HttpError(400, error.rpcCode, error.code, error.message);
    }
    if (single.kind !== 'request') {
      await session.mcp.receive(body, extra);
      res.writeHead(202).end();
      return;
    }
    if (session.inFlight(single.message.id)) throw httpErrors.idInUse(single.message.id);
    const exchange = session.exchange(res, [single.message.id], false);
    exchange.sseAfter(this.#options.sseAfterMs ?? DEFAULT_SSE_AFTER_MS);
    await session.mcp.receive(body, extra);
  }

  async #initialize(body: unknown, res: ServerResponse, query: Record<string, string>, req: IncomingMessage, caller: Caller): Promise<void> {
    const limit = this.#options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    if (this.#sessions.size >= limit) this.#evictIdle(limit);
    const sessionOptions: ConstructorParameters<typeof HttpSession>[0] = { server: this.#options.server, logger: this.#options.logger };
    if (this.#options.retryMs !== undefined) sessionOptions.retryMs = this.#options.retryMs;
    if (this.#options.pollAfterMs !== undefined) sessionOptions.pollAfterMs = this.#options.pollAfterMs;
    if (this.#options.maxQueuedOutputBytes !== undefined) sessionOptions.maxQueuedOutputBytes = this.#options.maxQueuedOutputBytes;
    if (this.#options.tap) sessionOptions.tap = this.#options.tap;
    const session = new HttpSession(sessionOptions);
    session.principal = caller.identity?.principal;
    const id = (body as { id: RequestId }).id;
    const exchange = session.exchange(res, [id], false);
    exchange.headers = { 'mcp-session-id': session.id };
    this.#sessions.set(session.id, session);
    await session.mcp.receive(body, this.#extra(session, query, req, caller));
    // A refused initialize leaves no session behind.
    if (session.mcp.protocolVersion === undefined) {
      this.#sessions.delete(session.id);
      session.close();
    } else {
      this.#options.logger.info(`Streamable HTTP session ${session.id.slice(0, 8)}… started (${session.mcp.protocolVersion})`);
    }
  }

  async #batch(session: HttpSession, body: unknown[], res: ServerResponse, extra: MessageContext): Promise<void> {
    if (body.length === 0) throw httpErrors.badRequest('Invalid request: empty batch');
    // Refused here, not by the engine: its refusal has no id, so no exchange of this POST would carry it.
    if (body.length > MAX_BATCH_ENTRIES) throw httpErrors.badRequest(batchTooLarge(body.length).message);
    const refusal = batchRefusal(session.mcp.protocolVersion, body);
    if (refusal) throw httpErrors.badRequest(refusal.message);
    const ids = body.flatMap((item) => {
      const classified = classify(item);
      return classified.kind === 'request' ? [classified.message.id] : [];
    });
    if (ids.length === 0) {
      await session.mcp.receive(body, extra);
      res.writeHead(202).end();
      return;
    }
    const reused = ids.find((id) => session.inFlight(id));
    if (reused !== undefined) throw httpErrors.idInUse(reused);
    session.exchange(res, ids, true);
    await session.mcp.receive(body, extra);
  }

  #get(req: IncomingMessage, res: ServerResponse, caller: Caller): void {
    if (!accepts(req, 'text/event-stream')) throw httpErrors.notAcceptable('Accept must list text/event-stream');
    const session = this.#session(header(req, 'mcp-session-id'), caller);
    this.#checkVersionHeader(req);
    const lastEventId = header(req, 'last-event-id');
    if (lastEventId !== undefined) {
      if (!session.resume(res, lastEventId)) throw httpErrors.badRequest(`Cannot resume after event "${lastEventId}": unknown or no longer buffered`);
      return;
    }
    session.openGetStream(res);
  }

  #delete(req: IncomingMessage, res: ServerResponse, caller: Caller): void {
    const session = this.#session(header(req, 'mcp-session-id'), caller);
    this.#sessions.delete(session.id);
    session.close();
    this.#options.logger.info(`Streamable HTTP session ${session.id.slice(0, 8)}… ended by the client`);
    res.writeHead(204).end();
  }

  #session(sessionId: string | undefined, caller: Caller): HttpSession {
    if (sessionId === undefined) throw httpErrors.badRequest('Bad request: missing MCP-Session-Id header (initialize first)');
    const session = this.#sessions.get(sessionId);
    // A session id is not a credential: another principal a credential proved finds no session.
    // (Without credentials configured, nothing proves who sends a request: as before, not bound.)
    if (!session || session.principal !== caller.identity?.principal) throw httpErrors.sessionNotFound();
    session.lastSeen = Date.now();
    // The map is kept in order of use, least recent first: eviction takes the first idle one.
    this.#sessions.delete(sessionId);
    this.#sessions.set(sessionId, session);
    return session;
  }

  #checkVersionHeader(req: IncomingMessage): void {
    const version = header(req, 'mcp-protocol-version');
    // Absent: assume 2025-03-26, as the spec says. Present: it must be a revision we speak.
    if (version !== undefined && !isHandshakeVersion(version)) {
      throw httpErrors.badRequest(`Unsupported MCP-Protocol-Version "${version}"`);
    }
  }

  #extra(session: HttpSession, query: Record<string, string>, req: IncomingMessage, caller: Caller): MessageContext {
    return { transport: 'streamable-http', caller, sessionId: session.id, query, headers: req.headers, paramHeaders: req.headers };
  }

  #expire(idleMs: number, uninitializedIdleMs: number): void {
    const now = Date.now();
    for (const [id, session] of this.#sessions) {
      if (session.active) continue;
      const limit = session.mcp.clientReady ? idleMs : uninitializedIdleMs;
      if (session.lastSeen >= now - limit) continue;
      this.#sessions.delete(id);
      session.close();
      this.#options.logger.info(
        `Streamable HTTP session ${id.slice(0, 8)}… expired after ${Math.round(limit / 1000)} s idle${session.mcp.clientReady ? '' : ' (never initialized)'}`,
      );
    }
  }

  /**
   * At the limit, a new client takes the place of the least recently used idle session (the
   * spec lets a server end a session at any time; its client gets 404 and starts a new one), so
   * abandoned sessions never lock others out. Only when every session is in use is it 503.
   */
  #evictIdle(limit: number): void {
    let oldest: HttpSession | undefined;
    let answering = false;
    for (const session of this.#sessions.values()) {
      if (session.active) {
        answering ||= session.answering && !session.connected;
        continue;
      }
      oldest = session;
      break;
    }
    if (!oldest) throw httpErrors.busy(limit, answering ? REQUESTS_RETRY_AFTER_S : STREAMS_RETRY_AFTER_S);
    this.#sessions.delete(oldest.id);
    oldest.close();
    this.#options.logger.info(`Streamable HTTP session ${oldest.id.slice(0, 8)}… let go (idle, least recently used) for a new one at the limit of ${limit}`);
  }
}
