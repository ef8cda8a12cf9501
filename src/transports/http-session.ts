/**
 * One Streamable HTTP session: its MCP session, its SSE streams, and the routing of every
 * outgoing message onto exactly one of them (transports §Multiple Connections):
 * - a response goes to the POST that carried its request;
 * - a request or notification tied to an inbound request goes on that request's stream;
 * - anything else goes on the GET stream, and waits (bounded) until one is open.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { isResponse, type JsonRpcMessage, type OutboundInfo, type RequestId } from '../jsonrpc/index.js';
import type { Logger } from '../platform/log.js';
import type { McpServer, McpSession } from '../mcp/index.js';
import { DEFAULT_RETRY_MS, SseStream, type SseStreamOptions } from './sse-stream.js';

/**
 * A request still unanswered after this long gets an SSE stream (with its priming event), so a
 * long call is resumable; quicker answers go out as plain JSON, which is cheaper for both sides.
 */
export const DEFAULT_SSE_AFTER_MS = 50;

/** Finished streams kept per session for resumption; older ones are forgotten first. */
export const DEFAULT_MAX_KEPT_STREAMS = 64;

/** Messages kept for a GET stream that is not open yet. */
const DEFAULT_MAX_QUEUED_MESSAGES = 1_000;

/** 32 random bytes, base64url: visible ASCII only, as transports §Session Management requires. */
function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/** One POST that carried requests: answered as JSON, or as an SSE stream once anything else must go first. */
class Exchange {
  readonly #res: ServerResponse;
  readonly #pending: Set<RequestId>;
  readonly #open: (exchange: Exchange) => SseStream;
  #stream: SseStream | undefined;
  /** Extra response headers (the new session id on the initialize answer). */
  headers: Record<string, string> = {};
  /** A batch (2025-03-26) is answered with one JSON array; its side messages use the GET stream. */
  readonly batch: boolean;

  constructor(res: ServerResponse, ids: RequestId[], batch: boolean, open: (exchange: Exchange) => SseStream) {
    this.#res = res;
    this.#pending = new Set(ids);
    this.batch = batch;
    this.#open = open;
  }

  get done(): boolean {
    return this.#pending.size === 0;
  }

  get res(): ServerResponse {
    return this.#res;
  }

  /** Switches to SSE now (requests whose handling may take long, or emit messages first). */
  useSse(): SseStream {
    this.#clearTimer();
    this.#stream ??= this.#open(this);
    return this.#stream;
  }

  #timer: NodeJS.Timeout | undefined;

  /** Switches to SSE if the answer has not gone out within `ms`. */
  sseAfter(ms: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.done && !this.#res.writableEnded) this.useSse();
    }, ms);
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  deliver(message: JsonRpcMessage): void {
    if (isResponse(message) && message.id !== undefined) this.#pending.delete(message.id);
    if (this.done) this.#clearTimer();
    if (isResponse(message) && !this.#stream) return this.#writeJson(message);
    const stream = this.useSse();
    stream.send('message', JSON.stringify(message));
    if (this.done) stream.finish();
  }

  deliverBatch(messages: JsonRpcMessage[]): void {
    this.#pending.clear();
    this.#writeJson(messages);
  }

  #writeJson(body: unknown): void {
    if (this.#res.writableEnded || this.#res.destroyed) return;
    const text = JSON.stringify(body);
    this.#res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...this.headers });
    this.#res.end(text);
  }
}

export interface HttpSessionOptions {
  server: McpServer;
  logger: Logger;
  maxQueuedMessages?: number;
  maxQueuedOutputBytes?: number;
  retryMs?: number;
  /** Close a call's stream after this long without ending it; the client resumes with Last-Event-ID. */
  pollAfterMs?: number;
  /** Records traffic (`--record`): given a label for the session, returns its tap. */
  tap?: (sessionLabel: string) => Parameters<McpServer['createSession']>[0]['tap'];
}

export class HttpSession {
  readonly id = newSessionId();
  readonly mcp: McpSession;
  lastSeen = Date.now();
  readonly #options: HttpSessionOptions;
  readonly #streams = new Map<string, SseStream>();
  readonly #exchanges = new Map<RequestId, Exchange>();
  readonly #queue: JsonRpcMessage[] = [];
  /** Open GET streams, newest last: a message for them goes to exactly one (the newest still connected). */
  readonly #getStreams: SseStream[] = [];
  #nextStream = 1;

  constructor(options: HttpSessionOptions) {
    this.#options = options;
    this.mcp = options.server.createSession({
      transport: 'streamable-http',
      send: (payload, info) => this.#route(payload, info),
      // Label recordings with a prefix only: the full id is what authenticates the session's requests.
      tap: options.tap?.(`http-${this.id.slice(0, 8)}`),
    });
  }

  /** Registers a POST carrying these request ids; its response goes out when all are answered. */
  exchange(res: ServerResponse, ids: RequestId[], batch: boolean): Exchange {
    const exchange = new Exchange(res, ids, batch, (owner) => this.#openPostStream(owner));
    for (const id of ids) this.#exchanges.set(id, exchange);
    return exchange;
  }

  /** Whether a request with this id still waits for its answer (a second one would take its exchange). */
  inFlight(id: RequestId): boolean {
    return this.#exchanges.has(id);
  }

  readonly createdAt = Date.now();
  /** Who initialized it, as a credential proved (caller.ts): the only principal it answers. */
  principal: string | undefined;

  /** A request of this session still waits for its answer. */
  get answering(): boolean {
    return this.#exchanges.size > 0;
  }

  /** In use right now (an open stream, or a request in flight): never expired or evicted. */
  get active(): boolean {
    return this.connected || this.answering;
  }

  /** Whether the session holds a live connection: such a session is never idle-expired. */
  get connected(): boolean {
    for (const stream of this.#streams.values()) if (stream.connected) return true;
    return false;
  }

  /**
   * Opens a GET stream (a client may hold several: transports §Listening for Messages) and flushes
   * what waited for one.
   */
  openGetStream(res: ServerResponse): void {
    const stream = new SseStream(`g${this.#nextStream++}`, this.#streamOptions());
    this.#streams.set(stream.id, stream);
    this.#listen(stream);
    stream.attach(res, { prime: this.#primes() && 'listen', retryMs: this.#options.retryMs ?? DEFAULT_RETRY_MS });
    for (const message of this.#queue.splice(0)) stream.send('message', JSON.stringify(message));
  }

  /** A GET stream (new, or resumed) takes the newest place; streams no longer connected are dropped. */
  #listen(stream: SseStream): void {
    for (let at = this.#getStreams.length - 1; at >= 0; at--) {
      const held = this.#getStreams[at]!;
      if (held === stream || held.finished || !held.connected) this.#getStreams.splice(at, 1);
    }
    this.#getStreams.push(stream);
  }

  /** GET with Last-Event-ID: replays what that one stream missed, then carries on live. */
  resume(res: ServerResponse, lastEventId: string): boolean {
    const parsed = SseStream.parseEventId(lastEventId);
    const stream = parsed && this.#streams.get(parsed.streamId);
    if (!parsed || !stream || !stream.canReplayAfter(parsed.seq)) return false;
    stream.attach(res, { afterSeq: parsed.seq });
    if (stream.id.startsWith('g')) {
      this.#listen(stream);
      for (const message of this.#queue.splice(0)) stream.send('message', JSON.stringify(message));
    }
    return true;
  }

  close(): void {
    this.mcp.close();
    for (const stream of this.#streams.values()) stream.finish();
    this.#streams.clear();
    this.#exchanges.clear();
  }

  #streamOptions(): SseStreamOptions {
    return {
      withIds: true,
      ...(this.#options.maxQueuedOutputBytes !== undefined ? { maxQueuedBytes: this.#options.maxQueuedOutputBytes } : {}),
      onOverflow: (queued) =>
        this.#options.logger.warning(
          `Streamable HTTP session ${this.id.slice(0, 8)}…: a stream was dropped with ${queued} bytes queued for a client that does not read`,
        ),
    };
  }

  /** 2025-11-25 clients expect a priming event; older ones may choke on its empty data. */
  #primes(): boolean {
    const version = this.mcp.protocolVersion;
    return version !== undefined && version >= '2025-11-25';
  }

  #openPostStream(exchange: Exchange): SseStream {
    const stream = new SseStream(`p${this.#nextStream++}`, this.#streamOptions());
    this.#streams.set(stream.id, stream);
    this.#forgetOldStreams();
    const retryMs = this.#options.retryMs ?? DEFAULT_RETRY_MS;
    stream.attach(exchange.res, { prime: this.#primes() && 'call', retryMs, headers: exchange.headers });
    const pollAfter = this.#options.pollAfterMs;
    // Only clients that got a priming event know where to resume from.
    if (pollAfter !== undefined && this.#primes()) {
      setTimeout(() => {
        if (!stream.finished && stream.connected) stream.disconnect(retryMs);
      }, pollAfter).unref();
    }
    return stream;
  }

  /** Bounds what a long session keeps: the oldest finished streams go first (Map keeps insertion order). */
  #forgetOldStreams(): void {
    let excess = this.#streams.size - DEFAULT_MAX_KEPT_STREAMS;
    for (const [id, stream] of this.#streams) {
      if (excess <= 0) break;
      if (!stream.finished || stream.connected) continue;
      this.#streams.delete(id);
      excess--;
    }
  }

  #route(payload: JsonRpcMessage | JsonRpcMessage[], info: OutboundInfo): void {
    if (Array.isArray(payload)) {
      const ids = payload.flatMap((message) => (isResponse(message) && message.id !== undefined ? [message.id] : []));
      const exchange = ids.map((id) => this.#exchanges.get(id)).find((candidate) => candidate !== undefined);
      for (const id of ids) this.#exchanges.delete(id);
      if (exchange) exchange.deliverBatch(payload);
      else this.#options.logger.warning('No open exchange for a batch response; dropped');
      return;
    }
    const key = isResponse(payload) ? payload.id : info.relatedRequestId;
    const exchange = key === undefined ? undefined : this.#exchanges.get(key);
    if (exchange && (isResponse(payload) || (!exchange.batch && !exchange.done))) {
      if (isResponse(payload)) this.#exchanges.delete(key!);
      exchange.deliver(payload);
      return;
    }
    if (isResponse(payload)) {
      // Only an id-less error can get here (its exchange is answered by the transport itself).
      this.#options.logger.warning('A response with no open exchange was dropped', payload);
      return;
    }
    this.#toGetStream(payload);
  }

  #toGetStream(message: JsonRpcMessage): void {
    for (let at = this.#getStreams.length - 1; at >= 0; at--) {
      const stream = this.#getStreams[at]!;
      if (stream.connected && !stream.finished) return stream.send('message', JSON.stringify(message));
    }
    const limit = this.#options.maxQueuedMessages ?? DEFAULT_MAX_QUEUED_MESSAGES;
    if (this.#queue.length >= limit) {
      const dropped = this.#queue.shift();
      this.#options.logger.warning(`Session ${this.id.slice(0, 8)}…: no GET stream opened; dropped the oldest queued message`, dropped);
    }
    this.#queue.push(message);
  }
}
