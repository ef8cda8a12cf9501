/**
 * Every error the engine knows, in two families that never mix:
 *
 * - `JsonRpcError` crosses the wire. It carries its numeric JSON-RPC code (`rpcCode`) and a stable
 *   string `code`. The numeric code is written once, by `toErrorObject`, at the dispatch boundary;
 *   it never appears in `message`.
 * - `LocalError` never crosses the wire: timeouts, closed connections, cancellations seen by the
 *   side that made the request. Only a string `code`.
 *
 * JSON-RPC's own codes are in `ErrorCodes`; MCP's are in src/mcp/errors.ts and the HTTP gate's
 * in src/transports/http-errors.ts, each defined once (a test checks no two rooms share one).
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
