/**
 * A real git remote for the tests: a bare repository on disk (reached as file://), and a work
 * tree that commits and pushes to it with the system git.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface GitRemote {
  /** file:///…/origin.git */
  url: string;
  /** Writes the files (path → text), commits them on `branch` and pushes; the new commit's id. */
  push(files: Record<string, string>, branch?: string): string;
}

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' },
  }).trim();

/** `head`: the branch the bare repository's HEAD names (made as `git init --bare -b HEAD`), pushed to or not. */
export function gitRemote(options: { head?: string } = {}): GitRemote {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-git-'));
  const bare = join(dir, 'origin.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', options.head ?? 'main', bare]);
  const work = join(dir, 'work');
  execFileSync('git', ['init', '-q', '-b', 'main', work]);
  return {
    url: `file://${bare}`,
    push(files, branch = 'main') {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(work, path)), { recursive: true });
        writeFileSync(join(work, path), text);
      }
      git(work, 'add', '-A');
      git(work, 'commit', '-q', '-m', `change ${Object.keys(files).join(', ')}`);
      git(work, 'push', '-q', bare, `HEAD:refs/heads/${branch}`);
      return git(work, 'rev-parse', 'HEAD');
    },
  };
}
