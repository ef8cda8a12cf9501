/**
 * The flags a worker thread starts with. Workers inherit the parent's, but Node refuses some of
 * them in a worker's execArgv: V8's flags of the whole process (`--max-semi-space-size=32`,
 * `--liftoff-only`), which hold for every thread anyway, and `--input-type` (from `node -e`) for
 * a file entry. One refused flag fails every worker, so `node --max-semi-space-size=32 sextant
 * index` read no symbols and a server started so could search nothing.
 */
import { Worker } from 'node:worker_threads';

/** The parent's flags, each with the value given apart from it (`--stack-size 2000`). */
function flagGroups(argv: readonly string[]): string[][] {
  const groups: string[][] = [];
  for (const arg of argv) {
    if (arg.startsWith('-') || groups.length === 0) groups.push([arg]);
    else groups.at(-1)!.push(arg);
  }
  return groups;
}

export function refusedByWorkers(error: unknown): boolean {
  return (error as { code?: unknown }).code === 'ERR_WORKER_INVALID_EXEC_ARGV';
}

/** Whether a worker may be started with `flags`: a worker that does nothing, started and stopped. */
function acceptedByWorkers(flags: string[]): boolean {
  try {
    void new Worker('', { eval: true, execArgv: flags, stdout: true, stderr: true }).terminate();
    return true;
  } catch (error) {
    if (refusedByWorkers(error)) return false;
    throw error;
  }
}

let accepted: string[] | undefined;

/**
 * Of `flags` (the parent's, less those known to be refused), those a worker accepts: each group
 * tried alone, once per process, after a worker was refused the whole list.
 */
export function workerFlags(flags: readonly string[]): string[] {
  accepted ??= flagGroups(flags).filter(acceptedByWorkers).flat();
  return accepted;
}

/** The flags workers take, once a refusal has found them (workerFlags); until then, undefined. */
export function foundWorkerFlags(): string[] | undefined {
  return accepted;
}
