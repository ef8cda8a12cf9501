/**
 * Where indexes live: `$SEXTANT_HOME` (else `$XDG_CACHE_HOME/sextant`, else `~/.cache/sextant`),
 * with one folder per project under `projects/`, named after the project's last path component
 * and keyed by a digest of its real path.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { crypto } from '../../util/lazy-crypto.js';

export function sextantHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SEXTANT_HOME) return env.SEXTANT_HOME;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'sextant');
  return join(homedir(), '.cache', 'sextant');
}

/** A project folder's name before its key: the root's last component, made safe for a file name. */
export function folderStem(realRoot: string): string {
  return basename(realRoot).replace(/[^A-Za-z0-9._-]/g, '_') || 'root';
}

/** The folder of one project's index, keyed by the project's real path. */
export function projectDir(realRoot: string, home = sextantHome()): string {
  const key = crypto().createHash('sha256').update(realRoot).digest('hex').slice(0, 16);
  return join(home, 'projects', `${folderStem(realRoot)}-${key}`);
}

/** `<stem>-<16 hex digits>`: the stem of a project folder's name. */
export const PROJECT_FOLDER = /^(.+)-[0-9a-f]{16}$/;

/**
 * Every index folder under `home`, with what its manifest says, read leniently (a damaged one
 * still lists): the root it names (undefined: none, or unreadable), its files and last update.
 */
export function indexFolders(home = sextantHome()): Array<{ dir: string; root: string | undefined; files: number; updatedAt: string | null }> {
  let names: string[];
  try {
    names = readdirSync(join(home, 'projects'));
  } catch {
    return [];
  }
  return names
    .filter((name) => PROJECT_FOLDER.test(name))
    .sort()
    .map((name) => {
      const dir = join(home, 'projects', name);
      const manifest = ((): { root?: unknown; files?: unknown; updatedAt?: unknown } | null => {
        try {
          return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { root?: unknown } | null;
        } catch {
          return null; // none, or unreadable
        }
      })();
      return {
        dir,
        root: typeof manifest?.root === 'string' ? manifest.root : undefined,
        files: typeof manifest?.files === 'number' ? manifest.files : 0,
        updatedAt: typeof manifest?.updatedAt === 'string' ? manifest.updatedAt : null,
      };
    });
}
