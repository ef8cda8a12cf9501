/**
 * One MCP client per HTTP transport, each with a bearer token, for tests that must hold on every
 * one of them: Streamable HTTP and legacy SSE through the SDK v1 client, WebSocket by hand (the
 * SDK's WebSocket transport cannot send headers), and a 2026-07-28 call with no session.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { WebSocket } from 'ws';
import type { RunningHttpServer } from '../../src/transports/http-listener.js';
import { statelessCall } from './stateless.js';
import type { ToolResult } from './tool-result.js';

export const TRANSPORTS = ['streamable-http', 'sse', 'websocket', 'stateless'] as const;
export type TransportName = (typeof TRANSPORTS)[number];

export interface TestCaller {
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

export interface CallerOptions {
  token?: string;
  /** The client's roots (file URIs); without them it does not declare the capability. */
  roots?: string[];
  /** `?project_path=` and the like. */
  query?: string;
}

function authorization(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

async function sdkCaller(http: RunningHttpServer, kind: 'streamable-http' | 'sse', options: CallerOptions): Promise<TestCaller> {
  const client = new Client({ name: 'sextant-callers-test', version: '1.0.0' }, { capabilities: options.roots ? { roots: {} } : {} });
  if (options.roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: options.roots!.map((uri) => ({ uri })) }));
  const requestInit = { headers: authorization(options.token) };
  const query = options.query ?? '';
  await client.connect(
    kind === 'sse'
      ? new SSEClientTransport(new URL(`${http.urls.sse}${query}`), { requestInit })
      : new StreamableHTTPClientTransport(new URL(`${http.urls.mcp}${query}`), { requestInit }),
  );
  return {
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as ToolResult,
    close: () => client.close(),
  };
}

/** A WebSocket session by hand: initialize, then calls; roots/list answered as told. */
async function websocketCaller(http: RunningHttpServer, options: CallerOptions): Promise<TestCaller> {
  const socket = new WebSocket(`${http.urls.ws}${options.query ?? ''}`, ['mcp'], { headers: authorization(options.token) });
  const pending = new Map<number, (message: Record<string, unknown>) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as Record<string, unknown>;
    if (message.method === 'roots/list') {
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { roots: (options.roots ?? []).map((uri) => ({ uri })) } }));
      return;
    }
    if (typeof message.id === 'number') pending.get(message.id)?.(message);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
  let nextId = 1;
  const request = (method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  };
  await request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: options.roots ? { roots: {} } : {},
    clientInfo: { name: 'sextant-callers-test', version: '1.0.0' },
  });
  socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return {
    call: async (name, args = {}) => {
      const answer = await request('tools/call', { name, arguments: args });
      if (answer.error) throw new Error(`tools/call ${name}: ${JSON.stringify(answer.error)}`);
      return answer.result as ToolResult;
    },
    close: () =>
      new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
}

/** 2026-07-28: each call alone; roots, when given, are the answer to the input round it asks for. */
function statelessCaller(http: RunningHttpServer, options: CallerOptions): TestCaller {
  const url = `${http.urls.mcp}${options.query ?? ''}`;
  const capabilities = options.roots ? { roots: {} } : {};
  const inputResponses = options.roots ? { inputResponses: { client_roots: { roots: options.roots.map((uri) => ({ uri })) } } } : {};
  return {
    call: async (name, args = {}) => {
      const answer = await statelessCall(url, 'tools/call', { name, arguments: args, ...inputResponses }, capabilities, authorization(options.token));
      if (!answer.result) throw new Error(`tools/call ${name}: ${answer.status} ${JSON.stringify(answer.error)}`);
      return answer.result as unknown as ToolResult;
    },
    close: async () => {},
  };
}

export async function openCaller(http: RunningHttpServer, kind: TransportName, options: CallerOptions = {}): Promise<TestCaller> {
  if (kind === 'websocket') return websocketCaller(http, options);
  if (kind === 'stateless') return statelessCaller(http, options);
  return sdkCaller(http, kind, options);
}

/** Opens a caller, hands it to `work`, and closes it whatever `work` does. */
export async function withCaller<T>(
  http: RunningHttpServer,
  kind: TransportName,
  options: CallerOptions,
  work: (caller: TestCaller) => Promise<T>,
): Promise<T> {
  const caller = await openCaller(http, kind, options);
  try {
    return await work(caller);
  } finally {
    await caller.close();
  }
}
