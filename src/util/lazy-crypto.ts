/**
 * node:crypto, loaded on first use. Loading it is a visible part of a CLI start-up, and the lookups
 * (search, symbols) neither hash nor draw random bytes: only writers and the first hashing of a
 * project's root do.
 */
import { createRequire } from 'node:module';

type Crypto = typeof import('node:crypto');

let loaded: Crypto | undefined;

export function crypto(): Crypto {
  // getBuiltinModule is Node 20.16+; before it, a require of our own.
  loaded ??= (process.getBuiltinModule?.('node:crypto') as Crypto | undefined) ?? (createRequire(import.meta.url)('node:crypto') as Crypto);
  return loaded;
}
