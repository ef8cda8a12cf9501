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

export interface Caller {
  readonly reach: Reach;
  /**
   * Whose work this is (tasks are kept apart by it): derived from the credential the request
   * carried, never from how its header was spelled. Absent without one.
   */
  readonly principal?: string;
}

/** A message whose transport said nothing of its sender is a stranger's. */
const UNKNOWN_CALLER: Caller = { reach: 'remote' };

export const LAUNCHER: Caller = { reach: 'launcher' };

/** The caller a message context names, or a stranger when it names none. */
export function callerOf(extra: { caller?: Caller } | undefined): Caller {
  return extra?.caller ?? UNKNOWN_CALLER;
}
