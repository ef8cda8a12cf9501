/** `sextant serve`: wires a server to the chosen transport and runs until told to stop. */
import { withoutCredentials } from '../util/credentials.js';
import { openCoordination, type Coordination } from '../coordination/index.js';
import { UsageError } from './usage.js';
import { Credentials, OAuthVerifier } from '../identity/index.js';
import { RequestStateSealer, TaskStore } from '../mcp/index.js';
import { sextantHome } from '../index/store/index.js';
import { AuditLog } from '../platform/audit.js';
import { IdleHeapTrimmer } from '../platform/idle-heap.js';
import type { Logger } from '../platform/log.js';
import { createRecorder } from '../record/recorder.js';
import { createSextantServer, loadProfile, type Profile } from '../server.js';
import { startHttpServer, type HttpServerOptions } from '../transports/http-listener.js';
import { isLoopbackBind } from '../transports/http-gate.js';
import { serveStdio } from '../transports/stdio.js';
import { resolveWorkspaceConfig, type WorkspaceConfig } from '../workspace/config.js';
import { ProjectService } from '../workspace/projects.js';
import { startTeam } from '../team/index.js';
import { ProjectStatuses } from '../workspace/status.js';
import { statusSource } from './status-source.js';
import { DEFAULT_POLL_SECONDS } from './choices.js';

function describeProjects(projects: ProjectService, logger: Logger): void {
  const { config } = projects;
  if (config.envProject) logger.info(`Default project: ${config.envProject.path} (from ${config.envProject.origin})`);
  if (config.cwdProject) logger.info(`Project from the launch directory: ${config.cwdProject}`);
  if (config.autoWorkspace) logger.info(`Auto-workspace on, under: ${config.allowedRoots.join(', ')} (at most ${config.maxWorkspaces})`);
  if (!config.envProject && !config.cwdProject)
    logger.info('No default project: client roots or ?project_path= will name one (or set SEXTANT_PROJECT, or use --project-from-cwd)');
}

import type { Transport } from './choices.js';

export interface ServeOptions {
  transport: Transport;
  profile: Profile;
  record?: string;
  logger: Logger;
  port: number;
  bind: string;
  authToken?: string;
  /** An OAuth authorization server whose access tokens are accepted, and where clients reach this one. */
  oauthIssuer?: string;
  /** `--audit-log FILE` or `-`: a line per tool call and per refusal. */
  auditLog?: string;
  publicUrl?: string;
  groupsClaim?: string;
  /** --web-client-id: the web page signs in through the issuer as this public client. */
  webClientId?: string;
  allowedOrigins?: string[];
  /** --allowed-host: this server's names besides loopback ones (a reverse proxy's public name). */
  allowedHosts?: string[];
  /** --max-connections (DEFAULT_MAX_CONNECTIONS). */
  maxConnections?: number;
  /** Whether --port (or SEXTANT_MCP_PORT) was given, to warn when stdio ignores it. */
  portGiven?: boolean;
  workspace?: WorkspaceConfig;
  /** Keep indexed projects current with a file watcher (default on). */
  watch?: boolean;
  /** Index a project that has no index when a tool first needs it. */
  autoIndex?: boolean;
  /** --max-open-projects (DEFAULT_MAX_OPEN_PROJECTS). */
  maxOpenProjects?: number;
  /** --idle-release, in ms (DEFAULT_IDLE_RELEASE_MS). */
  idleMs?: number;
  /** A team server: coordinate through this PostgreSQL database instead of the home's files. */
  databaseUrl?: string;
  /** How often the controller looks at each git project's branch. */
  pollMs?: number;
}

export async function serve(options: ServeOptions): Promise<void> {
  const { logger } = options;
  const config = options.workspace ?? resolveWorkspaceConfig();
  for (const note of config.notes) logger.warning(note);
  // Tool calls and index writers (jobs, watcher refreshes) count as work; the heap is trimmed when all stop.
  const heap = new IdleHeapTrimmer({ onTrim: (ms) => logger.debug(`Heap trimmed once quiet (${ms.toFixed(1)} ms)`) });
  const projects = new ProjectService({
    config,
    logger,
    watch: options.watch ?? true,
    autoIndex: options.autoIndex ?? false,
    activity: heap,
    ...(options.maxOpenProjects !== undefined && { maxOpenProjects: options.maxOpenProjects }),
    ...(options.idleMs !== undefined && { idleMs: options.idleMs }),
  });
  // What the processes sharing SEXTANT_HOME share: a retry of a 2026 multi round-trip request, or a
  // tasks/get, may reach another one than the process that answered first.
  const coordination = await openCoordination(sextantHome(), { databaseUrl: options.databaseUrl });
  logger.info(`Shared state: ${coordination.describe}`);
  const team = await startTeam({ coordination, projects, home: sextantHome(), pollMs: options.pollMs ?? DEFAULT_POLL_SECONDS * 1000, logger });
  let requestState: RequestStateSealer;
  try {
    requestState = new RequestStateSealer(await coordination.keys.ring(), { reload: () => coordination.keys.ring() });
  } catch (error) {
    logger.warning(
      'No shared key for multi round-trip request state (SEXTANT_STATE_KEY, or state.key under SEXTANT_HOME); this process uses its own, so ' +
        'a retry must come back to it',
      error,
    );
    requestState = RequestStateSealer.ephemeral();
  }
  const tasks = new TaskStore({ ledger: coordination.tasks });
  const audit = options.auditLog !== undefined ? new AuditLog(options.auditLog, logger) : undefined;
  const server = createSextantServer({ profile: await loadProfile(options.profile), logger, projects, requestState, tasks, activity: heap, audit });
  const teamServer = options.databaseUrl !== undefined;
  const replica: ReplicaEndpoints = {
    replicaHealth: () =>
      teamServer || projects.named.list().length > 0
        ? {
            replica: coordination.replica,
            shared_state: coordination.describe,
            ...(coordination.problem !== undefined && { shared_state_problem: coordination.problem }),
            controller: team.controller.leading,
            projects: projects.named.list().map((project) => ({
              name: project.name,
              state: project.state,
              ...(project.servedCommit && { commit: project.servedCommit }),
              ...(project.targetCommit && { target_commit: project.targetCommit }),
              ...(project.error && { error: withoutCredentials(project.error) }),
              ...(project.lastCatchUp && {
                last_catch_up: {
                  commit: project.lastCatchUp.commit,
                  fetch_ms: project.lastCatchUp.fetchMs,
                  text_ms: project.lastCatchUp.textMs,
                  symbols_ms: project.lastCatchUp.symbolsMs,
                },
              }),
            })),
          }
        : {},
    readiness: () => {
      const behind = projects.named.behind();
      return {
        ready: behind.length === 0,
        detail: {
          replica: coordination.replica,
          // Reported, not a reason to be taken out of rotation: searches answer from the local index.
          ...(coordination.problem !== undefined && { shared_state_problem: coordination.problem }),
          ...(behind.length > 0 && {
            waiting_for: behind.map((project) => ({
              name: project.name,
              state: project.state,
              ...(project.targetCommit && { target_commit: project.targetCommit }),
            })),
          }),
        },
      };
    },
    status: statusSource(new ProjectStatuses(projects), teamServer ? coordination : undefined),
    refreshHook: async (name) => {
      const project = await coordination.catalog.get(name).catch(() => undefined);
      if (!project) return false;
      await coordination.generations.requestRefresh(project.name);
      return true;
    },
  };
  try {
    await serveWith(options, server, projects, { ...replica, credentials: await credentialsOf(options, coordination), audit });
  } finally {
    await audit?.close();
    await team.close();
    // Before the jobs are stopped: a task whose job is stopped by the shutdown failed, it did not complete.
    await tasks.close();
    heap.close();
    await projects.close();
    await coordination.close();
  }
}

/**
 * Who may call over HTTP: the --auth-token, the named tokens, and with --oauth-issuer the access
 * tokens of that issuer, discovered now so that a wrong issuer is said at start-up.
 */
async function credentialsOf(options: ServeOptions, coordination: Coordination): Promise<Credentials> {
  let oauth: OAuthVerifier | undefined;
  if (options.oauthIssuer !== undefined) {
    try {
      oauth = new OAuthVerifier({ issuer: options.oauthIssuer, publicUrl: options.publicUrl!, groupsClaim: options.groupsClaim });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    let started = true;
    await oauth.start().then(
      () => options.logger.info(`Accepting access tokens of ${options.oauthIssuer} for ${oauth!.resource}`),
      (error: unknown) => {
        started = false;
        options.logger.warning(`The OAuth issuer cannot be reached yet; tokens are refused until it can: ${(error as Error).message}`);
      },
    );
    if (started && options.webClientId !== undefined && !(await oauth.browserEndpoints()))
      options.logger.warning(
        `--web-client-id: ${options.oauthIssuer} publishes no https authorization and token endpoints; the web page signs in with a token only`,
      );
  }
  return new Credentials({ authToken: options.authToken, tokens: coordination.tokens, oauth });
}

/** What a team replica adds to the HTTP endpoints: /health's detail, /ready, and the refresh hook. */
type ReplicaEndpoints = Pick<HttpServerOptions, 'replicaHealth' | 'readiness' | 'refreshHook' | 'credentials' | 'audit' | 'status'>;

async function serveWith(
  options: ServeOptions,
  server: ReturnType<typeof createSextantServer>,
  projects: ProjectService,
  replica: ReplicaEndpoints,
): Promise<void> {
  const { logger } = options;
  describeProjects(projects, logger);
  const tap = options.record
    ? createRecorder(options.record, { onError: (error) => logger.error(`Recording to ${options.record} stopped: it can no longer be written`, error) })
    : undefined;
  if (options.record) logger.info(`Recording every message to ${options.record}`);
  const tools = server.registries.tools.names().join(', ');
  if (options.transport === 'stdio') return serveOverStdio(options, server, tap, tools);

  const httpOptions: HttpServerOptions = {
    port: options.port,
    host: options.bind,
    logger,
    authToken: options.authToken,
    allowedOrigins: options.allowedOrigins,
    allowedHosts: options.allowedHosts,
    webClientId: options.webClientId,
    maxConnections: options.maxConnections,
    projectPaths: projects.checkProjectPath,
    pathMask: (caller) => projects.pathMask(caller),
    tap,
    ...replica,
  };
  const running = await startHttpServer(server, httpOptions);
  logger.info(`HTTP clients reach: ${httpReach(options, projects)}`);
  logger.info(`Sextant ${server.identity.version} serving MCP over HTTP (profile: ${options.profile}, tools: ${tools})`);
  logger.info(`Streamable HTTP: ${running.urls.mcp}`);
  logger.info(`Legacy HTTP+SSE: ${running.urls.sse}`);
  logger.info(`WebSocket:       ${running.urls.ws}`);
  logger.info(`Health:          ${running.urls.health}`);
  await new Promise<void>((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      logger.info(`Received ${signal}; shutting down`);
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      void running.close().then(resolve);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}

/** What an HTTP client may name, said once at start-up (workspace/access.ts decides it). */
function httpReach(options: ServeOptions, projects: ProjectService): string {
  const confined = 'the registered projects and the directories under --allowed-root, nothing else';
  if (options.authToken || !isLoopbackBind(options.bind)) return `${confined} (a token or a public address makes every client remote)`;
  if (projects.config.allowedRoots.length > 0) return `${confined} (--allowed-root confines the local user too)`;
  return 'any directory of the local user (loopback, no token)';
}

async function serveOverStdio(
  options: ServeOptions,
  server: ReturnType<typeof createSextantServer>,
  tap: ReturnType<typeof createRecorder> | undefined,
  tools: string,
): Promise<void> {
  const { logger } = options;
  if (options.portGiven) logger.warning('--port is ignored with --transport stdio');
  const connection = serveStdio(server, { input: process.stdin, output: process.stdout, outputFd: 1, logger, tap });
  logger.info(`Sextant ${server.identity.version} serving MCP over stdio (profile: ${options.profile}, tools: ${tools})`);
  const onSignal = (signal: NodeJS.Signals): void => {
    logger.info(`Received ${signal}; shutting down`);
    void connection.close();
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  await connection.closed;
  process.off('SIGTERM', onSignal);
  process.off('SIGINT', onSignal);
}
