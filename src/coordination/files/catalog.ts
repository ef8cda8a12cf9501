/**
 * The project catalog as files: one `<name>.json` per project in one folder, lower-cased so that
 * names are unique regardless of case on every file system. An entry is written whole to a staged
 * file and then hard-linked into place, which fails when the name is taken: two processes adding
 * the same name cannot both succeed, and no reader sees half an entry. Who may see a project is
 * one empty file per WHO in `<name>.access/` (its name the WHO in base64url): allowing creates
 * one, disallowing removes it, so two changes at once never lose each other. No lock is needed.
 */
import { projectKey } from '../../util/project-key.js';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from '../../platform/process-alive.js';
import { crypto } from '../../util/lazy-crypto.js';
import { allowedList, checkCatalogProject } from '../catalog-entry.js';
import type { CatalogProject, ProjectCatalog } from '../contracts.js';
import { checkProjectName, checkWho, InvalidEntryError, isWho, ProjectExistsError } from '../refusals.js';

const ENTRY_FILE = /^[a-z0-9][a-z0-9._-]*\.json$/;
/** A staged entry (`.<name>.<pid>-<nonce>.new`): group 1 is the pid that wrote it. */
const STAGED_FILE = /^\..*\.(\d+)-[0-9a-f]+\.new$/;

export class FileProjectCatalog implements ProjectCatalog {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  async list(): Promise<CatalogProject[]> {
    const projects: CatalogProject[] = [];
    for (const name of this.#names()) {
      const staged = STAGED_FILE.exec(name);
      if (staged) {
        if (!processAlive(Number(staged[1]))) rmSync(join(this.#dir, name), { force: true });
        continue;
      }
      if (!ENTRY_FILE.test(name)) continue;
      const project = this.#read(name);
      if (project) projects.push(project);
    }
    return projects.sort((a, b) => a.name.localeCompare(b.name));
  }

  async get(name: string): Promise<CatalogProject | undefined> {
    return this.#read(this.#file(name));
  }

  async add(project: CatalogProject): Promise<void> {
    const entry = checkCatalogProject(project);
    mkdirSync(this.#dir, { recursive: true });
    const staged = join(this.#dir, `.${this.#file(entry.name)}.${process.pid}-${crypto().randomBytes(4).toString('hex')}.new`);
    const fd = openSync(staged, 'wx');
    try {
      writeSync(fd, `${JSON.stringify({ name: entry.name, location: entry.location })}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(staged, join(this.#dir, this.#file(entry.name)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new ProjectExistsError(entry.name);
      throw error;
    } finally {
      rmSync(staged, { force: true });
    }
    // The name is this entry's now: a list left by an earlier project of the name is not inherited.
    rmSync(this.#accessDir(entry.name), { recursive: true, force: true });
    // Written after the entry: a project seen before its list is seen by nobody yet (admins aside).
    for (const who of entry.allowed ?? []) await this.allow(entry.name, who);
  }

  async remove(name: string): Promise<boolean> {
    try {
      rmSync(join(this.#dir, this.#file(name)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    rmSync(this.#accessDir(name), { recursive: true, force: true });
    return true;
  }

  async allow(name: string, who: string): Promise<boolean> {
    const entry = checkWho(who);
    if (!(await this.get(name))) return false;
    mkdirSync(this.#accessDir(name), { recursive: true });
    closeSync(openSync(join(this.#accessDir(name), Buffer.from(entry).toString('base64url')), 'a'));
    return true;
  }

  async disallow(name: string, who: string): Promise<boolean> {
    const entry = checkWho(who);
    if (!(await this.get(name))) return false;
    rmSync(join(this.#accessDir(name), Buffer.from(entry).toString('base64url')), { force: true });
    return true;
  }

  #accessDir(name: string): string {
    return join(this.#dir, `${projectKey(checkProjectName(name))}.access`);
  }

  /** The WHO list of a project: the files of its access folder, each name decoded and checked. */
  #allowed(name: string): string[] {
    let files: string[];
    try {
      files = readdirSync(this.#accessDir(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    // A file that names no WHO (a stray .DS_Store, an editor's backup) grants nothing, and stops nothing else.
    const entries = files.filter((file) => !file.startsWith('.')).map((file) => Buffer.from(file, 'base64url').toString('utf8'));
    return allowedList(entries.filter((who) => isWho(who)));
  }

  #file(name: string): string {
    return `${projectKey(checkProjectName(name))}.json`;
  }

  #names(): string[] {
    try {
      return readdirSync(this.#dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  /** An entry, or undefined when there is none; an entry someone edited into nonsense is named, not skipped. */
  #read(file: string): CatalogProject | undefined {
    const path = join(this.#dir, file);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    let project: CatalogProject;
    try {
      project = checkCatalogProject(JSON.parse(text));
      if (this.#file(project.name) !== file) throw new InvalidEntryError(`it names ${JSON.stringify(project.name)}`);
    } catch (error) {
      const why = error instanceof InvalidEntryError ? error.message : 'not valid JSON';
      throw new InvalidEntryError(`The catalog entry ${path} is damaged (${why}): fix or remove the file`);
    }
    return { ...project, allowed: this.#allowed(project.name) };
  }
}
