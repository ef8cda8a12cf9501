/**
 * Leases as files in one folder (`<name>.lease`), for the processes of one machine: the Leases
 * contract over FileLease. A holder is a process, and is taken for dead when its pid is.
 */
import type { Lease, Leases } from '../contracts.js';
import { processAlive } from '../../platform/process-alive.js';
import { FileLease, LeaseHeldError } from './lease-file.js';

const LEASE_NAME = /^[A-Za-z0-9._-]{1,100}$/;

export class FileLeases implements Leases {
  readonly #dir: string;
  /** The grants this process holds, by lease name. */
  readonly #held = new Map<string, FileLease>();

  constructor(dir: string) {
    this.#dir = dir;
  }

  async acquire(name: string, holder: string): Promise<Lease | undefined> {
    if (!LEASE_NAME.test(name)) throw new TypeError(`Invalid lease name ${JSON.stringify(name)}`);
    const lease = new FileLease(this.#dir, `${name}.lease`);
    try {
      const token = lease.acquire();
      this.#held.set(name, lease);
      return { name, holder, token };
    } catch (error) {
      if (error instanceof LeaseHeldError) return undefined;
      throw error;
    }
  }

  async valid(lease: Lease): Promise<boolean> {
    const held = this.#held.get(lease.name);
    return held !== undefined && held.token === lease.token && held.valid();
  }

  /** Lets go of every lease this handle holds (the process stops). */
  async close(): Promise<void> {
    for (const held of this.#held.values()) held.release();
    this.#held.clear();
  }

  async holder(name: string): Promise<string | undefined> {
    if (!LEASE_NAME.test(name)) throw new TypeError(`Invalid lease name ${JSON.stringify(name)}`);
    const pid = new FileLease(this.#dir, `${name}.lease`).holder();
    // A holder's replica name on files is its pid (openCoordination).
    return pid !== undefined && processAlive(pid) ? String(pid) : undefined;
  }

  async release(lease: Lease): Promise<void> {
    const held = this.#held.get(lease.name);
    if (!held || held.token !== lease.token) return;
    held.release();
    this.#held.delete(lease.name);
  }
}
