/**
 * The protocol errors MCP defines on top of JSON-RPC (and Sextant's own NotInitialized): each with
 * its wire code (MCP_ERROR_CODES) and a stable string code. They live here, not
 * in the engine: the engine knows JSON-RPC, MCP knows resources, versions and capabilities.
 */
import { JsonRpcError, type ErrorData } from '../jsonrpc/index.js';

/** The wire codes MCP adds to JSON-RPC's, and Sextant's own from the range MCP leaves to servers. */
export const MCP_ERROR_CODES = {
  /** MCP 2024-11-05 … 2025-11-25: `resources/read` of an unknown URI. */
  ResourceNotFound: -32002,
  /**
   * Sextant's own, from the implementation-defined sub-range -32000..-32019 that MCP promises
   * never to assign: a request other than `initialize` or `ping` before the session is initialized.
   */
  NotInitialized: -32010,
  /** Sextant's own: the queue for the work asked is full; `data.retryAfterMs` says when to try again (HTTP 503 when stateless). */
  ServerBusy: -32015,
  /** MCP 2026-07-28: an HTTP header disagrees with the body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`). */
  HeaderMismatch: -32020,
  /** MCP 2026-07-28: the request needs a client capability its `_meta` did not declare. */
  MissingRequiredClientCapability: -32021,
  /** MCP 2026-07-28: the request's protocol version is not one this server serves. */
  UnsupportedProtocolVersion: -32022,
} as const;

export class ResourceNotFoundError extends JsonRpcError {
  constructor(uri: string) {
    super(MCP_ERROR_CODES.ResourceNotFound, 'MCP_RESOURCE_NOT_FOUND', `Resource not found: ${uri}`, { uri });
  }
}

export class ServerBusyError extends JsonRpcError {
  readonly retryAfterMs: number;

  constructor(message: string, retryAfterMs: number) {
    super(MCP_ERROR_CODES.ServerBusy, 'SEXTANT_SERVER_BUSY', message, { retryAfterMs });
    this.retryAfterMs = retryAfterMs;
  }
}

export class HeaderMismatchError extends JsonRpcError {
  constructor(message: string, data?: ErrorData) {
    super(MCP_ERROR_CODES.HeaderMismatch, 'MCP_HEADER_MISMATCH', message, data);
  }
}

export class MissingRequiredClientCapabilityError extends JsonRpcError {
  constructor(requiredCapabilities: Record<string, unknown>, message?: string) {
    super(
      MCP_ERROR_CODES.MissingRequiredClientCapability,
      'MCP_MISSING_REQUIRED_CLIENT_CAPABILITY',
      message ?? `Missing required client capability: ${Object.keys(requiredCapabilities).join(', ')}`,
      { requiredCapabilities },
    );
  }
}

export class UnsupportedProtocolVersionError extends JsonRpcError {
  constructor(requested: string, supported: readonly string[]) {
    super(MCP_ERROR_CODES.UnsupportedProtocolVersion, 'MCP_UNSUPPORTED_PROTOCOL_VERSION', `Unsupported protocol version: ${requested}`, {
      supported: [...supported],
      requested,
    });
  }
}

export class NotInitializedError extends JsonRpcError {
  constructor(method: string) {
    super(MCP_ERROR_CODES.NotInitialized, 'SEXTANT_NOT_INITIALIZED', `Server not initialized: send "initialize" before "${method}"`, { method });
  }
}

/**
 * Where tasks are kept (a team's database) cannot be reached: the task cannot be created or read
 * now. An internal error on the wire (-32603), its cause named in the message and in `data.reason`.
 */
export class TasksUnavailableError extends JsonRpcError {
  constructor(cause: unknown) {
    const reason = (cause as { code?: unknown }).code;
    super(-32603, 'SEXTANT_TASKS_UNAVAILABLE', `Tasks are unavailable right now: ${cause instanceof Error ? cause.message : String(cause)}`, {
      ...(typeof reason === 'string' && { reason }),
    });
  }
}
