/**
 * What `serve` pushes to the status page (transports/http-status.ts), composed from the rooms
 * that know it: the projects and their jobs (workspace/status.ts), and in a team the replicas
 * alive and which one holds the controller's lease.
 */
import type { Coordination } from '../coordination/index.js';
import { CONTROLLER_LEASE } from '../team/index.js';
import type { ReplicaStatus, StatusSource } from '../transports/http-status.js';
import type { ProjectStatuses } from '../workspace/status.js';

/** What the status page is pushed: the projects, and in a team the replicas alive and which one leads. */
export function statusSource(statuses: ProjectStatuses, team: Coordination | undefined): StatusSource {
  return {
    projects: (caller) => statuses.of(caller),
    followJobs: (listener) =>
      statuses.followJobs((job) => listener({ id: job.id, running: job.running, stage: job.stage, shownTo: (caller) => statuses.jobFor(job, caller) })),
    ...(team && {
      replicas: async (): Promise<ReplicaStatus[]> => {
        const [replicas, controller] = await Promise.all([team.replicas(), team.leases.holder(CONTROLLER_LEASE)]);
        return replicas.map((replica) => ({
          id: replica.id,
          started_at: replica.startedAt,
          seen_at: replica.seenAt,
          controller: replica.id === controller,
          self: replica.id === team.replica,
        }));
      },
    }),
  };
}
