/**
 * What one message is served under, decided once when it arrives and handed to the registries:
 * the revision, the client's capabilities, and whether it is stateless (2026-07-28: the request
 * carries everything) or belongs to a session its `initialize` began. Nothing downstream asks
 * "which era?" any other way.
 */
import type { Params } from '../jsonrpc/index.js';
import { isStatelessVersion, type AnyProtocolVersion, type HandshakeProtocolVersion, type StatelessProtocolVersion } from './versions.js';

export interface RequestEra {
  readonly revision: AnyProtocolVersion;
  /** No session: the request's own `_meta` gave its revision and capabilities. */
  readonly stateless: boolean;
  /** The capabilities the client declared: its session's, or the request's own. */
  readonly clientCapabilities: Params;
}

/** The era of every message of a session, built once when `initialize` is answered. */
export function sessionEra(revision: HandshakeProtocolVersion, clientCapabilities: Params): RequestEra {
  return { revision, stateless: false, clientCapabilities };
}

/** The era of one request that carries its own revision and capabilities (not a session's). */
export function singleRequestEra(revision: StatelessProtocolVersion, clientCapabilities: Params): RequestEra {
  return { revision, stateless: isStatelessVersion(revision), clientCapabilities };
}

/** What a tool, resource or prompt may say of its revisions: the first one it is served in. */
export interface Introduced {
  /** Requests of older revisions never see it listed, nor can they use it. */
  since?: AnyProtocolVersion;
}

/** Whether an entry introduced in `since` exists for a message of `era` (revisions are dates, so they order as strings). */
export function servedIn(entry: Introduced, era: RequestEra): boolean {
  return entry.since === undefined || era.revision >= entry.since;
}
