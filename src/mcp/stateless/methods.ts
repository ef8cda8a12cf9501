/**
 * The methods of the 2026-07-28 era, each served from its request alone: one table per server,
 * built once, read by the stateless dispatcher (an HTTP request with no session) and by a
 * session that receives a 2026 request. What the server says of itself (capabilities, server
 * info) lives here too, since both eras state it.
 */
import { callerOf } from '../../caller.js';
import { InvalidParamsError, type Params, type RequestContext, type Result } from '../../jsonrpc/index.js';
import { ResourceNotFoundError } from '../errors.js';
import type { RoundInput } from '../multi-round-trip.js';
import { checkParamHeaders } from './param-headers.js';
import type { Registries, MessageContext, ServerIdentity } from '../context.js';
import type { StatelessEra } from './era.js';
import { CACHE_STATIC, CACHE_VOLATILE, isObject, type CacheHint, type StatelessRequest } from './request.js';
import { requireTasks, TASKS_EXTENSION } from '../tasks/index.js';
import { ALL_PROTOCOL_VERSIONS, featuresOf, isStatelessVersion, type AnyProtocolVersion } from '../versions.js';

/** How a method is served to a stateless (2026-07-28) request, from that request alone. */
export interface StatelessMethod {
  run(params: Params, context: RequestContext<MessageContext>, request: StatelessRequest): Promise<Result> | Result;
  /** Caching hints, for the methods whose results carry them. */
  cache?: CacheHint;
}

/** What the server can do, as a revision may say it. */
export function serverCapabilities(version: AnyProtocolVersion): Params {
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

/** The server's identity, with the fields a revision knows. */
export function serverInfoFor(identity: ServerIdentity, version: AnyProtocolVersion): Params {
  const { name, version: serverVersion, title, description, websiteUrl } = identity;
  const features = featuresOf(version);
  const info: Params = { name, version: serverVersion };
  if (features.structuredOutput && title) info.title = title;
  if (features.icons && description) info.description = description;
  if (features.icons && websiteUrl) info.websiteUrl = websiteUrl;
  return info;
}

/** `completion/complete`, the same in both eras. */
export function completeArgument(registries: Registries, params: Params): Result {
  const { ref, argument } = params;
  if (!isObject(ref) || !isObject(argument)) throw new InvalidParamsError('Invalid params: "ref" and "argument" must be objects');
  return { completion: registries.prompts.complete(ref, argument, params.context) };
}

function uriOf(params: Params): string {
  if (typeof params.uri !== 'string') throw new InvalidParamsError('Invalid params: "uri" must be a string');
  return params.uri;
}

/** Every method the 2026-07-28 era serves; one it removed (`ping`, `logging/setLevel`, …) is absent: Method not found. */
export function statelessMethods(identity: ServerIdentity, registries: Registries, era: StatelessEra): Map<string, StatelessMethod> {
  const { tools, resources, prompts } = registries;
  const methods = new Map<string, StatelessMethod>();
  methods.set('server/discover', {
    run: (_params, _context, request) => {
      const result: Result = { supportedVersions: [...ALL_PROTOCOL_VERSIONS], capabilities: serverCapabilities(request.version) };
      if (identity.instructions) result.instructions = identity.instructions;
      return result;
    },
    cache: CACHE_STATIC,
  });
  // The tasks extension: only for requests that declared it (-32021 otherwise); tasks/result and tasks/list are gone.
  const taskMethod = (run: (params: Params, principal: string | undefined) => Result | Promise<Result>): StatelessMethod => ({
    run: (params, context, request) => {
      requireTasks(request.capabilities);
      return run(params, callerOf(context.extra).principal);
    },
  });
  methods.set(
    'tasks/get',
    taskMethod((params, principal) => era.tasks.get(params.taskId, principal)),
  );
  methods.set(
    'tasks/update',
    taskMethod((params, principal) => era.tasks.update(params.taskId, params.inputResponses, principal)),
  );
  methods.set(
    'tasks/cancel',
    taskMethod((params, principal) => era.tasks.cancel(params.taskId, principal)),
  );
  methods.set('subscriptions/listen', { run: (params, context, request) => era.listen(params, context, request) });
  methods.set('tools/list', { run: (params, _context, request) => tools.list(request.era, params.cursor), cache: CACHE_STATIC });
  methods.set('tools/call', {
    run: (params, context, request) => {
      // Over HTTP the x-mcp-header parameters must match their Mcp-Param-* headers (SEP-2243).
      if (context.extra?.paramHeaders) checkParamHeaders(tools.inputSchema(params.name, request.era), params.arguments, context.extra.paramHeaders);
      return era.withRounds('tools/call', params, context, request, (input: RoundInput) =>
        tools.call(params, era.toolContext(params, context, request, input)),
      );
    },
  });
  methods.set('resources/list', { run: (params, _context, request) => resources.list(params.cursor, request.era), cache: CACHE_STATIC });
  methods.set('resources/templates/list', { run: (params) => resources.listTemplates(params.cursor), cache: CACHE_STATIC });
  methods.set('resources/read', {
    run: async (params, context, request) => {
      try {
        return await era.withRounds('resources/read', params, context, request, (input: RoundInput) => resources.read(uriOf(params), request.era, input));
      } catch (error) {
        // 2026-07-28 reports an unknown resource as Invalid params; -32002 is retired.
        if (error instanceof ResourceNotFoundError) throw new InvalidParamsError(error.message, error.data);
        throw error;
      }
    },
    cache: CACHE_VOLATILE,
  });
  methods.set('prompts/list', { run: (params, _context, request) => prompts.list(params.cursor, request.era), cache: CACHE_STATIC });
  methods.set('prompts/get', {
    run: (params, context, request) =>
      era.withRounds('prompts/get', params, context, request, (input: RoundInput) => prompts.get(params.name, params.arguments, request.era, input)),
  });
  methods.set('completion/complete', { run: (params) => completeArgument(registries, params) });
  return methods;
}
