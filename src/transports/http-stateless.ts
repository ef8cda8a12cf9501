/**
 * Streamable HTTP in the stateless era (2026-07-28): no session. Each POST carries one request
 * whose `_meta` says everything; it is answered on its own response, as plain JSON, or as an SSE
 * stream when notifications (progress, log messages) must go first. Nothing outlives the request,
 * so any process behind a load balancer can take any request. Closing the response stream
 * cancels the request.
 *
 * The gate here checks the mirrored headers against the body (transports §Server Validation):
 * `MCP-Protocol-Version`, `Mcp-Method`, and `Mcp-Name` for the methods that name something.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ConnectionClosedError,
  ErrorCodes,
  JsonRpcError,
  errorResponse,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type Params,
  type TapEntry,
} from '../jsonrpc/index.js';
import { decodeHeaderValue, HeaderMismatchError, MCP_ERROR_CODES, type McpServer, type MessageContext, META_KEYS, readStatelessRequest } from '../mcp/index.js';
import { sseHeaders } from './sse-stream.js';

/** A comment line on an open SSE response this often, so that intermediaries keep a quiet listen stream open. */
const DEFAULT_SSE_KEEPALIVE_MS = 15_000;

/** Methods whose request names a thing, mirrored in `Mcp-Name`, and the body field it comes from. */
const NAMED_BY: Record<string, 'name' | 'uri' | 'taskId'> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  // The tasks extension (SEP-2663 §Routing Headers): the task id.
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/**
 * HTTP status for a JSON-RPC error of a stateless request (transports §Protocol Version Header,
 * basic §_meta); 503 for Sextant's busy error, with `Retry-After`. `refused`: the request was turned away before it ran (its headers or its
 * `_meta` were wrong), where Invalid params is a bad request too; a handler's Invalid params is
 * an answer (200).
 */
function statusOf(code: number, refused = false): number {
  if (refused && code === ErrorCodes.InvalidParams) return 400;
  if (code === MCP_ERROR_CODES.ServerBusy) return 503;
  if (code === ErrorCodes.MethodNotFound) return 404;
  if (
    code === MCP_ERROR_CODES.HeaderMismatch ||
    code === MCP_ERROR_CODES.UnsupportedProtocolVersion ||
    code === MCP_ERROR_CODES.MissingRequiredClientCapability
  )
    return 400;
  return 200;
}

/** `Retry-After` (whole seconds, at least 1) for a busy error, from its `data.retryAfterMs`. */
function retryAfter(message: JsonRpcMessage): Record<string, string> {
  if (!('error' in message) || message.error.code !== MCP_ERROR_CODES.ServerBusy) return {};
  const ms = (message.error.data as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
  return { 'retry-after': String(Math.max(1, Math.ceil((typeof ms === 'number' ? ms : 1000) / 1000))) };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Throws what a request whose headers and body disagree gets: HeaderMismatch, UnsupportedProtocolVersion, Invalid params. */
function checkStatelessHeaders(req: IncomingMessage, request: JsonRpcRequest): void {
  const meta = (request.params?._meta ?? undefined) as Params | undefined;
  const headerVersion = header(req, 'mcp-protocol-version');
  if (headerVersion === undefined) throw new HeaderMismatchError('Header mismatch: the MCP-Protocol-Version header is required');
  const bodyVersion = meta?.[META_KEYS.protocolVersion];
  if (typeof bodyVersion === 'string' && headerVersion !== bodyVersion) {
    throw new HeaderMismatchError(`Header mismatch: MCP-Protocol-Version header value '${headerVersion}' does not match body value '${bodyVersion}'`);
  }
  readStatelessRequest(meta); // the body's own fields: -32602 when one is missing, -32022 for a version not served
  const method = header(req, 'mcp-method');
  if (method === undefined) throw new HeaderMismatchError('Header mismatch: the Mcp-Method header is required');
  if (method !== request.method)
    throw new HeaderMismatchError(`Header mismatch: Mcp-Method header value '${method}' does not match body value '${request.method}'`);
  const field = NAMED_BY[request.method];
  if (field) {
    const raw = header(req, 'mcp-name');
    if (raw === undefined) throw new HeaderMismatchError(`Header mismatch: the Mcp-Name header is required for ${request.method}`);
    const name = decodeHeaderValue(raw);
    if (name === undefined) throw new HeaderMismatchError('Header mismatch: the Mcp-Name header is not valid Base64 of UTF-8 text');
    const body = request.params?.[field];
    if (name !== body) throw new HeaderMismatchError(`Header mismatch: Mcp-Name header value '${raw}' does not match body value '${String(body)}'`);
  }
}

/**
 * Serves one stateless request on `res`, through the server's one stateless dispatcher: nothing
 * is made for the request but its own context. Its notifications turn the answer into an SSE
 * stream; the client hanging up before the answer stops the handler.
 */
export async function serveStatelessRequest(
  server: McpServer,
  req: IncomingMessage,
  res: ServerResponse,
  request: JsonRpcRequest,
  extra: MessageContext,
  tap?: (direction: 'in' | 'out', entry: TapEntry) => void,
): Promise<void> {
  try {
    checkStatelessHeaders(req, request);
  } catch (error) {
    if (!(error instanceof JsonRpcError)) throw error;
    const body = JSON.stringify(errorResponse(request.id, error.toErrorObject()));
    res.writeHead(statusOf(error.rpcCode, true), {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
    return;
  }
  let streaming = false;
  let keepAlive: NodeJS.Timeout | undefined;
  const open = (): boolean => !res.writableEnded && !res.destroyed;
  const call = server.stateless.dispatch(
    request,
    extra,
    (notification) => {
      if (!open()) return;
      // A notification about this request (progress, a log message) goes first: stream the answer.
      if (!streaming) {
        streaming = true;
        res.writeHead(200, { ...sseHeaders(), 'x-accel-buffering': 'no' });
        keepAlive = setInterval(() => res.write(':\n\n'), DEFAULT_SSE_KEEPALIVE_MS);
        keepAlive.unref();
      }
      res.write(`event: message\ndata: ${JSON.stringify(notification)}\n\n`);
    },
    tap,
  );
  // The client closing the stream is the cancellation of the request (transports §Cancellation).
  // Every response closes: the error (and its stack) is made only for one closed before its answer.
  let answered = false;
  const onClose = (): void => {
    clearInterval(keepAlive);
    if (!answered) call.stop(new ConnectionClosedError('The client closed the request stream'));
  };
  res.once('close', onClose);
  const answer = await call.answer;
  answered = true;
  clearInterval(keepAlive);
  if (!answer || !open()) return;
  const text = JSON.stringify(answer);
  if (streaming) {
    res.end(`event: message\ndata: ${text}\n\n`);
    return;
  }
  const status = 'error' in answer ? statusOf(answer.error.code) : 200;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...retryAfter(answer) });
  res.end(text);
}
