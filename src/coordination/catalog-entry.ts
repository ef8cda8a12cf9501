/**
 * A catalog entry checked field by field, shared by every implementation: what one stores, the
 * other reads back the same, and nothing malformed is stored.
 */
import { isAbsolute } from 'node:path';
import type { CatalogProject } from './contracts.js';
import { checkProjectName, checkWho, InvalidEntryError } from './refusals.js';

/** A git ref as `git check-ref-format` would mostly allow: no spaces, no "..", no leading "-". */
const GIT_REF = /^(?!-)(?!.*\.\.)[^\s~^:?*[\\]{1,255}$/;

export function checkCatalogProject(value: unknown): CatalogProject {
  if (typeof value !== 'object' || value === null) throw new InvalidEntryError('A catalog project must be an object');
  const { name, location, allowed } = value as { name?: unknown; location?: unknown; allowed?: unknown };
  checkProjectName(name);
  if (allowed !== undefined && !Array.isArray(allowed)) throw new InvalidEntryError(`Project ${JSON.stringify(name)}: allowed is a list`);
  const who = allowedList((allowed as unknown[] | undefined) ?? []);
  if (typeof location !== 'object' || location === null) throw new InvalidEntryError(`Project ${JSON.stringify(name)} has no location`);
  const { folder, git, ref } = location as { folder?: unknown; git?: unknown; ref?: unknown };
  if (folder !== undefined) {
    if (typeof folder !== 'string' || !isAbsolute(folder) || git !== undefined) {
      throw new InvalidEntryError(`Project ${JSON.stringify(name)}: a folder location is one absolute path, got ${JSON.stringify(folder)}`);
    }
    return { name: name as string, location: { folder }, allowed: who };
  }
  if (typeof git !== 'string' || git.trim() === '' || git.startsWith('-') || /\s/.test(git)) {
    throw new InvalidEntryError(`Project ${JSON.stringify(name)}: a git location needs a remote URL, got ${JSON.stringify(git)}`);
  }
  if (typeof ref !== 'string' || !GIT_REF.test(ref)) {
    throw new InvalidEntryError(`Project ${JSON.stringify(name)}: ${JSON.stringify(ref)} is not a git branch or tag name`);
  }
  return { name: name as string, location: { git, ref }, allowed: who };
}

/** WHO entries checked, each once, sorted: the same list whichever implementation read it back. */
export function allowedList(entries: readonly unknown[]): string[] {
  return [...new Set(entries.map(checkWho))].sort();
}
