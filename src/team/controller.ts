/**
 * The controller: one replica at a time (the one holding the `controller` lease) resolves each git
 * project's branch to a commit and publishes it as the project's next generation, which every
 * replica follows. It looks on an interval, and at once when a refresh is asked for (`sextant
 * project refresh`, POST /hooks/refresh). The others keep trying for the lease, so that one of
 * them takes over within the lease's bound when the controller dies; a controller that was paused
 * past that bound finds its lease gone and its writes refused by the fencing token.
 */
import { projectKey } from '../util/project-key.js';
import type { Coordination, Lease } from '../coordination/index.js';
import type { Logger } from '../platform/log.js';
import { resolveRef } from './git.js';

/** How often a replica without the lease tries for it (with a database, each try is a connection). */
const LEASE_RETRY_MS = 2_000;
/** With no git project registered, nobody needs the lease: how often to look again. */
const IDLE_LOOK_MS = 5_000;
export const CONTROLLER_LEASE = 'controller';

export interface ControllerOptions {
  coordination: Coordination;
  /** How often each branch is looked at (--poll-interval). */
  pollMs: number;
  logger?: Logger;
  /** Who holds the lease, for /health and logs. */
  holder: string;
}

export class Controller {
  readonly #options: ControllerOptions;
  #lease: Lease | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopRequests: (() => void) | undefined;
  #running: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(options: ControllerOptions) {
    this.#options = options;
  }

  get leading(): boolean {
    return this.#lease !== undefined;
  }

  start(): void {
    this.#kick(0);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#running;
    await this.#stepDown();
  }

  /**
   * No longer the controller: refresh requests are not listened to (only the controller acts on
   * them), and the lease is let go (a lost one too: its handle forgets it, to be granted it again).
   */
  async #stepDown(): Promise<void> {
    this.#stopRequests?.();
    this.#stopRequests = undefined;
    if (this.#lease) await this.#options.coordination.leases.release(this.#lease).catch(() => undefined);
    this.#lease = undefined;
  }

  /** Runs a turn after `delayMs`, unless one is already due sooner. */
  #kick(delayMs: number): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#running = this.#running
        .then(() => this.#turn())
        .catch((error: unknown) => {
          // The database or a remote away: try again, as a replica without the lease does.
          this.#options.logger?.warning('Controller turn failed', error);
          this.#kick(LEASE_RETRY_MS);
        });
    }, delayMs);
    this.#timer.unref();
  }

  async #turn(): Promise<void> {
    if (this.#closed) return;
    const { coordination, logger } = this.#options;
    if (this.#lease && !(await coordination.leases.valid(this.#lease))) {
      logger?.warning(`Lost the controller lease (token ${this.#lease.token}); another replica controls now`);
      await this.#stepDown();
    }
    // A catalog that cannot be read is a failed turn (retried, the lease kept), not "no git projects":
    // that would give up the lease over a passing database error.
    const gitProjects = (await coordination.catalog.list()).filter((project) => 'git' in project.location);
    if (gitProjects.length === 0) {
      // Nothing to control: a server of one developer never takes the lease, nor holds it idle.
      await this.#stepDown();
      return this.#kick(IDLE_LOOK_MS);
    }
    if (!this.#lease) {
      const lease = await coordination.leases.acquire(CONTROLLER_LEASE, this.#options.holder).catch(() => undefined);
      if (!lease) return this.#kick(LEASE_RETRY_MS);
      // A refresh of any project is a turn now: every branch is looked at (one ls-remote each).
      // Listening before it counts as leading: a refresh asked of a leading controller is heard.
      try {
        this.#stopRequests = await coordination.generations.onRefreshRequest(() => this.#kick(0));
      } catch (error) {
        await coordination.leases.release(lease).catch(() => undefined);
        throw error;
      }
      this.#lease = lease;
      logger?.info(`This replica is the controller now (token ${lease.token})`);
    }
    await publishTargets(coordination, this.#lease, logger);
    this.#kick(this.#options.pollMs);
  }
}

/**
 * Resolves every git project's branch, and publishes a new generation for each whose commit
 * moved. A project whose remote cannot be read keeps its current target (and is logged).
 */
export async function publishTargets(coordination: Coordination, lease: Lease, logger?: Logger, only?: string): Promise<number> {
  let published = 0;
  for (const project of await coordination.catalog.list()) {
    if (!('git' in project.location)) continue;
    if (only !== undefined && projectKey(project.name) !== projectKey(only)) continue;
    const key = projectKey(project.name);
    let commit: string;
    try {
      commit = await resolveRef(project.location.git, project.location.ref);
    } catch (error) {
      logger?.warning(`Cannot resolve ${project.name} (${project.location.ref}): ${(error as Error).message}`);
      continue;
    }
    const current = await coordination.generations.current(key);
    if (current?.source === commit) continue;
    const next = await coordination.generations.commit(lease, current, { project: key, source: commit, committedAt: new Date().toISOString() });
    logger?.info(`Project ${project.name}: ${project.location.ref} is at ${commit.slice(0, 12)} (generation ${next.number})`);
    published++;
  }
  return published;
}
