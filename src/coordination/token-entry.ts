/**
 * A named token's entry checked field by field, shared by every implementation: what one stores,
 * the other reads back the same. The digest is SHA-256 of the secret, never the secret.
 */
import type { NamedToken } from './contracts.js';
import { checkTokenName, InvalidEntryError } from './refusals.js';

const DIGEST = /^[0-9a-f]{64}$/;

export interface TokenEntry extends NamedToken {
  readonly digest: string;
}

export function checkTokenEntry(value: unknown): TokenEntry {
  if (typeof value !== 'object' || value === null) throw new InvalidEntryError('A token entry must be an object');
  const { name, admin, digest, createdAt, lastUsedAt } = value as Record<string, unknown>;
  checkTokenName(name);
  if (typeof admin !== 'boolean') throw new InvalidEntryError(`Token ${JSON.stringify(name)}: admin is true or false`);
  if (typeof digest !== 'string' || !DIGEST.test(digest)) throw new InvalidEntryError(`Token ${JSON.stringify(name)}: its digest is not a SHA-256 in hex`);
  if (typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt)))
    throw new InvalidEntryError(`Token ${JSON.stringify(name)}: createdAt is not a time`);
  if (lastUsedAt !== undefined && (typeof lastUsedAt !== 'string' || Number.isNaN(Date.parse(lastUsedAt))))
    throw new InvalidEntryError(`Token ${JSON.stringify(name)}: lastUsedAt is not a time`);
  return { name: name as string, admin, digest, createdAt, ...(lastUsedAt !== undefined ? { lastUsedAt: lastUsedAt as string } : {}) };
}

/** What a store shows of an entry: never its digest. */
export function shownToken({ name, admin, createdAt, lastUsedAt }: TokenEntry): NamedToken {
  return { name, admin, createdAt, ...(lastUsedAt !== undefined ? { lastUsedAt } : {}) };
}
