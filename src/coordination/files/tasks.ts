/**
 * Tasks as files: `<taskId>.json` in one folder, each written whole (temp file, rename) with the
 * pid of the process that runs it. A message for an owner is a file in `.messages/<pid>/`, taken
 * (removed) by the owner as it reads it. Temporary files and message folders of processes that
 * are gone are removed by whoever lists the folder.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from '../../platform/process-alive.js';
import type { TaskEntry, TaskLedger, TaskMessage } from '../contracts.js';
import { watchFolder } from './watch-folder.js';

const TASK_ID = /^[0-9a-f-]{36}$/;
const TASK_FILE = /^([0-9a-f-]{36})\.json$/;
const TEMP_FILE = /^[0-9a-f-]{36}\.json\.tmp-(\d+)$/;
/** Messages for owners, one folder per owner (a task file never starts with a dot). */
const MESSAGES_FOLDER = '.messages';
/** Messages this process has sent, for their names' order. */
let sent = 0;

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
      writeWhole(path, JSON.stringify(file));
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
    this.#sweepMessages();
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

  async send(message: TaskMessage): Promise<boolean> {
    const entry = await this.get(message.taskId);
    if (!entry || !(await this.ownerAlive(entry.owner))) return false;
    const folder = join(this.#dir, MESSAGES_FOLDER, entry.owner);
    mkdirSync(folder, { recursive: true });
    // Named to sort in the order sent (by one sender; by the clock across senders).
    writeWhole(join(folder, `${String(Date.now()).padStart(15, '0')}-${String(++sent).padStart(9, '0')}-${randomUUID()}.json`), JSON.stringify(message));
    return true;
  }

  async onMessage(listener: (message: TaskMessage) => void): Promise<() => void> {
    const folder = join(this.#dir, MESSAGES_FOLDER, this.self);
    mkdirSync(folder, { recursive: true });
    const look = (): void => {
      let names: string[];
      try {
        names = readdirSync(folder);
      } catch {
        return; // removed under us (a sweep that took this pid for another's): the next send makes it again
      }
      for (const name of names.filter((name) => name.endsWith('.json')).sort()) {
        let message: TaskMessage;
        try {
          message = JSON.parse(readFileSync(join(folder, name), 'utf8')) as TaskMessage;
          rmSync(join(folder, name));
        } catch {
          continue; // taken already, or unreadable: never heard twice
        }
        listener(message);
      }
    };
    const stop = watchFolder(folder, look);
    look();
    // The folder stays: messages left while nobody listens are taken at the next listen, and the
    // folders of processes that are gone are swept when the ledger is listed.
    return stop;
  }

  async onChange(listener: (taskId: string) => void): Promise<() => void> {
    mkdirSync(this.#dir, { recursive: true });
    let seen = this.#stamps();
    return watchFolder(this.#dir, () => {
      const now = this.#stamps();
      for (const [taskId, stamp] of now) if (seen.get(taskId) !== stamp) listener(taskId);
      seen = now;
    });
  }

  /** Each task file's stamp (its inode, new at every write's rename, and its time), by task id. */
  #stamps(): Map<string, string> {
    const stamps = new Map<string, string>();
    for (const name of readdirSync(this.#dir)) {
      const match = TASK_FILE.exec(name);
      if (!match) continue;
      try {
        const stat = statSync(join(this.#dir, name));
        stamps.set(match[1]!, `${stat.ino}:${stat.mtimeMs}`);
      } catch {
        // removed since the listing
      }
    }
    return stamps;
  }

  /** Message folders of owners that are gone: nobody will read them. */
  #sweepMessages(): void {
    let owners: string[];
    try {
      owners = readdirSync(join(this.#dir, MESSAGES_FOLDER));
    } catch {
      return;
    }
    for (const owner of owners) {
      const pid = Number(owner);
      if (pid !== process.pid && !processAlive(pid)) rmSync(join(this.#dir, MESSAGES_FOLDER, owner), { recursive: true, force: true });
    }
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

/** Written under a temporary name, then renamed: a reader sees all of it or none. */
function writeWhole(path: string, text: string): void {
  writeFileSync(`${path}.tmp-${process.pid}`, text);
  renameSync(`${path}.tmp-${process.pid}`, path);
}
