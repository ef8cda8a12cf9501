/**
 * What the command line offers, gathered from leaf modules that import nothing: parsing
 * arguments must not load the server, the transports or the parser just to list them.
 */
export { DEFAULT_BIND, DEFAULT_MAX_CONNECTIONS, DEFAULT_PORT } from '../transports/http-defaults.js';
export { PROFILES, type Profile } from '../tools/profiles.js';

/** `sse` and `ws` are accepted as names of `http`: one listener serves all three on one port. */
export const TRANSPORTS = ['stdio', 'http', 'sse', 'ws'] as const;
export type Transport = (typeof TRANSPORTS)[number];

/** What `sextant project` does. */
export const PROJECT_ACTIONS = ['add', 'list', 'remove', 'refresh', 'allow', 'disallow'] as const;
export type ProjectAction = (typeof PROJECT_ACTIONS)[number];

/** What `sextant token` does. */
export const TOKEN_ACTIONS = ['create', 'list', 'revoke'] as const;
export type TokenAction = (typeof TOKEN_ACTIONS)[number];

/** What `sextant keys` does. */
export const KEY_ACTIONS = ['rotate'] as const;

/** How often a team server's controller looks at each git project's branch, unless --poll-interval says. */
export const DEFAULT_POLL_SECONDS = 60;
