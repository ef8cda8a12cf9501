/** Composes the server Sextant ships: identity, the tools of the chosen profile. */
import type { Activity } from '../idle-heap.js';
import type { RequestStateSealer } from '../mcp/request-state.js';
import type { TaskStore } from '../mcp/tasks.js';
import type { Logger } from '../log.js';
import { McpServer } from '../mcp/server.js';
import { ToolRegistry } from '../mcp/tools.js';
import { VERSION } from '../version.js';
import { PromptRegistry } from '../mcp/prompts.js';
import { ResourceRegistry } from '../mcp/resources.js';
import { conformanceTools } from './conformance.js';
import { CONFORMANCE_MRTR_PROMPT, CONFORMANCE_MRTR_RESOURCE, conformanceMrtrTools } from './conformance-mrtr.js';
import { conformanceTaskTools } from './conformance-tasks.js';
import { registerConformancePrompts, registerConformanceResources } from './conformance-fixtures.js';
import { createHealthCheckTool, projectReports } from './health-check.js';
import { createIndexStatusTool } from './index-status.js';
import { createSearchCodeTool } from './search-code.js';
import { createCodeContextTool } from './code-context.js';
import { createIndexJobTool } from './index-jobs.js';
import { createFindRelatedTool } from './related.js';
import { createFileOutlineTool, createLocateSymbolTool, createSymbolHierarchyTool } from './symbol-tools.js';
import { resolveWorkspaceConfig } from '../workspace/config.js';
import { ProjectService } from '../workspace/projects.js';

export { PROFILES, type Profile } from './profiles.js';
import type { Profile } from './profiles.js';

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
  const tools = new ToolRegistry({ onToolCrash: (name, error) => logger?.error(`Tool "${name}" crashed`, error), ...(options.activity ? { activity: options.activity } : {}) });
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
  if (options.profile === 'conformance') {
    for (const tool of [...conformanceTools(), ...conformanceMrtrTools(), ...conformanceTaskTools()]) tools.register(tool);
    registerConformanceResources(resources);
    registerConformancePrompts(prompts);
    prompts.register(CONFORMANCE_MRTR_PROMPT);
    resources.register(CONFORMANCE_MRTR_RESOURCE);
  }
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
