/**
 * Index generations as files: each project has a folder of numbered, immutable versions
 * (`000000000007.json`), and the highest number is the current one. A commit hard-links its
 * version into place under the next number, which fails if that number exists: that is the
 * compare-and-swap, with no lock and no read-modify-write window. A version also records the
 * lease and token it was written under, so that a writer whose lease was taken over is refused
 * even if it checked its lease just before a pause (fencing by the data, not only by the check).
 *
 * Processes on one machine hear of a commit through fs.watch on the project's folder, with a
 * poll as the bound for file systems that drop events.
 */
import { projectKey } from '../../util/project-key.js';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { crypto } from '../../util/lazy-crypto.js';
import type { Generation, Generations, Lease, Leases } from '../contracts.js';
import { checkProjectName, GenerationConflictError, InvalidEntryError, LeaseLostError } from '../refusals.js';
import { checkNext } from '../generation-entry.js';
import { watchFolder } from './watch-folder.js';

const VERSION_FILE = /^(\d{12})\.json$/;
/** Versions kept behind the current one, for a reader that listed the folder just before a commit. */
const VERSIONS_KEPT = 3;
/** Refresh requests, beside the projects' folders (a project name never starts with a dot). */
const REFRESH_FOLDER = '.refresh';

/** What a version file holds: the generation and the grant that wrote it. */
interface VersionFile extends Generation {
  readonly lease: string;
  readonly token: number;
}

export class FileGenerations implements Generations {
  readonly #dir: string;
  readonly #leases: Leases;

  constructor(dir: string, leases: Leases) {
    this.#dir = dir;
    this.#leases = leases;
  }

  async current(project: string): Promise<Generation | undefined> {
    const version = this.#current(project);
    return version && publicPart(version);
  }

  async commit(lease: Lease, expected: Generation | undefined, next: Omit<Generation, 'number'>): Promise<Generation> {
    const project = projectKey(checkNext(expected, next));
    if (!(await this.#leases.valid(lease))) throw new LeaseLostError(lease.name, lease.token);
    const current = this.#current(project);
    const currentNumber = current?.number ?? 0;
    if (currentNumber !== (expected?.number ?? 0)) throw new GenerationConflictError(project, expected?.number ?? 0, currentNumber);
    if (current && current.lease === lease.name && current.token > lease.token) throw new LeaseLostError(lease.name, lease.token);
    const version: VersionFile = {
      project,
      number: currentNumber + 1,
      ...(next.source !== undefined && { source: next.source }),
      committedAt: next.committedAt,
      lease: lease.name,
      token: lease.token,
    };
    const folder = this.#folder(project);
    mkdirSync(folder, { recursive: true });
    const staged = join(folder, `.${process.pid}-${crypto().randomBytes(4).toString('hex')}.new`);
    const fd = openSync(staged, 'wx');
    try {
      writeSync(fd, JSON.stringify(version));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(staged, join(folder, versionFile(version.number)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new GenerationConflictError(project, currentNumber, this.#current(project)?.number ?? version.number);
      }
      throw error;
    } finally {
      rmSync(staged, { force: true });
    }
    for (const number of this.#numbers(project)) {
      if (number <= version.number - VERSIONS_KEPT) rmSync(join(folder, versionFile(number)), { force: true });
    }
    return publicPart(version);
  }

  watch(project: string, after: number, listener: (generation: Generation) => void): () => void {
    const folder = this.#folder(checkProjectName(project));
    mkdirSync(folder, { recursive: true });
    let seen = after;
    let stopped = false;
    const look = (): void => {
      if (stopped) return;
      let version: VersionFile | undefined;
      try {
        version = this.#current(project);
      } catch {
        return; // a damaged version is reported to whoever reads it; the watcher keeps watching
      }
      if (!version || version.number <= seen) return;
      seen = version.number;
      listener(publicPart(version));
    };
    const stop = watchFolder(folder, look);
    queueMicrotask(look); // one newer than `after` already: heard at once
    return () => {
      stopped = true;
      stop();
    };
  }

  /** A request is a file named after the project in `.refresh/`, removed by whoever hears it. */
  async requestRefresh(project: string): Promise<void> {
    const folder = join(this.#dir, REFRESH_FOLDER);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, projectKey(checkProjectName(project))), '');
  }

  async onRefreshRequest(listener: (project: string) => void): Promise<() => void> {
    const folder = join(this.#dir, REFRESH_FOLDER);
    mkdirSync(folder, { recursive: true });
    const look = (): void => {
      for (const name of readdirSync(folder)) {
        try {
          rmSync(join(folder, name));
        } catch {
          continue; // heard by another listener first
        }
        listener(name);
      }
    };
    const stop = watchFolder(folder, look);
    look();
    return stop;
  }

  #folder(project: string): string {
    return join(this.#dir, projectKey(project));
  }

  #numbers(project: string): number[] {
    let names: string[];
    try {
      names = readdirSync(this.#folder(project));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return names.flatMap((name) => {
      const match = VERSION_FILE.exec(name);
      return match ? [Number(match[1])] : [];
    });
  }

  /** The highest version; one pruned between the listing and the read means a newer one exists, so look again. */
  #current(project: string): VersionFile | undefined {
    checkProjectName(project);
    for (;;) {
      const numbers = this.#numbers(project);
      if (numbers.length === 0) return undefined;
      const path = join(this.#folder(project), versionFile(Math.max(...numbers)));
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      return parseVersion(text, path);
    }
  }
}

function versionFile(number: number): string {
  return `${String(number).padStart(12, '0')}.json`;
}

function publicPart(version: VersionFile): Generation {
  const { lease: _lease, token: _token, ...generation } = version;
  return generation;
}

function parseVersion(text: string, path: string): VersionFile {
  let value: Partial<VersionFile> | null;
  try {
    value = JSON.parse(text) as Partial<VersionFile> | null;
  } catch {
    value = null;
  }
  if (
    !value ||
    typeof value.project !== 'string' ||
    !Number.isSafeInteger(value.number) ||
    typeof value.committedAt !== 'string' ||
    (value.source !== undefined && typeof value.source !== 'string') ||
    typeof value.lease !== 'string' ||
    !Number.isSafeInteger(value.token)
  ) {
    throw new InvalidEntryError(`The generation file ${path} is damaged: remove it to fall back to the one before`);
  }
  return value as VersionFile;
}
