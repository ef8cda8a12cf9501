/**
 * What `serve` pushes to the status page (transports/http-status.ts), composed from the rooms
 * that know it: the projects and their jobs (workspace/status.ts), and in a team the replicas
 * alive and which one holds the controller's lease.
 */
import type { Coordination } from '../coordination/index.js';
import { CONTROLLER_LEASE } from '../team/index.js';
import type { ReplicaStatus, StatusSource } from '../transports/http-status.js';
import type { ProjectStatuses } from '../workspace/status.js';

/**
 * How long the replicas read from the shared state are shown to every page: each operator's page
 * looks every second, and each reading is two queries of the database.
 */
const REPLICAS_FRESH_MS = 1_000;

/** The replicas alive now, and which one holds the controller's lease. */
async function replicasOf(team: Coordination): Promise<ReplicaStatus[]> {
  const [replicas, controller] = await Promise.all([team.replicas(), team.leases.holder(CONTROLLER_LEASE)]);
  return replicas.map((replica) => ({
    id: replica.id,
    started_at: replica.startedAt,
    seen_at: replica.seenAt,
    controller: replica.id === controller,
    self: replica.id === team.replica,
  }));
}

/** `read`, asked at most once per `freshMs` by however many callers (a failed reading is not kept). */
function recent<T>(read: () => Promise<T>, freshMs: number): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= freshMs) {
      const value = read();
      last = { at: now, value };
      value.catch(() => {
        if (last?.value === value) last = undefined;
      });
    }
    return last.value;
  };
}

/** What the status page is pushed: the projects, and in a team the replicas alive and which one leads. */
export function statusSource(statuses: ProjectStatuses, team: Coordination | undefined): StatusSource {
  return {
    projects: (caller) => statuses.of(caller),
    followJobs: (listener) =>
      statuses.followJobs((job) => listener({ id: job.id, running: job.running, stage: job.stage, shownTo: (caller) => statuses.jobFor(job, caller) })),
    ...(team && { replicas: recent(() => replicasOf(team), REPLICAS_FRESH_MS) }),
  };
}
