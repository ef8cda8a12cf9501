import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSextantServer } from '../../src/server.js';
import { silentLogger } from '../../src/platform/log.js';
import { serveStdio } from '../../src/transports/stdio.js';
import { initializeLine, startServer, stopAll } from '../helpers/process.js';

test.after.each(stopAll);

const listTools = (id: number): string => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' })}\n`;

test('real process: 300 answers of one batch, far more than a socket takes at once, arrive whole and in order', async () => {
  const server = startServer(['serve', '--log-level', 'silent']);
  server.send(initializeLine());
  await server.waitForLines(1);
  // One write: the server reads them together and answers them in one batch of megabytes.
  server.send(Array.from({ length: 300 }, (_, index) => listTools(index + 2)).join(''));
  const answers = (await server.waitForLines(301)).slice(1) as Array<{ id: number; result?: { tools: unknown[] } }>;
  assert.equal(
    answers.map((answer) => answer.id),
    Array.from({ length: 300 }, (_, index) => index + 2),
  );
  assert.ok(answers.every((answer) => (answer.result?.tools.length ?? 0) > 5));
});

test('in process: a reader that takes nothing for a while — what the descriptor refuses goes through the stream, in order', async () => {
  // A real socket to a child that reads nothing until told, then echoes everything back.
  const child = spawn(process.execPath, ['-e', "process.on('message', () => { process.stdin.pipe(process.stdout); process.disconnect(); })"], {
    stdio: ['pipe', 'pipe', 'inherit', 'ipc'],
  });
  const socket = child.stdin as Socket;
  const echoed = child.stdout!;
  const outputFd = (socket as unknown as { _handle: { fd: number } })._handle.fd;
  assert.ok(outputFd > 2, 'the socket has a descriptor');
  const input = new PassThrough();
  const connection = serveStdio(createSextantServer(), { input, output: socket, outputFd });
  input.write(initializeLine());
  // Batches in separate turns of the event loop: the first fills the socket, the rest queue behind it.
  for (let batch = 0; batch < 20; batch++) {
    input.write(Array.from({ length: 15 }, (_, index) => listTools(2 + batch * 15 + index)).join(''));
    await new Promise((resolve) => setImmediate(resolve));
  }
  await new Promise<void>((resolve, reject) => {
    // Bounded so that a regression fails instead of hanging the run; the state comes in milliseconds.
    const giveUp = setTimeout(() => reject(new Error('the stream never held anything back')), 10_000);
    const check = (): void => {
      if (socket.writableLength === 0) return void setImmediate(check);
      clearTimeout(giveUp);
      resolve();
    };
    check();
  });
  assert.ok(socket.writableLength > 0, 'the stream holds what the socket refused');
  let text = '';
  echoed.setEncoding('utf8');
  echoed.on('data', (chunk: string) => (text += chunk));
  const ended = new Promise((resolve) => echoed.once('end', resolve));
  child.send('go');
  await new Promise((resolve) => setImmediate(resolve));
  input.end();
  await connection.closed;
  await ended;
  const ids = text
    .trimEnd()
    .split('\n')
    .map((line) => (JSON.parse(line) as { id: number }).id);
  assert.equal(
    ids,
    Array.from({ length: 301 }, (_, index) => index + 1),
  );
  // Part of it never went through the stream: the descriptor took it directly.
  assert.ok(
    socket.bytesWritten > 0 && socket.bytesWritten < Buffer.byteLength(text),
    `${socket.bytesWritten} of ${Buffer.byteLength(text)} bytes through the stream`,
  );
});

test('in process: a reader gone (EPIPE on the descriptor) ends the session quietly, as a failing stream does', async () => {
  // A child that closes its end of the socket and stays: our writes then fail with EPIPE.
  const child = spawn(process.execPath, ['-e', "require('fs').closeSync(0); process.stdout.write('closed'); setTimeout(() => {}, 30000)"], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  try {
    const socket = child.stdin!;
    socket.on('error', () => {}); // the stream may meet the broken pipe too
    const outputFd = (socket as unknown as { _handle: { fd: number } })._handle.fd;
    await new Promise((resolve) => child.stdout!.once('data', resolve));
    const warnings: string[] = [];
    const logger = { ...silentLogger, warning: (message: string, detail?: unknown) => void warnings.push(`${message}: ${String(detail)}`) };
    const input = new PassThrough();
    const connection = serveStdio(createSextantServer(), { input, output: socket, outputFd, logger });
    input.write(initializeLine());
    await connection.closed;
    // The descriptor's error (`EPIPE: broken pipe, write`), not the stream's (`write EPIPE`): the answer was written directly.
    assert.equal(warnings, ['stdout failed; closing the session: EPIPE: broken pipe, write']);
  } finally {
    child.kill();
  }
});

test('in process: an output destroyed under the session (its reader exited) closes the session instead of dropping answers', async () => {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: ['pipe', 'ignore', 'inherit'] });
  const socket = child.stdin!;
  const warnings: string[] = [];
  const logger = { ...silentLogger, warning: (message: string) => void warnings.push(message) };
  const input = new PassThrough();
  const connection = serveStdio(createSextantServer(), { input, output: socket, logger });
  // The reader exits, and its end of the pipe is closed under the session. (Writing before that
  // raced the close: the answer could meet EPIPE first, the other test's case.)
  const closedUnder = new Promise((resolve) => socket.once('close', resolve));
  child.kill();
  await closedUnder;
  input.write(initializeLine());
  await connection.closed;
  assert.ok(socket.destroyed);
  assert.equal(warnings, ['stdout closed; closing the session']);
});

test.run();
