/**
 * Projects for tool calls: per session, the detection chain and its cached roots; per server,
 * the registry of known workspaces and, for each, its index state and search service.
 */
import { rmSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { Activity } from '../platform/idle-heap.js';
import { SearchPool, type SearchPoolOptions, type SearchQueueLimits } from '../index/search/threads/index.js';
import { ChangeFence, IndexStore, sextantHome } from '../index/store/index.js';
import type { Logger } from '../platform/log.js';
import { Project } from './project.js';
import { ProjectPool } from './project-pool.js';
import { JobAnnouncer } from './jobs.js';
import { codedError } from '../errors.js';
import { DEFAULT_IDLE_RELEASE_MS, DEFAULT_MAX_OPEN_PROJECTS, type WorkspaceConfig } from './config.js';
import {
  checkProjectPath,
  NO_PROJECT_MESSAGE,
  SessionProjects,
  unknownProjectName,
  type DetectedProject,
  type ProjectPathCheck,
  type ProjectSource,
} from './detect.js';
import { grants, mayReach, pathMask, restricted, type PathMask } from './access.js';
import { homedir } from 'node:os';
import type { Caller } from '../caller.js';
import { NamedProjects, type NamedProject } from './named-projects.js';
import { WorkspaceRegistry } from './registry.js';
import type { RootsClient } from './roots.js';
import { distinct, isGlob, isPathEntry, MAX_SPAN_ENTRIES, MAX_WILDCARDS, nameGlob, type SpanMember } from './span.js';

export type { SpanMember };

/** A member of a span, with the source that named it (how the registry holds it). */
type Sourced = SpanMember & { source: ProjectSource };

/** What a call that may span projects works on: one project, or several at once (span.ts). */
export type Target = { one: ResolvedProject } | { many: SpanMember[] };

export interface ResolvedProject {
  root: string;
  source: ProjectSource;
  /** A one-time note for the first response of the session, when there is one to give. */
  hint?: string;
}

export interface ProjectServiceOptions {
  config: WorkspaceConfig;
  logger?: Logger;
  /** Index home (tests); default $SEXTANT_HOME. */
  home?: string;
  /** Keep indexed projects current with a file watcher (serve: on unless --no-watch). */
  watch?: boolean;
  /** Start indexing a project that has none when a tool needs it (--auto-index). */
  autoIndex?: boolean;
  /** How long one search may run (tests shorten it). */
  searchBudgetMs?: number;
  /** Searches sent to the search threads at once, and how many may wait (index/search/pool.ts). */
  searchQueue?: SearchQueueLimits;
  /** The server's search threads and their budgets: threads, cached text, open index files (index/search/pool.ts). */
  searchPool?: Partial<Pick<SearchPoolOptions, 'workers' | 'contentBytes' | 'openFiles'>>;
  /** Projects held open at once, named or not: past it, the least recently used idle one is let go (Project.release). */
  maxOpenProjects?: number;
  /** A project nobody used for this long is let go, and the search threads stop once none searched for as long (--idle-release). */
  idleMs?: number;
  /** Told when each index writer (a job, a watcher refresh) starts and settles: `serve` trims the heap when all stop. */
  activity?: Activity;
}

export class ProjectService {
  readonly config: WorkspaceConfig;
  readonly registry: WorkspaceRegistry;
  readonly #logger: Logger | undefined;
  readonly #home: string | undefined;
  readonly #watch: boolean;
  readonly #activity: Activity | undefined;
  readonly autoIndex: boolean;
  /** Per session (a 2026-07-28 call has none: its context gives an object of its own, gone with it). */
  readonly #sessions = new WeakMap<object, SessionProjects>();
  /** The projects in hand, let go when idle or least recently used (project-pool.ts). */
  readonly #pool: ProjectPool;
  /** The search threads every project's searches run on. */
  readonly searchPool: SearchPool;
  /** Passed by a search across projects before it trusts their kept index stamps (change-fence.ts). */
  readonly fence = new ChangeFence();
  /** Projects registered by name (the catalog), as this server serves them. */
  readonly named = new NamedProjects();
  /** Each index job any project starts, told before its first stage (the status page follows them). */
  readonly jobs = new JobAnnouncer();

  constructor(options: ProjectServiceOptions) {
    this.config = options.config;
    this.#logger = options.logger;
    this.#home = options.home;
    this.#watch = options.watch ?? false;
    this.autoIndex = options.autoIndex ?? false;
    this.#activity = options.activity;
    const idleMs = options.idleMs ?? DEFAULT_IDLE_RELEASE_MS;
    this.searchPool = new SearchPool({
      home: options.home,
      ...(options.searchBudgetMs ? { budgetMs: options.searchBudgetMs } : {}),
      ...options.searchQueue,
      ...options.searchPool,
      idleMs,
    });
    this.#pool = new ProjectPool(
      (root) =>
        new Project(root, {
          watch: this.#watch,
          home: this.#home,
          logger: this.#logger,
          pool: this.searchPool,
          fence: this.fence,
          activity: this.#activity,
          onJob: (job) => this.jobs.announce(job),
        }),
      { maxOpen: options.maxOpenProjects ?? DEFAULT_MAX_OPEN_PROJECTS, idleMs, ...(options.logger && { logger: options.logger }) },
    );
    this.registry = new WorkspaceRegistry(options.config, {
      isBusy: (root) => this.#pool.existing(root)?.job !== undefined,
      onEvict: (root) => {
        this.#logger?.info(`Workspace ${root} let go to make room (least recently used)`);
        void this.#pool.take(root)?.close();
      },
    });
  }

  /** The session's detection state, created on first use. */
  forSession(session: object): SessionProjects {
    let projects = this.#sessions.get(session);
    if (!projects) {
      projects = new SessionProjects(this.config, this.#logger);
      this.#sessions.set(session, projects);
    }
    return projects;
  }

  /** The client's roots changed: the next call detects again from fresh roots (asked for on its behalf). */
  rootsChanged(session: object): void {
    this.forSession(session).forgetRoots();
  }

  /**
   * Whether a caller of `reach` may work in `root`, a real path (access.ts): what the operator
   * registered, what is under an --allowed-root, and for the launcher or the local user whatever
   * the rule leaves them.
   */
  allows(root: string, caller: Caller): boolean {
    return mayReach(root, caller, { allowedRoots: this.config.allowedRoots, registered: () => this.#registeredRoots(), named: () => this.named.list() });
  }

  /** The named projects a caller may see: all of them, unless its identity is held to WHO lists (access.ts). */
  visible(caller: Caller): NamedProject[] {
    return this.named.list().filter((project) => !restricted(caller) || grants(project.allowed, caller.identity));
  }

  /**
   * How a caller of `reach` is shown the server's places: the launcher and the local user (whose
   * server it is) see them as they are; a remote caller sees a registered project's checkout as
   * its name, and the index home and the user's home by name (access.ts).
   */
  pathMask(caller: Caller): PathMask {
    if (caller.reach !== 'remote') return (text) => text;
    // A project the caller may not see is not named, even as the mask of its checkout.
    return pathMask([
      ...this.visible(caller).map((project): [string, string] => [project.root, project.name]),
      [this.#home ?? sextantHome(), '$SEXTANT_HOME'],
      [homedir(), '~'],
    ]);
  }

  /** `?project_path=` for a caller of `reach`, at the HTTP gate: the directory, or the 400's words. */
  readonly checkProjectPath: ProjectPathCheck = (value, caller) => checkProjectPath(value, (root) => this.allows(root, caller));

  /**
   * The project a tool call works on, or the tool error that says why there is none. `via`: the
   * call's own way to ask the client for its roots (see SessionProjects.roots); `reach`: how far
   * the caller is trusted (caller.ts).
   */
  async resolve(workspace: unknown, session: object, query: Record<string, string> | undefined, via: RootsClient, caller: Caller): Promise<ResolvedProject> {
    const { reach } = caller;
    const projects = this.forSession(session);
    const allows = (root: string): boolean => this.allows(root, caller);
    // A name is one path segment: `web` names a registered project, `src/web` is still a (bad) relative path.
    if (typeof workspace === 'string' && workspace !== '' && !isAbsolute(workspace) && !/[/\\]/.test(workspace)) {
      const named = this.named.get(workspace);
      // One the caller may not see is as unknown as one that does not exist: the same words.
      if (!named || !allows(named.root)) throw unknownProjectName(workspace);
      return { root: this.#admitNamed(named.root), source: 'catalog' };
    }
    if (workspace !== undefined) {
      const named = typeof workspace === 'string' ? this.named.atRoot(workspace) : undefined;
      if (named && allows(named.root)) return { root: this.#admitNamed(named.root), source: 'catalog' };
      // A remote client's roots are paths on its own machine, which bear on no argument here: not asked
      // (in 2026-07-28 that would cost the client an input round for nothing).
      const roots = reach === 'remote' ? undefined : await projects.roots(via);
      const chosen = this.registry.resolveArgument(workspace, roots?.status === 'listed' ? roots.paths : [], reach, allows);
      return { root: chosen.root, source: 'workspace_argument' };
    }
    return this.#detected(projects, query, via, caller);
  }

  /** The detection chain's winner, held, with the session's one-time hint; project_not_found when there is none. */
  async #detected(projects: SessionProjects, query: Record<string, string> | undefined, via: RootsClient, caller: Caller): Promise<ResolvedProject> {
    const { winner, roots } = await projects.detect(
      query,
      via,
      (name) => this.#namedRoot(name, caller),
      (root) => this.allows(root, caller),
    );
    if (!winner) throw codedError('project_not_found', NO_PROJECT_MESSAGE);
    this.#hold(winner);
    const resolved: ResolvedProject = { root: winner.path, source: winner.source };
    const hint = projects.takeHint(winner, roots);
    if (hint) resolved.hint = hint;
    return resolved;
  }

  /**
   * What a call that may work across projects works on (search_code, locate_symbol): the one its
   * `workspace` names, every one its `projects` names, or with neither, the session's: the several
   * its client's roots name, the several --workspace folders, the one the chain detects, or, where
   * it detects none, every named project the caller may see.
   */
  async target(
    args: { workspace?: unknown; projects?: unknown },
    session: object,
    query: Record<string, string> | undefined,
    via: RootsClient,
    caller: Caller,
  ): Promise<Target> {
    const { workspace, projects: entries } = args;
    if (entries !== undefined && workspace !== undefined) {
      throw codedError('invalid_input', 'Pass workspace (one project) or projects (several), not both', { argument: 'projects' });
    }
    if (workspace !== undefined) return { one: await this.resolve(workspace, session, query, via, caller) };
    if (entries !== undefined) return { many: await this.#spanOf(entries, session, via, caller) };
    const projects = this.forSession(session);
    const allows = (root: string): boolean => this.allows(root, caller);
    const detection = await projects.detect(query, via, (name) => this.#namedRoot(name, caller), allows);
    const { winner } = detection;
    if (winner?.source === 'roots' && detection.rooted.length > 1) return { many: this.#held(detection.rooted.map((root) => this.#member(root, 'roots'))) };
    const folders = this.config.workspaces.filter(allows);
    if (winner?.source === 'command_line' && folders.length > 1) return { many: this.#held(folders.map((root) => this.#member(root, 'command_line'))) };
    if (winner) return { one: await this.#detected(projects, query, via, caller) };
    const named = this.visible(caller).filter((project) => allows(project.root));
    if (named.length === 0) throw codedError('project_not_found', NO_PROJECT_MESSAGE);
    return { many: this.#held(named.map((project) => this.#member(project.root, 'catalog'))) };
  }

  /** The projects `projects` names: each entry a name, a glob over names, or an absolute path, as the caller may reach them. */
  async #spanOf(entries: unknown, session: object, via: RootsClient, caller: Caller): Promise<SpanMember[]> {
    if (
      !Array.isArray(entries) ||
      entries.length === 0 ||
      entries.length > MAX_SPAN_ENTRIES ||
      !entries.every((entry) => typeof entry === 'string' && entry !== '')
    ) {
      throw codedError('invalid_input', `"projects" must be 1 to ${MAX_SPAN_ENTRIES} project names, globs ("pay*", "*") or absolute paths`, {
        argument: 'projects',
      });
    }
    const allows = (root: string): boolean => this.allows(root, caller);
    const projects = this.forSession(session);
    // A remote client's roots are paths on its own machine: they name nothing here.
    const roots = caller.reach === 'remote' ? undefined : await projects.roots(via);
    const rootPaths = roots?.status === 'listed' ? roots.paths : [];
    const members: Sourced[] = [];
    for (const entry of entries as string[]) {
      if (isGlob(entry)) {
        const matches = nameGlob(entry, caller.reach !== 'remote');
        if (!matches)
          throw codedError('invalid_input', `A glob in "projects" may hold at most ${MAX_WILDCARDS} wildcards: ${JSON.stringify(entry)}`, {
            argument: 'projects',
          });
        const everything = [
          ...this.visible(caller).map((project) => this.#member(project.root, 'catalog')),
          ...[...this.#registeredRoots(), ...rootPaths].map((root) => this.#member(root, 'roots')),
        ].filter((member) => allows(member.root));
        members.push(...everything.filter(matches));
      } else if (isPathEntry(entry)) {
        const named = this.named.atRoot(entry);
        const root = named && allows(named.root) ? named.root : this.registry.resolveArgument(entry, rootPaths, caller.reach, allows).root;
        members.push(this.#member(root, 'workspace_argument'));
      } else {
        const named = this.named.get(entry);
        if (!named || !allows(named.root)) throw unknownProjectName(entry);
        members.push(this.#member(named.root, 'catalog'));
      }
    }
    const spanned = distinct(members);
    if (spanned.length === 0) {
      throw codedError('project_not_found', `No project this server serves matches ${JSON.stringify(entries)}: list_projects lists them by name`, {
        projects: entries,
      });
    }
    return this.#held(spanned);
  }

  /** The project at `root` as a member of a span: under its name when it has one, else its path. */
  #member(root: string, source: ProjectSource): Sourced {
    const named = this.named.atRoot(root);
    return named ? { root, label: named.name, named, source: 'catalog' } : { root, label: root, source };
  }

  /** Members of a span, known from now on as a detected project is (the workspace limit may let older ones go). */
  #held(members: Sourced[]): SpanMember[] {
    const distinctMembers = distinct(members);
    for (const { root, source } of distinctMembers) {
      // A named project is pinned; a folder already known is marked used. One not known yet is
      // searched without being registered: admitting it could let go of another of the same span.
      if (source !== 'catalog' && !this.registry.get(root)) continue;
      try {
        this.#hold({ path: root, source });
      } catch {
        // at the workspace limit: still searched, just not held
      }
    }
    return distinctMembers.map(({ root, label, named }) => (named ? { root, label, named } : { root, label }));
  }

  /** The chain's answer for this session (no `workspace` argument), registered when found. */
  async detect(session: object, query: Record<string, string> | undefined, via: RootsClient, caller: Caller): Promise<DetectedProject | undefined> {
    const { winner } = await this.forSession(session).detect(
      query,
      via,
      (name) => this.#namedRoot(name, caller),
      (root) => this.allows(root, caller),
    );
    if (!winner) return undefined;
    try {
      this.#hold(winner);
    } catch {
      // at the workspace limit: still the session's project, just not held
    }
    return winner;
  }

  /**
   * The roots the operator registered, as they are now: --workspace, SEXTANT_PROJECT, the launch
   * directory, and the catalog's projects (one removed from the catalog is reached no more).
   */
  *#registeredRoots(): Iterable<string> {
    yield* this.config.workspaces;
    if (this.config.envProject) yield this.config.envProject.path;
    if (this.config.cwdProject) yield this.config.cwdProject;
    for (const project of this.named.list()) yield project.root;
  }

  /** The root of the named project `name`, if the caller may see it (one it may not is no project at all). */
  #namedRoot(name: string, caller: Caller): string | undefined {
    const named = this.named.get(name);
    return named && this.allows(named.root, caller) ? named.root : undefined;
  }

  /** A detected project, known from now on: pinned when it is a named one, else counted against the limit. */
  #hold(winner: DetectedProject): void {
    if (this.named.atRoot(winner.path)) this.registry.pin(winner.path, 'catalog');
    else this.registry.admit(winner.path, winner.source);
  }

  /** A named project's folder, held by the registry for as long as it is registered (never let go to make room). */
  #admitNamed(root: string): string {
    this.registry.pin(root, 'catalog');
    return root;
  }

  /** The project at `root`, counted as used now (project-pool.ts). */
  project(root: string): Project {
    return this.#pool.use(root);
  }

  /** The project at `root` if this server has it in hand, without counting it as used (the status page looks, it does not use). */
  existing(root: string): Project | undefined {
    return this.#pool.existing(root);
  }

  /** Projects held open now (used, and not let go since). */
  get openProjects(): number {
    return this.#pool.openCount;
  }

  /**
   * A project no longer served (its name removed from the catalog): its jobs stopped, its index
   * deleted, and the registry forgets it. Its folder is the caller's to keep or delete.
   */
  async discard(root: string): Promise<void> {
    const project = this.#pool.take(root);
    this.registry.forget(root);
    const dir = (project?.store ?? new IndexStore(root, this.#home)).dir;
    await project?.close();
    rmSync(dir, { recursive: true, force: true });
  }

  async close(): Promise<void> {
    await this.#pool.close();
    await this.searchPool.close();
    this.fence.close();
  }
}
