/**
 * JSON-RPC 2.0 messages as MCP constrains them: ids are strings or integers (never null, never
 * fractional), params and results are objects. Framing-free: callers hand in decoded values.
 */
import { InvalidRequestError, ParseError, type ErrorObject } from './errors.js';

export type RequestId = string | number;
export type Params = Record<string, unknown>;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: Params;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Params;
}

interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: RequestId;
  result: Record<string, unknown>;
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  /** Absent when the id of the offending message could not be read (MCP 2025-11-25). */
  id?: RequestId;
  error: ErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

export type Classified =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'invalid'; id?: RequestId; error: InvalidRequestError; looksLikeResponse: boolean };

export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type Decoded = { ok: true; value: unknown } | { ok: false; error: ParseError };

/** Turns text into a JSON value, or a ParseError whose data says where it failed. */
export function decode(text: string): Decoded {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    return { ok: false, error: new ParseError('Parse error: message is not valid JSON', { detail }) };
  }
}

function invalid(message: string, id: RequestId | undefined, looksLikeResponse = false): Classified {
  const classified: Classified = { kind: 'invalid', error: new InvalidRequestError(message), looksLikeResponse };
  if (id !== undefined) classified.id = id;
  return classified;
}

/** Sorts one decoded value (not a batch) into request, notification, response or invalid. */
export function classify(value: unknown): Classified {
  if (!isPlainObject(value)) return invalid('Invalid request: a message must be a JSON object', undefined);
  const id = isRequestId(value.id) ? value.id : undefined;
  if (value.jsonrpc !== '2.0') return invalid('Invalid request: "jsonrpc" must be exactly "2.0"', id);

  if ('method' in value) {
    if (typeof value.method !== 'string') return invalid('Invalid request: "method" must be a string', id);
    if ('params' in value && !isPlainObject(value.params)) {
      return invalid('Invalid request: "params" must be an object', id);
    }
    if (!('id' in value)) return { kind: 'notification', message: value as unknown as JsonRpcNotification };
    if (id === undefined) {
      return invalid('Invalid request: "id" must be a string or an integer (null is not allowed)', undefined);
    }
    return { kind: 'request', message: value as unknown as JsonRpcRequest };
  }

  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (!hasResult && !hasError) return invalid('Invalid request: missing "method"', id);
  if (hasResult === hasError) {
    return invalid('Invalid response: exactly one of "result" and "error" is required', id, true);
  }
  if (hasResult) {
    if (id === undefined) return invalid('Invalid response: "id" must be a string or an integer', undefined, true);
    if (!isPlainObject(value.result)) return invalid('Invalid response: "result" must be an object', id, true);
    return { kind: 'response', message: value as unknown as JsonRpcSuccess };
  }
  const error = value.error;
  if (!isPlainObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
    return invalid('Invalid response: "error" needs an integer "code" and a string "message"', id, true);
  }
  if ('id' in value && value.id !== null && id === undefined) {
    return invalid('Invalid response: "id" must be a string or an integer', undefined, true);
  }
  return { kind: 'response', message: value as unknown as JsonRpcErrorResponse };
}

export function errorResponse(id: RequestId | undefined, error: ErrorObject): JsonRpcErrorResponse {
  return id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error };
}

export function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return !('method' in message);
}
