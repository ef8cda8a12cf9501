/** Real `sextant serve --transport http` processes for tests that need more than one server. */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { request } from 'undici';
import * as assert from 'uvu/assert';
import { BIN } from './process.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `sextant serve --transport http` as a real process with its own SEXTANT_HOME, on a free port; resolves once /health answers. */
export async function serveProcess(home: string, env: Record<string, string> = {}, args: string[] = ['--profile', 'conformance']) {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve', '--transport', 'http', '--port', String(port), '--log-level', 'warning', ...args], {
    env: { ...process.env, SEXTANT_HOME: home, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}/mcp`;
  for (let tries = 0; ; tries++) {
    try {
      await (await request(`http://127.0.0.1:${port}/health`)).body.text();
      break;
    } catch {
      assert.ok(tries < 300, `the server did not start: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    child,
    stderr: () => stderr,
    stop: () => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM')))),
  };
}
