/**
 * What all sessions of one server share: its identity and its registries. Each client connection
 * gets its own `McpSession` from `createSession`, with its own peer, ids and negotiated state; a
 * 2026-07-28 request without a session goes to the one `stateless` dispatcher.
 */
import type { Logger } from '../platform/log.js';
import { PromptRegistry } from './prompts.js';
import { RequestStateSealer } from './request-state.js';
import { TaskStore } from './tasks/index.js';
import { StatelessDispatcher, StatelessEra, type StatelessMethod, statelessMethods } from './stateless/index.js';
import { ResourceRegistry } from './resources.js';
import type { Listener, Registries, ServerIdentity } from './context.js';
import { McpSession, type McpSessionOptions } from './session.js';
import { ToolRegistry } from './tools.js';

export interface McpServerOptions {
  identity: ServerIdentity;
  registries?: Partial<Registries>;
  logger?: Logger;
  /** Called for each session once its client is ready (after notifications/initialized). */
  onSessionReady?: (session: McpSession) => void;
  onRootsChanged?: (session: McpSession) => void;
  /** Facts for the HTTP /health endpoint beyond liveness (the product's status and projects). */
  health?: () => Record<string, unknown>;
  /**
   * Seals multi round-trip request state (2026-07-28). One per server, shared by every request
   * and session: a retry may come to any of them. Default: a key of this process alone.
   */
  requestState?: RequestStateSealer;
  /** Where tasks are kept; `serve` gives one that writes them under SEXTANT_HOME for every process to read. */
  tasks?: TaskStore;
}

/** An open session as the status page shows it to an operator (never its id: over HTTP, that authenticates its requests). */
export interface SessionSummary {
  transport: string;
  protocol_version?: string;
  client?: { name: string; version: string };
  opened_at: string;
}

export class McpServer {
  readonly identity: ServerIdentity;
  readonly registries: Registries;
  readonly #logger: Logger | undefined;
  readonly #onSessionReady: ((session: McpSession) => void) | undefined;
  readonly #onRootsChanged: ((session: McpSession) => void) | undefined;
  /** Each open session, with the transport it came over and when it opened (for the status page). */
  readonly #sessions = new Map<McpSession, { transport: string; openedAt: Date }>();
  readonly #health: (() => Record<string, unknown>) | undefined;
  /**
   * The 2026-07-28 era's shared parts (request-state key, tasks, listen streams), one for the
   * stateless dispatcher and every session: a 2026 request keeps nothing of its own.
   */
  readonly era: StatelessEra;
  /** Every 2026-07-28 request that comes without a session goes through this one dispatcher. */
  readonly stateless: StatelessDispatcher;
  readonly #statelessMethods: Map<string, StatelessMethod>;

  constructor(options: McpServerOptions) {
    this.identity = options.identity;
    this.#logger = options.logger;
    this.#onSessionReady = options.onSessionReady;
    this.#onRootsChanged = options.onRootsChanged;
    this.#health = options.health;
    this.era = new StatelessEra({
      sealer: options.requestState ?? RequestStateSealer.ephemeral(),
      tasks: options.tasks ?? new TaskStore(),
      listen: (listener) => this.listen(listener),
    });
    this.registries = {
      tools: options.registries?.tools ?? new ToolRegistry(),
      resources: options.registries?.resources ?? new ResourceRegistry(),
      prompts: options.registries?.prompts ?? new PromptRegistry(),
    };
    this.#statelessMethods = statelessMethods(this.identity, this.registries, this.era);
    this.stateless = new StatelessDispatcher({ identity: this.identity, methods: this.#statelessMethods, ...(this.#logger ? { logger: this.#logger } : {}) });
  }

  /** `transport`: how the client reached it (`streamable-http`, `sse`, `websocket`, `stdio`), for openSessions. */
  createSession(options: Pick<McpSessionOptions, 'send' | 'tap' | 'requestTimeoutMs'> & { transport?: string }): McpSession {
    const { transport = 'unknown', ...rest } = options;
    const sessionOptions: McpSessionOptions = { ...rest, identity: this.identity, registries: this.registries, statelessMethods: this.#statelessMethods };
    if (this.#logger) sessionOptions.logger = this.#logger;
    if (this.#onSessionReady) sessionOptions.onReady = this.#onSessionReady;
    if (this.#onRootsChanged) sessionOptions.onRootsChanged = this.#onRootsChanged;
    const session = new McpSession(sessionOptions);
    this.#sessions.set(session, { transport, openedAt: new Date() });
    session.peer.onClose(() => this.#sessions.delete(session));
    return session;
  }

  /** The sessions open now: transport, the revision each negotiated (none before initialize) and its client. */
  openSessions(): SessionSummary[] {
    return [...this.#sessions].map(([session, { transport, openedAt }]) => ({
      transport,
      ...(session.protocolVersion !== undefined && { protocol_version: session.protocolVersion }),
      ...(session.clientInfo && { client: { name: session.clientInfo.name, version: session.clientInfo.version } }),
      opened_at: openedAt.toISOString(),
    }));
  }

  health(): Record<string, unknown> {
    return this.#health?.() ?? {};
  }

  /** A resource changed: every session subscribed to it, and every 2026 listen stream that asked for it, is told; returns how many were. */
  resourceUpdated(uri: string): number {
    let told = 0;
    for (const session of this.#sessions.keys()) if (session.resourceUpdated(uri)) told++;
    for (const listener of this.#listeners) {
      if (!listener.resources.includes(uri)) continue;
      listener.notify('notifications/resources/updated', { uri });
      told++;
    }
    return told;
  }

  /** Open `subscriptions/listen` streams (2026-07-28), whichever session they came in on. */
  readonly #listeners = new Set<Listener>();

  listen(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
