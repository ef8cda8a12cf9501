/**
 * One writer at a time for a project's index, across processes: the job lease (`job.lock`, a
 * file lease of src/coordination), whose holder being busy is the tool error `index_in_progress`.
 */
import { CodedError, ERROR_CODES } from '../../errors.js';
import { FileLease, LeaseHeldError } from '../../coordination/files/lease-file.js';

/** Another job (in this process or another) holds the project's index. */
export class IndexBusyError extends CodedError {
  readonly pid: number;
  constructor(pid: number) {
    super(`Another index job (process ${pid}) is updating this project's index; try again when it ends`, {
      code: 'index_in_progress',
      remedy: ERROR_CODES.index_in_progress.remedy,
    });
    this.name = 'IndexBusyError';
    this.pid = pid;
  }
}

/** The job lock of one index folder. */
export class JobLock extends FileLease {
  constructor(dir: string) {
    super(dir, 'job.lock');
  }

  /** Takes the lock (or throws IndexBusyError); its fencing token is `token`. */
  override acquire(pid = process.pid): number {
    try {
      return super.acquire(pid);
    } catch (error) {
      if (error instanceof LeaseHeldError) throw new IndexBusyError(error.pid);
      throw error;
    }
  }
}
