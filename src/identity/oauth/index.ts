/**
 * OAuth 2.1 access tokens from the team's authorization server: Sextant is a resource server
 * that checks them (verifier.ts), never one that issues them.
 */
export { ADMIN_SCOPE, OAuthVerifier, SEARCH_SCOPE } from './verifier.js';
