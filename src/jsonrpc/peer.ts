/**
 * One side of a JSON-RPC connection: the dispatch map for what comes in, the pending map for what
 * goes out, and cancellation and progress for both. It never sees bytes or sockets: transports
 * hand it decoded values and it hands them back messages through `send`, in order.
 */
import {
  ConnectionClosedError,
  InvalidRequestError,
  JsonRpcError,
  MethodNotFoundError,
  RemoteError,
  RequestCancelledError,
  RequestTimeoutError,
} from './errors.js';
import {
  classify,
  decode,
  errorResponse,
  isRequestId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type Params,
  type RequestId,
} from './messages.js';
import { InboundRequest, respond } from './inbound-request.js';
import type { NotificationHandler, OutboundInfo, ProgressUpdate, RequestHandler, RequestOptions, Result } from './handlers.js';

/**
 * The most messages one batch may hold. Its answer is sent whole, so the entries bound what one
 * batch can cost: at most this many answers, each within its own cap.
 */
export const MAX_BATCH_ENTRIES = 100;

/** The refusal of a batch with `count` entries, past MAX_BATCH_ENTRIES. */
export function batchTooLarge(count: number): InvalidRequestError {
  return new InvalidRequestError(`Invalid request: a batch of ${count} messages is over the limit of ${MAX_BATCH_ENTRIES}; send it in smaller batches`);
}

const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

export type TapEntry = { message: unknown } | { raw: string };

export interface PeerOptions {
  send(payload: JsonRpcMessage | JsonRpcMessage[], info: OutboundInfo): void;
  requestTimeoutMs?: number;
  /** Returns an error to refuse a batch; when absent, every batch is refused. */
  batchPolicy?(items: unknown[]): JsonRpcError | undefined;
  /** Diagnostics that are not the other side's business: handler crashes, late responses… */
  log?(level: 'debug' | 'warning' | 'error', message: string, detail?: unknown): void;
  /** Sees every message in both directions, before it is handled or after it is sent. */
  tap?(direction: 'in' | 'out', entry: TapEntry): void;
}

interface Pending {
  method: string;
  resolve(result: Result): void;
  reject(error: Error): void;
  onProgress: ((update: ProgressUpdate) => void) | undefined;
  cleanup(): void;
}

export class Peer<E = unknown> {
  readonly #options: PeerOptions;
  readonly #requestHandlers = new Map<string, RequestHandler<E>>();
  readonly #notificationHandlers = new Map<string, NotificationHandler<E>>();
  readonly #pending = new Map<RequestId, Pending>();
  readonly #inflight = new Map<RequestId, InboundRequest<E>>();
  readonly #closeListeners: Array<() => void> = [];
  #nextId = 1;
  #closed = false;

  constructor(options: PeerOptions) {
    this.#options = options;
  }

  get closed(): boolean {
    return this.#closed;
  }

  onRequest(method: string, handler: RequestHandler<E>): void {
    this.#requestHandlers.set(method, handler);
  }

  onNotification(method: string, handler: NotificationHandler<E>): void {
    this.#notificationHandlers.set(method, handler);
  }

  onClose(listener: () => void): void {
    this.#closeListeners.push(listener);
  }

  /** Entry point for transports that carry text: decodes, answers parse errors, dispatches. */
  receiveText(text: string, extra: E): Promise<void> {
    const decoded = decode(text);
    if (!decoded.ok) {
      this.#options.tap?.('in', { raw: text });
      this.rejectMalformed(decoded.error);
      return Promise.resolve();
    }
    return this.receive(decoded.value, extra);
  }

  /** Entry point for one decoded JSON value: a message or a batch. */
  async receive(value: unknown, extra: E): Promise<void> {
    if (this.#closed) return;
    this.#options.tap?.('in', { message: value });
    if (!Array.isArray(value)) {
      // A request (nearly every message) goes straight to its handler: one async frame fewer on
      // the hottest path there is (measured in bench/RESULTS.md, stdio-roundtrip).
      const classified = classify(value);
      const response = classified.kind === 'request' ? await this.#handleRequest(classified.message, extra) : await this.#handleOne(value, extra, classified);
      if (response) this.#write(response, { relatedRequestId: response.id });
      return;
    }
    if (value.length === 0) return this.rejectMalformed(new InvalidRequestError('Invalid request: empty batch'));
    if (value.length > MAX_BATCH_ENTRIES) return this.rejectMalformed(batchTooLarge(value.length));
    const refusal = this.#options.batchPolicy ? this.#options.batchPolicy(value) : new InvalidRequestError('Invalid request: batches are not supported');
    if (refusal) return this.rejectMalformed(refusal);
    const responses = await Promise.all(value.map((item) => this.#handleOne(item, extra)));
    const answered = responses.filter((response): response is JsonRpcResponse => response !== undefined);
    if (answered.length > 0) this.#write(answered, {});
  }

  /** Answers a message that could not be read at all: an error response without an id. */
  rejectMalformed(error: JsonRpcError): void {
    this.#write(errorResponse(undefined, error.toErrorObject()), {});
  }

  notify(method: string, params?: Params, info: OutboundInfo = {}): void {
    const message: JsonRpcNotification = params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    this.#write(message, info);
  }

  request(method: string, params?: Params, options: RequestOptions = {}): Promise<Result> {
    if (this.#closed) return Promise.reject(new ConnectionClosedError());
    const id = this.#nextId++;
    let outgoing = params;
    if (options.onProgress) {
      const meta = { ...(params?._meta as Params | undefined), progressToken: id };
      outgoing = { ...params, _meta: meta };
    }
    const message: JsonRpcRequest = outgoing === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params: outgoing };
    const timeoutMs = options.timeoutMs ?? this.#options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const info: OutboundInfo = options.relatedRequestId === undefined ? {} : { relatedRequestId: options.relatedRequestId };

    return new Promise<Result>((resolve, reject) => {
      const giveUp = (error: Error, reason: string): void => {
        if (!this.#pending.has(id)) return;
        this.#pending.get(id)?.cleanup();
        this.#pending.delete(id);
        // The other side may still be working on it: tell it to stop. Its late answer is ignored.
        if (!this.#closed) this.notify('notifications/cancelled', { requestId: id, reason }, info);
        reject(error);
      };
      const timer = setTimeout(() => giveUp(new RequestTimeoutError(method, timeoutMs), `Timed out after ${timeoutMs} ms`), timeoutMs);
      const signalOnAbort = (): void => giveUp(new RequestCancelledError(method, options.signal?.reason), 'Cancelled by the requester');
      options.signal?.addEventListener('abort', signalOnAbort, { once: true });
      this.#pending.set(id, {
        method,
        resolve,
        reject,
        onProgress: options.onProgress,
        cleanup: () => {
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', signalOnAbort);
        },
      });
      if (options.signal?.aborted) return signalOnAbort();
      this.#write(message, info);
    });
  }

  /** Ends the connection: pending requests reject locally, running handlers are aborted and stay silent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      pending.cleanup();
      pending.reject(new ConnectionClosedError());
    }
    for (const inflight of this.#inflight.values()) {
      inflight.abort(new ConnectionClosedError());
    }
    this.#inflight.clear();
    for (const listener of this.#closeListeners) listener();
  }

  #write(payload: JsonRpcMessage | JsonRpcMessage[], info: OutboundInfo): void {
    if (this.#closed) return;
    this.#options.send(payload, info);
    this.#options.tap?.('out', { message: payload });
  }

  async #handleOne(value: unknown, extra: E, classified = classify(value)): Promise<JsonRpcResponse | undefined> {
    switch (classified.kind) {
      case 'request':
        return this.#handleRequest(classified.message, extra);
      case 'notification':
        await this.#handleNotification(classified.message, extra);
        return undefined;
      case 'response':
        this.#handleResponse(classified.message);
        return undefined;
      case 'invalid':
        if (classified.looksLikeResponse && classified.id !== undefined && this.#pending.has(classified.id)) {
          // Our request got a broken answer: fail it here rather than leave it to time out.
          const pending = this.#pending.get(classified.id)!;
          this.#pending.delete(classified.id);
          pending.cleanup();
          pending.reject(classified.error);
        }
        // A malformed response keeps no id in our answer: echoing the id of our own request would be misread.
        return errorResponse(classified.looksLikeResponse ? undefined : classified.id, classified.error.toErrorObject());
    }
  }

  /** Not an async function: the handler's answer is respond()'s own promise, with no turn of the microtask queue added. */
  #handleRequest(message: JsonRpcRequest, extra: E): Promise<JsonRpcResponse | undefined> | JsonRpcResponse {
    const { id, method } = message;
    if (this.#inflight.has(id)) {
      return errorResponse(id, new InvalidRequestError(`Invalid request: id ${JSON.stringify(id)} is already in use`).toErrorObject());
    }
    const handler = this.#requestHandlers.get(method);
    if (!handler) return errorResponse(id, new MethodNotFoundError(method).toErrorObject());

    const params = message.params ?? {};
    const inflight = new InboundRequest<E>(this, id, method, params, extra);
    this.#inflight.set(id, inflight);
    return respond(
      inflight,
      params,
      handler,
      (text, error) => this.#options.log?.('error', text, error),
      () => {
        if (this.#inflight.get(id) === inflight) this.#inflight.delete(id);
      },
    );
  }

  async #handleNotification(message: JsonRpcNotification, extra: E): Promise<void> {
    const params = message.params ?? {};
    if (message.method === 'notifications/cancelled') return this.#cancelInbound(params);
    if (message.method === 'notifications/progress') return this.#routeProgress(params);
    const handler = this.#notificationHandlers.get(message.method);
    if (!handler) {
      this.#options.log?.('debug', `Ignored notification "${message.method}": no handler`);
      return;
    }
    try {
      await handler(params, { method: message.method, extra });
    } catch (error) {
      // Notifications never get a response, not even an error one.
      this.#options.log?.('error', `Notification handler for "${message.method}" failed`, error);
    }
  }

  #cancelInbound(params: Params): void {
    const requestId = params.requestId;
    const inflight = isRequestId(requestId) ? this.#inflight.get(requestId) : undefined;
    if (!inflight || inflight.done) {
      this.#options.log?.('debug', `Ignored cancellation of ${JSON.stringify(requestId)}: not in progress`);
      return;
    }
    this.#inflight.delete(requestId as RequestId);
    inflight.abort(new RequestCancelledError(String(requestId), params.reason));
  }

  #routeProgress(params: Params): void {
    const token = params.progressToken;
    const pending = isRequestId(token) ? this.#pending.get(token) : undefined;
    if (!pending?.onProgress || typeof params.progress !== 'number') return;
    const update: ProgressUpdate = { progress: params.progress };
    if (typeof params.total === 'number') update.total = params.total;
    if (typeof params.message === 'string') update.message = params.message;
    pending.onProgress(update);
  }

  #handleResponse(message: JsonRpcResponse): void {
    if (message.id === undefined) {
      this.#options.log?.('warning', 'The other side could not read one of our messages', 'error' in message ? message.error : undefined);
      return;
    }
    const pending = this.#pending.get(message.id);
    if (!pending) {
      this.#options.log?.('debug', `Ignored late or unknown response ${JSON.stringify(message.id)}`);
      return;
    }
    this.#pending.delete(message.id);
    pending.cleanup();
    if ('error' in message) pending.reject(new RemoteError(message.error));
    else pending.resolve(message.result);
  }
}
