/**
 * The HTTP+SSE transport of MCP 2024-11-05: `GET /sse` opens a stream whose first event names the
 * endpoint for client messages (`POST /messages?sessionId=…`, answered 202); every server message
 * is a `message` event on the stream. The session lives exactly as long as that stream.
 */
import type { Caller } from '../caller.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { Logger } from '../platform/log.js';
import type { McpServer, McpSession, MessageContext } from '../mcp/index.js';
import { readJsonBody } from './http-body.js';
import { HttpError, httpErrors, sendHttpError } from './http-errors.js';
import { SseStream } from './sse-stream.js';

export const MESSAGES_PATH = '/messages';

export interface LegacySseOptions {
  server: McpServer;
  logger: Logger;
  maxBodyBytes: number;
  maxSessions: number;
  maxQueuedOutputBytes?: number;
  tap?: (sessionLabel: string) => Parameters<McpServer['createSession']>[0]['tap'];
}

interface LegacySession {
  mcp: McpSession;
  stream: SseStream;
  query: Record<string, string>;
  /** Who opened the stream: a post from another principal is refused. */
  caller: Caller;
}

export class LegacySseEndpoint {
  readonly #options: LegacySseOptions;
  readonly #sessions = new Map<string, LegacySession>();

  constructor(options: LegacySseOptions) {
    this.#options = options;
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** GET: opens a session and tells the client where to post. */
  open(req: IncomingMessage, res: ServerResponse, query: Record<string, string>, caller: Caller): void {
    if (this.#sessions.size >= this.#options.maxSessions) return sendHttpError(res, httpErrors.busy(this.#options.maxSessions));
    const id = randomBytes(24).toString('base64url');
    const stream = new SseStream('legacy', {
      withIds: false,
      ...(this.#options.maxQueuedOutputBytes !== undefined ? { maxQueuedBytes: this.#options.maxQueuedOutputBytes } : {}),
      onOverflow: (queued) =>
        this.#options.logger.warning(`Legacy SSE session ${id.slice(0, 8)}… dropped: ${queued} bytes queued for a client that does not read`),
    });
    const mcp = this.#options.server.createSession({
      transport: 'sse',
      tap: this.#options.tap?.(`sse-${id.slice(0, 8)}`),
      send: (payload) => {
        if (!stream.finished) stream.send('message', JSON.stringify(payload));
      },
    });
    this.#sessions.set(id, { mcp, stream, query, caller });
    stream.attach(res);
    stream.send('endpoint', `${MESSAGES_PATH}?sessionId=${id}`);
    this.#options.logger.info(`Legacy SSE session ${id.slice(0, 8)}… opened`);
    req.on('close', () => {
      this.#sessions.delete(id);
      stream.finish();
      mcp.close();
      this.#options.logger.info(`Legacy SSE session ${id.slice(0, 8)}… closed`);
    });
  }

  /** POST /messages?sessionId=…: accepted with 202; the answer travels on the session's stream. */
  async post(req: IncomingMessage, res: ServerResponse, query: Record<string, string>, caller: Caller): Promise<void> {
    try {
      const type = req.headers['content-type'];
      if (!type || type.split(';')[0]!.trim().toLowerCase() !== 'application/json') throw httpErrors.unsupportedMediaType(type);
      const id = query.sessionId;
      if (!id) throw httpErrors.badRequest('Bad request: missing sessionId query parameter');
      const session = this.#sessions.get(id);
      // A session id is not a credential: a post from another principal finds no session.
      if (!session || session.caller.principal !== caller.principal) throw httpErrors.sessionNotFound();
      const body = await readJsonBody(req, this.#options.maxBodyBytes);
      res.writeHead(202, { 'content-type': 'text/plain' }).end('Accepted');
      const extra: MessageContext = { transport: 'sse', caller, sessionId: id, query: { ...session.query, ...query }, headers: req.headers };
      await session.mcp.receive(body, extra);
    } catch (error) {
      if (error instanceof HttpError) return sendHttpError(res, error);
      throw error;
    }
  }

  close(): void {
    for (const session of this.#sessions.values()) {
      session.stream.finish();
      session.mcp.close();
    }
    this.#sessions.clear();
  }
}
