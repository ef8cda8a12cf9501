import { TasksUnavailableError } from '../errors.js';

/**
 * Work that needs the ledger: a failure of the ledger (files or database away) is the caller's
 * TasksUnavailableError, the one way every path says so; `undo` first takes back what was begun.
 */
export async function ledgerWork<T>(work: () => Promise<T>, undo?: () => void): Promise<T> {
  try {
    return await work();
  } catch (error) {
    undo?.();
    throw new TasksUnavailableError(error);
  }
}
