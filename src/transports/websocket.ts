/**
 * MCP over WebSocket at `/ws` (subprotocol `mcp`, as the official SDK client asks): one JSON-RPC
 * message per text frame, one session per connection. Attached to the shared node:http server
 * in noServer mode, so the HTTP gate (Origin, Host, token) runs before every upgrade.
 */
import type { Caller } from '../caller.js';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { InvalidRequestError } from '../jsonrpc/index.js';
import type { Logger } from '../platform/log.js';
import type { McpServer, MessageContext } from '../mcp/index.js';
import { DEFAULT_MAX_QUEUED_OUTPUT_BYTES } from './http-defaults.js';

const WEBSOCKET_SUBPROTOCOL = 'mcp';

export interface WebSocketOptions {
  server: McpServer;
  logger: Logger;
  maxPayloadBytes: number;
  maxSessions: number;
  maxQueuedOutputBytes?: number;
  tap?: (sessionLabel: string) => Parameters<McpServer['createSession']>[0]['tap'];
}

export class WebSocketEndpoint {
  readonly #options: WebSocketOptions;
  readonly #wss: WebSocketServer;
  #count = 0;
  #nextId = 1;

  constructor(options: WebSocketOptions) {
    this.#options = options;
    this.#wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxPayloadBytes,
      handleProtocols: (protocols) => (protocols.has(WEBSOCKET_SUBPROTOCOL) ? WEBSOCKET_SUBPROTOCOL : false),
    });
  }

  get sessionCount(): number {
    return this.#count;
  }

  /** Returns false when the session limit is reached (the caller answers 503). */
  /**
   * `stillAdmitted`: asked before each message is handled, so that a connection outlives neither
   * its credential's revocation nor its expiry (closed with 1008, policy violation).
   */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, query: Record<string, string>, caller: Caller, stillAdmitted?: () => Promise<boolean>): boolean {
    if (this.#count >= this.#options.maxSessions) return false;
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#connect(ws, req, query, caller, stillAdmitted));
    return true;
  }

  close(): void {
    for (const client of this.#wss.clients) client.close(1001, 'server shutting down');
    this.#wss.close();
  }

  #connect(ws: WebSocket, req: IncomingMessage, query: Record<string, string>, caller: Caller, stillAdmitted?: () => Promise<boolean>): void {
    const label = `ws-${this.#nextId++}`;
    this.#count++;
    const sessionOptions: Parameters<McpServer['createSession']>[0] = {
      transport: 'websocket',
      tap: this.#options.tap?.(label),
      send: (payload) => {
        if (ws.readyState !== ws.OPEN) return;
        ws.send(JSON.stringify(payload));
        // A client that does not read: dropped (a close frame would wait behind what it never reads).
        if (ws.bufferedAmount > (this.#options.maxQueuedOutputBytes ?? DEFAULT_MAX_QUEUED_OUTPUT_BYTES)) {
          this.#options.logger.warning(`WebSocket session ${label} dropped: ${ws.bufferedAmount} bytes queued for a client that does not read`);
          ws.terminate();
        }
      },
    };
    const session = this.#options.server.createSession(sessionOptions);
    const extra: MessageContext = { transport: 'websocket', caller, sessionId: label, query, headers: req.headers };
    this.#options.logger.info(`WebSocket session ${label} opened`);

    const deliver = (data: RawData, isBinary: boolean): void => {
      if (isBinary) {
        session.peer.rejectMalformed(new InvalidRequestError('Invalid request: send JSON-RPC messages as text frames'));
        return;
      }
      const text = Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Array.isArray(data)
          ? Buffer.concat(data).toString('utf8')
          : Buffer.from(data).toString('utf8');
      void session.receiveText(text, extra);
    };
    // Messages are handled in the order they came, each once its credential is known to hold.
    let admitted = Promise.resolve(true);
    ws.on('message', function wsOnMessage(data: RawData, isBinary: boolean) {
      if (!stillAdmitted) return deliver(data, isBinary);
      admitted = admitted
        .then((open) => open && stillAdmitted())
        .then((open) => {
          if (open) deliver(data, isBinary);
          else if (ws.readyState === ws.OPEN) ws.close(1008, 'The credential of this connection is no longer valid');
          return open;
        });
    });
    ws.on('close', () => {
      this.#count--;
      session.close();
      this.#options.logger.info(`WebSocket session ${label} closed`);
    });
    ws.on('error', (error) => this.#options.logger.warning(`WebSocket session ${label} failed`, error.message));
  }
}
