/**
 * The MCP room's front door: what the transports, the tools, the conformance fixtures and the
 * recorder use of it. Sessions in both eras (session.ts for the handshake era, stateless/ for
 * 2026-07-28), the registries of tools, resources and prompts, tasks (tasks/), multi-round-trip
 * input requests, and MCP's own protocol errors.
 */
export { batchRefusal } from './batches.js';
export type { MessageContext } from './context.js';
export { HeaderMismatchError, MCP_ERROR_CODES, MissingRequiredClientCapabilityError } from './errors.js';
export { type InputRequest, InputRequired, type RoundInput } from './multi-round-trip.js';
export { type PromptDefinition, PromptRegistry } from './prompts.js';
export { RequestStateSealer } from './request-state.js';
export { type ResourceDefinition, ResourceRegistry } from './resources.js';
export { McpServer } from './server.js';
export type { McpSession } from './session.js';
export { decodeHeaderValue, isStatelessRequest, META_KEYS, readStatelessRequest } from './stateless/index.js';
export { type TaskControl, TaskStarted, TaskStore } from './tasks/index.js';
export { type JsonObject, MAX_OUTPUT_CHARS, type ToolContext, type ToolDefinition, type ToolOutcome, type ToolOutput, ToolRegistry } from './tools.js';
export { isHandshakeVersion } from './versions.js';
