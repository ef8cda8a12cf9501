/**
 * The shapes every part of a session's work shares: what a transport attaches to each message,
 * the server's identity and registries, a listen stream, the client's identity. Apart from the
 * session, so that the 2026-07-28 era, the call context and the methods read them without it.
 */
import type { Params } from '../jsonrpc/index.js';
import type { Caller } from '../caller.js';
import type { PromptRegistry } from './prompts.js';
import type { ResourceRegistry } from './resources.js';
import type { ToolRegistry } from './tools.js';

/** Transport facts that travel with each incoming message; the session reads them, never the transport itself. */
export interface MessageContext {
  transport: string;
  /** Who sent it, as the transport can tell; absent, a stranger (UNKNOWN_CALLER). */
  caller?: Caller;
  sessionId?: string;
  query?: Record<string, string>;
  headers?: Record<string, string | string[] | undefined>;
  /**
   * Headers that must agree with a 2026-07-28 call's `x-mcp-header` arguments (SEP-2243): set by
   * a transport that carries them (Streamable HTTP), so the session need not know transports by name.
   */
  paramHeaders?: Record<string, string | string[] | undefined>;
}

export interface ServerIdentity {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  instructions?: string;
}

export interface Registries {
  tools: ToolRegistry;
  resources: ResourceRegistry;
  prompts: PromptRegistry;
}

/** One open `subscriptions/listen` stream: the resources it follows, and how to tell it something. */
export interface Listener {
  resources: string[];
  notify(method: string, params: Params): void;
}

export interface ClientInfo {
  name: string;
  version: string;
  [key: string]: unknown;
}
