/**
 * The stateless era (2026-07-28): each request carries what a handshake used to settle
 * (request.ts reads it), the server's table of methods for it (methods.ts), the era's state
 * between requests (era.ts), the dispatcher a stateless transport drives (dispatcher.ts), and the
 * Mcp-Param headers checked against a request's arguments (param-headers.ts).
 */
export { StatelessDispatcher } from './dispatcher.js';
export { StatelessEra } from './era.js';
export { completeArgument, serverCapabilities, serverInfoFor, type StatelessMethod, statelessMethods } from './methods.js';
export { decodeHeaderValue } from './param-headers.js';
export { completeResult, isObject, isStatelessRequest, META_KEYS, readStatelessRequest } from './request.js';
