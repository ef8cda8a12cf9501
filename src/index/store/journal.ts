/**
 * The journal of the job that writes a project's index (job.json): what runs, since when, how far
 * it got, and, when it stopped early in a process that lives on, why. Read by status and
 * index_status; a journal whose process is gone is an interrupted job.
 */
import { existsSync, readFileSync } from 'node:fs';

export interface JobJournal {
  /** `symbols`: the symbol phase, which follows an index or sync job (or a watcher refresh). */
  mode: 'index' | 'sync' | 'symbols';
  pid: number;
  startedAt: string;
  stage: string;
  done: number;
  total: number;
  /** Set when the job stopped early in a process that lives on (cancelled, failed). */
  stopped?: string;
}

/** The command that redoes an interrupted job: an interrupted symbol phase is finished by a sync. */
export function resumeCommand(journal: JobJournal, root: string): string {
  return `sextant ${journal.mode === 'symbols' ? 'sync' : journal.mode} ${root}`;
}

/** The journal at `path`, or undefined when there is none or it cannot be read. */
export function readJournal(path: string): JobJournal | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as JobJournal;
  } catch {
    return undefined;
  }
}
