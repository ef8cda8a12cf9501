/**
 * MCP's rules for a JSON-RPC batch, written once for the session and for the HTTP transport
 * (which must refuse a batch before the session sees it: its refusal has no id to travel with).
 * The engine's own bound, MAX_BATCH_ENTRIES, applies on every transport besides.
 */
import { InvalidRequestError } from '../jsonrpc/index.js';
import { featuresOf, type HandshakeProtocolVersion } from './versions.js';

/** Why a batch is refused in a session of `version` (undefined: not initialized), or undefined when it is not. */
export function batchRefusal(version: HandshakeProtocolVersion | undefined, items: unknown[]): InvalidRequestError | undefined {
  if (!version || !featuresOf(version).batches) {
    return new InvalidRequestError(
      `Invalid request: JSON-RPC batches are only accepted in protocol revision 2025-03-26 (this session: ${version ?? 'not initialized'}); ` +
        `send a single message`,
    );
  }
  if (items.some((item) => typeof item === 'object' && item !== null && (item as { method?: unknown }).method === 'initialize')) {
    return new InvalidRequestError('Invalid request: "initialize" must not be part of a batch');
  }
  return undefined;
}
