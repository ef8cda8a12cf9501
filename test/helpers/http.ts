/** A real Sextant HTTP listener on a loopback port, and a small raw client over undici. */
import { request } from 'undici';
import type { McpServer } from '../../src/mcp/server.js';
import { createSextantServer, loadProfile } from '../../src/server.js';
import { startHttpServer, type HttpServerOptions, type RunningHttpServer } from '../../src/transports/http-listener.js';

export const JSON_AND_SSE = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export async function startTestHttp(options: HttpServerOptions & { server?: McpServer } = {}): Promise<RunningHttpServer> {
  const { server, ...rest } = options;
  return startHttpServer(server ?? createSextantServer({ profile: await loadProfile('conformance') }), { port: 0, ...rest });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): Record<string, unknown>;
}

export async function send(
  url: string,
  options: { method?: string; body?: unknown; headers?: Record<string, string>; raw?: string } = {},
): Promise<RawResponse> {
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const response = await request(url, {
    method: (options.method ?? (body === undefined ? 'GET' : 'POST')) as 'GET',
    headers: options.headers ?? (body === undefined ? {} : JSON_AND_SSE),
    body,
  });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

import { initializeBody } from './messages.js';

export { initializeBody };

/** Initializes a session over raw HTTP and returns its id. */
export async function openSession(mcpUrl: string, protocolVersion = '2025-11-25'): Promise<string> {
  const response = await send(mcpUrl, { body: initializeBody(1, protocolVersion) });
  if (response.status !== 200) throw new Error(`initialize failed: ${response.status} ${response.text}`);
  const id = response.headers['mcp-session-id'];
  await send(mcpUrl, { body: { jsonrpc: '2.0', method: 'notifications/initialized' }, headers: { ...JSON_AND_SSE, 'mcp-session-id': String(id) } });
  return String(id);
}

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
  retry?: number;
}

/** Splits an event-stream body into events (enough of the SSE grammar for our own output). */
export function parseSse(text: string): SseEvent[] {
  return text
    .split(/\n\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event: SseEvent = { data: '' };
      const data: string[] = [];
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') data.push(value);
        else if (field === 'id') event.id = value;
        else if (field === 'event') event.event = value;
        else if (field === 'retry') event.retry = Number(value);
      }
      event.data = data.join('\n');
      return event;
    });
}
