/**
 * What a tool call sees in a session of the handshake era (2024-11-05 … 2025-11-25): one object
 * per call with methods on its class, rather than a literal of fresh closures, which showed on
 * the hot path of a trivial call (bench/stdio-roundtrip). Plain fields, not #private ones: a
 * caller may extend the context by delegation (`Object.create(context, …)`).
 */
import type { Params, RequestContext, RequestOptions, Result } from '../jsonrpc/index.js';
import { isAtLeast, type LogLevel } from './logging.js';
import type { MessageContext } from './session.js';
import type { ToolContext } from './tools.js';
import { featuresOf, type HandshakeProtocolVersion } from './versions.js';

/** The parts of a session a call context speaks through. */
export interface CallingSession {
  readonly logLevel: LogLevel;
  requestClient(method: string, params?: Params, options?: RequestOptions): Promise<Result>;
}

export class ToolCallContext implements ToolContext {
  readonly protocolVersion: HandshakeProtocolVersion;
  readonly clientCapabilities: Record<string, unknown>;
  readonly session: CallingSession;
  readonly call: RequestContext<MessageContext>;
  /** The tool's name: the `logger` of the log notifications it sends. */
  readonly toolName: string | undefined;

  constructor(
    session: CallingSession,
    version: HandshakeProtocolVersion,
    clientCapabilities: Record<string, unknown>,
    call: RequestContext<MessageContext>,
    toolName: string | undefined,
  ) {
    this.session = session;
    this.protocolVersion = version;
    this.clientCapabilities = clientCapabilities;
    this.call = call;
    this.toolName = toolName;
  }

  get signal(): AbortSignal {
    return this.call.signal;
  }

  get extra(): MessageContext | undefined {
    return this.call.extra;
  }

  progress(progress: number, total?: number, message?: string): boolean {
    // A progress message exists from 2025-03-26 on; before, it is not sent.
    return featuresOf(this.protocolVersion).progressMessage ? this.call.progress(progress, total, message) : this.call.progress(progress, total);
  }

  log(level: LogLevel, data: unknown): void {
    if (isAtLeast(level, this.session.logLevel)) this.call.notify('notifications/message', { level, logger: this.toolName, data });
  }

  request(method: string, params?: Record<string, unknown>, options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<Record<string, unknown>> {
    return this.session.requestClient(method, params, { ...options, relatedRequestId: this.call.id });
  }
}
