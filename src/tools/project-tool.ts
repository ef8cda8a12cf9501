/**
 * What every project tool shares: the optional `workspace` argument, resolution through the
 * detection chain (or the tool error that says why there is no project), and the one-time
 * roots hint on the first response of a session.
 */
import { callerOf } from '../caller.js';
import { InputRequired, type JsonObject, type MessageContext, TaskStarted, type ToolContext, type ToolDefinition, type ToolOutcome } from '../mcp/index.js';
import { CodedError } from '../errors.js';
import type { Project } from '../workspace/project.js';
import { MAX_PATH_CHARS } from './limits.js';
import type { ProjectService, ResolvedProject } from '../workspace/projects.js';
import type { PathMask } from '../workspace/access.js';
import { JsonRpcError } from '../jsonrpc/index.js';
import type { RootsClient } from '../workspace/roots.js';
import { ONE_PROJECT_FIELDS, PROJECTS_PROPERTY, SPAN_OUTPUT_PROPERTIES, type Spanned } from './spanning.js';

const WORKSPACE_PROPERTY = {
  type: 'string',
  maxLength: MAX_PATH_CHARS,
  description:
    'The project to work on: the name of a project registered on this server (list_projects), or an absolute path. Default: the project ' +
    "detected for this session (client roots, then the project or project_path URL parameter, then SEXTANT_PROJECT or the server's first " +
    "--workspace, then the server's working directory if it was started with --project-from-cwd).",
};

/** From 2026-07-28, the argument is mirrored into an HTTP header, so that a load balancer can route by project (SEP-2243). */
const WORKSPACE_HEADER = 'Workspace';
const HEADER_SINCE = '2026-07-28';

/** What an answer from a project registered by name says of it. */
const SERVED_PROPERTIES = {
  project: { type: 'string', description: 'The registered project the answer comes from, when it was one (list_projects)' },
  commit: { type: 'string', description: 'For a project served from a git remote: the commit the answer was served from' },
};

export interface ProjectToolDefinition extends Omit<ToolDefinition, 'run'> {
  run(project: Project, resolved: ResolvedProject, args: JsonObject, context: ToolContext): Promise<ToolOutcome> | ToolOutcome;
  /**
   * For a tool that answers across several projects at once: it then takes `projects`, and a call
   * that spans several (ProjectService.target) comes here, with every one of them.
   */
  runMany?(members: Spanned[], args: JsonObject, context: ToolContext): Promise<ToolOutcome> | ToolOutcome;
}

/**
 * How a tool asks the client for its roots: through its own call context, in both eras. In a
 * session the request travels with the call; in 2026-07-28 the context turns it into an input
 * round of the call (StatelessEra.toolContext).
 */
export function rootsVia(context: ToolContext): RootsClient {
  return {
    clientCapabilities: context.era.clientCapabilities,
    requestClient: (method, params, options) => context.request(method, params, { ...options, inputKey: ROOTS_INPUT }),
  };
}

/** The key of the roots request in a 2026-07-28 input round (recorded exchanges name it). */
const ROOTS_INPUT = 'client_roots';

export function projectTool(projects: ProjectService, tool: ProjectToolDefinition): ToolDefinition {
  const { runMany, ...definition } = tool;
  const spanning = runMany !== undefined;
  const added = { workspace: WORKSPACE_PROPERTY, ...(spanning && { projects: PROJECTS_PROPERTY }) };
  const properties = { ...((tool.inputSchema.properties as JsonObject | undefined) ?? {}), ...added };
  const revised = tool.revisedInputSchema?.schema ?? tool.inputSchema;
  const revisedProperties = {
    ...((revised.properties as JsonObject | undefined) ?? {}),
    ...added,
    workspace: { ...WORKSPACE_PROPERTY, 'x-mcp-header': WORKSPACE_HEADER },
  };
  const outputProperties = tool.outputSchema && {
    ...((tool.outputSchema.properties as JsonObject | undefined) ?? {}),
    ...SERVED_PROPERTIES,
    ...(spanning && SPAN_OUTPUT_PROPERTIES),
  };
  // An answer across projects is about no one project: the fields that name one are left out of it.
  const required = (tool.outputSchema?.required as string[] | undefined)?.filter((field) => !spanning || !ONE_PROJECT_FIELDS.includes(field));
  return {
    ...definition,
    inputSchema: { ...tool.inputSchema, properties },
    revisedInputSchema: { since: tool.revisedInputSchema?.since ?? HEADER_SINCE, schema: { ...revised, properties: revisedProperties } },
    ...(tool.outputSchema && { outputSchema: { ...tool.outputSchema, properties: outputProperties, ...(required && { required }) } }),
    async run(args, context) {
      const extra = context.extra as MessageContext | undefined;
      const caller = callerOf(extra);
      const { reach } = caller;
      // A remote caller never reads the server's own places: it sees a checkout by its project's name.
      const mask = projects.pathMask(caller);
      const shownContext = reach === 'remote' ? maskedContext(context, mask) : context;
      let resolved: ResolvedProject;
      let output: ToolOutcome;
      try {
        const via = rootsVia(context);
        if (runMany) {
          const target = await projects.target(args, context.session, extra?.query, via, caller);
          if ('many' in target) {
            const members = target.many.map((member): Spanned => {
              const commit = member.named?.servedCommit;
              return { ...member, project: projects.project(member.root), ...(commit && { commit }) };
            });
            const spanned = await runMany(members, args, shownContext);
            return reach === 'remote' ? maskedValue(spanned, mask) : spanned;
          }
          resolved = target.one;
        } else resolved = await projects.resolve(args.workspace, context.session, extra?.query, via, caller);
        try {
          output = await tool.run(projects.project(resolved.root), resolved, args, shownContext);
        } catch (error) {
          if (resolved.hint && error instanceof CodedError) error.notes.push(resolved.hint);
          throw error;
        }
      } catch (error) {
        throw masked(error, mask);
      }
      if (output instanceof InputRequired || output instanceof TaskStarted) return output;
      const named = projects.named.atRoot(resolved.root);
      if (named) {
        // In the text too: many clients hand the model only `content`.
        const commit = named.servedCommit;
        if (output.structuredContent) output.structuredContent = { ...output.structuredContent, project: named.name, ...(commit && { commit }) };
        const where = commit ? `Served from project ${named.name} at commit ${commit} (${named.git!.ref}).` : `Served from project ${named.name}.`;
        output.content = [...(output.content ?? []), { type: 'text', text: where }];
      }
      if (resolved.hint) output.content = [...(output.content ?? []), { type: 'text', text: resolved.hint }];
      return reach === 'remote' ? maskedValue(output, mask) : output;
    },
  };
}

/** Every string in an answer as the caller may read it (see ProjectService.pathMask). */
export function maskedValue<T>(value: T, mask: PathMask): T {
  if (typeof value === 'string') return mask(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => maskedValue(item, mask)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskedValue(item, mask)])) as T;
  }
  return value;
}

/** A failure as the caller may read it: a coded one keeps its code, anything else its class. */
function masked(error: unknown, mask: PathMask): unknown {
  // "No project at X" echoes only what the caller gave: masked, it would tell a path of the
  // server's (the home, a project's checkout) from one that is not, which is what it must not.
  if (error instanceof CodedError && error.code === 'project_not_found') return error;
  if (error instanceof CodedError) {
    const shown = new CodedError(mask(error.message), {
      code: error.code,
      ...(error.remedy !== undefined && { remedy: mask(error.remedy) }),
      ...(error.data !== undefined && { data: maskedValue(error.data, mask) }),
    });
    shown.notes.push(...error.notes.map(mask));
    return shown;
  }
  if (error instanceof Error && !(error instanceof InputRequired) && !(error instanceof JsonRpcError)) {
    try {
      error.message = mask(error.message);
    } catch {
      // a message with a getter only (a DOMException): it is shown as the class's own words
      return new Error(mask(String(error.message)));
    }
  }
  return error;
}

/** A call's context whose progress messages and tasks reach the caller as it may read them, like the call's answer. */
function maskedContext(context: ToolContext, mask: PathMask): ToolContext {
  const progress: ToolContext['progress'] = (done, total, message) => context.progress(done, total, message === undefined ? undefined : mask(message));
  const startTask = context.startTask;
  const masking: ToolContext['startTask'] =
    startTask &&
    ((work) =>
      startTask(async (task) => {
        try {
          return maskedValue(await work(task), mask);
        } catch (error) {
          throw masked(error, mask);
        }
      }));
  // By delegation, as the registry does: the context may be a class whose getters a spread would drop.
  return Object.create(context, { progress: { value: progress }, ...(masking && { startTask: { value: masking } }) }) as ToolContext;
}
