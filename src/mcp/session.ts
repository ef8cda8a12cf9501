/**
 * One MCP session per client connection: lifecycle and version negotiation, capabilities, and the
 * server-side methods, all on top of a JSON-RPC peer. Nothing here is shared between sessions
 * except the registries, which are read-only once serving starts.
 */
import {
  InvalidParamsError,
  InvalidRequestError,
  MethodNotFoundError,
  Peer,
  type Params,
  type PeerOptions,
  type RequestContext,
  type RequestHandler,
  type RequestOptions,
  type Result,
} from '../jsonrpc/index.js';
import { NotInitializedError, ResourceNotFoundError } from './errors.js';
import { silentLogger, type Logger } from '../log.js';
import { DEFAULT_CLIENT_LOG_LEVEL, isAtLeast, isLogLevel, LOG_LEVELS, type LogLevel } from './logging.js';
import type { PromptRegistry } from './prompts.js';
import type { ResourceRegistry } from './resources.js';
import type { ToolContext, ToolRegistry } from './tools.js';
import { ToolCallContext } from './tool-call-context.js';
import { CLIENT_CAPABILITY_FOR, UndeclaredClientCapabilityError } from './client-capability.js';
import {
  CACHE_STATIC,
  CACHE_VOLATILE,
  completeResult,
  isStatelessRequest,
  isObject,
  principalOf,
  readStatelessRequest,
  type CacheHint,
  type StatelessRequest,
} from './stateless-request.js';
import { StatelessEra } from './stateless-era.js';
import { sessionEra, type RequestEra } from './request-era.js';
import type { RoundInput } from './multi-round-trip.js';
import { checkParamHeaders } from './param-headers.js';
import { RequestStateSealer } from './request-state.js';
import { requireTasks, TASKS_EXTENSION, TaskStore } from './tasks.js';
import {
  ALL_PROTOCOL_VERSIONS,
  featuresOf,
  isStatelessVersion,
  negotiateVersion,
  HANDSHAKE_PROTOCOL_VERSIONS,
  type AnyProtocolVersion,
  type HandshakeProtocolVersion,
} from './versions.js';
import { batchRefusal } from './batches.js';

/** Transport facts that travel with each incoming message; the session reads them, never the transport itself. */
export interface MessageContext {
  transport: string;
  sessionId?: string;
  query?: Record<string, string>;
  headers?: Record<string, string | string[] | undefined>;
  /**
   * Headers that must agree with a 2026-07-28 call's `x-mcp-header` arguments (SEP-2243): set by
   * a transport that carries them (Streamable HTTP), so the session need not know transports by name.
   */
  paramHeaders?: Record<string, string | string[] | undefined>;
}

export interface ServerIdentity {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  instructions?: string;
}

export interface Registries {
  tools: ToolRegistry;
  resources: ResourceRegistry;
  prompts: PromptRegistry;
}

export interface McpSessionOptions {
  identity: ServerIdentity;
  registries: Registries;
  send: PeerOptions['send'];
  tap?: PeerOptions['tap'];
  logger?: Logger;
  requestTimeoutMs?: number;
  /** Called once the client has sent notifications/initialized (e.g. to ask for its roots). */
  onReady?: (session: McpSession) => void;
  /** Called when the client sends notifications/roots/list_changed (never answered: it is a notification). */
  onRootsChanged?: (session: McpSession) => void;
  /** The 2026-07-28 era's shared parts (McpServer gives its own to every session). */
  era?: StatelessEra;
}

/** One open `subscriptions/listen` stream: the resources it follows, and how to tell it something. */
export interface Listener {
  resources: string[];
  notify(method: string, params: Params): void;
}

export interface ClientInfo {
  name: string;
  version: string;
  [key: string]: unknown;
}

/** Methods a client may send before the session is initialized (lifecycle §Initialization, utilities/ping). */
const ALLOWED_BEFORE_INITIALIZE = new Set(['initialize', 'ping']);

/** How a method is served to a stateless (2026-07-28) request, from that request alone. */
interface StatelessMethod {
  run(params: Params, context: RequestContext<MessageContext>, request: StatelessRequest): Promise<Result> | Result;
  /** Caching hints, for the methods whose results carry them. */
  cache?: CacheHint;
}

export class McpSession {
  readonly peer: Peer<MessageContext>;
  readonly #options: McpSessionOptions;
  readonly #logger: Logger;
  #version: HandshakeProtocolVersion | undefined;
  #clientInfo: ClientInfo | undefined;
  #clientCapabilities: Params = {};
  /** Every message of this session is served under it, once `initialize` is answered. */
  #era: RequestEra | undefined;
  #clientReady = false;
  readonly #subscriptions = new Set<string>();
  #logLevel: LogLevel = DEFAULT_CLIENT_LOG_LEVEL;

  constructor(options: McpSessionOptions) {
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
    this.peer = new Peer<MessageContext>({
      send: options.send,
      batchPolicy: (items) => batchRefusal(this.#version, items),
      log: (level, message, detail) => this.#logger[level](message, detail),
      tap: options.tap,
      requestTimeoutMs: options.requestTimeoutMs,
    });
    this.#registerHandlers();
  }

  /** The negotiated revision, once `initialize` has been answered. */
  get protocolVersion(): HandshakeProtocolVersion | undefined {
    return this.#version;
  }

  get clientInfo(): ClientInfo | undefined {
    return this.#clientInfo;
  }

  get clientCapabilities(): Params {
    return this.#clientCapabilities;
  }

  /** Whether the client has sent notifications/initialized. */
  get clientReady(): boolean {
    return this.#clientReady;
  }

  get logLevel(): LogLevel {
    return this.#logLevel;
  }

  receive(value: unknown, extra: MessageContext): Promise<void> {
    return this.peer.receive(value, extra);
  }

  receiveText(text: string, extra: MessageContext): Promise<void> {
    return this.peer.receiveText(text, extra);
  }

  /** Sends notifications/message when the client's level lets it through. */
  log(level: LogLevel, data: unknown, logger?: string): boolean {
    if (!this.#version || !isAtLeast(level, this.#logLevel)) return false;
    this.peer.notify('notifications/message', logger === undefined ? { level, data } : { level, logger, data });
    return true;
  }

  /**
   * Sends a request to the client, only if it declared the capability the method needs
   * (lifecycle §Operation: use only negotiated capabilities). `relatedRequestId` ties it to an
   * inbound request, so HTTP puts it on that request's stream.
   */
  requestClient(method: string, params?: Params, options: RequestOptions = {}): Promise<Result> {
    const capability = CLIENT_CAPABILITY_FOR[method];
    if (capability && !isObject(this.#clientCapabilities[capability])) {
      return Promise.reject(new UndeclaredClientCapabilityError(method, capability));
    }
    return this.peer.request(method, params, options);
  }

  close(): void {
    this.peer.close();
  }

  capabilities(version: AnyProtocolVersion): Params {
    const capabilities: Params = {
      logging: {},
      tools: { listChanged: false },
      // Both eras can follow a resource: resources/subscribe before 2026-07-28, subscriptions/listen since.
      resources: { subscribe: true, listChanged: false },
      prompts: { listChanged: false },
    };
    if (featuresOf(version).completionsCapability) capabilities.completions = {};
    if (isStatelessVersion(version)) capabilities.extensions = { [TASKS_EXTENSION]: {} };
    return capabilities;
  }

  /**
   * One method, both eras. A request is classified by what it carries (see stateless-request.ts): a stateless
   * one is served from its own `_meta` and gets a `complete` result stamped with the server's
   * identity; anything else needs this session's `initialize`. A method the stateless revision
   * removed (`ping`, `logging/setLevel`, …) has no stateless form: Method not found.
   */
  #handle(method: string, legacy: RequestHandler<MessageContext> | undefined, stateless?: StatelessMethod): void {
    // Not an async function: a handshake-era call returns its handler's own promise (an async
    // wrapper returning it would cost the call two more turns of the microtask queue).
    this.peer.onRequest(method, (params, context) => {
      if (isStatelessRequest(method, context.meta)) return this.#handleStateless(method, stateless, params, context);
      if (!legacy) throw new MethodNotFoundError(method);
      if (!this.#version && !ALLOWED_BEFORE_INITIALIZE.has(method)) throw new NotInitializedError(method);
      return legacy(params, context);
    });
  }

  async #handleStateless(method: string, stateless: StatelessMethod | undefined, params: Params, context: RequestContext<MessageContext>): Promise<Result> {
    const request = readStatelessRequest(context.meta);
    if (!stateless) throw new MethodNotFoundError(method);
    return completeResult(await stateless.run(params, context, request), this.#serverInfo(request.version), stateless.cache);
  }

  #registerHandlers(): void {
    const { tools, resources, prompts } = this.#options.registries;
    this.#handle('server/discover', undefined, {
      run: (_params, _context, request) => {
        const result: Result = { supportedVersions: [...ALL_PROTOCOL_VERSIONS], capabilities: this.capabilities(request.version) };
        if (this.#options.identity.instructions) result.instructions = this.#options.identity.instructions;
        return result;
      },
      cache: CACHE_STATIC,
    });
    // The tasks extension: only for requests that declared it (-32021 otherwise); tasks/result and tasks/list are gone.
    const taskMethod = (run: (params: Params, principal: string | undefined) => Result | Promise<Result>): StatelessMethod => ({
      run: (params, context, request) => {
        requireTasks(request.capabilities);
        return run(params, principalOf(context.extra?.headers));
      },
    });
    this.#handle(
      'tasks/get',
      undefined,
      taskMethod((params, principal) => this.#stateless.tasks.get(params.taskId, principal)),
    );
    this.#handle(
      'tasks/update',
      undefined,
      taskMethod((params, principal) => this.#stateless.tasks.update(params.taskId, params.inputResponses, principal)),
    );
    this.#handle(
      'tasks/cancel',
      undefined,
      taskMethod((params, principal) => this.#stateless.tasks.cancel(params.taskId, principal)),
    );
    this.#handle('subscriptions/listen', undefined, { run: (params, context, request) => this.#stateless.listen(params, context, request) });
    this.#handle('initialize', (params) => this.#initialize(params));
    this.#handle('ping', () => ({}));
    this.#handle('logging/setLevel', (params) => {
      if (!isLogLevel(params.level)) {
        throw new InvalidParamsError(`Invalid log level ${JSON.stringify(params.level)}: use one of ${LOG_LEVELS.join(', ')}`);
      }
      this.#logLevel = params.level;
      return {};
    });
    this.#handle('tools/list', (params) => tools.list(this.#era!, params.cursor), {
      run: (params, _context, request) => tools.list(request.era, params.cursor),
      cache: CACHE_STATIC,
    });
    // A handshake-era call has no input rounds and no tasks: what comes back is a CallToolResult.
    this.#handle('tools/call', (params, context) => tools.call(params, this.#toolContext(params, context)) as unknown as Promise<Result>, {
      run: (params, context, request) => {
        // Over HTTP the x-mcp-header parameters must match their Mcp-Param-* headers (SEP-2243).
        if (context.extra?.paramHeaders) checkParamHeaders(tools.inputSchema(params.name, request.era), params.arguments, context.extra.paramHeaders);
        return this.#stateless.withRounds('tools/call', params, context, request, (input: RoundInput) =>
          tools.call(params, this.#stateless.toolContext(params, context, request, input)),
        );
      },
    });
    this.#handle('resources/list', (params) => resources.list(params.cursor, this.#era!), {
      run: (params, _context, request) => resources.list(params.cursor, request.era),
      cache: CACHE_STATIC,
    });
    this.#handle('resources/templates/list', (params) => resources.listTemplates(params.cursor), {
      run: (params) => resources.listTemplates(params.cursor),
      cache: CACHE_STATIC,
    });
    const uriOf = (params: Params): string => {
      if (typeof params.uri !== 'string') throw new InvalidParamsError('Invalid params: "uri" must be a string');
      return params.uri;
    };
    this.#handle('resources/read', async (params) => (await resources.read(uriOf(params), this.#era!)) as Result, {
      run: async (params, context, request) => {
        try {
          return await this.#stateless.withRounds('resources/read', params, context, request, (input: RoundInput) =>
            resources.read(uriOf(params), request.era, input),
          );
        } catch (error) {
          // 2026-07-28 reports an unknown resource as Invalid params; -32002 is retired.
          if (error instanceof ResourceNotFoundError) throw new InvalidParamsError(error.message, error.data);
          throw error;
        }
      },
      cache: CACHE_VOLATILE,
    });
    this.#handle('resources/subscribe', (params) => {
      const uri = this.#resourceUri(params);
      this.#subscriptions.add(uri);
      return {};
    });
    this.#handle('resources/unsubscribe', (params) => {
      this.#subscriptions.delete(this.#resourceUri(params));
      return {};
    });
    this.#handle('prompts/list', (params) => prompts.list(params.cursor, this.#era!), {
      run: (params, _context, request) => prompts.list(params.cursor, request.era),
      cache: CACHE_STATIC,
    });
    this.#handle('prompts/get', async (params) => (await prompts.get(params.name, params.arguments, this.#era!)) as Result, {
      run: (params, context, request) =>
        this.#stateless.withRounds('prompts/get', params, context, request, (input: RoundInput) =>
          prompts.get(params.name, params.arguments, request.era, input),
        ),
    });
    const complete = (params: Params): Result => {
      const { ref, argument } = params;
      if (!isObject(ref) || !isObject(argument)) throw new InvalidParamsError('Invalid params: "ref" and "argument" must be objects');
      return { completion: prompts.complete(ref, argument, params.context) };
    };
    this.#handle('completion/complete', complete, { run: complete });

    this.peer.onNotification('notifications/initialized', () => {
      if (!this.#version) return this.#logger.warning('notifications/initialized arrived before initialize; ignored');
      if (this.#clientReady) return;
      this.#clientReady = true;
      this.#options.onReady?.(this);
    });
    this.peer.onNotification('notifications/roots/list_changed', () => {
      this.#logger.debug('Client roots changed');
      if (this.#version) this.#options.onRootsChanged?.(this);
    });
  }

  #resourceUri(params: Params): string {
    if (typeof params.uri !== 'string') throw new InvalidParamsError('Invalid params: "uri" must be a string');
    if (!this.#options.registries.resources.has(params.uri, this.#era!)) throw new ResourceNotFoundError(params.uri);
    return params.uri;
  }

  /** Tells the client a resource it subscribed to has changed (resources §Subscriptions). */
  resourceUpdated(uri: string): boolean {
    if (!this.#subscriptions.has(uri)) return false;
    this.peer.notify('notifications/resources/updated', { uri });
    return true;
  }

  #initialize(params: Params): Result {
    if (this.#version) throw new InvalidRequestError('Invalid request: the session is already initialized');
    const { protocolVersion, capabilities, clientInfo } = params;
    if (typeof protocolVersion !== 'string') throw new InvalidParamsError('Invalid params: "protocolVersion" must be a string');
    if (!isObject(capabilities)) throw new InvalidParamsError('Invalid params: "capabilities" must be an object');
    if (!isObject(clientInfo) || typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') {
      throw new InvalidParamsError('Invalid params: "clientInfo" needs string "name" and "version"');
    }
    const version = negotiateVersion(protocolVersion);
    if (version !== protocolVersion) {
      this.#logger.info(`Client asked for protocol ${protocolVersion}; offering ${version} (supported: ${HANDSHAKE_PROTOCOL_VERSIONS.join(', ')})`);
    }
    this.#version = version;
    this.#clientInfo = clientInfo as ClientInfo;
    this.#clientCapabilities = capabilities;
    this.#era = sessionEra(version, capabilities);
    const result: Result = {
      protocolVersion: version,
      capabilities: this.capabilities(version),
      serverInfo: this.#serverInfo(version),
    };
    if (this.#options.identity.instructions) result.instructions = this.#options.identity.instructions;
    return result;
  }

  #serverInfo(version: AnyProtocolVersion): Params {
    const { name, version: serverVersion, title, description, websiteUrl } = this.#options.identity;
    const features = featuresOf(version);
    const info: Params = { name, version: serverVersion };
    if (features.structuredOutput && title) info.title = title;
    if (features.icons && description) info.description = description;
    if (features.icons && websiteUrl) info.websiteUrl = websiteUrl;
    return info;
  }

  #toolContext(params: Params, context: RequestContext<MessageContext>): ToolContext {
    return new ToolCallContext(this, this.#era!, context, typeof params.name === 'string' ? params.name : undefined);
  }

  /** The stateless era's shared parts: the server's, or (a session made on its own, in tests) one of its own. */
  get #stateless(): StatelessEra {
    this.#ownStateless ??= this.#options.era ?? new StatelessEra({ sealer: RequestStateSealer.ephemeral(), tasks: new TaskStore() });
    return this.#ownStateless;
  }

  #ownStateless: StatelessEra | undefined;
}
