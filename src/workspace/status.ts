/**
 * What the status page shows of each project a caller may see: its state, the commit it serves
 * and the one it catches up to, its files, the size of its index and when it was last updated,
 * and the job running on it. Read without using the project: looking at a project does not
 * count as a use (the least recently used are let go) and does not open one not open yet.
 */
import { basename } from 'node:path';
import { fileStamp, IndexStore } from '../index/store/index.js';
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

/**
 * How long an index's figures are shown as read before its files are looked at again. Every page
 * following the status looks every second; with this, a server's projects are stat'ed once per
 * interval whatever the number of pages.
 */
const FIGURES_FRESH_MS = 1_000;

/** What an index says of itself, as the page shows it. */
type IndexFigures = Pick<ProjectStatus, 'state' | 'files' | 'bytes' | 'index_bytes' | 'updated_at'>;

/** An index's figures as read last: its files are looked at again after FIGURES_FRESH_MS, and read again when a commit changed them. */
interface Figures {
  checkedAt: number;
  stamp: string;
  /** What the manifest says (undefined: there is none), for as long as the stamp holds. */
  index: Omit<IndexFigures, 'state'> | undefined;
  /** The manifest could not be read: an index of another format, or torn (the tools say which). */
  unreadable: boolean;
  state: string;
}

/** The state of an index this server has not opened, from its files, as Project.indexState would say it. */
function stateOnDisk(store: IndexStore, figures: Pick<Figures, 'index' | 'unreadable'>): string {
  if (store.runningJob()) return 'indexing';
  if (figures.unreadable) return 'failed';
  return figures.index ? 'ready' : 'not_indexed';
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
        // A job that ended changed its index: read again at the next look, not after the interval.
        if (!current.running) this.#figures.delete(current.root);
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
      const { state, ...index } = this.#indexOf(project.root);
      // A git project's catalog state (fetching, …) says more than its index's; a folder has only its index's.
      const status: ProjectStatus = { name: project.name, state: project.git ? project.state : state, ...index };
      if (project.servedCommit) status.commit = project.servedCommit;
      if (project.targetCommit) status.target_commit = project.targetCommit;
      if (project.error) status.error = withoutCredentials(project.error);
      statuses.push(status);
    }
    for (const workspace of this.#projects.registry.list()) {
      if (namedRoots.has(workspace.root) || !this.#projects.allows(workspace.root, caller)) continue;
      statuses.push({ name: shownRoot(workspace.root, caller), ...this.#indexOf(workspace.root) });
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

  #indexOf(root: string): IndexFigures & Pick<ProjectStatus, 'job'> {
    const project = this.#projects.existing(root);
    const job = project?.job;
    const now = Date.now();
    let figures = this.#figures.get(root);
    if (!figures || now - figures.checkedAt >= FIGURES_FRESH_MS) {
      const store = project?.store ?? new IndexStore(root, this.#home);
      // The symbols are committed after the text: either moving changes the index's size.
      const stamp = `${fileStamp(store.manifestPath)} ${symbolsStamp(store)}`;
      let read: Pick<Figures, 'index' | 'unreadable'> | undefined = figures?.stamp === stamp ? figures : undefined;
      if (!read) {
        try {
          const manifest = store.readManifest();
          const index = manifest && { files: manifest.files, bytes: manifest.bytes, index_bytes: indexSizes(store).total, updated_at: manifest.updatedAt };
          read = { index, unreadable: false };
        } catch {
          read = { index: undefined, unreadable: true };
        }
      }
      // An open project says it as the tools do (a job of another process counts); one not open, from its files.
      const state = project ? project.indexState().status : stateOnDisk(store, read);
      figures = { checkedAt: now, stamp, index: read.index, unreadable: read.unreadable, state };
      this.#figures.set(root, figures);
    }
    return { state: job ? 'indexing' : figures.state, ...figures.index, ...(job && { job: jobStatus(job) }) };
  }
}
