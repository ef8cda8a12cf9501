/**
 * The projects a server knows. Pinned ones come from the operator (--workspace,
 * SEXTANT_PROJECT, --project-from-cwd) and stay; discovered ones (client roots, query
 * parameters, `workspace` arguments) are held up to a limit, and the least recently used idle
 * one is let go to make room. A `workspace` argument is canonicalised with realpath before any
 * prefix check, so `..` and symlinks cannot step outside an allowed root.
 */
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { codedError } from '../errors.js';
import { isWithin, type WorkspaceConfig } from './config.js';
import type { ProjectSource } from './detect.js';
import type { Reach } from '../caller.js';
import { noProjectAt } from './access.js';

export interface Workspace {
  root: string;
  pinned: boolean;
  /** The sources that named this project, first one first. */
  sources: ProjectSource[];
  lastUsed: number;
}

export interface RegistryHooks {
  /** A workspace with a running job is never let go. */
  isBusy?(root: string): boolean;
  onEvict?(root: string): void;
}

export class WorkspaceRegistry {
  readonly #config: WorkspaceConfig;
  readonly #hooks: RegistryHooks;
  readonly #workspaces = new Map<string, Workspace>();
  #clock = 0;

  constructor(config: WorkspaceConfig, hooks: RegistryHooks = {}) {
    this.#config = config;
    this.#hooks = hooks;
    for (const root of config.workspaces) this.#pin(root, 'command_line');
    if (config.envProject?.origin === 'SEXTANT_PROJECT') this.#pin(config.envProject.path, 'environment');
    if (config.cwdProject) this.#pin(config.cwdProject, 'cwd');
  }

  list(): Workspace[] {
    return [...this.#workspaces.values()];
  }

  get(root: string): Workspace | undefined {
    return this.#workspaces.get(root);
  }

  /** A project the chain detected: known from now on (discovered ones count against the limit). */
  admit(root: string, source: ProjectSource, shown = root): Workspace {
    const known = this.#workspaces.get(root);
    if (known) return this.#touch(known, source);
    const discovered = [...this.#workspaces.values()].filter((workspace) => !workspace.pinned);
    if (discovered.length >= this.#config.maxWorkspaces) {
      const idle = discovered.filter((workspace) => !this.#hooks.isBusy?.(workspace.root)).sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (!idle) {
        throw codedError(
          'workspace_limit_exceeded',
          `The server already holds ${this.#config.maxWorkspaces} discovered workspaces, all busy; ${shown} cannot be added now`,
          {
            limit: this.#config.maxWorkspaces,
          },
        );
      }
      this.#workspaces.delete(idle.root);
      this.#hooks.onEvict?.(idle.root);
    }
    const workspace: Workspace = { root, pinned: false, sources: [source], lastUsed: ++this.#clock };
    this.#workspaces.set(root, workspace);
    return workspace;
  }

  /**
   * The `workspace` tool argument, for a caller of `reach`: first what it may reach at all
   * (access.ts), then registration, --auto-workspace and, for a caller on this machine, the
   * client's roots. Only the launcher is told this server's paths in a refusal.
   */
  resolveArgument(value: unknown, clientRoots: string[], reach: Reach, allows: (root: string) => boolean): Workspace {
    if (typeof value !== 'string' || !isAbsolute(value)) {
      throw codedError('invalid_input', `"workspace" must be an absolute path, got ${JSON.stringify(value)}`, { argument: 'workspace' });
    }
    let root: string;
    try {
      root = realpathSync(value);
      if (!statSync(root).isDirectory()) throw new Error('not a directory');
    } catch {
      throw noProjectAt(value);
    }
    if (!allows(root)) throw noProjectAt(value);
    const shown = reach === 'launcher' ? root : value;
    const inAllowed = this.#config.allowedRoots.some((allowed) => isWithin(root, allowed));
    // A remote client's roots are paths on its own machine: they neither confine nor grant here
    // (ProjectService does not even ask for them).
    const roots = reach === 'remote' ? [] : clientRoots;
    const inClientRoots = roots.some((clientRoot) => isWithin(root, clientRoot));
    if (roots.length > 0 && !inClientRoots && !inAllowed) {
      throw codedError('workspace_not_allowed', `Workspace ${shown} is outside every root this client shared and every allowed root`, {
        workspace: shown,
        roots,
      });
    }
    const known = this.#workspaces.get(root);
    if (known) return this.#touch(known, 'workspace_argument');
    if (inClientRoots || (this.#config.autoWorkspace && inAllowed)) return this.admit(root, 'workspace_argument', shown);
    if (this.#config.autoWorkspace) {
      // The allowed roots are the server's paths: named to a caller on this machine only.
      const allowed = reach === 'remote' ? undefined : this.#config.allowedRoots;
      throw codedError('workspace_not_allowed', `Workspace ${shown} is not under any allowed root${allowed ? ` (${allowed.join(', ')})` : ''}`, {
        workspace: shown,
        ...(allowed && { allowed_roots: allowed }),
      });
    }
    throw codedError('workspace_not_registered', `Workspace ${shown} is not registered with this server`, {
      workspace: shown,
      ...(reach === 'launcher' && { registered: this.list().map((workspace) => workspace.root) }),
    });
  }

  /** A project the operator registered (by name, or on the command line): known for good. */
  pin(root: string, source: ProjectSource): void {
    this.#pin(root, source);
  }

  /** A project no longer served (removed from the catalog): not known any more, pinned or not. */
  forget(root: string): void {
    this.#workspaces.delete(root);
  }

  #pin(root: string, source: ProjectSource): void {
    const known = this.#workspaces.get(root);
    if (known) {
      known.pinned = true;
      if (!known.sources.includes(source)) known.sources.push(source);
      return;
    }
    this.#workspaces.set(root, { root, pinned: true, sources: [source], lastUsed: ++this.#clock });
  }

  #touch(workspace: Workspace, source: ProjectSource): Workspace {
    workspace.lastUsed = ++this.#clock;
    if (!workspace.sources.includes(source)) workspace.sources.push(source);
    return workspace;
  }
}
