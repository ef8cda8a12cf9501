/**
 * A generation a writer proposes, checked the same way by every implementation before anything
 * is written.
 */
import { projectKey } from '../util/project-key.js';
import type { Generation } from './contracts.js';
import { checkProjectName, InvalidEntryError } from './refusals.js';

/** The project's name when `next` may follow `expected`; else what is wrong. */
export function checkNext(expected: Generation | undefined, next: Omit<Generation, 'number'>): string {
  const project = checkProjectName(next.project);
  if (expected !== undefined && projectKey(expected.project) !== projectKey(project)) {
    throw new InvalidEntryError(`A generation of ${JSON.stringify(project)} cannot follow one of ${JSON.stringify(expected.project)}`);
  }
  if (typeof next.committedAt !== 'string' || Number.isNaN(Date.parse(next.committedAt))) {
    throw new InvalidEntryError(`"committedAt" must be a date, got ${JSON.stringify(next.committedAt)}`);
  }
  if (next.source !== undefined && (typeof next.source !== 'string' || next.source === '')) {
    throw new InvalidEntryError(`"source" must be a non-empty string when given, got ${JSON.stringify(next.source)}`);
  }
  return project;
}
