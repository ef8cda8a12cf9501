/**
 * A real client engine (our Peer) talking to a real MCP session through an in-memory link that
 * serializes every message, as a transport would. Everything the server sends is schema-checked.
 */
import { Peer, type JsonRpcMessage, type Result } from '../../src/jsonrpc/index.js';
import type { McpServer } from '../../src/mcp/server.js';
import type { MessageContext } from '../../src/mcp/context.js';
import type { McpSession } from '../../src/mcp/session.js';
import { TrafficChecker, type Revision } from './schema.js';

export interface Connection {
  client: Peer;
  session: McpSession;
  checker: TrafficChecker;
  /** Everything the server sent, in order. */
  sent: unknown[];
  /** Sends a raw value straight to the server; resolves when it has been handled. */
  raw(value: unknown): Promise<unknown[]>;
  initialize(version?: Revision | string, capabilities?: Record<string, unknown>): Promise<Result>;
  close(): void;
}

const copy = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

export function connect(server: McpServer, extra: MessageContext = { transport: 'memory' }): Connection {
  const checker = new TrafficChecker();
  const sent: unknown[] = [];
  const client = new Peer({
    send: (payload: JsonRpcMessage | JsonRpcMessage[]) => {
      const wire = copy(payload);
      checker.incoming(wire);
      // `session` is declared below: this runs only once messages flow.
      queueMicrotask(() => void session.receive(wire, extra));
    },
  });
  const session: McpSession = server.createSession({
    send: (payload) => {
      const wire = copy(payload);
      checker.outgoing(wire);
      sent.push(wire);
      queueMicrotask(() => void client.receive(wire, undefined));
    },
  });
  return {
    client,
    session,
    checker,
    sent,
    async raw(value) {
      const before = sent.length;
      checker.incoming(value);
      await session.receive(copy(value), extra);
      return sent.slice(before);
    },
    async initialize(version = '2025-11-25', capabilities = {}) {
      const result = await client.request('initialize', {
        protocolVersion: version,
        capabilities,
        clientInfo: { name: 'sextant-test-client', version: '1.0.0' },
      });
      client.notify('notifications/initialized');
      return result;
    },
    close() {
      session.close();
      client.close();
    },
  };
}
