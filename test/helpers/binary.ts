/**
 * The single executable (dist/sextant), built by scripts/build-binary.mjs when it is missing or
 * older than the bundle it is made from, then copied alone into an empty folder: no node on
 * PATH, no node_modules beside it, nothing but what the binary carries.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './process.js';

const BINARY = join(ROOT, 'dist/sextant');

function ensureBuilt(): void {
  const bundle = join(ROOT, 'dist/sextant.mjs');
  if (existsSync(BINARY) && statSync(BINARY).mtimeMs >= statSync(bundle).mtimeMs) return;
  // The build prints no noise: postject's notes about ELF sections are held back by the script
  // (issue 25), and what it prints is checked here. A failure still throws with its output.
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts/build-binary.mjs')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const output = `${build.stdout}${build.stderr}`;
  if (build.status !== 0) throw new Error(`build:binary failed (${build.status}):\n${output}`);
  // postject's own notes only: the environment may add Node's (NO_COLOR beside FORCE_COLOR, say).
  if (/Can't find string offset|postject|LIEF/i.test(output)) throw new Error(`build:binary printed postject's warnings:\n${output}`);
}

export interface Alone {
  /** The folder holding the binary and nothing else of Sextant's. */
  dir: string;
  binary: string;
  /** A copy of test/fixtures/polyglot to index. */
  project: string;
  /** The whole environment the binary runs with. */
  env: NodeJS.ProcessEnv;
}

export function binaryAlone(): Alone {
  ensureBuilt();
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-binary-')));
  const binary = join(dir, 'sextant');
  copyFileSync(BINARY, binary);
  const project = join(dir, 'project');
  cpSync(join(ROOT, 'test/fixtures/polyglot'), project, { recursive: true });
  const emptyPath = join(dir, 'no-tools');
  mkdirSync(emptyPath);
  return { dir, binary, project, env: { HOME: dir, PATH: emptyPath, SEXTANT_HOME: join(dir, 'index-home') } };
}

export function runAlone(alone: Alone, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(alone.binary, args, { cwd: alone.dir, env: alone.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The Node 24 the binary is built on, fetched and cached by scripts/build-binary.mjs (its pinned
 * version is read from there): the other runtime the bundle must run on.
 */
export function node24(): string {
  ensureBuilt();
  const script = readFileSync(join(ROOT, 'scripts/build-binary.mjs'), 'utf8');
  const version = /const NODE_VERSION = '([\d.]+)'/.exec(script)?.[1];
  const cache = process.env.SEXTANT_NODE_CACHE ?? join(ROOT, 'node_modules/.cache/sextant-node');
  const binary = join(cache, version ?? '?', 'package/bin/node');
  if (!existsSync(binary)) throw new Error(`no Node ${version} at ${binary}: run npm run build:binary`);
  return binary;
}
