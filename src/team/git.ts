/**
 * The system `git`, for projects served from a remote: what a branch points at (ls-remote), and
 * the exact commit fetched shallowly into a folder of the replica's own. Never a prompt (a remote
 * that wants a password fails), never an option smuggled in a URL, and never longer than a bound.
 */
import { withoutCredentials } from '../util/credentials.js';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { devNull } from 'node:os';
import { join } from 'node:path';

/** How long one git command may run before it is stopped and reported. */
const GIT_TIMEOUT_MS = 120_000;
const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** git could not do what was asked: the code says which kind of failure, the message says why. */
class GitError extends Error {
  constructor(
    readonly code: 'git_unreachable' | 'git_ref_unknown' | 'git_failed' | 'git_missing',
    message: string,
  ) {
    // git's own words and ours name the remote: never with the credentials written into its URL.
    super(withoutCredentials(message));
    this.name = 'GitError';
  }
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The transports a remote may use: never `ext::` (runs a command) or `fd::`, whatever a URL asks. */
const ALLOWED_PROTOCOLS = ['file', 'git', 'http', 'https', 'ssh'];

/** What git may still take from the environment: how to reach a remote, which its configuration no longer says. */
const KEPT_GIT_VARIABLES = new Set(['GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_SSH_VARIANT', 'GIT_SSL_CAINFO', 'GIT_SSL_CAPATH', 'GIT_PROXY_COMMAND']);

/**
 * git's environment: none of the replica's system or user configuration (an `insteadOf` there
 * would send a fetch elsewhere), none of the GIT_* variables that point it at another repository
 * or inject configuration, no prompt for a password, no pager, and only the allowed protocols.
 */
function isolatedEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept = Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('GIT_') || KEPT_GIT_VARIABLES.has(name)));
  return {
    ...kept,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: devNull,
    GIT_ALLOW_PROTOCOL: ALLOWED_PROTOCOLS.join(':'),
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'true',
    SSH_ASKPASS: 'true',
    GIT_PAGER: 'cat',
    LC_ALL: 'C',
  };
}

function git(args: string[], cwd?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: isolatedEnv(process.env),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      stderr += `\ngit ${args[0]} took longer than ${GIT_TIMEOUT_MS / 1000} s and was stopped`;
    }, GIT_TIMEOUT_MS);
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === 'ENOENT' ? new GitError('git_missing', 'git is not installed (or not on PATH): projects from a git remote need it') : error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The last line git wrote that says what went wrong (its "fatal:" line, when there is one). */
function gitReason(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return (lines.find((line) => line.startsWith('fatal:')) ?? lines.at(-1) ?? 'no message').replace(/^fatal:\s*/, '');
}

function checkUrl(url: string): void {
  if (url.startsWith('-') || /\s/.test(url)) throw new GitError('git_unreachable', `${JSON.stringify(url)} is not a git remote URL`);
}

/**
 * The remote's default branch (what HEAD points at), for a project added without --ref. A HEAD
 * that names no branch the remote has (a bare repository made with `master` and pushed only
 * `main`) leaves the one branch there is, or the choice to the caller, with the branches named.
 */
export async function defaultBranch(url: string): Promise<string> {
  checkUrl(url);
  const run = await git(['ls-remote', '--symref', '--', url, 'HEAD']);
  if (run.code !== 0) throw new GitError('git_unreachable', `git cannot read ${url}: ${gitReason(run.stderr)}`);
  const branch = /^ref: refs\/heads\/(\S+)\s+HEAD$/m.exec(run.stdout)?.[1];
  if (branch) return branch;
  const heads = await git(['ls-remote', '--heads', '--', url]);
  if (heads.code !== 0) throw new GitError('git_unreachable', `git cannot read ${url}: ${gitReason(heads.stderr)}`);
  const branches = [...heads.stdout.matchAll(/\trefs\/heads\/(\S+)$/gm)].map((match) => match[1]!);
  if (branches.length === 1) return branches[0]!;
  if (branches.length === 0) throw new GitError('git_ref_unknown', `${url} has no branches (an empty repository?): push one, or give a tag with --ref`);
  const listed = branches.length > 10 ? `${branches.slice(0, 10).join(', ')}, …` : branches.join(', ');
  throw new GitError(
    'git_ref_unknown',
    `${url} has no default branch (its HEAD names none of its ${branches.length} branches: ${listed}): give one with --ref`,
  );
}

/** The commit `ref` (a branch or a tag) points at on the remote now. */
export async function resolveRef(url: string, ref: string): Promise<string> {
  checkUrl(url);
  const run = await git(['ls-remote', '--', url, `refs/heads/${ref}`, `refs/tags/${ref}`, `refs/tags/${ref}^{}`]);
  if (run.code !== 0) throw new GitError('git_unreachable', `git cannot read ${url}: ${gitReason(run.stderr)}`);
  const lines = run.stdout.split('\n').filter(Boolean);
  // An annotated tag's commit is the peeled line (^{}); a branch or a lightweight tag has one line.
  const line = lines.find((entry) => entry.endsWith(`refs/tags/${ref}^{}`)) ?? lines.find((entry) => entry.endsWith(`refs/heads/${ref}`)) ?? lines[0];
  const commit = line?.split('\t')[0];
  if (!commit || !COMMIT.test(commit)) throw new GitError('git_ref_unknown', `${url} has no branch or tag named ${JSON.stringify(ref)}`);
  return commit;
}

/**
 * A file's bytes as `commit` has them, from the objects of the work tree at `dir` (a commit it
 * checked out before, and still holds); undefined when that commit has no such file. While a
 * replica checks out a new commit and indexes it, the files answers read come from here: the
 * commit still served, not the one on disk.
 */
export function fileAtCommit(dir: string, commit: string, path: string): Promise<Buffer | undefined> {
  if (!COMMIT.test(commit)) return Promise.reject(new GitError('git_failed', `${JSON.stringify(commit)} is not a commit id`));
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', 'blob', `${commit}:${path}`], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'], env: isolatedEnv(process.env) });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve(code === 0 ? Buffer.concat(chunks) : undefined));
  });
}

/**
 * Makes `dir` a work tree of exactly `commit` from `url`: a shallow fetch of that commit alone,
 * then a forced checkout, and files the commit does not have removed. What changed between two
 * commits is what changed on disk, so the index follows with a sync.
 */
export async function checkoutCommit(url: string, commit: string, dir: string): Promise<void> {
  checkUrl(url);
  if (!COMMIT.test(commit)) throw new GitError('git_failed', `${JSON.stringify(commit)} is not a commit id`);
  mkdirSync(dir, { recursive: true });
  const steps: string[][] = [
    ['init', '-q'],
    ['fetch', '-q', '--depth', '1', '--no-tags', '--', url, commit],
    ['-c', 'advice.detachedHead=false', 'checkout', '-q', '--force', '--detach', commit],
    ['clean', '-q', '-d', '-f', '-f', '-x'],
  ];
  for (const args of steps) {
    const run = await git(args, dir);
    if (run.code === 0) continue;
    const reason = gitReason(run.stderr);
    if (args[0] === 'fetch')
      throw new GitError(
        /not our ref|no such remote ref|unadvertised/i.test(reason) ? 'git_ref_unknown' : 'git_unreachable',
        `git cannot fetch ${commit} from ${url}: ${reason}`,
      );
    throw new GitError('git_failed', `git ${args.find((arg) => !arg.startsWith('-') && !arg.includes('='))} failed in the checkout: ${reason}`);
  }
}

/** The commit `dir` has checked out, or undefined when it is no work tree yet. */
export async function checkedOut(dir: string): Promise<string | undefined> {
  // A folder with no .git of its own would answer for a repository above it.
  if (!existsSync(join(dir, '.git'))) return undefined;
  const run = await git(['rev-parse', '--verify', '-q', 'HEAD'], dir).catch(() => undefined);
  const commit = run?.code === 0 ? run.stdout.trim() : '';
  return COMMIT.test(commit) ? commit : undefined;
}
