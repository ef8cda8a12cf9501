/**
 * Named tokens as files: one `<name>.json` per token in one folder (mode 0600, in a folder of
 * 0700), lower-cased so that names are unique regardless of case, written to a staged file and
 * hard-linked into place (a name taken fails the link). When a token was last used is a file of
 * its own beside it (`<name>.used`), so that recording a use never rewrites the entry.
 */
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { crypto } from '../../util/lazy-crypto.js';
import { projectKey } from '../../util/project-key.js';
import { writeAtomic } from '../../util/write-atomic.js';
import type { NamedToken, TokenStore } from '../contracts.js';
import { checkTokenName, InvalidEntryError, TokenExistsError } from '../refusals.js';
import { checkTokenEntry, shownToken, type TokenEntry } from '../token-entry.js';

const ENTRY_FILE = /^[a-z0-9][a-z0-9._-]*\.json$/;

export class FileTokenStore implements TokenStore {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  async create(token: { name: string; admin: boolean; digest: string }): Promise<NamedToken> {
    const entry = checkTokenEntry({ ...token, createdAt: new Date().toISOString() });
    mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
    const file = this.#file(entry.name);
    const staged = join(this.#dir, `.${file}.${process.pid}-${crypto().randomBytes(4).toString('hex')}.new`);
    const fd = openSync(staged, 'wx', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(entry)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(staged, join(this.#dir, file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new TokenExistsError(entry.name);
      throw error;
    } finally {
      rmSync(staged, { force: true });
    }
    rmSync(this.#usedFile(entry.name), { force: true });
    return shownToken(entry);
  }

  async list(): Promise<NamedToken[]> {
    return this.#entries().map(shownToken);
  }

  async find(digest: string): Promise<NamedToken | undefined> {
    const found = this.#entries().find((entry) => entry.digest === digest);
    return found && shownToken(found);
  }

  async revoke(name: string): Promise<boolean> {
    try {
      rmSync(join(this.#dir, this.#file(name)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    rmSync(this.#usedFile(name), { force: true });
    return true;
  }

  async configured(): Promise<boolean> {
    // The folder is made by the first token and never removed by a revocation.
    return existsSync(this.#dir);
  }

  async used(name: string): Promise<void> {
    writeAtomic(this.#usedFile(name), new Date().toISOString());
  }

  #file(name: string): string {
    return `${projectKey(checkTokenName(name))}.json`;
  }

  #usedFile(name: string): string {
    return join(this.#dir, `${projectKey(checkTokenName(name))}.used`);
  }

  /** Every entry, with when it was last used; one someone edited into nonsense is named, not skipped. */
  #entries(): TokenEntry[] {
    let names: string[];
    try {
      names = readdirSync(this.#dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const entries: TokenEntry[] = [];
    for (const name of names.filter((file) => ENTRY_FILE.test(file))) {
      const path = join(this.#dir, name);
      let entry: TokenEntry;
      try {
        entry = checkTokenEntry(JSON.parse(readFileSync(path, 'utf8')));
        if (this.#file(entry.name) !== name) throw new InvalidEntryError(`it names ${JSON.stringify(entry.name)}`);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // revoked while listed
        const why = error instanceof InvalidEntryError ? error.message : 'not valid JSON';
        throw new InvalidEntryError(`The token entry ${path} is damaged (${why}): fix or remove the file`);
      }
      const lastUsedAt = this.#lastUsed(entry.name);
      entries.push(lastUsedAt ? { ...entry, lastUsedAt } : entry);
    }
    return entries.sort((a, b) => a.name.localeCompare(b.name));
  }

  #lastUsed(name: string): string | undefined {
    try {
      const text = readFileSync(this.#usedFile(name), 'utf8').trim();
      return Number.isNaN(Date.parse(text)) ? undefined : text;
    } catch {
      return undefined;
    }
  }
}
