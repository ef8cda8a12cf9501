/**
 * The secrets of named tokens: made here, shown once, and kept only as a digest. A secret carries
 * a prefix (`sxt_`) so that a scanner finds one pasted where it should not be.
 */
import { createHash, randomBytes } from 'node:crypto';

export const TOKEN_PREFIX = 'sxt_';

/** A new secret: 32 random bytes, base64url, after the prefix. */
export function newTokenSecret(): string {
  return `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** What the store keeps of a secret: SHA-256, hex. */
export function secretDigest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
