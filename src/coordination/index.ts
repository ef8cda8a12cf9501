/**
 * What the processes of one Sextant home share, behind one seam: the keys that seal multi
 * round-trip state, the tasks any process may be asked about, the leases that let one writer at a
 * time touch a project's index, the generation of each index, and the projects a home knows.
 *
 * `openCoordination(home)` gives today's implementation: files under the home, for processes on
 * one machine. A second implementation (PostgreSQL, for replicas on many machines) implements the
 * same interfaces; they are shaped for it: every call may go over a network (async), a lease
 * carries a fencing token, a task is read, answered and cancelled through the ledger by whichever
 * process is asked, and keys have ids so that one can be rotated in while states sealed with the
 * last one stay valid. The leases, generations and project catalog are specified in
 * contracts.ts; their first implementation is still the index store's own (src/index/store).
 */
import { join } from 'node:path';
import { FileStateKeys } from './file-keys.js';
import { FileTaskLedger } from './file-tasks.js';
import type { StateKeys } from './state-keys.js';
import type { TaskLedger } from './task-ledger.js';

export { KeyRing } from './state-keys.js';
export { FileStateKeys } from './file-keys.js';
export type { TaskEntry, TaskLedger, TaskStatus } from './task-ledger.js';

export interface Coordination {
  /** Where it lives, for logs and /health: `files HOME` (or, later, the database). */
  readonly describe: string;
  readonly keys: StateKeys;
  readonly tasks: TaskLedger;
}

export interface CoordinationOptions {
  /** SEXTANT_STATE_KEY and the like: read here, not from process.env, so that tests pass their own. */
  env?: NodeJS.ProcessEnv;
}

/** The file implementation: `state.key` and `tasks/` under `home`, shared by the processes that share it. */
export async function openCoordination(home: string, options: CoordinationOptions = {}): Promise<Coordination> {
  return {
    describe: `files ${home}`,
    keys: new FileStateKeys(home, options.env ?? process.env),
    tasks: new FileTaskLedger(join(home, 'tasks')),
  };
}
