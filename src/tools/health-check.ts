/**
 * `health_check`: is the server up, which build, for how long, over which transport and
 * revision; the projects it knows with their index status; and which project this session
 * works in, with the detection source that won.
 */
import type { MessageContext, ToolDefinition, ToolOutput } from '../mcp/index.js';
import { callerOf, type Caller } from '../caller.js';
import { PROJECT_SOURCES, NO_PROJECT_MESSAGE } from '../workspace/detect.js';
import type { ProjectService } from '../workspace/projects.js';
import { maskedValue, rootsVia } from './project-tool.js';

const SERVER_STATUSES = ['ready', 'warming', 'indexing', 'error'] as const;
export type ServerStatus = (typeof SERVER_STATUSES)[number];
const INDEXING_STATUSES = ['not_indexed', 'indexing', 'ready', 'failed'];

export interface ProjectReport {
  root: string;
  status: string;
  pinned: boolean;
  sources: string[];
  files?: number;
  updated_at?: string;
}

/** Every known project with its index status, and the server status they add up to (most severe wins). */
export function projectReports(projects: ProjectService | undefined, caller?: Caller): { status: ServerStatus; projects: ProjectReport[] } {
  const reports: ProjectReport[] = [];
  for (const workspace of projects?.registry.list() ?? []) {
    // A caller held to WHO lists hears only of the projects it may see, and the status they make.
    if (caller && !projects!.allows(workspace.root, caller)) continue;
    const state = projects!.project(workspace.root).indexState();
    const report: ProjectReport = { root: workspace.root, status: state.status, pinned: workspace.pinned, sources: [...workspace.sources] };
    if (state.manifest) {
      report.files = state.manifest.files;
      report.updated_at = state.manifest.updatedAt;
    }
    reports.push(report);
  }
  const severity = (status: string): ServerStatus => (status === 'failed' ? 'error' : status === 'indexing' ? 'indexing' : 'ready');
  const order: ServerStatus[] = ['ready', 'warming', 'indexing', 'error'];
  const status = reports
    .map((report) => severity(report.status))
    .reduce<ServerStatus>((worst, next) => (order.indexOf(next) > order.indexOf(worst) ? next : worst), 'ready');
  return { status, projects: reports };
}

const PROJECT_REPORT_SCHEMA = {
  type: 'object',
  properties: {
    root: { type: 'string' },
    status: { type: 'string', enum: INDEXING_STATUSES },
    pinned: { type: 'boolean', description: 'Registered by the operator (never let go), as opposed to discovered' },
    sources: { type: 'array', items: { type: 'string', enum: [...PROJECT_SOURCES] } },
    files: { type: 'integer', minimum: 0 },
    updated_at: { type: 'string' },
  },
  required: ['root', 'status', 'pinned', 'sources'],
  additionalProperties: false,
};

export function createHealthCheckTool(options: { version: string; startedAt: number; now?: () => number; projects?: ProjectService }): ToolDefinition {
  const now = options.now ?? Date.now;
  return {
    name: 'health_check',
    title: 'Health check',
    description:
      'Reports whether the Sextant server is up (status ready, warming, indexing or error), its version, uptime, transport and MCP protocol version, ' +
      'every project it knows with its index status, and the project this session works in with the source that detected it ' +
      '(workspace argument, client roots, project_path query parameter, SEXTANT_PROJECT, or the working directory).',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: {
      type: 'object',
      properties: {
        status: { type: 'string', enum: [...SERVER_STATUSES] },
        version: { type: 'string' },
        uptime_seconds: { type: 'number', minimum: 0 },
        transport: { type: 'string' },
        protocol_version: { type: 'string' },
        session_project: {
          description: 'The project detected for this session, or null with the reason',
          oneOf: [
            {
              type: 'object',
              properties: { root: { type: 'string' }, source: { type: 'string', enum: [...PROJECT_SOURCES] } },
              required: ['root', 'source'],
              additionalProperties: false,
            },
            { type: 'null' },
          ],
        },
        detection_note: { type: 'string' },
        indexing_status: {
          type: 'string',
          enum: INDEXING_STATUSES,
          description: "The index status of this session's project (not_indexed when there is none)",
        },
        result_completeness: { type: 'string', enum: ['complete'] },
        projects: { type: 'array', items: PROJECT_REPORT_SCHEMA },
      },
      required: [
        'status',
        'version',
        'uptime_seconds',
        'transport',
        'protocol_version',
        'session_project',
        'indexing_status',
        'result_completeness',
        'projects',
      ],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(_args, context) {
      const extra = context.extra as MessageContext | undefined;
      let sessionProject: { root: string; source: string } | null = null;
      let note: string | undefined;
      if (options.projects) {
        const detected = await options.projects.detect(context.session, extra?.query, rootsVia(context), callerOf(extra));
        if (detected) sessionProject = { root: detected.path, source: detected.source };
        else note = NO_PROJECT_MESSAGE;
      }
      const { status, projects } = projectReports(options.projects, callerOf(extra));
      const structured: Record<string, unknown> = {
        status,
        version: options.version,
        uptime_seconds: Math.max(0, Math.round((now() - options.startedAt) / 100) / 10),
        transport: extra?.transport ?? 'unknown',
        protocol_version: context.era.revision,
        session_project: sessionProject,
        indexing_status: (sessionProject && projects.find((project) => project.root === sessionProject!.root)?.status) ?? 'not_indexed',
        result_completeness: 'complete',
        projects,
      };
      if (note) structured.detection_note = note;
      const lines = [
        `Sextant ${options.version}: ${status}; up ${structured.uptime_seconds as number} s over ${structured.transport as string}, MCP ` +
          `${context.era.revision}.`,
        sessionProject ? `This session's project: ${sessionProject.root} (from ${sessionProject.source}).` : (note ?? 'Project detection is not configured.'),
        ...projects.map(
          (project) => `- ${project.root}: ${project.status}${project.files !== undefined ? `, ${project.files} files` : ''} (${project.sources.join(', ')})`,
        ),
      ];
      const answer: ToolOutput = { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: structured };
      // A remote caller is not told where the server keeps its checkouts (ProjectService.pathMask).
      const caller = callerOf(extra);
      return caller.reach === 'remote' && options.projects ? maskedValue(answer, options.projects.pathMask(caller)) : answer;
    },
  };
}
