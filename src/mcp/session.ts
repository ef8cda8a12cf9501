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
import { silentLogger, type Logger } from '../platform/log.js';
import { DEFAULT_CLIENT_LOG_LEVEL, isAtLeast, isLogLevel, LOG_LEVELS, type LogLevel } from './logging.js';
import type { ToolContext } from './tools.js';
import { ToolCallContext } from './tool-call-context.js';
import { CLIENT_CAPABILITY_FOR, UndeclaredClientCapabilityError } from './client-capability.js';
import {
  completeArgument,
  completeResult,
  isObject,
  isStatelessRequest,
  readStatelessRequest,
  serverCapabilities,
  serverInfoFor,
  type StatelessMethod,
} from './stateless/index.js';
import { sessionEra, type RequestEra } from './request-era.js';
import { negotiateVersion, HANDSHAKE_PROTOCOL_VERSIONS, type HandshakeProtocolVersion } from './versions.js';
import { batchRefusal } from './batches.js';
import type { ClientInfo, MessageContext, Registries, ServerIdentity } from './context.js';

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
  /** The 2026-07-28 methods, served from each request alone: the server's table (McpServer gives it to every session). */
  statelessMethods: Map<string, StatelessMethod>;
}

/** Methods a client may send before the session is initialized (lifecycle §Initialization, utilities/ping). */
const ALLOWED_BEFORE_INITIALIZE = new Set(['initialize', 'ping']);

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

  /**
   * One method, both eras. A request is classified by what it carries (see stateless/request.ts): a stateless
   * one is served from its own `_meta` by the server's table of 2026 methods (stateless/methods.ts)
   * and gets a `complete` result stamped with the server's identity; anything else needs this
   * session's `initialize`. A method the stateless revision removed (`ping`, `logging/setLevel`, …)
   * has no stateless form: Method not found.
   */
  #handle(method: string, legacy: RequestHandler<MessageContext> | undefined): void {
    // Not an async function: a handshake-era call returns its handler's own promise (an async
    // wrapper returning it would cost the call two more turns of the microtask queue).
    this.peer.onRequest(method, (params, context) => {
      if (isStatelessRequest(method, context.meta)) return this.#handleStateless(method, params, context);
      if (!legacy) throw new MethodNotFoundError(method);
      if (!this.#version && !ALLOWED_BEFORE_INITIALIZE.has(method)) throw new NotInitializedError(method);
      return legacy(params, context);
    });
  }

  async #handleStateless(method: string, params: Params, context: RequestContext<MessageContext>): Promise<Result> {
    const request = readStatelessRequest(context.meta);
    const stateless = this.#statelessMethods.get(method);
    if (!stateless) throw new MethodNotFoundError(method);
    return completeResult(await stateless.run(params, context, request), serverInfoFor(this.#options.identity, request.version), stateless.cache);
  }

  #registerHandlers(): void {
    const { tools, resources, prompts } = this.#options.registries;
    // The 2026-07-28 methods (stateless/methods.ts) have no handshake form here.
    for (const method of ['server/discover', 'tasks/get', 'tasks/update', 'tasks/cancel', 'subscriptions/listen']) this.#handle(method, undefined);
    this.#handle('initialize', (params) => this.#initialize(params));
    this.#handle('ping', () => ({}));
    this.#handle('logging/setLevel', (params) => {
      if (!isLogLevel(params.level)) {
        throw new InvalidParamsError(`Invalid log level ${JSON.stringify(params.level)}: use one of ${LOG_LEVELS.join(', ')}`);
      }
      this.#logLevel = params.level;
      return {};
    });
    this.#handle('tools/list', (params) => tools.list(this.#era!, params.cursor));
    // A handshake-era call has no input rounds and no tasks: what comes back is a CallToolResult.
    this.#handle('tools/call', (params, context) => tools.call(params, this.#toolContext(params, context)) as unknown as Promise<Result>);
    this.#handle('resources/list', (params) => resources.list(params.cursor, this.#era!));
    this.#handle('resources/templates/list', (params) => resources.listTemplates(params.cursor));
    this.#handle('resources/read', async (params) => (await resources.read(this.#resourceUri(params, false), this.#era!)) as Result);
    this.#handle('resources/subscribe', (params) => {
      const uri = this.#resourceUri(params);
      this.#subscriptions.add(uri);
      return {};
    });
    this.#handle('resources/unsubscribe', (params) => {
      this.#subscriptions.delete(this.#resourceUri(params));
      return {};
    });
    this.#handle('prompts/list', (params) => prompts.list(params.cursor, this.#era!));
    this.#handle('prompts/get', async (params) => (await prompts.get(params.name, params.arguments, this.#era!)) as Result);
    this.#handle('completion/complete', (params) => completeArgument(this.#options.registries, params));

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

  /** The request's `uri`; with `known`, only one the registry serves (ResourceNotFound otherwise). */
  #resourceUri(params: Params, known = true): string {
    if (typeof params.uri !== 'string') throw new InvalidParamsError('Invalid params: "uri" must be a string');
    if (known && !this.#options.registries.resources.has(params.uri, this.#era!)) throw new ResourceNotFoundError(params.uri);
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
      capabilities: serverCapabilities(version),
      serverInfo: serverInfoFor(this.#options.identity, version),
    };
    if (this.#options.identity.instructions) result.instructions = this.#options.identity.instructions;
    return result;
  }

  #toolContext(params: Params, context: RequestContext<MessageContext>): ToolContext {
    return new ToolCallContext(this, this.#era!, context, typeof params.name === 'string' ? params.name : undefined);
  }

  /** The 2026 methods: the server's one table, shared by every session and the stateless dispatcher. */
  get #statelessMethods(): Map<string, StatelessMethod> {
    return this.#options.statelessMethods;
  }
}
