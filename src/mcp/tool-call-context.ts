/**
 * What a tool call sees in a session of the handshake era (2024-11-05 … 2025-11-25): one object
 * per call with methods on its class, rather than a literal of fresh closures, which showed on
 * the hot path of a trivial call (bench/stdio-roundtrip). Plain fields, not #private ones: a
 * caller may extend the context by delegation (`Object.create(context, …)`).
 */
import type { Params, RequestContext, RequestOptions, Result } from '../jsonrpc/index.js';
import { isAtLeast, type LogLevel } from './logging.js';
import type { MessageContext } from './context.js';
import type { ClientRequestOptions, ToolContext } from './tools.js';
import type { RequestEra } from './request-era.js';
import { featuresOf } from './versions.js';

/** The parts of a session a call context speaks through. */
export interface CallingSession {
  readonly logLevel: LogLevel;
  requestClient(method: string, params?: Params, options?: RequestOptions): Promise<Result>;
}

export class ToolCallContext implements ToolContext {
  readonly era: RequestEra;
  readonly session: CallingSession;
  readonly call: RequestContext<MessageContext>;
  /** The tool's name: the `logger` of the log notifications it sends. */
  readonly toolName: string | undefined;

  constructor(session: CallingSession, era: RequestEra, call: RequestContext<MessageContext>, toolName: string | undefined) {
    this.session = session;
    this.era = era;
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
    return featuresOf(this.era.revision).progressMessage ? this.call.progress(progress, total, message) : this.call.progress(progress, total);
  }

  log(level: LogLevel, data: unknown): void {
    if (isAtLeast(level, this.session.logLevel)) this.call.notify('notifications/message', { level, logger: this.toolName, data });
  }

  request(method: string, params?: Record<string, unknown>, options: ClientRequestOptions = {}): Promise<Record<string, unknown>> {
    // An input key names an input round of a stateless call; a session's request has none.
    const { inputKey: _inputKey, ...sent } = options;
    return this.session.requestClient(method, params, { ...sent, relatedRequestId: this.call.id });
  }
}
