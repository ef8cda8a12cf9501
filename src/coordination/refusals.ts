/**
 * What the seam refuses. These stay local: the caller (a CLI command, the controller) turns them
 * into its own message or exit code; none of them is a tool answer or a wire code. Each carries a
 * string code so that the PostgreSQL implementation throws the same ones.
 */

/** The catalog already has a project of that name (names are unique regardless of case). */
export class ProjectExistsError extends Error {
  readonly code = 'project_exists';
  constructor(readonly project: string) {
    super(`A project named ${JSON.stringify(project)} is already registered`);
    this.name = 'ProjectExistsError';
  }
}

/** A name, location or generation the seam will not store, with what is wrong. */
export class InvalidEntryError extends Error {
  readonly code = 'invalid_entry';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidEntryError';
  }
}

/** Another writer committed first: the generation the writer started from is no longer current. */
export class GenerationConflictError extends Error {
  readonly code = 'generation_conflict';
  constructor(
    readonly project: string,
    readonly expected: number,
    readonly current: number,
  ) {
    super(`Project ${JSON.stringify(project)} is at generation ${current}, not ${expected}: another writer committed first`);
    this.name = 'GenerationConflictError';
  }
}

/** The writer's lease is not the latest grant any more (released, or taken over): its write is refused. */
export class LeaseLostError extends Error {
  readonly code = 'lease_lost';
  constructor(
    readonly lease: string,
    readonly token: number,
  ) {
    super(`Lease ${JSON.stringify(lease)} (token ${token}) is no longer held: the write is refused`);
    this.name = 'LeaseLostError';
  }
}

/** Project names: one path segment on every file system, and a database key. */
const PROJECT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkProjectName(name: unknown): string {
  if (typeof name !== 'string' || !PROJECT_NAME.test(name)) {
    throw new InvalidEntryError(`Invalid project name ${JSON.stringify(name)}: use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit`);
  }
  return name;
}

/** The store already has a token of that name (names are unique regardless of case). */
export class TokenExistsError extends Error {
  readonly code = 'token_exists';
  constructor(readonly token: string) {
    super(`A token named ${JSON.stringify(token)} exists already: revoke it first, or pick another name`);
    this.name = 'TokenExistsError';
  }
}

/** Token names: the same shape as project names (one path segment, a database key). */
export function checkTokenName(name: unknown): string {
  if (typeof name !== 'string' || !PROJECT_NAME.test(name)) {
    throw new InvalidEntryError(`Invalid token name ${JSON.stringify(name)}: use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit`);
  }
  return name;
}

/** A subject or group as an identity provider may spell it: printable, no white space, bounded. */
const SUBJECT = /^[\x21-\x7e]{1,255}$/;

/** Whether `who` is a WHO entry checkWho takes. */
export function isWho(who: unknown): boolean {
  try {
    checkWho(who);
    return true;
  } catch {
    return false;
  }
}

/**
 * Who a project may be allowed to: `user:SUB` (an OAuth subject), `group:NAME` (a groups claim),
 * `token:NAME` (a named token) or `everyone` (every principal with a credential).
 */
export function checkWho(who: unknown): string {
  if (typeof who === 'string') {
    if (who === 'everyone') return who;
    const [kind, ...rest] = who.split(':');
    const value = rest.join(':');
    if ((kind === 'user' || kind === 'group') && SUBJECT.test(value)) return who;
    // Token names are unique regardless of case, and so are the principals they make.
    if (kind === 'token' && PROJECT_NAME.test(value)) return `token:${value.toLowerCase()}`;
  }
  throw new InvalidEntryError(`Invalid WHO ${JSON.stringify(who)}: use user:SUB, group:NAME, token:NAME or everyone`);
}
