/** Real `sextant serve --transport http` processes for tests that need more than one server. */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { request } from 'undici';
import { BIN } from './process.js';
import { eventually } from './wait.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `sextant serve --transport http` as a real process with its own SEXTANT_HOME, on a free port; resolves once /health answers. */
export async function serveProcess(home: string, env: Record<string, string> = {}, args: string[] = ['--profile', 'conformance'], port?: number) {
  port ??= await freePort();
  const child = spawn(process.execPath, [BIN, 'serve', '--transport', 'http', '--port', String(port), '--log-level', 'warning', ...args], {
    env: { ...process.env, SEXTANT_HOME: home, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}/mcp`;
  const answers = async (): Promise<boolean> => {
    try {
      await (await request(`http://127.0.0.1:${port}/health`)).body.text();
      return true;
    } catch {
      return false;
    }
  };
  await eventually(answers, `the server answers /health (stderr: ${stderr})`, 15_000, 50);
  return {
    url,
    child,
    stderr: () => stderr,
    // A process killed by a signal has no exit code, only its signal: it is stopped as well.
    stop: () =>
      new Promise<void>((resolve) =>
        child.exitCode !== null || child.signalCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM')),
      ),
  };
}
