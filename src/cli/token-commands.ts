/**
 * `sextant token create|list|revoke`: the named credentials of a home (or, with --database-url, a
 * team). A new token's secret is printed once, alone on one line of stdout, and only a digest of
 * it is kept; a listing shows names, admin or not, created and last used, never a secret. A
 * revoked token stops working on every server within a few seconds (identity/credentials.ts).
 */
import { openCoordination, TokenExistsError } from '../coordination/index.js';
import { newTokenSecret, secretDigest } from '../identity/index.js';
import { sextantHome } from '../index/store/index.js';
import type { TokenAction } from './choices.js';
import type { Output } from './output.js';
import { UsageError } from './usage.js';

export interface TokenArgs {
  action: TokenAction;
  name?: string;
  admin?: boolean;
  json?: boolean;
  databaseUrl?: string;
}

export async function tokenCommand(args: TokenArgs, output: Output): Promise<number> {
  if (args.action !== 'list' && !args.name) throw new UsageError(`sextant token ${args.action} needs the token's NAME`);
  if (args.action !== 'list' && args.json) throw new UsageError('--json goes with "sextant token list"');
  if (args.action !== 'create' && args.admin) throw new UsageError('--admin goes with "sextant token create"');
  const coordination = await openCoordination(sextantHome(), { databaseUrl: args.databaseUrl });
  try {
    switch (args.action) {
      case 'create': {
        const secret = newTokenSecret();
        let created;
        try {
          created = await coordination.tokens.create({ name: args.name!, admin: args.admin === true, digest: secretDigest(secret) });
        } catch (error) {
          if (!(error instanceof TokenExistsError)) throw error;
          output.err(`sextant: ${error.message}\n`);
          return 1;
        }
        // The secret alone on stdout, so that `$(sextant token create ci)` is the secret; the rest to stderr.
        output.out(`${secret}\n`);
        output.err(
          `Created token ${created.name}${created.admin ? ' (admin: sees every project)' : ''} (${coordination.describe}). ` +
            `This is the only time its secret is shown; a request sends it as "Authorization: Bearer SECRET".\n`,
        );
        return 0;
      }
      case 'list': {
        const tokens = await coordination.tokens.list();
        if (args.json) {
          output.out(`${JSON.stringify({ store: coordination.describe, tokens })}\n`);
          return 0;
        }
        if (tokens.length === 0) {
          output.err(`No token exists (${coordination.describe}); create one with: sextant token create NAME\n`);
          return 0;
        }
        for (const token of tokens)
          output.out(`${token.name}\t${token.admin ? 'admin' : '-'}\tcreated ${token.createdAt}\tlast used ${token.lastUsedAt ?? 'never'}\n`);
        return 0;
      }
      case 'revoke': {
        if (!(await coordination.tokens.revoke(args.name!))) {
          output.err(`sextant: no token named ${JSON.stringify(args.name)} exists\n`);
          return 1;
        }
        output.out(`Revoked ${args.name}: refused by every server within a few seconds\n`);
        return 0;
      }
    }
  } finally {
    await coordination.close();
  }
}
