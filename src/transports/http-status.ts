/**
 * `GET /status/events`: what the status page shows, pushed to it as it changes (Server-Sent
 * Events). Each stream answers to the credential that opened it, as MCP does:
 * - the projects that caller may see, with their figures and running job;
 * - each update of a job on one of them, as it moves;
 * - for an operator alone (the --auth-token, an admin token, or the local user), the open MCP
 *   sessions (transport, negotiated revision, client) and, in a team, the replicas and which one
 *   is the controller.
 *
 * The credential is checked again at every look: one that stops holding (revoked, expired) ends
 * the stream, and what it may see is what it may see now, not when the stream opened.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller } from '../caller.js';
import type { McpServer } from '../mcp/index.js';
import { httpErrors } from './http-errors.js';
import { SseStream } from './sse-stream.js';

export const STATUS_EVENTS_PATH = '/status/events';
/** How often a stream looks again at what it shows (and at its credential). */
const LOOK_EVERY_MS = 1_000;
/** Updates of one job at least this far apart; its first, each new stage and its end always go out. */
const JOB_EVERY_MS = 200;
/** A stream with nothing to say sends a comment this often, so that proxies keep it open. */
const KEEPALIVE_MS = 15_000;
/** Status streams open at once; past it, 503. */
const MAX_STATUS_STREAMS = 64;
/** Status streams one principal (or, without a credential, the local user) may hold at once: one caller cannot take them all. */
const MAX_STREAMS_PER_CALLER = 8;

/** A team replica as an operator sees it. */
export interface ReplicaStatus {
  id: string;
  started_at: string;
  seen_at: string;
  controller: boolean;
  /** The replica that answers this stream. */
  self: boolean;
}

/** An index job as it moves. */
interface JobUpdate {
  readonly id: string;
  readonly running: boolean;
  readonly stage: string;
  /** The job as `caller` is shown it, or undefined when it may not see the job's project. */
  shownTo(caller: Caller): object | undefined;
}

/** What the server knows of its projects and its team (composed by `serve`). */
export interface StatusSource {
  /** The projects `caller` may see (workspace/status.ts). */
  projects(caller: Caller): readonly object[];
  /** Calls `listener` at each update of every job, from its start; returns how to stop. */
  followJobs(listener: (job: JobUpdate) => void): () => void;
  /** In a team: the replicas alive now. */
  replicas?(): Promise<ReplicaStatus[]>;
}

export interface StatusEventsOptions {
  server: McpServer;
  source: StatusSource;
  startedAt: number;
  /** Whether the caller operates the server (HttpGate.operates). */
  operates(caller: Caller): Promise<boolean>;
  /** The request's caller now, if its credential still names the same principal; undefined once it does not. */
  callerNow(req: IncomingMessage, caller: Caller): Promise<Caller | undefined>;
  /** How the server's places are shown to the caller (ProjectService.pathMask). */
  mask(caller: Caller): (text: string) => string;
}

export class StatusEvents {
  readonly #options: StatusEventsOptions;
  readonly #open = new Set<FeedStream>();

  constructor(options: StatusEventsOptions) {
    this.#options = options;
  }

  open(req: IncomingMessage, res: ServerResponse, caller: Caller): void {
    if (req.method !== 'GET') throw httpErrors.methodNotAllowed(req.method ?? '?', ['GET']);
    const key = caller.principal ?? caller.reach;
    if (this.#open.size >= MAX_STATUS_STREAMS) throw httpErrors.busy(MAX_STATUS_STREAMS);
    if ([...this.#open].filter((stream) => stream.key === key).length >= MAX_STREAMS_PER_CALLER) throw httpErrors.busy(MAX_STREAMS_PER_CALLER);
    // Taken before anything is awaited: streams opened at once count, and a client gone meanwhile frees its place.
    const stream = new FeedStream(this.#options, req, res, caller, key, () => this.#open.delete(stream));
    this.#open.add(stream);
    stream.start();
  }

  /** Ends every stream (the server stops). */
  close(): void {
    for (const stream of [...this.#open]) stream.end();
  }
}

/** One page following the status. */
class FeedStream {
  readonly key: string;
  readonly #options: StatusEventsOptions;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  /** No ids and no replay: a page that comes back is sent the whole status again. */
  readonly #stream = new SseStream('status', { withIds: false });
  readonly #onEnd: () => void;
  #caller: Caller;
  #operator = false;
  #mask: (text: string) => string = (text) => text;
  #shown = '';
  #sentAt = Date.now();
  #looking = false;
  /** A look was asked for while one ran: it runs again once that one is done. */
  #again = false;
  #ended = false;
  readonly #lastJobSent = new Map<string, { at: number; stage: string }>();
  #timer: NodeJS.Timeout | undefined;
  #stopJobs: (() => void) | undefined;

  constructor(options: StatusEventsOptions, req: IncomingMessage, res: ServerResponse, caller: Caller, key: string, onEnd: () => void) {
    this.#options = options;
    this.#req = req;
    this.#res = res;
    this.#caller = caller;
    this.key = key;
    this.#onEnd = onEnd;
  }

  start(): void {
    this.#res.once('close', () => this.end());
    if (this.#res.destroyed || this.#req.socket.destroyed) return this.end();
    // A page that does not read is let go (the stream drops it), and its close ends this.
    this.#stream.attach(this.#res, { headers: { 'x-content-type-options': 'nosniff' } });
    this.#stopJobs = this.#options.source.followJobs((job) => this.#onJob(job));
    this.#timer = setInterval(() => this.#look(), LOOK_EVERY_MS);
    this.#timer.unref();
    this.#look();
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    clearInterval(this.#timer);
    this.#stopJobs?.();
    this.#onEnd();
    this.#stream.finish();
  }

  #send(event: string, value: unknown): void {
    if (this.#ended) return;
    this.#stream.send(event, this.#mask(JSON.stringify(value)));
    this.#sentAt = Date.now();
  }

  #onJob(job: JobUpdate): void {
    const last = this.#lastJobSent.get(job.id);
    const now = Date.now();
    if (last && job.running && last.stage === job.stage && now - last.at < JOB_EVERY_MS) return;
    const seen = job.shownTo(this.#caller);
    if (!seen) return;
    if (job.running) this.#lastJobSent.set(job.id, { at: now, stage: job.stage });
    else this.#lastJobSent.delete(job.id);
    this.#send('job', seen);
    // The job's end changes the project's figures: shown now, not at the next look (and after
    // any look under way, which may have read them while the job still ran).
    if (!job.running) this.#look();
  }

  #look(): void {
    if (this.#ended) return;
    if (this.#looking) {
      this.#again = true;
      return;
    }
    this.#looking = true;
    this.#lookOnce()
      .catch(() => this.end())
      .finally(() => {
        this.#looking = false;
        if (this.#again && !this.#ended) {
          this.#again = false;
          this.#look();
        }
      });
  }

  async #lookOnce(): Promise<void> {
    const caller = await this.#options.callerNow(this.#req, this.#caller);
    if (!caller) return this.end();
    this.#caller = caller;
    this.#operator = await this.#options.operates(caller);
    this.#mask = this.#options.mask(caller);
    const status = await this.#status();
    if (this.#ended) return;
    const text = JSON.stringify(status);
    if (text !== this.#shown) {
      this.#shown = text;
      this.#send('status', status);
    } else if (Date.now() - this.#sentAt >= KEEPALIVE_MS) {
      this.#stream.keepAlive();
      this.#sentAt = Date.now();
    }
  }

  async #status(): Promise<Record<string, unknown>> {
    const { server, source, startedAt } = this.#options;
    const status: Record<string, unknown> = {};
    if (this.#operator) {
      status.sessions = server.openSessions();
      if (source.replicas) {
        try {
          status.replicas = await source.replicas();
        } catch {
          status.replicas_problem = 'The shared state cannot be read now: the replicas are not known.';
        }
      }
    }
    // Read after the replicas are awaited: no older than the job updates sent meanwhile.
    return {
      // When the server started is the operator's to know (as /health's details are).
      server: { version: server.identity.version, ...(this.#operator && { started_at: new Date(startedAt).toISOString() }) },
      projects: source.projects(this.#caller),
      ...status,
    };
  }
}
