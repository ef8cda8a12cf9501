/** The protocol messages tests send by hand, written once for every transport. */

/** An `initialize` request (the handshake era) as an object, for HTTP bodies. */
export function initializeBody(id: number | string = 1, protocolVersion = '2025-11-25', capabilities: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion, capabilities, clientInfo: { name: 'raw', version: '1' } } };
}

/** The same as one line of stdio. */
export function initializeLine(id: number | string = 1, protocolVersion = '2025-11-25'): string {
  return `${JSON.stringify(initializeBody(id, protocolVersion))}\n`;
}
