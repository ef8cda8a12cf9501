/** Runs the built server (dist/sextant.mjs) as a real child process speaking NDJSON over stdio. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eventually } from './wait.js';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const BIN = fileURLToPath(new URL('../../../dist/sextant.mjs', import.meta.url));

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  /** Every stdout line, parsed; a line that is not JSON is kept as { notJson: line }. */
  lines: unknown[];
  stderr(): string;
  send(text: string): void;
  /** Resolves with the first match of `pattern` in stderr (or rejects after `timeoutMs`). */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves once `count` stdout lines have arrived (or rejects after `timeoutMs`). */
  waitForLines(count: number, timeoutMs?: number): Promise<unknown[]>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const EXIT_TIMEOUT_MS = 15_000;
const running = new Set<ChildProcessWithoutNullStreams>();

/** Kills whatever a failed test left running, so that one failure cannot hang the whole run. */
export function stopAll(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/** `nodeFlags`: given to node before the bundle (`--max-semi-space-size=16`). */
export function startServer(args: string[] = ['serve'], env: NodeJS.ProcessEnv = {}, nodeFlags: string[] = []): ServerProcess {
  const child = spawn(process.execPath, [...nodeFlags, BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  running.add(child);
  child.on('exit', () => running.delete(child));
  const lines: unknown[] = [];
  let buffered = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      try {
        lines.push(JSON.parse(line));
      } catch {
        lines.push({ notJson: line });
      }
    }
    for (const wake of waiters) wake();
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
    for (const wake of waiters) wake();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    // Bounded, so that a server that fails to exit fails the test instead of hanging the run.
    const timer = setTimeout(() => reject(new Error(`Server did not exit within ${EXIT_TIMEOUT_MS} ms; stderr: ${stderr}`)), EXIT_TIMEOUT_MS);
    timer.unref();
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
  exit.catch(() => {});
  return {
    child,
    lines,
    stderr: () => stderr,
    send: (text) => void child.stdin.write(text),
    exit,
    waitForStderr(pattern, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const match = stderr.match(pattern);
          if (!match) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(match);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`Timed out waiting for ${pattern} on stderr: ${stderr}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    waitForLines(count, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (lines.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(lines.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`Timed out waiting for ${count} lines; got ${JSON.stringify(lines)}; stderr: ${stderr}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

export { initializeLine } from './messages.js';

/** Runs the CLI to completion and returns its output. */
export function runCli(args: string[], input = '', env: NodeJS.ProcessEnv = {}, cwd = ROOT): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/**
 * Runs `sextant <command> <root>` and kills it with SIGKILL as soon as its job journal exists,
 * that is, mid-job: the crash the index must survive.
 */
export async function killMidJob(command: 'index' | 'sync', root: string, home: string, journalPath: string): Promise<void> {
  const { existsSync } = await import('node:fs');
  const child = spawn(process.execPath, [BIN, command, root], { env: { ...process.env, SEXTANT_HOME: home }, stdio: 'ignore' });
  await eventually(() => existsSync(journalPath), 'the job wrote its journal', 10_000, 2);
  child.kill('SIGKILL');
  await new Promise((resolve) => child.on('exit', resolve));
}

/**
 * What a server started through an SDK stdio transport must inherit besides the SDK's few
 * defaults: the run's temp and cache folders (scripts/test.mjs), so that it writes nowhere else.
 */
export function serverEnv(env: Record<string, string> = {}): Record<string, string> {
  const inherited: Record<string, string> = {};
  for (const key of ['TMPDIR', 'XDG_CACHE_HOME', 'SEXTANT_HOME']) if (process.env[key] !== undefined) inherited[key] = process.env[key]!;
  return { ...inherited, ...env };
}

/** A pid that was alive and is not any more: what a lease holder killed with -9 leaves behind. */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  const pid = child.pid!;
  await new Promise((resolve) => child.on('exit', resolve));
  return pid;
}
