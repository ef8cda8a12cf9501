/**
 * Which project a session works in. The chain, first match wins: the tool's `workspace`
 * argument (resolved by the registry), the client's roots, the HTTP `project_path` query
 * parameter, SEXTANT_PROJECT (or the first --workspace), the working directory with
 * --project-from-cwd. A lower source that disagrees with the winner is logged once.
 */
import { basename, isAbsolute } from 'node:path';
import { realpathSync, statSync } from 'node:fs';
import { codedError, type CodedError } from '../errors.js';
import type { Caller } from '../caller.js';
import type { Logger } from '../platform/log.js';
import type { WorkspaceConfig } from './config.js';
import { listRoots, type RootsClient, type RootsOutcome } from './roots.js';

/** Where a project came from; `command_line` is --workspace, `catalog` a project registered by name (values are only ever added). */
export const PROJECT_SOURCES = ['workspace_argument', 'roots', 'query_parameter', 'environment', 'cwd', 'command_line', 'catalog'] as const;
export type ProjectSource = (typeof PROJECT_SOURCES)[number];

export interface DetectedProject {
  path: string;
  source: ProjectSource;
}

export const NO_PROJECT_MESSAGE = 'No project detected. Set SEXTANT_PROJECT or use --project-from-cwd.';
const HINT_ORIGINS: Partial<Record<ProjectSource, string>> = {
  environment: 'the SEXTANT_PROJECT environment variable',
  command_line: "the server's --workspace option",
  cwd: "the server's working directory (--project-from-cwd)",
};

/** The one-time hint, naming where the project really came from. */
export function rootsHint(source: ProjectSource): string {
  return (
    `Hint: this project came from ${HINT_ORIGINS[source] ?? source}. A client that supports MCP roots lets Sextant detect the project ` +
    `you are working in automatically.`
  );
}

/**
 * A `project_path` value as a real directory this caller may reach (`allows`), or what is wrong
 * with it (HTTP answers 400 with it). A directory the caller may not reach is "not found", in the
 * same words as one that does not exist.
 */
export function checkProjectPath(value: string, allows: (path: string) => boolean = () => true): { path: string } | { error: string } {
  if (!isAbsolute(value)) return { error: `Project path must be absolute: ${value}` };
  try {
    const real = realpathSync(value);
    if (statSync(real).isDirectory() && allows(real)) return { path: real };
  } catch {
    // below
  }
  return { error: `Project path not found on this server: ${value}` };
}

/** How the HTTP gate checks `project_path` for a caller (ProjectService.checkProjectPath). */
export type ProjectPathCheck = (value: string, caller: Caller) => { path: string } | { error: string };

/** With no registry to ask, the local user reaches any directory and a remote caller none. */
export const REGISTRY_LESS_PATHS: ProjectPathCheck = (value, caller) => checkProjectPath(value, () => caller.reach !== 'remote');

/** `?project=NAME` or a `workspace` argument names no registered project. */
export function unknownProjectName(name: string): CodedError {
  return codedError('project_not_found', `No project named ${JSON.stringify(name)} is registered on this server: list_projects lists them`, { project: name });
}

/** What detection found: the winner, the roots outcome, and every project the client's roots name (first the winner's). */
export interface Detection {
  winner?: DetectedProject;
  roots: RootsOutcome;
  rooted: string[];
}

/** One session's view: its roots (cached until the client says they changed) and its detection. */
export class SessionProjects {
  readonly #config: WorkspaceConfig;
  readonly #logger: Logger | undefined;
  #roots: Promise<RootsOutcome> | undefined;
  readonly #logged = new Set<string>();
  #hinted = false;

  constructor(config: WorkspaceConfig, logger?: Logger) {
    this.#config = config;
    this.#logger = logger;
  }

  /** The client's roots changed: the next call that needs them asks again. */
  forgetRoots(): void {
    this.#roots = undefined;
  }

  /**
   * The client's roots, asked for once (until they change). `via` is the calling tool's own way to
   * ask, so that the request travels with that call: over HTTP on the call's own stream (a client
   * need not open a GET stream to be asked); in 2026-07-28 as an input round of the call.
   */
  roots(via: RootsClient): Promise<RootsOutcome> {
    if (!this.#roots) {
      const options: Parameters<typeof listRoots>[1] = { timeoutMs: this.#config.rootsTimeoutMs };
      if (this.#logger) options.logger = this.#logger;
      this.#roots = listRoots(via, options);
    }
    return this.#roots;
  }

  /**
   * The winner of the chain below the `workspace` argument, and every source that had a say.
   * `named` finds a project registered by name: `?project=NAME` names one, and so does a client
   * root that is not on this machine (a path on the client's) whose last part is its name.
   */
  async detect(
    query: Record<string, string> | undefined,
    via: RootsClient,
    named: (name: string) => string | undefined = () => undefined,
    allows: (path: string) => boolean = () => true,
  ): Promise<Detection> {
    const roots = await this.roots(via);
    const candidates: DetectedProject[] = [];
    let rooted: string[] = [];
    if (roots.status === 'listed') {
      // A root here that this caller may reach wins (roots choose, they never grant); else a root
      // of a remote client named like a registered project is that project. A root here that the
      // caller may not reach counts as one elsewhere: whether it exists must not change the answer.
      const unreachable = roots.paths.filter((path) => !allows(path)).map((path) => basename(path));
      const reachable = roots.paths.filter(allows);
      rooted = reachable.length > 0 ? reachable : [...unreachable, ...roots.elsewhere].map((name) => named(name)).filter((root) => root !== undefined);
      rooted = [...new Set(rooted)];
      if (rooted[0]) candidates.push({ path: rooted[0], source: 'roots' });
    }
    const byName = query?.project;
    if (byName) {
      const root = named(byName);
      if (root === undefined) throw unknownProjectName(byName);
      candidates.push({ path: root, source: 'query_parameter' });
    }
    const fromQuery = query?.project_path;
    if (fromQuery) {
      // Checked at the HTTP gate already; here again, so that no path reaches a caller it may not.
      const checked = checkProjectPath(fromQuery, allows);
      if ('error' in checked) throw codedError('project_not_found', checked.error, { project_path: fromQuery });
      candidates.push({ path: checked.path, source: 'query_parameter' });
    }
    // The server's own defaults, for a caller who may reach them (one held to WHO lists may not).
    const env = this.#config.envProject;
    if (env && allows(env.path)) candidates.push({ path: env.path, source: env.origin === '--workspace' ? 'command_line' : 'environment' });
    if (this.#config.cwdProject && allows(this.#config.cwdProject)) candidates.push({ path: this.#config.cwdProject, source: 'cwd' });
    const winner = candidates[0];
    if (winner) this.#logDisagreement(winner, candidates.slice(1));
    const result: Detection = { roots, rooted };
    if (winner) result.winner = winner;
    return result;
  }

  /** The one-time hint for a session whose project came from env or cwd because roots were not available. */
  takeHint(winner: DetectedProject, roots: RootsOutcome): string | undefined {
    if (this.#hinted || roots.status !== 'unavailable' || HINT_ORIGINS[winner.source] === undefined) return undefined;
    this.#hinted = true;
    return rootsHint(winner.source);
  }

  #logDisagreement(winner: DetectedProject, others: DetectedProject[]): void {
    const disagreeing = others.filter((other) => other.path !== winner.path);
    if (disagreeing.length === 0) return;
    const line = `Project from ${winner.source} (${winner.path}) wins over ${disagreeing.map((other) => `${other.source} (${other.path})`).join(', ')}`;
    if (this.#logged.has(line)) return;
    this.#logged.add(line);
    this.#logger?.info(line);
  }
}
