/**
 * `GET /status/events`: what the status page shows, pushed to it as it changes (Server-Sent
 * Events). Each stream answers to the credential that opened it, as MCP does:
 * - the projects that caller may see, with their figures and running job;
 * - each update of a job on one of them, as it moves;
 * - for an operator alone (the --auth-token, an admin token, or the local user), the open MCP
 *   sessions (transport, negotiated revision, client) and, in a team, the replicas and which one
 *   is the controller.
 *
 * A credential that stops holding (revoked, expired) ends the stream at the next look.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller } from '../caller.js';
import type { McpServer } from '../mcp/index.js';
import { DEFAULT_MAX_QUEUED_OUTPUT_BYTES } from './http-defaults.js';
import { httpErrors } from './http-errors.js';
import { sseHeaders } from './sse-stream.js';

export const STATUS_EVENTS_PATH = '/status/events';
/** How often a stream looks again at what it shows (and at its credential). */
const LOOK_EVERY_MS = 1_000;
/** Updates of one job at least this far apart; its first, each new stage and its end always go out. */
const JOB_EVERY_MS = 200;
/** A stream with nothing to say sends a comment this often, so that proxies keep it open. */
const KEEPALIVE_MS = 15_000;
/** Status streams open at once; past it, 503. */
const MAX_STATUS_STREAMS = 64;

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
  /** Whether the credential that opened a stream still holds. */
  stillAdmitted(req: IncomingMessage, caller: Caller): Promise<boolean>;
  /** How the server's places are shown to the caller (ProjectService.pathMask). */
  mask(caller: Caller): (text: string) => string;
}

export class StatusEvents {
  readonly #options: StatusEventsOptions;
  readonly #open = new Set<() => void>();

  constructor(options: StatusEventsOptions) {
    this.#options = options;
  }

  async open(req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void> {
    if (req.method !== 'GET') throw httpErrors.methodNotAllowed(req.method ?? '?', ['GET']);
    if (this.#open.size >= MAX_STATUS_STREAMS) throw httpErrors.busy(MAX_STATUS_STREAMS);
    const { source } = this.#options;
    const operator = await this.#options.operates(caller);
    const mask = this.#options.mask(caller);
    res.writeHead(200, { ...sseHeaders(), 'x-content-type-options': 'nosniff' });
    let sentAt = Date.now();
    const send = (event: string, value: unknown): void => {
      if (res.destroyed) return;
      res.write(`event: ${event}\ndata: ${mask(JSON.stringify(value))}\n\n`);
      sentAt = Date.now();
      // A page that does not read is let go rather than held in memory.
      if (res.writableLength > DEFAULT_MAX_QUEUED_OUTPUT_BYTES) res.destroy();
    };

    let shown = '';
    let looking = false;
    const look = async (): Promise<void> => {
      if (looking) return;
      looking = true;
      try {
        if (!(await this.#options.stillAdmitted(req, caller))) return close();
        const status = await this.#status(caller, operator);
        const text = JSON.stringify(status);
        if (text !== shown) {
          shown = text;
          send('status', status);
        } else if (Date.now() - sentAt >= KEEPALIVE_MS && !res.destroyed) {
          res.write(': keepalive\n\n');
          sentAt = Date.now();
        }
      } finally {
        looking = false;
      }
    };

    const lastSent = new Map<string, { at: number; stage: string }>();
    const stopJobs = source.followJobs((job) => {
      const seen = job.shownTo(caller);
      if (!seen) return;
      const last = lastSent.get(job.id);
      const now = Date.now();
      if (last && job.running && last.stage === job.stage && now - last.at < JOB_EVERY_MS) return;
      if (job.running) lastSent.set(job.id, { at: now, stage: job.stage });
      else lastSent.delete(job.id);
      send('job', seen);
      // The job's end changes the project's figures: shown now, not at the next look.
      if (!job.running) void look();
    });
    const timer = setInterval(() => void look().catch(close), LOOK_EVERY_MS);
    const close = (): void => {
      clearInterval(timer);
      stopJobs();
      this.#open.delete(close);
      if (!res.writableEnded) res.end();
    };
    this.#open.add(close);
    res.on('close', close);
    await look().catch(close);
  }

  /** Ends every stream (the server stops). */
  close(): void {
    for (const close of [...this.#open]) close();
  }

  async #status(caller: Caller, operator: boolean): Promise<Record<string, unknown>> {
    const { server, source, startedAt } = this.#options;
    const status: Record<string, unknown> = {
      server: { version: server.identity.version, started_at: new Date(startedAt).toISOString() },
      projects: source.projects(caller),
    };
    if (!operator) return status;
    status.sessions = server.openSessions();
    if (source.replicas) {
      try {
        status.replicas = await source.replicas();
      } catch {
        status.replicas_problem = 'The shared state cannot be read now: the replicas are not known.';
      }
    }
    return status;
  }
}
