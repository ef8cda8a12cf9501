/**
 * Connections are bounded before any request (http-connections.ts): one that never sends a byte
 * is closed at the header timeout, and past --max-connections new ones are refused at once while
 * the server keeps answering the connections it holds.
 */
import { connect, type Socket } from 'node:net';
import { Client, request } from 'undici';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Logger } from '../../src/platform/log.js';
import { initializeBody, JSON_AND_SSE, startTestHttp } from '../helpers/http.js';
import { runCli } from '../helpers/process.js';
import { eventually } from '../helpers/wait.js';

/** Opens `count` sockets that send nothing; each records when the server closes it. */
async function silentSockets(port: number, count: number): Promise<{ sockets: Socket[]; closed: () => number }> {
  let closed = 0;
  const sockets = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Socket>((resolve) => {
          const socket = connect(port, '127.0.0.1', () => resolve(socket));
          socket.on('close', () => closed++);
          socket.on('error', () => undefined);
        }),
    ),
  );
  return { sockets, closed: () => closed };
}

test('a connection that never sends a byte is closed at the header timeout; one that sends a request is served', async () => {
  const http = await startTestHttp({ headersTimeoutMs: 300 });
  try {
    const silent = await silentSockets(http.port, 50);
    await eventually(() => silent.closed() === 50, 'every silent connection is closed', 15_000);
    const response = await request(http.urls.health);
    await response.body.text();
    assert.is(response.statusCode, 200, 'the server still answers');
  } finally {
    await http.close();
  }
});

test('past --max-connections new connections are refused at once, while a client already connected keeps working', async () => {
  const warnings: string[] = [];
  const logger: Logger = { debug() {}, info() {}, warning: (message) => void warnings.push(message), error() {} };
  // Silent connections are given long enough to outlast the test: here they stand for a flood.
  const http = await startTestHttp({ maxConnections: 20, headersTimeoutMs: 120_000, requestTimeoutMs: 120_000, logger });
  const client = new Client(`http://127.0.0.1:${http.port}`, { pipelining: 1, connections: 1 } as ConstructorParameters<typeof Client>[1]);
  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const response = await client.request({ path: '/mcp', method: 'POST', headers: { ...JSON_AND_SSE, ...headers }, body: JSON.stringify(body) });
    return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
  };
  let flood: Awaited<ReturnType<typeof silentSockets>> | undefined;
  try {
    const initialized = await post(initializeBody());
    assert.is(initialized.status, 200);
    const session = String(initialized.headers['mcp-session-id']);
    flood = await silentSockets(http.port, 60);
    // One place is the client's: of the sixty, nineteen are held and the rest refused as they arrive.
    await eventually(() => flood!.closed() === 41, `41 of 60 refused (${flood!.closed()} so far)`, 15_000);
    const ping = await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
    assert.is(ping.status, 200, 'the connected client is answered');
    assert.match(ping.text, '"result":{}');
    assert.ok(
      warnings.some((line) => line.includes('At the limit of 20 open connections')),
      warnings.join('\n'),
    );
    for (const socket of flood.sockets) socket.destroy();
    const health = async (): Promise<boolean> => {
      const response = await request(http.urls.health).catch(() => undefined);
      await response?.body.text();
      return response?.statusCode === 200;
    };
    await eventually(health, 'new connections are taken again');
  } finally {
    for (const socket of flood?.sockets ?? []) socket.destroy();
    await client.close();
    await http.close();
  }
});

test('--max-connections takes a whole number of at least 1', async () => {
  for (const value of ['0', 'many', '-3']) {
    const run = await runCli(['serve', '--transport', 'http', '--port', '0', '--max-connections', value]);
    assert.is(run.code, 2, value);
    assert.match(run.stderr, '--max-connections must be a whole number of at least 1');
  }
});

test.run();
