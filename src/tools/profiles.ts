/** The tool sets a server can offer (a leaf: the CLI lists them without loading the tools). */
export const PROFILES = ['default', 'conformance'] as const;
export type Profile = (typeof PROFILES)[number];
