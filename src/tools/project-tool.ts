/**
 * What every project tool shares: the optional `workspace` argument, resolution through the
 * detection chain (or the tool error that says why there is no project), and the one-time
 * roots hint on the first response of a session.
 */
import type { MessageContext } from '../mcp/session.js';
import { InvalidParamsError } from '../jsonrpc/index.js';
import { InputRequired } from '../mcp/multi-round-trip.js';
import { TaskStarted } from '../mcp/tasks.js';
import { ToolError, type JsonObject, type ToolContext, type ToolDefinition, type ToolOutcome } from '../mcp/tools.js';
import type { Project } from '../workspace/project.js';
import { toolError } from './error-codes.js';
import { MAX_PATH_CHARS } from './limits.js';
import type { ProjectService, ResolvedProject } from '../workspace/projects.js';
import type { RootsClient } from '../workspace/roots.js';

export const WORKSPACE_PROPERTY = {
  type: 'string',
  maxLength: MAX_PATH_CHARS,
  description:
    "Absolute path of the project to work on. Default: the project detected for this session (client roots, then the project_path URL parameter, then SEXTANT_PROJECT or the server's first --workspace, then the server's working directory if it was started with --project-from-cwd).",
};

export interface ProjectToolDefinition extends Omit<ToolDefinition, 'run'> {
  run(project: Project, resolved: ResolvedProject, args: JsonObject, context: ToolContext): Promise<ToolOutcome> | ToolOutcome;
}

/**
 * Index errors raised below the tools (in a search worker, a symbol reader) carry a registered
 * code: they reach the caller as that tool error, not as a crash.
 */
function asToolError(error: unknown): unknown {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (error instanceof ToolError || !(error instanceof Error)) return error;
  if (code === 'index_corrupt' || code === 'index_incompatible' || code === 'index_in_progress') return toolError(code, error.message);
  return error;
}

/** The key of the roots input request in a 2026-07-28 input_required result. */
export const ROOTS_INPUT = 'client_roots';

export function projectTool(projects: ProjectService, tool: ProjectToolDefinition): ToolDefinition {
  const properties = { ...((tool.inputSchema.properties as JsonObject | undefined) ?? {}), workspace: WORKSPACE_PROPERTY };
  return {
    ...tool,
    inputSchema: { ...tool.inputSchema, properties },
    async run(args, context) {
      const extra = context.extra as MessageContext | undefined;
      let client = context.session as RootsClient & object;
      if (context.input) {
        // 2026-07-28: the client's roots come by a multi round-trip request, not a request of ours.
        const declared = typeof context.clientCapabilities.roots === 'object' && context.clientCapabilities.roots !== null;
        const answer = context.input.responses[ROOTS_INPUT];
        if (declared && answer === undefined && args.workspace === undefined) {
          return new InputRequired({ [ROOTS_INPUT]: { method: 'roots/list', params: {} } });
        }
        if (answer !== undefined && !Array.isArray((answer as { roots?: unknown } | null)?.roots)) {
          throw new InvalidParamsError(`Invalid params: inputResponses["${ROOTS_INPUT}"] must be a ListRootsResult ({ roots: [...] })`);
        }
        client = projects.modernClient(declared ? answer : undefined);
      }
      // Asked on behalf of this call: over HTTP, roots/list then travels on the call's own stream.
      const via: RootsClient | undefined = context.input
        ? undefined
        : { clientCapabilities: client.clientCapabilities, requestClient: (method, params, options) => context.request(method, params, options) };
      const resolved = await projects.resolve(args.workspace, client, extra?.query, via);
      let output: ToolOutcome;
      try {
        output = await tool.run(projects.project(resolved.root), resolved, args, context);
      } catch (caught) {
        const error = asToolError(caught);
        if (resolved.hint && error instanceof ToolError) error.notes.push(resolved.hint);
        throw error;
      }
      if (resolved.hint && !(output instanceof InputRequired) && !(output instanceof TaskStarted))
        output.content = [...(output.content ?? []), { type: 'text', text: resolved.hint }];
      return output;
    },
  };
}
