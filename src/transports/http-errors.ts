/**
 * Rejections at the HTTP gate, before a message reaches a session. Each carries its HTTP status
 * and the JSON-RPC error that goes in the body (an error response without an id, as
 * transports §Sending Messages allows).
 */
import type { ServerResponse } from 'node:http';
import { ErrorCodes, JsonRpcError } from '../jsonrpc/index.js';

/** The wire codes of the HTTP gate's refusals, from the range MCP leaves to servers (-32000..-32019). */
export const HTTP_ERROR_CODES = {
  /** The session id names no live session (HTTP 404). */
  SessionNotFound: -32011,
  /** A missing or wrong bearer token (HTTP 401). */
  Unauthorized: -32012,
  /** An Origin or Host that is not allowed (HTTP 403). */
  Forbidden: -32013,
  /** The session limit is reached (HTTP 503). */
  ServerBusy: -32014,
} as const;

export class HttpError extends JsonRpcError {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, rpcCode: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(rpcCode, code, message);
    this.status = status;
    this.headers = headers;
  }
}

export const httpErrors = {
  badRequest: (message: string) => new HttpError(400, ErrorCodes.InvalidRequest, 'HTTP_BAD_REQUEST', message),
  parse: (message: string) => new HttpError(400, ErrorCodes.ParseError, 'HTTP_PARSE_ERROR', message),
  /**
   * `presented`: a credential came and was not one (RFC 6750's invalid_token), rather than none at
   * all. `challenge`: the WWW-Authenticate to send instead of the static one (OAuth's names the
   * Protected Resource Metadata).
   */
  unauthorized: (presented = false, challenge?: string) =>
    new HttpError(401, HTTP_ERROR_CODES.Unauthorized, 'HTTP_UNAUTHORIZED', 'Unauthorized: send "Authorization: Bearer <token>"', {
      'www-authenticate': challenge ?? (presented ? 'Bearer realm="sextant", error="invalid_token"' : 'Bearer realm="sextant"'),
    }),
  /** The authorization server cannot be reached to check a token (HTTP 503): the token is not called invalid. */
  authUnavailable: () =>
    new HttpError(503, HTTP_ERROR_CODES.ServerBusy, 'HTTP_AUTH_UNAVAILABLE', 'The authorization server cannot be reached to check the token; retry shortly', {
      'retry-after': '30',
    }),
  /** A valid access token without the scope the call needs (HTTP 403, RFC 6750 §3.1). */
  insufficientScope: (challenge: string) =>
    new HttpError(403, HTTP_ERROR_CODES.Forbidden, 'HTTP_INSUFFICIENT_SCOPE', 'Forbidden: the access token lacks the scope this server needs', {
      'www-authenticate': challenge,
    }),
  forbidden: (message: string) => new HttpError(403, HTTP_ERROR_CODES.Forbidden, 'HTTP_FORBIDDEN', message),
  sessionNotFound: () =>
    new HttpError(404, HTTP_ERROR_CODES.SessionNotFound, 'HTTP_SESSION_NOT_FOUND', 'Session not found: it ended or never existed; initialize a new one'),
  notFound: (path: string) => new HttpError(404, ErrorCodes.InvalidRequest, 'HTTP_NOT_FOUND', `Not found: ${path}`),
  methodNotAllowed: (method: string, allow: string[]) =>
    new HttpError(405, ErrorCodes.InvalidRequest, 'HTTP_METHOD_NOT_ALLOWED', `Method ${method} not allowed; use ${allow.join(', ')}`, {
      allow: allow.join(', '),
    }),
  notAcceptable: (message: string) => new HttpError(406, ErrorCodes.InvalidRequest, 'HTTP_NOT_ACCEPTABLE', message),
  /** A request reusing the id of one of the session's requests still in flight: refused here, so the first keeps its answer. */
  idInUse: (id: unknown) =>
    new HttpError(400, ErrorCodes.InvalidRequest, 'HTTP_ID_IN_USE', `Invalid request: id ${JSON.stringify(id)} is already in use by a request in flight`),
  /** A session-less GET of a Streamable HTTP client: no stream is offered without a session. */
  noSessionStream: () =>
    new HttpError(
      405,
      ErrorCodes.InvalidRequest,
      'HTTP_METHOD_NOT_ALLOWED',
      'No GET stream without an MCP-Session-Id: initialize first, then open the stream with the session id',
      { allow: 'POST' },
    ),
  tooLarge: (limit: number) => new HttpError(413, ErrorCodes.InvalidRequest, 'HTTP_PAYLOAD_TOO_LARGE', `Request body exceeds the ${limit}-byte limit`),
  unsupportedMediaType: (type: string | undefined) =>
    new HttpError(415, ErrorCodes.InvalidRequest, 'HTTP_UNSUPPORTED_MEDIA_TYPE', `Content-Type must be application/json, got ${type ?? 'none'}`),
  /** `retryAfterSeconds`: when capacity is expected back, as well as the caller can tell. */
  busy: (limit: number, retryAfterSeconds = 5) =>
    new HttpError(503, HTTP_ERROR_CODES.ServerBusy, 'HTTP_SERVER_BUSY', `Too many sessions (limit ${limit}); end one or retry later`, {
      'retry-after': String(retryAfterSeconds),
    }),
};

/** Writes an error status with an id-less JSON-RPC error body (unless headers already went out). */
export function sendHttpError(res: ServerResponse, error: HttpError): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify({ jsonrpc: '2.0', error: error.toErrorObject() });
  res.writeHead(error.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...error.headers });
  res.end(body);
}
