/**
 * The protocol revisions Sextant speaks, newest first, and what differs between them. Every
 * version-dependent decision in the server reads this table instead of comparing date strings.
 */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = SUPPORTED_PROTOCOL_VERSIONS[0];

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
}

const FEATURES: Record<ProtocolVersion, VersionFeatures> = {
  '2024-11-05': {
    batches: false,
    progressMessage: false,
    completionsCapability: false,
    toolAnnotations: false,
    structuredOutput: false,
    icons: false,
    argumentErrorsInResult: false,
  },
  '2025-03-26': {
    batches: true,
    progressMessage: true,
    completionsCapability: true,
    toolAnnotations: true,
    structuredOutput: false,
    icons: false,
    argumentErrorsInResult: false,
  },
  '2025-06-18': {
    batches: false,
    progressMessage: true,
    completionsCapability: true,
    toolAnnotations: true,
    structuredOutput: true,
    icons: false,
    argumentErrorsInResult: false,
  },
  '2025-11-25': {
    batches: false,
    progressMessage: true,
    completionsCapability: true,
    toolAnnotations: true,
    structuredOutput: true,
    icons: true,
    argumentErrorsInResult: true,
  },
};

export function isSupportedVersion(version: unknown): version is ProtocolVersion {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
}

/** Echo a version we speak; otherwise answer with our latest and let the client decide (lifecycle §Version Negotiation). */
export function negotiateVersion(requested: string): ProtocolVersion {
  return isSupportedVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

export function featuresOf(version: ProtocolVersion): VersionFeatures {
  return FEATURES[version];
}
