/**
 * What the processes of one Sextant home share, behind one seam: the keys that seal multi
 * round-trip state, the tasks any process may be asked about, the leases that let one writer at a
 * time touch a project's index, the generation of each index, and the projects a home knows.
 *
 * `openCoordination(home)` gives today's implementation: files under the home, for processes on
 * one machine. A second implementation (PostgreSQL, for replicas on many machines) implements the
 * same interfaces; they are shaped for it: every call may go over a network (async), a lease
 * carries a fencing token, a task is read, answered and cancelled through the ledger by whichever
 * process is asked, keys have ids so that one can be rotated in while states sealed with the last
 * one stay valid, and a generation is published by compare and swap. Leases are files here
 * (files/lease-file.ts: the index's job lock is one, and commits are fenced by its token), and so are
 * the project catalog (`catalog/`) and the generations (`generations/`).
 */
import { join } from 'node:path';
import { FileStateKeys } from './files/keys.js';
import { FileProjectCatalog } from './files/catalog.js';
import { FileGenerations } from './files/generations.js';
import { FileLeases } from './files/leases.js';
import { FileTaskLedger } from './files/tasks.js';
import { FileTokenStore } from './files/tokens.js';
import type { Coordination, CoordinationOptions } from './contracts.js';

export { KeyRing } from './state-keys.js';
export { FileStateKeys } from './files/keys.js';
export type { TaskEntry, TaskLedger, TaskMessage, TaskStatus } from './contracts.js';
export type { CatalogProject, Coordination, ReplicaEntry, CoordinationOptions, Generation, Lease, NamedToken, StateKeyRing, TokenStore } from './contracts.js';
export { DatabaseError } from './database-error.js';
export { checkWho, GenerationConflictError, InvalidEntryError, LeaseLostError, ProjectExistsError, TokenExistsError } from './refusals.js';

/** When this process started, as its replica entry on files says. */
const STARTED_AT = new Date(Date.now() - process.uptime() * 1000).toISOString();

/**
 * With `databaseUrl`, the PostgreSQL implementation (loaded only then). Else the file
 * implementation: `state.key`, `tasks/`, `leases/`, `generations/`, `catalog/` and `tokens/` under `home`, shared by the processes that share it.
 */
export async function openCoordination(home: string, options: CoordinationOptions = {}): Promise<Coordination> {
  if (options.databaseUrl !== undefined) {
    const { openPostgresCoordination } = await import('./pg/index.js');
    return openPostgresCoordination(options.databaseUrl, options);
  }
  const leases = new FileLeases(join(home, 'leases'));
  return {
    describe: `files ${home}`,
    replica: String(process.pid),
    problem: undefined,
    keys: new FileStateKeys(home, options.env ?? process.env),
    tasks: new FileTaskLedger(join(home, 'tasks')),
    leases,
    generations: new FileGenerations(join(home, 'generations'), leases),
    catalog: new FileProjectCatalog(join(home, 'catalog')),
    tokens: new FileTokenStore(join(home, 'tokens')),
    replicas: async () => [{ id: String(process.pid), startedAt: STARTED_AT, seenAt: new Date().toISOString() }],
    close: () => leases.close(),
  };
}
