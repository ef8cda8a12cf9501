/**
 * The protocol revisions Sextant speaks, newest first, and what differs between them. Every
 * version-dependent decision in the server reads this table instead of comparing date strings.
 *
 * Two eras, each named for what it is: the handshake revisions (a session begins with
 * `initialize`) and the stateless ones (2026-07-28: every request carries its version in `_meta`,
 * nothing lives between requests). Neither list is "the supported" one: both are.
 */
/** Revisions negotiated by `initialize`, newest first. */
export const HANDSHAKE_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export type HandshakeProtocolVersion = (typeof HANDSHAKE_PROTOCOL_VERSIONS)[number];
const LATEST_HANDSHAKE_VERSION: HandshakeProtocolVersion = HANDSHAKE_PROTOCOL_VERSIONS[0];

/** Revisions served per request, without a session (the stateless era). */
const STATELESS_PROTOCOL_VERSIONS = ['2026-07-28'] as const;
export type StatelessProtocolVersion = (typeof STATELESS_PROTOCOL_VERSIONS)[number];
/** Every revision, newest first: what `server/discover` and UnsupportedProtocolVersion list. */
export const ALL_PROTOCOL_VERSIONS = [...STATELESS_PROTOCOL_VERSIONS, ...HANDSHAKE_PROTOCOL_VERSIONS] as const;
export type AnyProtocolVersion = HandshakeProtocolVersion | StatelessProtocolVersion;

export function isStatelessVersion(version: unknown): version is StatelessProtocolVersion {
  return (STATELESS_PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
}

export interface VersionFeatures {
  /** JSON-RPC batches must be accepted (2025-03-26 only; removed in 2025-06-18). */
  batches: boolean;
  /** `completions` server capability exists (the method itself exists since 2024-11-05). */
  completionsCapability: boolean;
  /** Tool `annotations`. */
  toolAnnotations: boolean;
  /** Tool `title`, `outputSchema`, `_meta`; result `structuredContent`; Implementation `title`. */
  structuredOutput: boolean;
  /** Tool `icons`, `execution`; Implementation `description`, `icons`, `websiteUrl`. */
  icons: boolean;
  /** notifications/progress may carry a human-readable `message` (added in 2025-03-26). */
  progressMessage: boolean;
  /** Invalid tool arguments are a tool execution error (`isError`), not -32602 (SEP-1303). */
  argumentErrorsInResult: boolean;
  /** Tool `execution` (task support): 2025-11-25 only; 2026-07-28 moved tasks to an extension. */
  toolExecution: boolean;
  /** An unknown resource is -32602 Invalid params (2026-07-28), not -32002. */
  resourceNotFoundIsInvalidParams: boolean;
}

const FEATURES: Record<AnyProtocolVersion, VersionFeatures> = {
  '2024-11-05': {
    batches: false,
    progressMessage: false,
    completionsCapability: false,
    toolAnnotations: false,
    structuredOutput: false,
    icons: false,
    argumentErrorsInResult: false,
    toolExecution: false,
    resourceNotFoundIsInvalidParams: false,
  },
  '2025-03-26': {
    batches: true,
    progressMessage: true,
    completionsCapability: true,
    toolAnnotations: true,
    structuredOutput: false,
    icons: false,
    argumentErrorsInResult: false,
    toolExecution: false,
    resourceNotFoundIsInvalidParams: false,
  },
  '2025-06-18': {
    batches: false,
    progressMessage: true,
    completionsCapability: true,
    toolAnnotations: true,
    structuredOutput: true,
    icons: false,
    argumentErrorsInResult: false,
    toolExecution: false,
    resourceNotFoundIsInvalidParams: false,
  },
  '2025-11-25': {
    batches: false,
    progressMessage: true,
    completionsCapability: true,
    toolAnnotations: true,
    structuredOutput: true,
    icons: true,
    argumentErrorsInResult: true,
    toolExecution: true,
    resourceNotFoundIsInvalidParams: false,
  },
  '2026-07-28': {
    batches: false,
    progressMessage: true,
    completionsCapability: true,
    toolAnnotations: true,
    structuredOutput: true,
    icons: true,
    argumentErrorsInResult: true,
    toolExecution: false,
    resourceNotFoundIsInvalidParams: true,
  },
};

export function isHandshakeVersion(version: unknown): version is HandshakeProtocolVersion {
  return (HANDSHAKE_PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
}

/** Echo a version we speak; otherwise answer with our latest and let the client decide (lifecycle §Version Negotiation). */
export function negotiateVersion(requested: string): HandshakeProtocolVersion {
  return isHandshakeVersion(requested) ? requested : LATEST_HANDSHAKE_VERSION;
}

export function featuresOf(version: AnyProtocolVersion): VersionFeatures {
  return FEATURES[version];
}
