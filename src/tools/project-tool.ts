/**
 * What every project tool shares: the optional `workspace` argument, resolution through the
 * detection chain (or the tool error that says why there is no project), and the one-time
 * roots hint on the first response of a session.
 */
import type { MessageContext } from '../mcp/session.js';
import { InputRequired } from '../mcp/multi-round-trip.js';
import { TaskStarted } from '../mcp/tasks.js';
import { ToolError, type JsonObject, type ToolContext, type ToolDefinition, type ToolOutcome } from '../mcp/tools.js';
import type { Project } from '../workspace/project.js';
import { MAX_PATH_CHARS } from './limits.js';
import type { ProjectService, ResolvedProject } from '../workspace/projects.js';
import type { RootsClient } from '../workspace/roots.js';

const WORKSPACE_PROPERTY = {
  type: 'string',
  maxLength: MAX_PATH_CHARS,
  description:
    "Absolute path of the project to work on. Default: the project detected for this session (client roots, then the project_path URL parameter, then SEXTANT_PROJECT or the server's first --workspace, then the server's working directory if it was started with --project-from-cwd).",
};

export interface ProjectToolDefinition extends Omit<ToolDefinition, 'run'> {
  run(project: Project, resolved: ResolvedProject, args: JsonObject, context: ToolContext): Promise<ToolOutcome> | ToolOutcome;
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
  const properties = { ...((tool.inputSchema.properties as JsonObject | undefined) ?? {}), workspace: WORKSPACE_PROPERTY };
  return {
    ...tool,
    inputSchema: { ...tool.inputSchema, properties },
    async run(args, context) {
      const extra = context.extra as MessageContext | undefined;
      const resolved = await projects.resolve(args.workspace, context.session, extra?.query, rootsVia(context));
      let output: ToolOutcome;
      try {
        output = await tool.run(projects.project(resolved.root), resolved, args, context);
      } catch (error) {
        if (resolved.hint && error instanceof ToolError) error.notes.push(resolved.hint);
        throw error;
      }
      if (resolved.hint && !(output instanceof InputRequired) && !(output instanceof TaskStarted))
        output.content = [...(output.content ?? []), { type: 'text', text: resolved.hint }];
      return output;
    },
  };
}
