/**
 * Tasks as files: `<taskId>.json` in one folder, each written whole (temp file, rename) with the
 * pid of the process that runs it. Temporary files of processes that are gone are removed by
 * whoever lists the folder.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from '../process-alive.js';
import type { TaskEntry, TaskLedger } from './task-ledger.js';

const TASK_ID = /^[0-9a-f-]{36}$/;
const TASK_FILE = /^([0-9a-f-]{36})\.json$/;
const TEMP_FILE = /^[0-9a-f-]{36}\.json\.tmp-(\d+)$/;

/** The file's shape, which processes of older builds also read: the owner as `ownerPid`. */
type TaskFile = Omit<TaskEntry, 'owner'> & { ownerPid?: number };

export class FileTaskLedger implements TaskLedger {
  readonly self = String(process.pid);
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  async put(entry: TaskEntry): Promise<void> {
    const { owner, ...rest } = entry;
    const file: TaskFile = { ...rest, ownerPid: Number(owner) };
    try {
      mkdirSync(this.#dir, { recursive: true });
      const path = join(this.#dir, `${entry.taskId}.json`);
      writeFileSync(`${path}.tmp-${process.pid}`, JSON.stringify(file));
      renameSync(`${path}.tmp-${process.pid}`, path);
    } catch {
      // A task other processes cannot see is still served by its own.
    }
  }

  async get(taskId: string): Promise<TaskEntry | undefined> {
    if (!TASK_ID.test(taskId)) return undefined;
    return this.#read(`${taskId}.json`);
  }

  async list(): Promise<TaskEntry[]> {
    let names: string[];
    try {
      names = readdirSync(this.#dir);
    } catch {
      return [];
    }
    const entries: TaskEntry[] = [];
    for (const name of names) {
      const temp = TEMP_FILE.exec(name);
      if (temp) {
        if (!processAlive(Number(temp[1]))) rmSync(join(this.#dir, name), { force: true });
        continue;
      }
      if (!TASK_FILE.test(name)) continue;
      const entry = this.#read(name);
      if (entry) entries.push(entry);
    }
    return entries;
  }

  async remove(taskId: string): Promise<void> {
    if (TASK_ID.test(taskId)) rmSync(join(this.#dir, `${taskId}.json`), { force: true });
  }

  async ownerAlive(owner: string): Promise<boolean> {
    if (owner === '') return true; // written before owners were: not ours to judge
    const pid = Number(owner);
    // This pid owning it would have it in memory: the pid is a new process's, the owner is gone.
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid);
  }

  async requestCancel(): Promise<boolean> {
    return false;
  }

  async onCancelRequest(): Promise<() => void> {
    return () => {}; // nobody can ask: see requestCancel
  }

  #read(name: string): TaskEntry | undefined {
    let file: TaskFile;
    try {
      file = JSON.parse(readFileSync(join(this.#dir, name), 'utf8')) as TaskFile;
    } catch {
      return undefined; // being written, or not ours to judge
    }
    const { ownerPid, ...rest } = file;
    return { ...rest, owner: ownerPid === undefined ? '' : String(ownerPid) };
  }
}
