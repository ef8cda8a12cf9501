/**
 * `index_repo` and `sync_repo`: start a full or incremental index job. With a progress token the
 * caller gets `notifications/progress` per stage until the call completes; `wait: false` returns
 * the job id at once (followed with index_status); cancelling the request cancels the job, and
 * the previous index stays in place. A job already running for the workspace is
 * `index_in_progress`: jobs are never silently joined.
 */
import type { ToolContext, ToolDefinition, ToolOutput } from '../mcp/index.js';
import type { Project } from '../workspace/project.js';
import type { IndexJob, JobMode } from '../workspace/jobs.js';
import type { ProjectService } from '../workspace/projects.js';
import { JOB_PROPERTIES, statusFields, STATUS_PROPERTIES, STATUS_REQUIRED } from './status.js';
import { codedError } from '../errors.js';
import { projectTool } from './project-tool.js';

/** Progress notifications of one call are at least this far apart. */
const PROGRESS_INTERVAL_MS = 100;
/**
 * Quiet time between the last progress notification and the result. The order on the wire is
 * right either way; but a client that handles notifications a tick later than responses (the
 * official SDK does) would meet a notification for a request it already closed.
 */
const PROGRESS_SETTLE_MS = 25;

/** Streams a job's progress to the caller's progress token while it waits. */
async function follow(job: IndexJob, context: ToolContext): Promise<void> {
  let sentAt = 0;
  let sent = -1;
  let stage = '';
  const report = (current: IndexJob): void => {
    const now = Date.now();
    // What goes on the wire must grow strictly (utilities/progress), so compare what is sent.
    const value = Math.round(current.progress * 100) / 100;
    // The end of the job is told by the result itself, not by a last notification.
    // A new stage always goes out; updates within a stage at most every PROGRESS_INTERVAL_MS.
    if (!current.running || value <= sent || (current.stage === stage && now - sentAt < PROGRESS_INTERVAL_MS)) return;
    sent = value;
    sentAt = now;
    stage = current.stage;
    context.progress(value, 100, current.message);
  };
  const stop = job.onUpdate(report);
  const cancel = (): void => job.cancel('the request was cancelled');
  context.signal.addEventListener('abort', cancel);
  try {
    await job.finished;
  } finally {
    stop();
    context.signal.removeEventListener('abort', cancel);
  }
  const settle = PROGRESS_SETTLE_MS - (Date.now() - sentAt);
  if (settle > 0) await new Promise((resolve) => setTimeout(resolve, settle));
}

export function createIndexJobTool(projects: ProjectService, mode: JobMode): ToolDefinition {
  const name = mode === 'index' ? 'index_repo' : 'sync_repo';
  return projectTool(projects, {
    name,
    title: mode === 'index' ? 'Index repository' : 'Sync repository index',
    description:
      (mode === 'index'
        ? 'Builds the project index from scratch: text search index, then symbols. '
        : 'Brings the project index up to date, re-reading only new and changed files (a full build when there is no index). ') +
      'With a progress token, progress notifications report each stage. wait: true (default) returns when the job ends, with counts and duration; ' +
      'wait: false returns a job_id at once, to follow with index_status. force: true rebuilds an index written by another format. ' +
      'A job already running for the workspace is an index_in_progress error.',
    inputSchema: {
      type: 'object',
      properties: {
        force: { type: 'boolean', default: false, description: 'Rebuild everything, replacing an index of another format' },
        wait: { type: 'boolean', default: true, description: 'Return when the job ends (true) or at once with a job_id (false)' },
      },
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        ...STATUS_PROPERTIES,
        ...JOB_PROPERTIES,
        files: { type: 'integer', minimum: 0 },
        bytes: { type: 'integer', minimum: 0 },
        added: { type: 'integer', minimum: 0 },
        changed: { type: 'integer', minimum: 0 },
        deleted: { type: 'integer', minimum: 0 },
      },
      required: [...STATUS_REQUIRED, 'job_id', 'mode', 'status', 'stage', 'message', 'percent', 'started_at'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    // 2026-07-28 with the tasks extension: the job runs as a task (tasks/get from any process sharing SEXTANT_HOME).
    taskSupport: 'optional',
    async run(project, _resolved, args, context) {
      const job = project.startJob(mode, { force: args.force === true });
      if (args.wait !== false && context.startTask) {
        return context.startTask(async (task) => {
          const cancel = (): void => job.cancel('the task was cancelled');
          task.signal.addEventListener('abort', cancel, { once: true });
          await job.finished;
          task.signal.removeEventListener('abort', cancel);
          return finished(project, job);
        });
      }
      if (args.wait !== false) await follow(job, context);
      return finished(project, job);
    },
  });
}

/** The answer of a job's call once it ended (or at once with wait: false), or the tool error of a failed job. */
function finished(project: Project, job: IndexJob): ToolOutput {
  if (job.status === 'failed') {
    const code = job.error?.code === 'index_incompatible' || job.error?.code === 'index_in_progress' ? job.error.code : 'internal_error';
    throw codedError(code, `The ${job.mode} job failed: ${job.error?.message}`, { job_id: job.id });
  }
  const state = project.indexState();
  const structured: Record<string, unknown> = { ...statusFields(project, state.manifest, 'complete'), ...job.snapshot(), ...job.result };
  const result = job.result;
  const text =
    job.status === 'running'
      ? `Started ${job.mode} job ${job.id} for ${project.root}; follow it with index_status.`
      : job.status === 'cancelled'
        ? `The ${job.mode} job ${job.id} was cancelled; the previous index is kept.`
        : `${job.mode === 'index' ? 'Indexed' : 'Synced'} ${project.root}: ${result?.files ?? 0} files, ` +
          `${((result?.bytes ?? 0) / 1e6).toFixed(1)} MB, ${result?.symbols ?? 0} symbols` +
          `${result?.added !== undefined ? ` (${result.added} added, ${result.changed} changed, ${result.deleted} deleted)` : ''} in ` +
          `${((structured.duration_ms as number) / 1000).toFixed(2)} s.`;
  return { content: [{ type: 'text', text }], structuredContent: structured };
}
