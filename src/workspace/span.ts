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

/** Wildcards one entry may hold: enough for any name, few enough that matching stays cheap. */
export const MAX_WILDCARDS = 16;

/** Whether `text` matches `glob` (`*` any run, `?` one character), case-insensitively, in time linear in their lengths. */
function globMatches(glob: string, text: string): boolean {
  const pattern = glob.toLowerCase();
  const subject = text.toLowerCase();
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < subject.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === subject[t])) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/**
 * A glob over project names (`*` any run, `?` one character), case-insensitive as names are;
 * undefined for one with more than MAX_WILDCARDS wildcards. With `folders`, a project without a
 * name answers to the last part of its path (`pay*` finds /src/payments), as a client's root
 * does; a remote caller's globs match names alone, so that they cannot probe the server's paths.
 */
export function nameGlob(glob: string, folders: boolean): ((member: SpanMember) => boolean) | undefined {
  if ((glob.match(/[*?]/g)?.length ?? 0) > MAX_WILDCARDS) return undefined;
  return (member) => (member.named ? globMatches(glob, member.label) : folders && globMatches(glob, basename(member.root)));
}

/** Members in first-named order, each root once. */
export function distinct<M extends SpanMember>(members: Iterable<M>): M[] {
  const byRoot = new Map<string, M>();
  for (const member of members) if (!byRoot.has(member.root)) byRoot.set(member.root, member);
  return [...byRoot.values()];
}
