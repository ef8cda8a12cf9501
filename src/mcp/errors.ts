/**
 * The protocol errors MCP defines on top of JSON-RPC (and Sextant's own NotInitialized): each with
 * its wire code (from the engine's ErrorCodes table) and a stable string code. They live here, not
 * in the engine: the engine knows JSON-RPC, MCP knows resources, versions and capabilities.
 */
import { ErrorCodes, JsonRpcError, type ErrorData } from '../jsonrpc/index.js';

export class ResourceNotFoundError extends JsonRpcError {
  constructor(uri: string) {
    super(ErrorCodes.ResourceNotFound, 'MCP_RESOURCE_NOT_FOUND', `Resource not found: ${uri}`, { uri });
  }
}

export class HeaderMismatchError extends JsonRpcError {
  constructor(message: string, data?: ErrorData) {
    super(ErrorCodes.HeaderMismatch, 'MCP_HEADER_MISMATCH', message, data);
  }
}

export class MissingRequiredClientCapabilityError extends JsonRpcError {
  constructor(requiredCapabilities: Record<string, unknown>, message?: string) {
    super(
      ErrorCodes.MissingRequiredClientCapability,
      'MCP_MISSING_REQUIRED_CLIENT_CAPABILITY',
      message ?? `Missing required client capability: ${Object.keys(requiredCapabilities).join(', ')}`,
      { requiredCapabilities },
    );
  }
}

export class UnsupportedProtocolVersionError extends JsonRpcError {
  constructor(requested: string, supported: readonly string[]) {
    super(ErrorCodes.UnsupportedProtocolVersion, 'MCP_UNSUPPORTED_PROTOCOL_VERSION', `Unsupported protocol version: ${requested}`, {
      supported: [...supported],
      requested,
    });
  }
}

export class NotInitializedError extends JsonRpcError {
  constructor(method: string) {
    super(ErrorCodes.NotInitialized, 'SEXTANT_NOT_INITIALIZED', `Server not initialized: send "initialize" before "${method}"`, { method });
  }
}
