/**
 * What the command line offers, gathered from leaf modules that import nothing: parsing
 * arguments must not load the server, the transports or the parser just to list them.
 */
export { DEFAULT_BIND, DEFAULT_PORT } from '../transports/http-defaults.js';
export { PROFILES, type Profile } from '../tools/profiles.js';

/** `sse` and `ws` are accepted as names of `http`: one listener serves all three on one port. */
export const TRANSPORTS = ['stdio', 'http', 'sse', 'ws'] as const;
export type Transport = (typeof TRANSPORTS)[number];
