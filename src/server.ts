/** The composition root: the server Sextant ships, its identity and the tools of the chosen profile. */
import type { Activity } from './idle-heap.js';
import type { RequestStateSealer } from './mcp/request-state.js';
import type { TaskStore } from './mcp/tasks.js';
import type { Logger } from './log.js';
import { McpServer } from './mcp/server.js';
import { ToolRegistry } from './mcp/tools.js';
import { VERSION } from './version.js';
import { PromptRegistry } from './mcp/prompts.js';
import { ResourceRegistry } from './mcp/resources.js';
import { registerConformanceProfile } from './conformance/index.js';
import { createHealthCheckTool, projectReports } from './tools/health-check.js';
import { createIndexStatusTool } from './tools/index-status.js';
import { createSearchCodeTool } from './tools/search-code.js';
import { createCodeContextTool } from './tools/code-context.js';
import { createIndexJobTool } from './tools/index-jobs.js';
import { createFindRelatedTool } from './tools/related.js';
import { createFileOutlineTool, createLocateSymbolTool, createSymbolHierarchyTool } from './tools/symbol-tools.js';
import { resolveWorkspaceConfig } from './workspace/config.js';
import { ProjectService } from './workspace/projects.js';

export { PROFILES, type Profile } from './tools/profiles.js';
import type { Profile } from './tools/profiles.js';

export interface SextantServerOptions {
  profile?: Profile;
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
}

export function createSextantServer(options: SextantServerOptions = {}): McpServer {
  const logger = options.logger;
  const tools = new ToolRegistry({
    onToolCrash: (name, error) => logger?.error(`Tool "${name}" crashed`, error),
    ...(options.activity ? { activity: options.activity } : {}),
  });
  const projects = options.projects ?? new ProjectService({ config: resolveWorkspaceConfig({ env: {} }), ...(logger ? { logger } : {}) });
  tools.register(createHealthCheckTool({ version: VERSION, startedAt: options.startedAt ?? Date.now(), projects }));
  if (options.profile !== 'conformance') {
    tools.register(createIndexJobTool(projects, 'index'));
    tools.register(createIndexJobTool(projects, 'sync'));
    tools.register(createIndexStatusTool(projects));
    tools.register(createSearchCodeTool(projects));
    tools.register(createLocateSymbolTool(projects));
    tools.register(createFileOutlineTool(projects));
    tools.register(createSymbolHierarchyTool(projects));
    tools.register(createFindRelatedTool(projects));
    tools.register(createCodeContextTool(projects));
  }
  const resources = new ResourceRegistry();
  const prompts = new PromptRegistry();
  if (options.profile === 'conformance') registerConformanceProfile({ tools, resources, prompts });
  const serverOptions: ConstructorParameters<typeof McpServer>[0] = {
    identity: {
      name: 'sextant',
      title: 'Sextant',
      version: VERSION,
      description: 'Code intelligence for AI coding agents: search, symbols and context over your repository.',
    },
    registries: { tools, resources, prompts },
  };
  if (logger) serverOptions.logger = logger;
  if (options.requestState) serverOptions.requestState = options.requestState;
  if (options.tasks) serverOptions.tasks = options.tasks;
  if (options.onSessionReady) serverOptions.onSessionReady = options.onSessionReady;
  // Roots are asked for when a tool first needs the project (a session that never asks costs
  // the client nothing), and again as soon as the client says they changed.
  serverOptions.onRootsChanged = (session) => projects.rootsChanged(session);
  serverOptions.health = () => ({ ...projectReports(projects) });
  return new McpServer(serverOptions);
}
