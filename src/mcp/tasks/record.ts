/**
 * A task as one process holds it, and its two other shapes: the fields the protocol's envelope
 * carries, and the entry the ledger keeps (src/coordination). The store (store.ts) keeps these;
 * this file only converts.
 */
import type { TaskEntry } from '../../coordination/index.js';
import type { ErrorObject, Result } from '../../jsonrpc/index.js';
import type { InputRequest } from '../multi-round-trip.js';

/** A task: the ledger's fields (owner: who runs it), and, for one this process runs, the work's live parts. */
export interface TaskRecord extends Omit<TaskEntry, 'result' | 'error' | 'pending'> {
  result?: Result;
  error?: ErrorObject;
  pending: Map<string, InputRequest>;
  answers: Record<string, unknown>;
  wake?: () => void;
  controller: AbortController;
  /** The ledger's copy is written up to the last change once this settles. */
  written: Promise<void>;
}

/** The fields of a task that the protocol's envelope and the ledger both carry. */
export function taskState(task: TaskRecord): Pick<TaskEntry, 'taskId' | 'status' | 'createdAt' | 'lastUpdatedAt' | 'ttlMs' | 'pollIntervalMs'> {
  return {
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
}

/** tasks/get's answer: the task, with its result, error or pending input requests as its status has them. */
export function detailed(task: TaskRecord): Result {
  const answer: Result = taskState(task);
  if (task.status === 'input_required') answer.inputRequests = Object.fromEntries(task.pending);
  if (task.status === 'completed' && task.result) answer.result = task.result;
  if (task.status === 'failed' && task.error) answer.error = task.error;
  return answer;
}

/** What the ledger keeps of a task. */
export function entryOf(task: TaskRecord): TaskEntry {
  return {
    ...taskState(task),
    expiresAt: task.expiresAt,
    pending: [...task.pending],
    owner: task.owner,
    ...(task.principal !== undefined && { principal: task.principal }),
    ...(task.result ? { result: task.result } : {}),
    ...(task.error ? { error: task.error as unknown as Record<string, unknown> } : {}),
  };
}

/** A task of another process, read from the ledger: no work here, nothing to wake. */
export function recordOf(entry: TaskEntry): TaskRecord {
  const { pending, result, error, ...rest } = entry;
  return {
    ...rest,
    ...(result ? { result: result as Result } : {}),
    ...(error ? { error: error as unknown as ErrorObject } : {}),
    pending: new Map(pending as Array<[string, InputRequest]>),
    answers: {},
    controller: new AbortController(),
    written: Promise.resolve(),
  };
}

/** An owner as a person reads it: a pid of this machine, or a replica. */
export function ownerName(owner: string): string {
  return /^\d+$/.test(owner) ? `pid ${owner}` : owner;
}
