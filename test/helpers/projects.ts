/** A Sextant server over real HTTP with a chosen project configuration, every message schema-checked, its log captured. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TapEntry } from '../../src/jsonrpc/index.js';
import type { Logger } from '../../src/platform/log.js';
import { createSextantServer } from '../../src/server.js';
import { startHttpServer, type HttpServerOptions, type RunningHttpServer } from '../../src/transports/http-listener.js';
import { resolveWorkspaceConfig, type WorkspaceOptions } from '../../src/workspace/config.js';
import { ProjectService } from '../../src/workspace/projects.js';
import { ProjectStatuses } from '../../src/workspace/status.js';
import { statusSource } from '../../src/cli/status-source.js';
import { ROOT } from './process.js';
import { TrafficChecker } from './schema.js';
import type { ToolResult } from './tool-result.js';

export interface ProjectHarness {
  http: RunningHttpServer;
  projects: ProjectService;
  logs: string[];
  /** Every message the server sent, in order. */
  sent: unknown[];
  problems(): string[];
  close(): Promise<void>;
}

export async function projectHarness(
  workspace: WorkspaceOptions = {},
  home?: string,
  service: Pick<
    ConstructorParameters<typeof ProjectService>[0],
    'autoIndex' | 'searchBudgetMs' | 'searchQueue' | 'watch' | 'searchPool' | 'maxOpenProjects' | 'idleMs'
  > = {},
  listener: Pick<HttpServerOptions, 'authToken' | 'host' | 'allowedHosts' | 'allowedOrigins'> = {},
): Promise<ProjectHarness> {
  const logs: string[] = [];
  const logger: Logger = {
    debug: (message) => void logs.push(`debug: ${message}`),
    info: (message) => void logs.push(`info: ${message}`),
    warning: (message) => void logs.push(`warning: ${message}`),
    error: (message) => void logs.push(`error: ${message}`),
  };
  const projects = new ProjectService({ config: resolveWorkspaceConfig({ env: {}, ...workspace }), logger, ...service, ...(home ? { home } : {}) });
  const server = createSextantServer({ logger, projects });
  const checkers: TrafficChecker[] = [];
  const sent: unknown[] = [];
  const tap = () => {
    const checker = new TrafficChecker();
    checkers.push(checker);
    return (direction: 'in' | 'out', entry: TapEntry) => {
      if (!('message' in entry)) return;
      if (direction === 'in') checker.incoming(entry.message);
      else {
        sent.push(entry.message);
        checker.outgoing(entry.message);
      }
    };
  };
  const http = await startHttpServer(server, {
    port: 0,
    tap,
    logger,
    projectPaths: projects.checkProjectPath,
    pathMask: (caller) => projects.pathMask(caller),
    status: statusSource(new ProjectStatuses(projects, home), undefined),
    ...listener,
  });
  return {
    http,
    projects,
    logs,
    sent,
    problems: () => checkers.flatMap((checker) => checker.problems),
    close: async () => {
      await http.close();
      await projects.close();
    },
  };
}

export type RootsAnswer = Array<{ uri: string; name?: string }> | 'hang';

/** An SDK client over Streamable HTTP; with `roots`, it declares the capability and answers as told. */
export async function sdkClient(url: string, roots?: { answer?: () => RootsAnswer; onCancelled?: () => void }): Promise<Client> {
  const client = new Client({ name: 'sextant-projects-test', version: '1.0.0' }, { capabilities: roots ? { roots: { listChanged: true } } : {} });
  // Without `answer` the capability is declared but nothing handles roots/list: the SDK answers -32601.
  const answerRoots = roots?.answer;
  if (answerRoots) {
    client.setRequestHandler(ListRootsRequestSchema, (_request, extra) => {
      const answer = answerRoots();
      if (answer === 'hang') {
        return new Promise((_, reject) => {
          extra.signal.addEventListener('abort', () => {
            roots?.onCancelled?.();
            reject(new Error('cancelled'));
          });
        });
      }
      return { roots: answer };
    });
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** A small project on disk (real path), files given by relative path. */
/** A fresh copy of a committed fixture repository (test/fixtures/NAME), at its real path. */
export function fixtureCopy(name: string): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `sextant-${name}-`)));
  cpSync(join(ROOT, 'test/fixtures', name), root, { recursive: true });
  return root;
}

export function projectTree(files: Record<string, string>, prefix = 'sextant-project-'): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

/**
 * A project of `files`, indexed through index_repo and served over Streamable HTTP to an SDK
 * client for `work`; the project, its index home and the server are gone afterwards.
 */
export async function withIndexedProject(files: Record<string, string>, work: (client: Client, root: string) => Promise<void>): Promise<void> {
  const root = projectTree(files);
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const h = await projectHarness({ workspaces: [root] }, home);
  try {
    const client = await sdkClient(h.http.urls.mcp);
    try {
      const indexed = await call(client, 'index_repo');
      if (indexed.isError) throw new Error(`index_repo failed: ${indexed.content[0]?.text}`);
      await work(client, root);
    } finally {
      await client.close();
    }
  } finally {
    await h.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * A Go project whose `types` types each define `Close`, every one used `uses` times in its own
 * file. Past MAX_SEEDED_DEFINITIONS definitions, a search for `close` in any case there reads
 * until its pool of matches fills (index/search/first-page/shared-pool.ts): its seeds are not
 * written as searched, and an unread file may hold a definition that is. `types * (uses + 2)`
 * matches in all: each definition, its doc comment and its uses.
 */
export function closerFiles(types: number, uses: number, dir = 'pkg'): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < types; i++) {
    const calls = Array.from({ length: uses }, () => '\tt.Close()\n').join('');
    files[`${dir}/closer${i}.go`] =
      `package pkg\n\ntype T${i} struct{}\n\n// Close ends T${i}.\nfunc (t *T${i}) Close() error {\n\treturn nil\n}\n\n` +
      `func use${i}(t *T${i}) {\n${calls}}\n`;
  }
  return files;
}
