/**
 * One server-sent-events stream of a session: numbered events, a bounded replay buffer, and a
 * connection that may come and go (Streamable HTTP resumability). Knows nothing of MCP.
 */
import type { ServerResponse } from 'node:http';
import { DEFAULT_MAX_QUEUED_OUTPUT_BYTES } from './http-defaults.js';

/** Events kept per stream for replay after a dropped connection. */
const DEFAULT_REPLAY_EVENTS = 500;
/** What the server asks a client to wait before reconnecting (SSE `retry`). */
export const DEFAULT_RETRY_MS = 1_000;

export interface SseStreamOptions {
  /** Number events so that clients can resume with Last-Event-ID. */
  withIds: boolean;
  maxReplayEvents?: number;
  /** Bytes the connection may hold unsent (DEFAULT_MAX_QUEUED_OUTPUT_BYTES); past them it is dropped. */
  maxQueuedBytes?: number;
  /** Told when the connection was dropped for a client that does not read. */
  onOverflow?(queuedBytes: number): void;
}

interface BufferedEvent {
  seq: number;
  chunk: string;
}

export function sseHeaders(): Record<string, string> {
  return { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive' };
}

/** What a stream opens with: for a call's stream, an event with empty data; for a GET stream, its id and retry alone. */
export type Priming = 'call' | 'listen' | false;

export class SseStream {
  readonly id: string;
  readonly #options: SseStreamOptions;
  readonly #buffer: BufferedEvent[] = [];
  #seq = 0;
  #res: ServerResponse | undefined;
  #finished = false;
  #corked = false;

  constructor(id: string, options: SseStreamOptions) {
    this.id = id;
    this.#options = options;
  }

  get connected(): boolean {
    return this.#res !== undefined;
  }

  /** The stream has delivered everything it ever will (e.g. the response to its request). */
  get finished(): boolean {
    return this.#finished;
  }

  /** Event ids look like `<stream>-<n>`: unique in the session and naming their stream. */
  static parseEventId(eventId: string): { streamId: string; seq: number } | undefined {
    const match = /^([A-Za-z0-9]+)-(\d+)$/.exec(eventId);
    return match ? { streamId: match[1]!, seq: Number(match[2]) } : undefined;
  }

  /**
   * Takes over a response: headers, then (optionally) a priming event with `retry`, then every
   * buffered event after `afterSeq`. Ends it at once if the stream is already finished.
   */
  attach(res: ServerResponse, options: { afterSeq?: number; prime?: Priming; retryMs?: number; headers?: Record<string, string> } = {}): void {
    this.#res?.end();
    this.#res = res;
    if (!res.headersSent) res.writeHead(200, { ...sseHeaders(), ...options.headers });
    if (options.prime && this.#options.withIds) {
      const retry = options.retryMs ?? DEFAULT_RETRY_MS;
      // A call's stream: an id and empty data, something to resume from before the first real
      // event (SEP-1699). A GET stream gets its id and retry with no data line at all: an event
      // without data is never dispatched, so no client can take it for a message to parse.
      const data = options.prime === 'call' ? 'data: \n' : '';
      this.#write(`id: ${this.id}-${this.#seq}\nretry: ${retry}\n${data}\n`);
    }
    if (options.afterSeq !== undefined) {
      for (const event of this.#buffer) if (event.seq > options.afterSeq) this.#write(event.chunk);
    }
    res.on('close', () => {
      if (this.#res === res) this.#res = undefined;
    });
    if (this.#finished) this.#end();
  }

  /** Whether replaying after `seq` is still possible from the buffer. */
  canReplayAfter(seq: number): boolean {
    if (seq > this.#seq) return false;
    const oldest = this.#buffer[0]?.seq ?? this.#seq + 1;
    return seq >= oldest - 1;
  }

  send(event: string, data: string): void {
    if (this.#finished) throw new Error(`SSE stream ${this.id} is finished`);
    const seq = ++this.#seq;
    const id = this.#options.withIds ? `id: ${this.id}-${seq}\n` : '';
    const chunk = `${id}event: ${event}\ndata: ${data}\n\n`;
    if (this.#options.withIds) {
      this.#buffer.push({ seq, chunk });
      if (this.#buffer.length > (this.#options.maxReplayEvents ?? DEFAULT_REPLAY_EVENTS)) this.#buffer.shift();
    }
    this.#write(chunk);
  }

  /**
   * Writes within one turn of the event loop leave in one packet: a quick answer's headers,
   * priming event and result would otherwise cost a syscall and a TCP segment each.
   */
  #write(chunk: string): void {
    const res = this.#res;
    if (!res) return;
    if (!this.#corked) {
      this.#corked = true;
      res.cork();
      setImmediate(() => {
        this.#corked = false;
        if (!res.writableEnded) res.uncork();
      });
    }
    res.write(chunk);
    const queued = res.writableLength;
    if (queued > (this.#options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_OUTPUT_BYTES)) {
      // The client is not reading: what it would be sent next is dropped with the connection.
      this.#res = undefined;
      res.destroy();
      this.#options.onOverflow?.(queued);
    }
  }

  /** A comment line, which no client dispatches: it keeps a quiet stream open through proxies. */
  keepAlive(): void {
    this.#write(': keepalive\n\n');
  }

  /** Ends the stream for good; a connected client sees the response end. */
  finish(): void {
    this.#finished = true;
    this.#end();
  }

  /** Drops the connection without ending the stream, after telling the client when to come back. */
  disconnect(retryMs = DEFAULT_RETRY_MS): void {
    this.#res?.write(`retry: ${retryMs}\n\n`);
    this.#end();
  }

  #end(): void {
    const res = this.#res;
    this.#res = undefined;
    res?.end();
  }
}
