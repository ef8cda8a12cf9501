/**
 * `sextant keys rotate`: a new key seals multi round-trip request state from now on, on every
 * server that shares the keys (SEXTANT_HOME's files, or the team database with --database-url).
 * States sealed with the previous key stay valid until they expire, so no round in flight breaks;
 * servers pick the new key up within a minute, or at once when a state names it.
 */
import { openCoordination } from '../coordination/index.js';
import { sextantHome } from '../index/store/index.js';
import type { Output } from './output.js';

export async function rotateKeys(databaseUrl: string | undefined, output: Output): Promise<number> {
  const coordination = await openCoordination(sextantHome(), { databaseUrl });
  try {
    const key = await coordination.keys.rotate();
    output.out(
      `Rotated the request-state key: ${key.id} seals from now on (${coordination.describe}); states sealed with the previous key stay valid ` +
        `until they expire\n`,
    );
    return 0;
  } finally {
    await coordination.close();
  }
}
