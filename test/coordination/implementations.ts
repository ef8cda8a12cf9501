/**
 * The implementations of the coordination seam every contract test runs against: the files of one
 * home, and PostgreSQL (a real server, a new database per test). Each must pass the same tests.
 * Handles opened here are closed by `closeOpened` (each test file runs it after each test).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCoordination, type Coordination } from '../../src/coordination/index.js';
import { sharedPostgres } from '../helpers/postgres.js';

export interface Implementation {
  name: string;
  /** Two handles on the same shared state, as two processes of one home would have. */
  open(): Promise<[Coordination, Coordination]>;
  /**
   * The source a child process runs to open its own handle on the state of `open()`'s last call,
   * bound to `coordination`; the caller's code follows it.
   */
  childPrelude(): string;
}

let lastHome = '';
let lastUrl = '';
const opened: Coordination[] = [];
const MODULE = JSON.stringify(new URL('../../src/coordination/index.js', import.meta.url).href);

async function pair(open: () => Promise<Coordination>): Promise<[Coordination, Coordination]> {
  const handles: [Coordination, Coordination] = [await open(), await open()];
  opened.push(...handles);
  return handles;
}

export const implementations: Implementation[] = [
  {
    name: 'files',
    open: () => {
      lastHome = mkdtempSync(join(tmpdir(), 'sextant-home-'));
      return pair(() => openCoordination(lastHome, { env: {} }));
    },
    childPrelude: () =>
      `const { openCoordination } = await import(${MODULE});\n` + `const coordination = await openCoordination(${JSON.stringify(lastHome)}, { env: {} });\n`,
  },
  {
    name: 'postgres',
    open: async () => {
      lastUrl = await (await sharedPostgres()).database();
      return pair(() => openCoordination('', { env: {}, databaseUrl: lastUrl }));
    },
    childPrelude: () =>
      `const { openCoordination } = await import(${MODULE});\n` +
      `const coordination = await openCoordination('', { env: {}, databaseUrl: ${JSON.stringify(lastUrl)} });\n`,
  },
];

/** Closes every handle `open()` gave (their connections would keep the test process alive). */
export async function closeOpened(): Promise<void> {
  await Promise.all(opened.splice(0).map((handle) => handle.close()));
}

/** Runs `body` (an async module body using `coordination`) in `count` processes at once; their stdout, one per process. */
export async function inProcesses(implementation: Implementation, count: number, body: (index: number) => string): Promise<string[]> {
  const runs = Array.from({ length: count }, (_, index) => {
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', `${implementation.childPrelude()}try {\n${body(index)}\n} finally {\n  await coordination.close();\n}\n`],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk));
    return new Promise<string>((resolve, reject) =>
      child.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`child ${index} exited ${code}: ${err}`)))),
    );
  });
  return Promise.all(runs);
}

const LINE_DEADLINE_MS = 30_000;

/** A handle held open by another process: its owner string, the lines it prints, and how to end it (closing the handle). */
export interface HeldProcess {
  self: string;
  /** Wakes the process's `process.on('SIGUSR2', ...)` handler, if its body set one. */
  signal(): void;
  /** Resolves with the first line the process prints that `match` accepts. */
  line(match: (line: string) => boolean): Promise<string>;
  finish(): Promise<void>;
}

/** Starts a process that opens a handle, runs `body`, prints its owner string, and holds on until finish(). */
export async function holdInProcess(implementation: Implementation, body = ''): Promise<HeldProcess> {
  const source = `${implementation.childPrelude()}${body}\nconsole.log('self ' + coordination.tasks.self);\nprocess.stdin.resume();\nprocess.stdin.on('end', async () => { await coordination.close(); process.exit(0); });\n`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const waiting: Array<{ match: (line: string) => boolean; resolve: (line: string) => void }> = [];
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      lines.push(line);
      for (const waiter of waiting.filter((w) => w.match(line))) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const line = (match: (line: string) => boolean): Promise<string> => {
    const seen = lines.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    let deadline: NodeJS.Timeout | undefined;
    return Promise.race([
      new Promise<string>((resolve) => waiting.push({ match, resolve })),
      exited.then(() => Promise.reject(new Error(`the process ended before printing the line wanted; it printed: ${lines.join(' | ')}`))),
      // A deadline that fails the test instead of hanging the run, not a wait for something to happen.
      new Promise<string>(
        (_, reject) => (deadline = setTimeout(() => reject(new Error(`never printed the line wanted: ${lines.join(' | ')}`)), LINE_DEADLINE_MS)),
      ),
    ]).finally(() => clearTimeout(deadline));
  };
  const self = (await line((text) => text.startsWith('self '))).slice('self '.length);
  return {
    self,
    line,
    signal: () => child.kill('SIGUSR2'),
    finish: async () => {
      child.stdin.end();
      await exited;
    },
  };
}
