/**
 * What the status page shows of each project a caller may see: its state, the commit it serves
 * and the one it catches up to, its files, the size of its index and when it was last updated,
 * and the job running on it. Read without using the project: looking at a project does not
 * count as a use (the least recently used are let go) and does not open one not open yet.
 */
import { basename } from 'node:path';
import { fileStamp, IndexStore, type Manifest } from '../index/store/index.js';
import { indexSizes, symbolsStamp } from '../index/symbols/index.js';
import type { Caller } from '../caller.js';
import { withoutCredentials } from '../util/credentials.js';
import type { IndexJob } from './jobs.js';
import type { ProjectService } from './projects.js';

export interface ProjectStatus {
  /** The registered name; for a folder served without one, its path (to a remote caller, its last part). */
  name: string;
  state: string;
  commit?: string;
  target_commit?: string;
  files?: number;
  /** Bytes of the files indexed. */
  bytes?: number;
  /** Bytes of the index on disk. */
  index_bytes?: number;
  updated_at?: string;
  job?: ShownJob;
  error?: string;
}

/** A running job as the page shows it. */
export interface ShownJob {
  id: string;
  mode: string;
  stage: string;
  message: string;
  percent: number;
  status: string;
}

/** A folder served without a name, as `caller` is shown it: a remote caller sees its last part, never where it is. */
function shownRoot(root: string, caller: Caller): string {
  return caller.reach === 'remote' ? basename(root) : root;
}

function jobStatus(job: IndexJob): ShownJob {
  // A failed job's message holds its error, which may name a remote with its credentials.
  return { id: job.id, mode: job.mode, stage: job.stage, message: withoutCredentials(job.message), percent: job.percent, status: job.status };
}

/** An index's figures as read last: read again only when a commit changes its stamps. */
interface Figures {
  stamp: string;
  /** Undefined while there is no index that can be read. */
  index: Pick<ProjectStatus, 'files' | 'bytes' | 'index_bytes' | 'updated_at'> | undefined;
}

/** Reads the projects' figures for the status page; one per server, so that each index is measured once per commit. */
export class ProjectStatuses {
  readonly #projects: ProjectService;
  readonly #home: string | undefined;
  readonly #figures = new Map<string, Figures>();
  readonly #followers = new Set<(job: IndexJob) => void>();

  constructor(projects: ProjectService, home?: string) {
    this.#projects = projects;
    this.#home = home;
    // Every job, followed once from its start, for however many pages watch.
    projects.jobs.listen((job) => {
      const tell = (current: IndexJob): void => {
        // Told from within the job's own updates: a follower that fails must not fail the job.
        for (const follower of this.#followers) {
          try {
            follower(current);
          } catch {
            // the follower's stream ends on its own
          }
        }
      };
      const stop = job.onUpdate(tell);
      tell(job);
      void job.finished.then(stop);
    });
  }

  /** Calls `listener` at each update of every job, from its start; returns how to stop. */
  followJobs(listener: (job: IndexJob) => void): () => void {
    this.#followers.add(listener);
    return () => this.#followers.delete(listener);
  }

  /** The job as `caller` is shown it, or undefined when it may not see the job's project. */
  jobFor(job: IndexJob, caller: Caller): (ShownJob & { project: string }) | undefined {
    const named = this.#projects.named.atRoot(job.root);
    if (named) return this.#projects.visible(caller).includes(named) ? { project: named.name, ...jobStatus(job) } : undefined;
    if (!this.#projects.allows(job.root, caller)) return undefined;
    return { project: shownRoot(job.root, caller), ...jobStatus(job) };
  }

  /** What `caller` may see: the named projects its identity is granted, and the other folders it may reach. */
  of(caller: Caller): ProjectStatus[] {
    this.#forgetGone();
    const statuses: ProjectStatus[] = [];
    const named = this.#projects.visible(caller);
    const namedRoots = new Set(this.#projects.named.list().map((project) => project.root));
    for (const project of named) {
      const status: ProjectStatus = { name: project.name, state: project.state, ...this.#indexOf(project.root) };
      if (project.servedCommit) status.commit = project.servedCommit;
      if (project.targetCommit) status.target_commit = project.targetCommit;
      if (project.error) status.error = withoutCredentials(project.error);
      // A folder project has no catalog state of its own to tell: its index's is the one that counts.
      if (!project.git) status.state = this.#indexState(project.root, status);
      statuses.push(status);
    }
    for (const workspace of this.#projects.registry.list()) {
      if (namedRoots.has(workspace.root) || !this.#projects.allows(workspace.root, caller)) continue;
      const status: ProjectStatus = { name: shownRoot(workspace.root, caller), state: '', ...this.#indexOf(workspace.root) };
      status.state = this.#indexState(workspace.root, status);
      statuses.push(status);
    }
    return statuses;
  }

  /** The figures of projects no longer served (removed from the catalog, let go by the registry) are not kept. */
  #forgetGone(): void {
    if (this.#figures.size === 0) return;
    const served = new Set([
      ...this.#projects.named.list().map((project) => project.root),
      ...this.#projects.registry.list().map((workspace) => workspace.root),
    ]);
    for (const root of this.#figures.keys()) if (!served.has(root)) this.#figures.delete(root);
  }

  #indexState(root: string, status: ProjectStatus): string {
    if (status.job) return 'indexing';
    const project = this.#projects.existing(root);
    if (project?.lastJob?.status === 'failed' && !status.files) return 'failed';
    return status.updated_at ? 'ready' : 'not_indexed';
  }

  #indexOf(root: string): Pick<ProjectStatus, 'files' | 'bytes' | 'index_bytes' | 'updated_at' | 'job'> {
    const project = this.#projects.existing(root);
    const job = project?.job;
    const store = project?.store ?? new IndexStore(root, this.#home);
    // The symbols are committed after the text: either moving changes the index's size.
    const stamp = `${fileStamp(store.manifestPath)} ${symbolsStamp(store)}`;
    let figures = this.#figures.get(root);
    if (figures?.stamp !== stamp) {
      let manifest: Manifest | undefined;
      try {
        manifest = store.readManifest();
      } catch {
        manifest = undefined; // an index of another format, or torn: the tools say which
      }
      const index = manifest && { files: manifest.files, bytes: manifest.bytes, index_bytes: indexSizes(store).total, updated_at: manifest.updatedAt };
      figures = { stamp, index };
      this.#figures.set(root, figures);
    }
    return { ...figures.index, ...(job && { job: jobStatus(job) }) };
  }
}
