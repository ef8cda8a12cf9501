/**
 * The projects a server has in hand: each made on first use, and let go (its watcher, its search
 * threads' open files) when nobody used it for the idle time or, past the limit of projects open,
 * the least recently used idle one first. A project that is indexing is never let go.
 */
import type { Logger } from '../platform/log.js';
import type { Project } from './project.js';

/** The idle sweep looks at least this often, whatever the idle time. */
const MAX_SWEEP_MS = 60_000;

export interface ProjectPoolOptions {
  /** Projects held open at once, named or not. */
  maxOpen: number;
  /** A project nobody used for this long is let go. */
  idleMs: number;
  logger?: Logger;
}

export class ProjectPool {
  readonly #make: (root: string) => Project;
  readonly #projects = new Map<string, Project>();
  /** The projects in use, least recently used first, with when each was last used: what may be let go. */
  readonly #open = new Map<string, number>();
  readonly #maxOpen: number;
  readonly #idleMs: number;
  readonly #logger: Logger | undefined;
  readonly #sweep: NodeJS.Timeout;

  constructor(make: (root: string) => Project, options: ProjectPoolOptions) {
    this.#make = make;
    this.#maxOpen = options.maxOpen;
    this.#idleMs = options.idleMs;
    this.#logger = options.logger;
    this.#sweep = setInterval(() => this.#releaseIdle(), Math.min(this.#idleMs, MAX_SWEEP_MS));
    this.#sweep.unref();
  }

  /** The project at `root`, made if it is not in hand, and counted as used now. */
  use(root: string): Project {
    let project = this.#projects.get(root);
    if (!project) {
      project = this.#make(root);
      this.#projects.set(root, project);
    }
    this.#open.delete(root);
    this.#open.set(root, performance.now());
    if (this.#open.size > this.#maxOpen) this.#releaseOldest(this.#open.size - this.#maxOpen, root);
    return project;
  }

  /** The project at `root` if it is in hand, without counting it as used. */
  existing(root: string): Project | undefined {
    return this.#projects.get(root);
  }

  /** Projects held open now (used, and not let go since). */
  get openCount(): number {
    return this.#open.size;
  }

  /** The project at `root`, out of the pool and not closed (the caller closes it): undefined when it was not in hand. */
  take(root: string): Project | undefined {
    const project = this.#projects.get(root);
    this.#projects.delete(root);
    this.#open.delete(root);
    return project;
  }

  /** Lets go of the `count` least recently used idle projects (never one that is indexing, nor the one in use). */
  #releaseOldest(count: number, using: string): void {
    for (const root of this.#open.keys()) {
      if (count <= 0) break;
      if (root !== using && this.#release(root)) count--;
    }
  }

  /** Lets go of every project nobody used for the idle time. */
  #releaseIdle(): void {
    const before = performance.now() - this.#idleMs;
    for (const [root, lastUsed] of this.#open) if (lastUsed <= before) this.#release(root);
  }

  #release(root: string): boolean {
    const project = this.#projects.get(root);
    if (project && !project.idle) return false;
    this.#open.delete(root);
    project?.release().catch((error: unknown) => this.#logger?.warning(`Letting go of ${root}`, error));
    return true;
  }

  async close(): Promise<void> {
    clearInterval(this.#sweep);
    await Promise.all([...this.#projects.values()].map((project) => project.close()));
    this.#projects.clear();
    this.#open.clear();
  }
}
