/**
 * What the operator said at start-up about projects: pre-registered workspaces, the environment
 * project, the working directory, auto-workspace and its allowed roots. Checked once, before
 * the server takes a connection: a path that does not exist is a start-up error, not a
 * surprise on the first tool call.
 */
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { DEFAULT_ROOTS_TIMEOUT_MS } from './roots.js';

/** Auto-discovered workspaces held at once; the least recently used idle one makes room. */
export const DEFAULT_MAX_WORKSPACES = 10;
/** Projects held open at once by default, named or not (their watchers, symbols and files open in the search threads). */
export const DEFAULT_MAX_OPEN_PROJECTS = 256;
/** How long a project (and the search threads) may sit unused before they are let go, by default (--idle-release). */
export const DEFAULT_IDLE_RELEASE_MS = 10 * 60 * 1000;

export interface WorkspaceOptions {
  /** `--workspace` (repeatable): projects registered at start-up; the first is the default project. */
  workspaces?: string[];
  autoWorkspace?: boolean;
  allowedRoots?: string[];
  projectFromCwd?: boolean;
  maxWorkspaces?: number;
  rootsTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  cwd?: () => string;
}

export interface WorkspaceConfig {
  /** SEXTANT_PROJECT, else the first --workspace. */
  envProject?: { path: string; origin: 'SEXTANT_PROJECT' | '--workspace' };
  cwdProject?: string;
  workspaces: string[];
  autoWorkspace: boolean;
  allowedRoots: string[];
  maxWorkspaces: number;
  rootsTimeoutMs: number;
  /** Start-up notes worth a log line (a relative PWD ignored, …). */
  notes: string[];
}

export class WorkspaceConfigError extends Error {
  readonly code = 'SEXTANT_ERR_WORKSPACE_CONFIG';
  constructor(message: string) {
    super(message);
    this.name = 'WorkspaceConfigError';
  }
}

function existingDirectory(path: string, what: string): string {
  try {
    const real = realpathSync(path);
    if (statSync(real).isDirectory()) return real;
  } catch {
    // reported below
  }
  throw new WorkspaceConfigError(`${what} does not exist or is not a directory: ${path}`);
}

/** True when `path` is `root` or inside it; both already real paths. */
export function isWithin(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);
}

export function resolveWorkspaceConfig(options: WorkspaceOptions = {}): WorkspaceConfig {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? (() => process.cwd());
  const notes: string[] = [];
  const workspaces = (options.workspaces ?? []).map((path) => existingDirectory(resolve(cwd(), path), '--workspace'));
  const allowedRoots = (options.allowedRoots ?? []).map((path) => existingDirectory(resolve(cwd(), path), '--allowed-root'));
  if (options.autoWorkspace && allowedRoots.length === 0) {
    throw new WorkspaceConfigError('--auto-workspace needs at least one --allowed-root: the directories under which workspaces may be registered on demand');
  }
  const maxWorkspaces = options.maxWorkspaces ?? DEFAULT_MAX_WORKSPACES;
  if (!Number.isInteger(maxWorkspaces) || maxWorkspaces < 1)
    throw new WorkspaceConfigError(`--max-workspaces must be a positive integer, got ${maxWorkspaces}`);

  const config: WorkspaceConfig = {
    workspaces,
    autoWorkspace: options.autoWorkspace ?? false,
    allowedRoots,
    maxWorkspaces,
    rootsTimeoutMs: options.rootsTimeoutMs ?? DEFAULT_ROOTS_TIMEOUT_MS,
    notes,
  };
  const fromEnv = env.SEXTANT_PROJECT;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!isAbsolute(fromEnv)) throw new WorkspaceConfigError(`SEXTANT_PROJECT must be an absolute path, got "${fromEnv}"`);
    config.envProject = { path: existingDirectory(fromEnv, 'SEXTANT_PROJECT'), origin: 'SEXTANT_PROJECT' };
  } else if (workspaces[0]) {
    config.envProject = { path: workspaces[0], origin: '--workspace' };
  }
  if (options.projectFromCwd) {
    // The working directory is where the client launched us. PWD is only a shell's name for it:
    // a client that sets `cwd` but passes on its own environment leaves the parent's PWD behind
    // (an editor started from ~ would index the home folder). So PWD is believed only when it
    // names the working directory itself, as POSIX shells check it; then both agree anyway.
    const actual = existingDirectory(cwd(), 'The working directory');
    const pwd = env.PWD;
    if (pwd && !isAbsolute(pwd)) notes.push(`PWD "${pwd}" is not absolute and was ignored; using the working directory (${actual})`);
    else if (pwd) {
      let named: string | undefined;
      try {
        named = realpathSync(pwd);
      } catch {
        // gone: said below
      }
      if (named !== actual)
        notes.push(`PWD (${pwd}) is not the working directory (${actual}): inherited from another process, so ignored; using the working directory`);
    }
    config.cwdProject = actual;
  }
  return config;
}
