/** The status fields every code tool's result carries: which project, how current, how complete. */
import type { Manifest } from '../index/store/index.js';
import type { IndexState, Project } from '../workspace/project.js';

export const STATUS_PROPERTIES = {
  workspace: { type: 'string', description: 'The project root this answer is about' },
  indexing_status: { type: 'string', enum: ['not_indexed', 'indexing', 'ready', 'failed'] },
  result_completeness: { type: 'string', enum: ['complete', 'partial', 'truncated'] },
  updated_at: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'When the index was last updated (freshness)' },
} as const;
export const STATUS_REQUIRED = ['workspace', 'indexing_status', 'result_completeness', 'updated_at'];

/** The fields of an index job as IndexJob.snapshot() gives them (index_repo, sync_repo, index_status). */
export const JOB_PROPERTIES = {
  job_id: { type: 'string' },
  mode: { type: 'string', enum: ['index', 'sync', 'symbols'] },
  status: { type: 'string', enum: ['running', 'completed', 'failed', 'cancelled'] },
  stage: { type: 'string' },
  message: { type: 'string' },
  percent: { type: 'number', minimum: 0, maximum: 100 },
  done: { type: 'integer', minimum: 0 },
  total: { type: 'integer', minimum: 0 },
  files_scanned: { type: 'integer', minimum: 0 },
  symbols: { type: 'integer', minimum: 0 },
  started_at: { type: 'string' },
  duration_ms: { type: 'integer', minimum: 0 },
  error: { type: 'string' },
} as const;

export type Completeness = 'complete' | 'partial' | 'truncated';

/** `status`: the state the answer was computed in, when the caller read it already (one read per call). */
export function statusFields(
  project: Project,
  manifest: Manifest | undefined,
  completeness: Completeness,
  status: IndexState['status'] = project.indexState().status,
): Record<string, unknown> {
  return {
    workspace: project.root,
    indexing_status: status,
    result_completeness: completeness,
    updated_at: manifest?.updatedAt ?? null,
  };
}
