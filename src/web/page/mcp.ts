/**
 * The page's MCP client: a tool call is one stateless 2026-07-28 request to /mcp, with the
 * viewer's token (kept in this tab's session storage, never in a URL or a cookie) as a bearer
 * header. What the page shows is what MCP answers that token, no more.
 */
const PROTOCOL = '2026-07-28';
const TOKEN_KEY = 'sextant-token';

/** The server wants a credential (401), or refused this one. */
export class SignInNeeded extends Error {
  constructor(readonly refused: boolean) {
    super(refused ? 'The server refused this token.' : 'This server asks for a token.');
  }
}

/** A tool's answer: its text and its structured content. */
export interface ToolAnswer {
  text: string;
  structured: Record<string, unknown>;
  isError: boolean;
}

function token(): string | undefined {
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

export function setToken(value: string | undefined): void {
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
}

let nextId = 1;

/** A value as an Mcp-Param header carries it: as it is when plain visible ASCII, else Base64 of its UTF-8 in the `=?base64?…?=` form. */
function headerValue(value: string): string {
  if (/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !value.startsWith('=?')) return value;
  let binary = '';
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

/** The JSON-RPC answer to request `id` in an SSE body (notifications may come first). */
function fromEvents(body: string, id: number): unknown {
  for (const event of body.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (!data) continue;
    const message = JSON.parse(data) as { id?: unknown };
    if (message.id === id) return message;
  }
  throw new Error('The server closed the answer without a result.');
}

export async function callTool(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const id = nextId++;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL,
    'mcp-method': 'tools/call',
    'mcp-name': name,
  };
  // A call that names its project mirrors it in Mcp-Param-Workspace (SEP-2243), as the tools' schemas ask.
  if (typeof args.workspace === 'string') headers['mcp-param-workspace'] = headerValue(args.workspace);
  const bearer = token();
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const body = {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name,
      arguments: args,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': PROTOCOL,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'sextant-web', version: '1' },
      },
    },
  };
  const response = await fetch('/mcp', { method: 'POST', headers, body: JSON.stringify(body), credentials: 'omit' });
  if (response.status === 401 || response.status === 403) throw new SignInNeeded(bearer !== undefined);
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const message = (type.includes('text/event-stream') ? fromEvents(text, id) : JSON.parse(text)) as {
    result?: { content?: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };
    error?: { message: string };
  };
  if (message.error) throw new Error(message.error.message);
  const result = message.result ?? {};
  return {
    text: (result.content ?? []).map((part) => part.text ?? '').join('\n'),
    structured: result.structuredContent ?? {},
    isError: result.isError === true,
  };
}

/**
 * Follows one of the server's event streams (`/status/events`) with the viewer's token until
 * `signal` aborts or the server ends it: `onEvent` gets each event's name and its JSON data.
 * fetch, not EventSource: an EventSource cannot send an Authorization header.
 */
export async function followEvents(path: string, onEvent: (event: string, data: unknown) => void, signal: AbortSignal): Promise<void> {
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  const bearer = token();
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const response = await fetch(path, { headers, credentials: 'omit', signal });
  if (response.status === 401 || response.status === 403) throw new SignInNeeded(bearer !== undefined);
  if (!response.ok || !response.body) throw new Error(`The server answered ${response.status} for ${path}.`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffered += value;
    for (let end = buffered.search(/\r?\n\r?\n/); end >= 0; end = buffered.search(/\r?\n\r?\n/)) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end).replace(/^\r?\n\r?\n/, '');
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      if (data.length > 0) onEvent(event, JSON.parse(data.join('\n')));
    }
  }
}
