/**
 * What a replica does for the projects registered by name: each one from a git remote is fetched,
 * at exactly the commit the controller published, into a folder of this replica's home, and its
 * index follows with a sync (so a new commit costs what changed, not a rebuild). A project from a
 * folder is served where it is. The catalog is read again on an interval, so a project added or
 * removed on any machine is picked up; generations are watched, so a new target is heard at once.
 */
import { projectKey } from '../util/project-key.js';
import { CodedError } from '../errors.js';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogProject, Coordination } from '../coordination/index.js';
import type { Logger } from '../platform/log.js';
import { writeAtomic } from '../util/write-atomic.js';
import type { NamedProject } from '../workspace/named-projects.js';
import type { IndexJob } from '../workspace/jobs.js';
import type { ProjectService } from '../workspace/projects.js';
import { checkedOut, checkoutCommit, fileAtCommit } from './git.js';

/** How often the catalog is read again for projects added or removed elsewhere. */
const CATALOG_POLL_MS = 5_000;
/** After a failed fetch or index, how long before the same target is tried again. */
const RETRY_AFTER_MS = 10_000;

/** What a replica last served of a project, kept beside its checkout so that a restart resumes there. */
interface Served {
  commit: string;
  generation: number;
}

export interface FollowerOptions {
  coordination: Coordination;
  projects: ProjectService;
  home: string;
  logger?: Logger;
}

export class Follower {
  readonly #options: FollowerOptions;
  readonly #watches = new Map<string, () => void>();
  /** Per project: the work in hand, one at a time, always toward the newest target heard. */
  readonly #work = new Map<string, Promise<void>>();
  #poll: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: FollowerOptions) {
    this.#options = options;
  }

  get #named() {
    return this.#options.projects.named;
  }

  /** Reads the catalog and starts following it; resolves once the first read is done. */
  async start(): Promise<void> {
    await this.#readCatalog();
    this.#poll = setInterval(() => void this.#readCatalog(), CATALOG_POLL_MS);
    this.#poll.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#poll);
    for (const stop of this.#watches.values()) stop();
    this.#watches.clear();
    await Promise.allSettled([...this.#work.values()]);
  }

  /** Where a git project's files are on this replica. */
  checkoutDir(name: string): string {
    return join(this.#options.home, 'checkouts', projectKey(name));
  }

  async #readCatalog(): Promise<void> {
    let listed: CatalogProject[];
    try {
      listed = await this.#options.coordination.catalog.list();
    } catch (error) {
      this.#options.logger?.warning('Cannot read the project catalog; serving what is known', error);
      return;
    }
    if (this.#closed) return;
    const names = new Set(listed.map((project) => projectKey(project.name)));
    for (const project of this.#named.list()) {
      if (!names.has(projectKey(project.name))) await this.#drop(project);
    }
    for (const project of listed) {
      const known = this.#named.get(project.name);
      // Who may see a project changes at the next read of the catalog, on every replica.
      if (known) known.allowed = project.allowed ?? [];
      else this.#follow(project);
    }
  }

  /**
   * A project removed from the catalog: no longer served. A git project's checkout and index were
   * this replica's own copies, and go (after any work in hand); a folder project's are the user's.
   */
  async #drop(project: NamedProject): Promise<void> {
    const key = projectKey(project.name);
    this.#watches.get(key)?.();
    this.#watches.delete(key);
    this.#named.delete(project.name);
    if (project.git) {
      await this.#work.get(key)?.catch(() => undefined);
      this.#work.delete(key);
      await this.#options.projects.discard(project.root);
      rmSync(project.root, { recursive: true, force: true });
      rmSync(servedFile(project.root), { force: true });
    }
    this.#options.logger?.info(`Project ${project.name} is no longer registered: no longer served${project.git ? '; its checkout and index are deleted' : ''}`);
  }

  #follow(project: CatalogProject): void {
    const { location } = project;
    if ('folder' in location) {
      this.#named.set({ name: project.name, root: location.folder, state: 'ready', allowed: project.allowed ?? [] });
      return;
    }
    const dir = this.checkoutDir(project.name);
    const served = readServed(dir);
    const named: NamedProject = {
      name: project.name,
      root: dir,
      git: { url: location.git, ref: location.ref },
      state: 'waiting',
      allowed: project.allowed ?? [],
      ...(served && { servedCommit: served.commit }),
    };
    this.#named.set(named);
    const key = projectKey(project.name);
    const stop = this.#options.coordination.generations.watch(key, 0, (generation) => {
      if (generation.source === undefined) return;
      // The target is kept once, on the project: /health, list_projects and the catch-up all read it there.
      named.targetCommit = generation.source;
      named.targetGeneration = generation.number;
      this.#queue(key, named);
    });
    this.#watches.set(key, stop);
  }

  /** Serves the newest target heard, after whatever is in hand. */
  #queue(key: string, named: NamedProject): void {
    const previous = this.#work.get(key) ?? Promise.resolve();
    const next = previous.then(async () => {
      const target = named.targetCommit;
      if (this.#closed || target === undefined || this.#named.get(named.name) !== named) return;
      if (named.servedCommit === target && named.state === 'ready') return;
      await this.#serve(named, target, named.targetGeneration ?? 0);
    });
    this.#work.set(key, next);
  }

  async #serve(named: NamedProject, commit: string, generation: number): Promise<void> {
    const { logger, projects } = this.#options;
    try {
      const fetchStarted = Date.now();
      if ((await checkedOut(named.root)) !== commit || named.servedCommit !== commit) {
        named.state = 'fetching';
        // Until the new commit is served, files are read as the served one has them.
        const served = named.servedCommit;
        if (served && served !== commit) named.readServed = (path) => fileAtCommit(named.root, served, path);
        await checkoutCommit(named.git!.url, commit, named.root);
      }
      const fetchMs = Date.now() - fetchStarted;
      named.state = 'indexing';
      const job = await syncIndex(projects, named.root);
      const finished = job.finishedAt ?? new Date();
      const textDone = job.textFinishedAt ?? finished;
      named.lastCatchUp = { commit, fetchMs, textMs: textDone.getTime() - job.startedAt.getTime(), symbolsMs: finished.getTime() - textDone.getTime() };
      named.servedCommit = commit;
      named.state = 'ready';
      delete named.error;
      delete named.readServed;
      writeServed(named.root, { commit, generation });
      logger?.info(`Project ${named.name} serves ${commit.slice(0, 12)} (generation ${generation})`);
    } catch (error) {
      named.state = 'failed';
      named.error = error instanceof Error ? error.message : String(error);
      logger?.warning(`Project ${named.name} cannot serve ${commit.slice(0, 12)}: ${named.error}`);
      setTimeout(() => this.#queue(projectKey(named.name), named), RETRY_AFTER_MS).unref();
    }
  }
}

/** Brings the index of `root` up to date (built when there is none), waiting out a job already running there; the job that did. */
async function syncIndex(projects: ProjectService, root: string): Promise<IndexJob> {
  const project = projects.project(root);
  for (;;) {
    const running = project.job;
    if (running) {
      await running.finished;
      continue;
    }
    let job;
    try {
      job = project.startJob('sync');
    } catch (error) {
      if (!(error instanceof CodedError && error.code === 'index_in_progress')) throw error;
      await project.exclusive(async () => undefined); // another writer of this process: wait for its turn
      continue;
    }
    await job.finished;
    if (job.status === 'completed') return job;
    throw new Error(job.error?.message ?? `the index job ended ${job.status}`);
  }
}

function servedFile(dir: string): string {
  return `${dir}.served.json`;
}

function readServed(dir: string): Served | undefined {
  if (!existsSync(servedFile(dir))) return undefined;
  try {
    const served = JSON.parse(readFileSync(servedFile(dir), 'utf8')) as Partial<Served>;
    return typeof served.commit === 'string' && Number.isSafeInteger(served.generation) ? (served as Served) : undefined;
  } catch {
    return undefined; // damaged: fetched again
  }
}

function writeServed(dir: string, served: Served): void {
  mkdirSync(join(dir, '..'), { recursive: true });
  writeAtomic(servedFile(dir), JSON.stringify(served));
}
