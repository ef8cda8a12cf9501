/**
 * Every error the engine knows, in two families that never mix:
 *
 * - `JsonRpcError` crosses the wire. It carries its numeric JSON-RPC code (`rpcCode`) and a stable
 *   string `code`. The numeric code is written once, by `toErrorObject`, at the dispatch boundary;
 *   it never appears in `message`.
 * - `LocalError` never crosses the wire: timeouts, closed connections, cancellations seen by the
 *   side that made the request. Only a string `code`.
 *
 * Each numeric code is defined exactly once, in `ErrorCodes`.
 */
import { clipText, clipValue, MAX_ERROR_MESSAGE_CHARS } from './bounded.js';

export const ErrorCodes = {
  /** JSON-RPC 2.0: the text is not JSON. */
  ParseError: -32700,
  /** JSON-RPC 2.0: the JSON is not a valid request object. */
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** MCP 2024-11-05 … 2025-11-25: `resources/read` of an unknown URI. */
  ResourceNotFound: -32002,
  /**
   * Sextant's own, from the implementation-defined sub-range -32000..-32019 that MCP promises
   * never to assign: a request other than `initialize` or `ping` before the session is initialized.
   */
  NotInitialized: -32010,
  /** HTTP transports: the session id names no live session (HTTP 404). */
  SessionNotFound: -32011,
  /** HTTP transports: a missing or wrong bearer token (HTTP 401). */
  Unauthorized: -32012,
  /** HTTP transports: an Origin or Host that is not allowed (HTTP 403). */
  Forbidden: -32013,
  /** HTTP transports: the session limit is reached (HTTP 503). */
  ServerBusy: -32014,
  /** MCP 2026-07-28: an HTTP header disagrees with the body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`). */
  HeaderMismatch: -32020,
  /** MCP 2026-07-28: the request needs a client capability its `_meta` did not declare. */
  MissingRequiredClientCapability: -32021,
  /** MCP 2026-07-28: the request's protocol version is not one this server serves. */
  UnsupportedProtocolVersion: -32022,
} as const;

export type ErrorData = unknown;

export interface ErrorObject {
  code: number;
  message: string;
  data?: ErrorData;
}

export class JsonRpcError extends Error {
  /** Stable, greppable identifier, e.g. `JSONRPC_INVALID_PARAMS`. */
  readonly code: string;
  /** The integer that goes on the wire as `error.code`. */
  readonly rpcCode: number;
  readonly data: ErrorData;

  constructor(rpcCode: number, code: string, message: string, data?: ErrorData) {
    super(message);
    this.name = new.target.name;
    this.rpcCode = rpcCode;
    this.code = code;
    this.data = data;
  }

  /** The error as it goes on the wire: its message and data bounded (bounded.ts), whatever they quote. */
  toErrorObject(): ErrorObject {
    const object: ErrorObject = { code: this.rpcCode, message: clipText(this.message, MAX_ERROR_MESSAGE_CHARS) };
    if (this.data !== undefined) object.data = clipValue(this.data) as ErrorData;
    return object;
  }
}

export class ParseError extends JsonRpcError {
  constructor(message = 'Parse error', data?: ErrorData) {
    super(ErrorCodes.ParseError, 'JSONRPC_PARSE_ERROR', message, data);
  }
}

export class InvalidRequestError extends JsonRpcError {
  constructor(message = 'Invalid request', data?: ErrorData) {
    super(ErrorCodes.InvalidRequest, 'JSONRPC_INVALID_REQUEST', message, data);
  }
}

export class MethodNotFoundError extends JsonRpcError {
  constructor(method: string) {
    super(ErrorCodes.MethodNotFound, 'JSONRPC_METHOD_NOT_FOUND', `Method not found: ${method}`, { method });
  }
}

export class InvalidParamsError extends JsonRpcError {
  constructor(message = 'Invalid params', data?: ErrorData) {
    super(ErrorCodes.InvalidParams, 'JSONRPC_INVALID_PARAMS', message, data);
  }
}

export class InternalError extends JsonRpcError {
  constructor(message = 'Internal error', data?: ErrorData) {
    super(ErrorCodes.InternalError, 'JSONRPC_INTERNAL_ERROR', message, data);
  }
}

/** An error response received from the other side, surfaced to whoever made the request. */
export class RemoteError extends JsonRpcError {
  constructor(error: ErrorObject) {
    super(error.code, 'JSONRPC_REMOTE_ERROR', error.message, error.data);
  }
}

/** Errors that stay on this side of the connection. */
class LocalError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

export class ConnectionClosedError extends LocalError {
  constructor(message = 'Connection closed') {
    super('SEXTANT_ERR_CONNECTION_CLOSED', message);
  }
}

export class RequestTimeoutError extends LocalError {
  readonly timeoutMs: number;
  constructor(method: string, timeoutMs: number) {
    super('SEXTANT_ERR_REQUEST_TIMEOUT', `Request "${method}" timed out after ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

export class RequestCancelledError extends LocalError {
  constructor(method: string, reason?: unknown) {
    super('SEXTANT_ERR_REQUEST_CANCELLED', `Request "${method}" was cancelled`, { cause: reason });
  }
}

/**
 * The one place where a thrown value becomes a wire error. Only our own `JsonRpcError`s keep their
 * code and message; anything else is an internal error whose details stay in the server's log.
 */
export function toErrorObject(error: unknown): ErrorObject {
  if (error instanceof JsonRpcError) return error.toErrorObject();
  return new InternalError().toErrorObject();
}
