/**
 * Identities: who a request's credential says it is (credentials.ts), and the secrets of named
 * tokens (secrets.ts). What an identity may see is the workspace's rule (workspace/access.ts).
 */
export { Credentials, type Verdict } from './credentials.js';
export { ADMIN_SCOPE, OAuthVerifier, SEARCH_SCOPE } from './oauth/index.js';
export { newTokenSecret, secretDigest } from './secrets.js';
