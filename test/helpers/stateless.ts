/** A 2026-07-28 request over Streamable HTTP as a plain client sends it: headers and `_meta` agree. */
import { request } from 'undici';
import { JSON_AND_SSE } from './http.js';

const STATELESS = '2026-07-28';
let nextId = 1;

export interface StatelessAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** One request with its revision and `capabilities` in `_meta`, and the routing headers that must match them. */
/** A header value as SEP-2243 encodes it: plain when it is visible ASCII without edge spaces, else base64. */
export function headerValue(value: string): string {
  return /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !value.startsWith('=?base64?')
    ? value
    : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

export async function statelessCall(
  url: string,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<StatelessAnswer> {
  const named = (params.name ?? params.taskId) as string | undefined;
  // The project tools mirror `workspace` into Mcp-Param-Workspace (x-mcp-header), as a conforming client does.
  const workspace = method === 'tools/call' ? (params.arguments as { workspace?: unknown } | undefined)?.workspace : undefined;
  const response = await request(url, {
    method: 'POST',
    headers: {
      ...JSON_AND_SSE,
      'mcp-protocol-version': STATELESS,
      'mcp-method': method,
      ...(named ? { 'mcp-name': named } : {}),
      ...(typeof workspace === 'string' ? { 'mcp-param-workspace': headerValue(workspace) } : {}),
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': STATELESS, 'io.modelcontextprotocol/clientCapabilities': capabilities } },
    }),
  });
  return { status: response.statusCode, headers: response.headers, ...((await response.body.json()) as Omit<StatelessAnswer, 'status' | 'headers'>) };
}

/** Reads an SSE body as it arrives: each event's `data` is parsed and handed to `onMessage`. */
export function sseReader(onMessage: (message: Record<string, unknown>) => void): (chunk: Buffer) => void {
  let buffered = '';
  return (chunk) => {
    buffered += chunk.toString();
    for (let end; (end = buffered.indexOf('\n\n')) >= 0; buffered = buffered.slice(end + 2)) {
      const data = buffered
        .slice(0, end)
        .split('\n')
        .find((line) => line.startsWith('data: '));
      if (data) onMessage(JSON.parse(data.slice(6)) as Record<string, unknown>);
    }
  };
}
