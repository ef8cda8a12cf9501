/**
 * `sextant serve` (the default command): its options, and turning them into ServeOptions. Apart
 * from main.ts, which keeps the other commands; the server itself loads only when this runs.
 */
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { createLogger, type LocalLogLevel } from '../platform/log.js';
import {
  DEFAULT_IDLE_RELEASE_MS,
  DEFAULT_MAX_OPEN_PROJECTS,
  DEFAULT_MAX_WORKSPACES,
  resolveWorkspaceConfig,
  WorkspaceConfigError,
  type WorkspaceOptions,
} from '../workspace/config.js';
import { DEFAULT_BIND, DEFAULT_MAX_CONNECTIONS, DEFAULT_POLL_SECONDS, DEFAULT_PORT, PROFILES, TRANSPORTS, type Profile, type Transport } from './choices.js';
import type { ServeOptions } from './serve.js';
import { count, UsageError } from './usage.js';

/** What `serve` takes: hidden from the top-level help (see its builder). */
const SERVE_OPTIONS = [
  'transport',
  'port',
  'bind',
  'auth-token',
  'oauth-issuer',
  'public-url',
  'groups-claim',
  'web-client-id',
  'audit-log',
  'allowed-origin',
  'allowed-host',
  'max-connections',
  'profile',
  'record',
  'workspace',
  'auto-workspace',
  'allowed-root',
  'max-workspaces',
  'max-open-projects',
  'idle-release',
  'project-from-cwd',
  'watch',
  'auto-index',
  'database-url',
  'poll-interval',
];

/**
 * Serving is the default command, so yargs would list its options under the top-level help as if
 * they applied to every command: there they are hidden (`sextant serve --help` shows them). They
 * are declared hidden first; the options declared after keep `hidden` off by default.
 */
function hideUnlessServing<T>(y: Argv<T>, argv: string[]): Argv<T> {
  if (argv[0] === 'serve') return y;
  for (const key of SERVE_OPTIONS) y.hide(key);
  return y;
}

/** The options of `serve`, added to the builder yargs gives. */
export function serveOptions<T>(y: Argv<T>, argv: string[]) {
  return hideUnlessServing(y, argv)
    .option('transport', {
      choices: TRANSPORTS,
      default: (process.env.SEXTANT_TRANSPORT ?? 'stdio') as Transport,
      describe: 'How clients connect: stdio, or http (Streamable HTTP, legacy SSE and WebSocket on one port; sse and ws are aliases). Env: SEXTANT_TRANSPORT',
    })
    .option('port', { type: 'number', describe: `HTTP port (default ${DEFAULT_PORT}). Env: SEXTANT_MCP_PORT` })
    .option('bind', { type: 'string', default: DEFAULT_BIND, describe: 'Address to listen on; anything but loopback needs --auth-token' })
    .option('auth-token', { type: 'string', describe: 'Require "Authorization: Bearer <token>" on HTTP. Env: SEXTANT_AUTH_TOKEN' })
    .option('oauth-issuer', {
      type: 'string',
      describe: 'Accept JWT access tokens of this OAuth 2.1 authorization server (https; http only on loopback); needs --public-url. Env: SEXTANT_OAUTH_ISSUER',
    })
    .option('public-url', { type: 'string', describe: 'Where clients reach this server (https://sextant.internal): tokens must be for PUBLIC_URL/mcp' })
    .option('groups-claim', { type: 'string', default: 'groups', describe: "The access token's claim that lists its holder's groups (group:NAME)" })
    .option('web-client-id', {
      type: 'string',
      describe:
        'The web page signs in through --oauth-issuer as this public client (authorization code with PKCE; ' +
        'redirect URI PUBLIC_URL/signed-in). Env: SEXTANT_WEB_CLIENT_ID',
    })
    .option('audit-log', { type: 'string', describe: 'Append a JSON line per tool call and per refused request to FILE (- for stderr); never a secret' })
    .option('max-connections', {
      type: 'string',
      coerce: count('max-connections', 1),
      describe: `Open HTTP connections at once; past it new ones are refused (default ${DEFAULT_MAX_CONNECTIONS})`,
    })
    .option('allowed-origin', { type: 'string', array: true, describe: 'Browser Origin allowed besides loopback ones (repeatable)' })
    .option('allowed-host', {
      type: 'string',
      array: true,
      describe: "A name of this server besides loopback ones, for the Host check against DNS rebinding (a reverse proxy's public name; repeatable)",
    })
    .option('profile', { choices: PROFILES, default: 'default' as Profile, describe: 'Which tools to serve' })
    .option('record', { type: 'string', describe: 'Append every message received and sent to this JSONL file' })
    .option('workspace', {
      type: 'string',
      array: true,
      describe: 'Register a project at start-up (repeatable); the first is the default project unless SEXTANT_PROJECT is set',
    })
    .option('auto-workspace', {
      type: 'boolean',
      default: false,
      describe: 'Register unknown `workspace` arguments on demand, if under an --allowed-root',
    })
    .option('allowed-root', {
      type: 'string',
      array: true,
      describe: 'Directory whose projects HTTP clients may reach besides the registered ones, and under which --auto-workspace may register them (repeatable)',
    })
    .option('max-workspaces', {
      type: 'number',
      default: DEFAULT_MAX_WORKSPACES,
      describe:
        'Workspaces discovered from clients (roots, workspace arguments) registered at once: the least recently used idle one is forgotten. ' +
        'Projects registered by name or --workspace are not counted (see --max-open-projects)',
    })
    .option('max-open-projects', {
      type: 'string',
      coerce: count('max-open-projects', 1),
      describe:
        'Projects held open at once, named or not (watcher, symbols, files in the search threads): the least recently used idle one is ' +
        `let go until used again (default ${DEFAULT_MAX_OPEN_PROJECTS})`,
    })
    .option('idle-release', {
      type: 'string',
      coerce: count('idle-release', 1),
      describe:
        'Seconds after which a project nobody used is let go, and the search threads stop once nobody searched ' +
        `(default ${DEFAULT_IDLE_RELEASE_MS / 1000})`,
    })
    .option('project-from-cwd', {
      type: 'boolean',
      default: false,
      describe: 'Fall back to the directory the client launched the server in ($PWD) as the project',
    })
    .option('watch', {
      type: 'boolean',
      default: true,
      describe: 'Keep indexed projects current as files are saved (--no-watch: only sync_repo updates them)',
    })
    .option('auto-index', {
      type: 'boolean',
      default: false,
      describe: 'Start indexing a project without an index when a tool needs it; searches meanwhile scan the files directly',
    })
    .option('database-url', {
      type: 'string',
      describe: 'Coordinate with other replicas through this PostgreSQL database (a team server). Env: SEXTANT_DATABASE_URL',
    })
    .option('poll-interval', {
      type: 'string',
      coerce: count('poll-interval', 1),
      describe: `Seconds between the controller's looks at each git project's branch (default ${DEFAULT_POLL_SECONDS})`,
    });
}

/** What `serve`'s handler gets: its own options and the global --log-level. */
type ServeArgs = ArgumentsCamelCase<ReturnType<typeof serveOptions<{ 'log-level': LocalLogLevel }>> extends Argv<infer Parsed> ? Parsed : never>;

/** Runs `serve` with the parsed options: usage mistakes are UsageErrors (exit 2). */
export async function runServe(args: ServeArgs): Promise<void> {
  const envPort = process.env.SEXTANT_MCP_PORT;
  const port = args.port ?? (envPort === undefined ? DEFAULT_PORT : Number(envPort));
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new UsageError(`Invalid port ${JSON.stringify(args.port ?? envPort)}: use a whole number from 0 to 65535`);
  }
  const options: ServeOptions = {
    transport: args.transport === 'stdio' ? 'stdio' : 'http',
    profile: args.profile,
    logger: createLogger(args['log-level']),
    port,
    bind: args.bind,
    portGiven: args.port !== undefined || envPort !== undefined,
    // An empty token (SEXTANT_AUTH_TOKEN= ) is no token.
    authToken: (args['auth-token'] ?? process.env.SEXTANT_AUTH_TOKEN) || undefined,
    oauthIssuer: (args['oauth-issuer'] ?? process.env.SEXTANT_OAUTH_ISSUER) || undefined,
    publicUrl: args['public-url'],
    groupsClaim: args['groups-claim'],
    webClientId: (args['web-client-id'] ?? process.env.SEXTANT_WEB_CLIENT_ID) || undefined,
    auditLog: args['audit-log'],
    allowedOrigins: args['allowed-origin'],
    allowedHosts: args['allowed-host'],
    maxConnections: args['max-connections'],
    record: args.record,
  };
  if ((options.oauthIssuer === undefined) !== (options.publicUrl === undefined))
    throw new UsageError('--oauth-issuer and --public-url go together: tokens are checked to be for PUBLIC_URL/mcp');
  if (options.oauthIssuer !== undefined && options.transport === 'stdio') throw new UsageError('--oauth-issuer goes with --transport http');
  if (options.webClientId !== undefined && options.oauthIssuer === undefined)
    throw new UsageError('--web-client-id goes with --oauth-issuer: the page signs in through that issuer');
  const workspace: WorkspaceOptions = {
    autoWorkspace: args['auto-workspace'],
    projectFromCwd: args['project-from-cwd'],
    maxWorkspaces: args['max-workspaces'],
    workspaces: args.workspace,
    allowedRoots: args['allowed-root'],
  };
  try {
    options.workspace = resolveWorkspaceConfig(workspace);
  } catch (error) {
    if (error instanceof WorkspaceConfigError) throw new UsageError(error.message);
    throw error;
  }
  options.watch = args.watch;
  if (args['max-open-projects'] !== undefined) options.maxOpenProjects = args['max-open-projects'];
  if (args['idle-release'] !== undefined) options.idleMs = args['idle-release'] * 1000;
  options.autoIndex = args['auto-index'];
  options.databaseUrl = args['database-url'] ?? (process.env.SEXTANT_DATABASE_URL || undefined);
  options.pollMs = (args['poll-interval'] ?? DEFAULT_POLL_SECONDS) * 1000;
  (await import('./server-heap.js')).restartWithServerHeap();
  const { serve } = await import('./serve.js');
  await serve(options);
  // Everything the server owns is closed by now. A socket a client library still holds (a
  // PostgreSQL connection that was opening as its pool ended, after an outage) must not keep a
  // stopped server alive: a replica that never exits is never replaced.
  setTimeout(() => process.exit(), STOPPED_EXIT_GRACE_MS).unref();
}

/** How long a server that has shut down may wait for the event loop to empty on its own. */
const STOPPED_EXIT_GRACE_MS = 2_000;
