/**
 * Who sent a message, as far as the transport that received it can tell. The transport decides it
 * once per message (HTTP: from how the server listens and the credential the request carried) and
 * the rooms above only read it: what a caller may reach depends on it, never on what the message
 * says about itself.
 *
 * - `launcher`: stdio (or a replay): the user who started the server, with their own rights.
 * - `local`: HTTP on a loopback address with no credential configured: the local user, with
 *   browsers held off by the Host and Origin checks.
 * - `remote`: HTTP with a credential, or on any other address: a client that reaches only what the
 *   operator registered.
 */
export type Reach = 'launcher' | 'local' | 'remote';

/**
 * Who a credential says the caller is, once identities are configured (a named token exists, or
 * an OAuth issuer is given): what it may see is then decided by each project's WHO list.
 */
export interface Identity {
  /** `token:NAME` (lower-cased), `user:SUB`, or `static:auth-token` for the --auth-token holder. */
  readonly principal: string;
  /** Sees every project, and may do what only an operator may. */
  readonly admin: boolean;
  /** The groups an OAuth token's claim names (`group:NAME` entries grant to them). */
  readonly groups: readonly string[];
}

export interface Caller {
  readonly reach: Reach;
  /**
   * Whose work this is (tasks are kept apart by it): derived from the credential the request
   * carried, never from how its header was spelled. Absent without one.
   */
  readonly principal?: string;
  /** Set only while identities are configured, for a caller whose credential names one. */
  readonly identity?: Identity;
}

/** A message whose transport said nothing of its sender is a stranger's. */
const UNKNOWN_CALLER: Caller = { reach: 'remote' };

export const LAUNCHER: Caller = { reach: 'launcher' };

/** The caller a message context names, or a stranger when it names none. */
export function callerOf(extra: { caller?: Caller } | undefined): Caller {
  return extra?.caller ?? UNKNOWN_CALLER;
}
