/**
 * The composition root: the server Sextant ships, its identity and what its profile registers.
 * The default profile is the product's tools; the conformance fixtures are loaded only when that
 * profile is asked for (loadProfile), so they never load in a server that does not use them.
 */
import type { Activity } from './platform/idle-heap.js';
import type { AuditLog } from './platform/audit.js';
import { McpServer, PromptRegistry, type RequestStateSealer, ResourceRegistry, type TaskStore, ToolRegistry } from './mcp/index.js';
import type { Logger } from './platform/log.js';
import { VERSION } from './version.js';
import { createHealthCheckTool, projectReports } from './tools/health-check.js';
import { createIndexStatusTool } from './tools/index-status.js';
import { createSearchCodeTool } from './tools/search/index.js';
import { createCodeContextTool } from './tools/context/index.js';
import { createIndexJobTool } from './tools/index-jobs.js';
import { createListProjectsTool } from './tools/list-projects.js';
import { createFileTools } from './tools/file-tools.js';
import { createFindRelatedTool } from './tools/related.js';
import { createFileOutlineTool, createSymbolHierarchyTool } from './tools/symbol-tools.js';
import { createLocateSymbolTool } from './tools/locate-symbol.js';
import { resolveWorkspaceConfig } from './workspace/config.js';
import { ProjectService } from './workspace/projects.js';

export { PROFILES, type Profile } from './tools/profiles.js';
import type { Profile } from './tools/profiles.js';

/** What a profile registers beside health_check. */
export interface ServerProfile {
  readonly name: Profile;
  register(registries: { tools: ToolRegistry; resources: ResourceRegistry; prompts: PromptRegistry }, projects: ProjectService): void;
}

const DEFAULT_PROFILE: ServerProfile = {
  name: 'default',
  register({ tools }, projects) {
    tools.register(createIndexJobTool(projects, 'index'));
    tools.register(createIndexJobTool(projects, 'sync'));
    tools.register(createIndexStatusTool(projects));
    tools.register(createSearchCodeTool(projects));
    tools.register(createLocateSymbolTool(projects));
    tools.register(createFileOutlineTool(projects));
    tools.register(createSymbolHierarchyTool(projects));
    tools.register(createFindRelatedTool(projects));
    tools.register(createCodeContextTool(projects));
    tools.register(createListProjectsTool(projects));
    for (const tool of createFileTools(projects)) tools.register(tool);
  },
};

/** A profile by name; the conformance fixtures are imported here, on demand. */
export async function loadProfile(name: Profile = 'default'): Promise<ServerProfile> {
  if (name === 'default') return DEFAULT_PROFILE;
  const { registerConformanceProfile } = await import('./conformance/index.js');
  return { name, register: (registries) => registerConformanceProfile(registries) };
}

export interface SextantServerOptions {
  /** Default: the product's tools (loadProfile gives the others). */
  profile?: ServerProfile;
  logger?: Logger;
  startedAt?: number;
  onSessionReady?: ConstructorParameters<typeof McpServer>[0]['onSessionReady'];
  /** Projects and workspaces; default: none configured (only client roots and query parameters detect one). */
  projects?: ProjectService;
  /** Seals multi round-trip state; `serve` shares one key through SEXTANT_HOME (see request-state.ts). */
  requestState?: RequestStateSealer;
  /** Tasks; `serve` keeps them under SEXTANT_HOME so every process sharing it answers tasks/get. */
  tasks?: TaskStore;
  /** Told when each tool call starts and settles (`serve` trims the heap when they stop: idle-heap.ts). */
  activity?: Activity;
  /** `serve --audit-log`: a line per call. */
  audit?: AuditLog;
}

export function createSextantServer(options: SextantServerOptions = {}): McpServer {
  const logger = options.logger;
  const tools = new ToolRegistry({
    onToolCrash: (name, error) => logger?.error(`Tool "${name}" crashed`, error),
    activity: options.activity,
    ...(options.audit && {
      onCall: ({ durationMs, ...call }) => options.audit!.record({ event: 'tool_call', ...call, duration_ms: durationMs }),
    }),
  });
  const projects = options.projects ?? new ProjectService({ config: resolveWorkspaceConfig({ env: {} }), logger });
  tools.register(createHealthCheckTool({ version: VERSION, startedAt: options.startedAt ?? Date.now(), projects }));
  const resources = new ResourceRegistry();
  const prompts = new PromptRegistry();
  (options.profile ?? DEFAULT_PROFILE).register({ tools, resources, prompts }, projects);
  const serverOptions: ConstructorParameters<typeof McpServer>[0] = {
    identity: {
      name: 'sextant',
      title: 'Sextant',
      version: VERSION,
      description: 'Code intelligence for AI coding agents: search, symbols and context over your repository.',
    },
    registries: { tools, resources, prompts },
    logger,
    requestState: options.requestState,
    tasks: options.tasks,
    onSessionReady: options.onSessionReady,
    // Roots are asked for when a tool first needs the project (a session that never asks costs
    // the client nothing), and again as soon as the client says they changed.
    onRootsChanged: (session) => projects.rootsChanged(session),
    health: () => ({ ...projectReports(projects) }),
  };
  return new McpServer(serverOptions);
}
