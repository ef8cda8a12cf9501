/**
 * The team server's work on a replica: following the projects registered by name (follower.ts),
 * and, while this replica holds the controller lease, publishing the commit each git project
 * should be served at (controller.ts). git.ts is the system git, for both and for the CLI.
 */
import type { Coordination } from '../coordination/index.js';
import type { Logger } from '../platform/log.js';
import type { ProjectService } from '../workspace/projects.js';
import { Controller } from './controller.js';
import { Follower } from './follower.js';

export { CONTROLLER_LEASE, publishTargets } from './controller.js';
export { defaultBranch, resolveRef } from './git.js';

export interface Team {
  readonly controller: Controller;
  readonly follower: Follower;
  close(): Promise<void>;
}

export interface TeamOptions {
  coordination: Coordination;
  projects: ProjectService;
  home: string;
  /** How often the controller looks at every branch (--poll-interval). */
  pollMs: number;
  logger?: Logger;
}

/**
 * Starts following the catalog (resolves once it was read), and the controller, which tries for
 * its lease only while a git project is registered: a server of one developer writes nothing.
 */
export async function startTeam(options: TeamOptions): Promise<Team> {
  const follower = new Follower(options);
  await follower.start();
  const controller = new Controller({
    coordination: options.coordination,
    pollMs: options.pollMs,
    holder: options.coordination.replica,
    ...(options.logger && { logger: options.logger }),
  });
  controller.start();
  return {
    controller,
    follower,
    async close() {
      await controller.close();
      await follower.close();
    },
  };
}
