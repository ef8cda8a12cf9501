/**
 * Which projects one call spans when it is asked of several at once (search_code and
 * locate_symbol's `projects`, or no project named where the server has several): the entries of
 * `projects` read as names, globs over names, or absolute paths, and the projects a caller may
 * see, each under the label its answers carry.
 */
import { basename, isAbsolute } from 'node:path';
import type { NamedProject } from './named-projects.js';

/** One project of a span: where its files are, what its results are labelled, and its registration when it has a name. */
export interface SpanMember {
  readonly root: string;
  /** A named project's name; a folder's absolute path. */
  readonly label: string;
  readonly named?: NamedProject;
}

/** Entries one `projects` argument may hold (every project at once is `*`). */
export const MAX_SPAN_ENTRIES = 100;

/** Whether an entry of `projects` is a glob (`*` and `?`), matched against names rather than naming one. */
export function isGlob(entry: string): boolean {
  return /[*?]/.test(entry);
}

/** Whether an entry names a folder by its path rather than a project by its name. */
export function isPathEntry(entry: string): boolean {
  return isAbsolute(entry);
}

/** A glob over project names (`*` any run, `?` one character), case-insensitive as names are. */
export function nameGlob(glob: string): (member: SpanMember) => boolean {
  const source = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  const pattern = new RegExp(`^${source}$`, 'i');
  // A folder answers to its path and to its last part, as a client's root does (`pay*` finds /src/payments).
  return (member) => pattern.test(member.label) || (!member.named && pattern.test(basename(member.root)));
}

/** Members in first-named order, each root once. */
export function distinct<M extends SpanMember>(members: Iterable<M>): M[] {
  const byRoot = new Map<string, M>();
  for (const member of members) if (!byRoot.has(member.root)) byRoot.set(member.root, member);
  return [...byRoot.values()];
}
