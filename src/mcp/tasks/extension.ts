/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) as requests and tools see it:
 * whether a request declared it, and what a tool's work is handed when it runs as a task. The
 * tasks themselves are kept by TaskStore (store.ts).
 */
import type { Params } from '../../jsonrpc/index.js';
import { MissingRequiredClientCapabilityError } from '../errors.js';
import type { InputRequest } from '../multi-round-trip.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** What the work of a task can do besides running: wait for the client's input, notice cancellation. */
export interface TaskControl {
  readonly signal: AbortSignal;
  /** Parks the task in input_required until every request is answered through tasks/update. */
  requestInput(requests: Record<string, InputRequest>): Promise<Record<string, unknown>>;
}

/** Returned by a tool that handed its work to a task. */
export class TaskStarted {
  constructor(readonly taskId: string) {}
}

export function declaresTasks(capabilities: Params): boolean {
  const extensions = capabilities.extensions;
  return typeof extensions === 'object' && extensions !== null && typeof (extensions as Params)[TASKS_EXTENSION] === 'object';
}

export function requireTasks(capabilities: Params): void {
  if (!declaresTasks(capabilities))
    throw new MissingRequiredClientCapabilityError(
      { extensions: { [TASKS_EXTENSION]: {} } },
      `This needs the ${TASKS_EXTENSION} extension: declare it in the request's client capabilities`,
    );
}
