/**
 * Serves 2026-07-28 requests that come without a session (Streamable HTTP with no session id):
 * one dispatcher per server, its method table built once, so that a request costs its own
 * context and nothing more: no session, no peer, no handler map made and thrown away per call.
 * Each request is served from what it carries (request.ts); errors become wire errors
 * in one place (jsonrpc's `respond`), as for a session's requests.
 */
import {
  InboundRequest,
  InvalidRequestError,
  MethodNotFoundError,
  respond,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type Params,
  type RequestContext,
  type RequestSender,
  type Result,
  type TapEntry,
} from '../../jsonrpc/index.js';
import { silentLogger, type Logger } from '../../platform/log.js';
import type { MessageContext, ServerIdentity } from '../context.js';
import { serverInfoFor, type StatelessMethod } from './methods.js';
import { completeResult, readStatelessRequest } from './request.js';

/** Where one request's messages go: its notifications (progress, log messages) before its answer. */
export type NotificationSink = (notification: JsonRpcNotification) => void;

/** A request being served: its answer (none once stopped), and how to stop it (the client hung up). */
export interface StatelessCall {
  readonly answer: Promise<JsonRpcResponse | undefined>;
  stop(reason: unknown): void;
}

/** The notifications of one request; a server-to-client request has no place in this era (multi round-trip requests replace it). */
class CallSender implements RequestSender {
  readonly #sink: NotificationSink;
  readonly #tap: ((direction: 'in' | 'out', entry: TapEntry) => void) | undefined;

  constructor(sink: NotificationSink, tap: ((direction: 'in' | 'out', entry: TapEntry) => void) | undefined) {
    this.#sink = sink;
    this.#tap = tap;
  }

  notify(method: string, params: Params | undefined): void {
    const notification: JsonRpcNotification = params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    this.#tap?.('out', { message: notification });
    this.#sink(notification);
  }

  request(method: string): Promise<Result> {
    return Promise.reject(new InvalidRequestError(`"${method}" cannot be sent to the client of a stateless request: it has no channel back`));
  }
}

export class StatelessDispatcher {
  readonly #identity: ServerIdentity;
  readonly #methods: Map<string, StatelessMethod>;
  readonly #logger: Logger;
  /** One handler for every method: the request's own method is looked up inside it. */
  readonly #handler = (params: Params, context: RequestContext<MessageContext>): Promise<Result> => this.#run(params, context);

  constructor(options: { identity: ServerIdentity; methods: Map<string, StatelessMethod>; logger?: Logger }) {
    this.#identity = options.identity;
    this.#methods = options.methods;
    this.#logger = options.logger ?? silentLogger;
  }

  /**
   * Serves one request. `sink` takes its notifications; `tap` (record mode) sees what comes in
   * and goes out. The answer is undefined once `stop` was called before it was ready.
   */
  dispatch(request: JsonRpcRequest, extra: MessageContext, sink: NotificationSink, tap?: (direction: 'in' | 'out', entry: TapEntry) => void): StatelessCall {
    tap?.('in', { message: request });
    const params = request.params ?? {};
    const inflight = new InboundRequest<MessageContext>(new CallSender(sink, tap), request.id, request.method, params, extra);
    const answer = respond(inflight, params, this.#handler, (text, error) => this.#logger.error(text, error)).then((response) => {
      if (response) tap?.('out', { message: response });
      return response;
    });
    return { answer, stop: (reason) => inflight.abort(reason) };
  }

  async #run(params: Params, context: RequestContext<MessageContext>): Promise<Result> {
    const method = this.#methods.get(context.method);
    const request = readStatelessRequest(context.meta);
    if (!method) throw new MethodNotFoundError(context.method);
    return completeResult(await method.run(params, context, request), serverInfoFor(this.#identity, request.version), method.cache);
  }
}
