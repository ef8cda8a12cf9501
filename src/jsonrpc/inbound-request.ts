/**
 * One inbound request while its handler runs: the context the handler sees (signal, notify,
 * request, progress bound to this request) and the state the peer needs (done, abort).
 * A class rather than a bag of closures, and the AbortController only on demand: both were
 * measurable costs on the hot path of a trivial request (bench/stdio-roundtrip).
 */
import { JsonRpcError, toErrorObject } from './errors.js';
import type { JsonRpcResponse, Params, RequestId } from './messages.js';
import { errorResponse, isRequestId } from './messages.js';
import type { OutboundInfo, RequestContext, RequestHandler, RequestOptions, Result } from './handlers.js';

/** What an inbound request needs from its peer to speak on its behalf. */
export interface RequestSender {
  notify(method: string, params: Params | undefined, info: OutboundInfo): void;
  request(method: string, params: Params | undefined, options: RequestOptions): Promise<Result>;
}

export class InboundRequest<E> implements RequestContext<E> {
  readonly id: RequestId;
  readonly method: string;
  readonly meta: Params | undefined;
  readonly extra: E;
  /** Set when the response is sent, or when cancellation or close means none will be. */
  done = false;
  readonly #sender: RequestSender;
  readonly #related: OutboundInfo;
  #controller: AbortController | undefined;
  #abortedWith: { reason: unknown } | undefined;
  #lastProgress = -Infinity;

  constructor(sender: RequestSender, id: RequestId, method: string, params: Params, extra: E) {
    this.#sender = sender;
    this.id = id;
    this.method = method;
    this.extra = extra;
    this.meta = typeof params._meta === 'object' && params._meta !== null ? (params._meta as Params) : undefined;
    this.#related = { relatedRequestId: id };
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#abortedWith) this.#controller.abort(this.#abortedWith.reason);
    }
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    this.done = true;
    if (this.#abortedWith) return;
    this.#abortedWith = { reason };
    this.#controller?.abort(reason);
  }

  notify(method: string, params?: Params): void {
    this.#sender.notify(method, params, this.#related);
  }

  request(method: string, params?: Params, options: Omit<RequestOptions, 'relatedRequestId'> = {}): Promise<Result> {
    return this.#sender.request(method, params, { ...options, relatedRequestId: this.id });
  }

  progress(progress: number, total?: number, message?: string): boolean {
    // Progress must stop with the request and only ever go up (MCP basic/utilities/progress).
    const token = this.meta?.progressToken;
    if (!isRequestId(token) || this.done) return false;
    if (!(progress > this.#lastProgress)) throw new RangeError(`Progress must increase: ${progress} after ${this.#lastProgress}`);
    this.#lastProgress = progress;
    const update: Params = { progressToken: token, progress };
    if (total !== undefined) update.total = total;
    if (message !== undefined) update.message = message;
    this.#sender.notify('notifications/progress', update, this.#related);
    return true;
  }
}

/**
 * Runs `handler` for an inbound request and makes its response: the result, or the error as the
 * wire says it (toErrorObject: the one place a thrown value becomes a wire error). None when the
 * request was cancelled or its connection closed while it ran. `log` hears of a handler that
 * failed with anything but a JsonRpcError (a bug, not an answer); `settled`, of the request's end
 * either way.
 */
export async function respond<E>(
  inflight: InboundRequest<E>,
  params: Params,
  handler: RequestHandler<E>,
  log?: (message: string, error: unknown) => void,
  settled?: () => void,
): Promise<JsonRpcResponse | undefined> {
  try {
    const result = await handler(params, inflight);
    if (inflight.done) return undefined;
    return { jsonrpc: '2.0', id: inflight.id, result: result ?? {} };
  } catch (error) {
    if (inflight.done) return undefined;
    if (!(error instanceof JsonRpcError)) log?.(`Handler for "${inflight.method}" failed`, error);
    return errorResponse(inflight.id, toErrorObject(error));
  } finally {
    inflight.done = true;
    settled?.();
  }
}
