/**
 * What a caller may reach: one rule for every way of naming a project (a `workspace` argument,
 * client roots in both eras, `project_path`, `?project=`, --auto-workspace).
 *
 * - The launcher (stdio) started the server with its own rights: every directory of theirs.
 * - A remote caller (HTTP with a credential, on a non-loopback address, or through an
 *   --allowed-host) reaches the projects the operator registered (`project add`, --workspace,
 *   SEXTANT_PROJECT, --project-from-cwd), each as itself, and the directories under an
 *   --allowed-root. Nothing else: a credential says who may call, not where.
 * - The local user over loopback HTTP with no credential reaches any directory of theirs, unless
 *   --allowed-root is given, which then confines them as it does a remote caller.
 *
 * Once identities are configured (a named token exists), a caller whose credential names a
 * non-admin identity reaches exactly the named projects whose WHO list grants it: no folder given
 * at launch, nothing under an --allowed-root. Admins, and the --auth-token's holder, reach what a
 * remote caller does.
 *
 * A client's roots choose among what this allows; they never widen it (on HTTP they describe the
 * client's machine, not this one). A refusal reads exactly like a missing directory, so that a
 * caller cannot tell what exists outside what it may reach.
 */
import type { Caller, Identity } from '../caller.js';
import { codedError, type CodedError } from '../errors.js';
import { isWithin } from './config.js';

export interface AccessFacts {
  /** --allowed-root, real paths. */
  allowedRoots: readonly string[];
  /** The roots the operator registered, real paths. */
  registered(): Iterable<string>;
  /** The named projects' roots with their WHO lists. */
  named(): Iterable<{ root: string; allowed: readonly string[] }>;
}

/** Whether a project's WHO list lets `identity` see it: admins see every project. */
export function grants(allowed: readonly string[], identity: Identity): boolean {
  if (identity.admin) return true;
  return allowed.some(
    (who) => who === 'everyone' || who === identity.principal || (who.startsWith('group:') && identity.groups.includes(who.slice('group:'.length))),
  );
}

/** Whether the caller is held to WHO lists: a credential that names a non-admin identity. */
export function restricted(caller: Caller): caller is Caller & { identity: Identity } {
  return caller.identity !== undefined && !caller.identity.admin;
}

/**
 * A registered project is reached as itself, never by a folder inside it: that folder would be
 * indexed as a project of its own, without the project's ignore rules (its `.gitignore`d
 * secrets) and with its `.git`. Under an --allowed-root any folder is a project, but no `.git`.
 */
export function mayReach(root: string, caller: Caller, facts: AccessFacts): boolean {
  if (restricted(caller)) {
    for (const project of facts.named()) if (project.root === root) return grants(project.allowed, caller.identity);
    return false;
  }
  const { reach } = caller;
  if (reach === 'launcher') return true;
  if (reach === 'local' && facts.allowedRoots.length === 0) return true;
  for (const registered of facts.registered()) if (root === registered) return true;
  if (root.split('/').includes('.git')) return false;
  return facts.allowedRoots.some((allowed) => isWithin(root, allowed));
}

/**
 * The refusal for a directory that does not exist, or that this caller may not reach: the same
 * words for both, naming only what the caller gave.
 */
export function noProjectAt(given: string): CodedError {
  return codedError('project_not_found', `No project at ${JSON.stringify(given)} on this server`, { workspace: given });
}

/** A text as a caller may read it: the server's own places named, not spelled out. */
export type PathMask = (text: string) => string;

/**
 * What a caller other than the launcher is shown instead of the server's places: each registered
 * project's checkout by the project's name, the index home and the user's home by a name. Longer
 * places first, so that a checkout under the home is named as the project.
 */
export function pathMask(places: Array<[path: string, shownAs: string]>): PathMask {
  const sorted = places.filter(([path]) => path.length > 1).sort((a, b) => b[0].length - a[0].length);
  if (sorted.length === 0) return (text) => text;
  const escape = (path: string): string => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // A place ends where a path segment ends: `/home/ann` is not a prefix of `/home/anne`.
  const pattern = new RegExp(`(${sorted.map(([path]) => escape(path)).join('|')})(?=$|[/\\s"'\`,:;)\\]}])`, 'g');
  const shown = new Map(sorted);
  return (text) => text.replace(pattern, (path) => shown.get(path) ?? path);
}
