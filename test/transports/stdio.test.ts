import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseRecording } from '../../src/record/format.js';
import { createSextantServer } from '../../src/server.js';
import { serveStdio } from '../../src/transports/stdio.js';
import { initializeLine, startServer, stopAll } from '../helpers/process.js';
import { schemaProblems, TrafficChecker } from '../helpers/schema.js';
import { tick } from '../helpers/wait.js';

const line = (message: unknown): string => `${JSON.stringify(message)}\n`;

test.after.each(stopAll);

test('real process: speaks MCP on stdout only, logs to stderr, survives a malformed line, exits 0 on EOF', async () => {
  const server = startServer(['serve', '--profile', 'conformance']);
  const checker = new TrafficChecker();
  const sent = [JSON.parse(initializeLine()), { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }];
  for (const message of sent) checker.incoming(message);
  server.send(initializeLine());
  server.send(line(sent[1]));
  server.send('this is not json\n');
  server.send(`${JSON.stringify(sent[2])}\r\n`); // CRLF framing works too
  const answers = await server.waitForLines(3);
  for (const answer of answers) checker.outgoing(answer);
  const byId = (id: unknown) => answers.find((a) => (a as { id?: unknown }).id === id) as Record<string, unknown>;
  assert.is((byId(1).result as { protocolVersion: string }).protocolVersion, '2025-11-25');
  assert.ok((byId(2).result as { tools: unknown[] }).tools.length > 1);
  const parseError = answers.find((a) => !('id' in (a as object))) as { error: { code: number } };
  assert.is(parseError.error.code, -32700);
  assert.equal(checker.problems, []);
  // A slow call still in flight at EOF is answered before the process exits.
  const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'test_tool_with_progress', _meta: { progressToken: 'p' } } };
  checker.incoming(call);
  server.send(line(call));
  server.child.stdin.end();
  const exit = await server.exit;
  assert.equal(exit, { code: 0, signal: null });
  const rest = server.lines.slice(3);
  for (const answer of rest) checker.outgoing(answer);
  assert.equal(
    rest.map((m) => (m as { method?: string }).method ?? 'response'),
    ['notifications/progress', 'notifications/progress', 'notifications/progress', 'response'],
  );
  assert.equal(checker.problems, []);
  assert.ok(
    server.lines.every((l) => !('notJson' in (l as object))),
    'stdout carries only JSON-RPC',
  );
  assert.match(server.stderr(), 'serving MCP over stdio');
  assert.match(server.stderr(), 'stdin closed');
});

test('real process: a line over the 10 MiB default limit gets -32600 without id; the next line is answered', async () => {
  const server = startServer();
  const huge = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(10 * 1024 * 1024)}"}}\n`;
  server.send(huge);
  server.send(line({ jsonrpc: '2.0', id: 2, method: 'ping' }));
  const [tooBig, pong] = (await server.waitForLines(2, 10_000)) as Array<Record<string, unknown>>;
  assert.equal(Object.keys(tooBig!).sort(), ['error', 'jsonrpc']);
  assert.is((tooBig!.error as { code: number }).code, -32600);
  assert.match((tooBig!.error as { message: string }).message, /exceeds the 10485760-byte limit/);
  assert.equal(pong, { jsonrpc: '2.0', id: 2, result: {} });
  assert.equal(schemaProblems([{ jsonrpc: '2.0', id: 2, method: 'ping' }], [tooBig, pong]), []);
  server.child.stdin.end();
  assert.is((await server.exit).code, 0);
});

test('real process: SIGTERM shuts down at once with exit code 0', async () => {
  const server = startServer();
  server.send(initializeLine());
  const [initialized] = await server.waitForLines(1);
  assert.equal(schemaProblems([JSON.parse(initializeLine())], [initialized]), []);
  server.child.kill('SIGTERM');
  assert.equal(await server.exit, { code: 0, signal: null });
  assert.match(server.stderr(), 'SIGTERM');
});

test('in process: a small line limit, invalid UTF-8, and backpressure-safe ordered writes', async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  const connection = serveStdio(createSextantServer(), { input, output, maxLineBytes: 256 });
  const received: Array<Record<string, unknown>> = [];
  let buffered = '';
  output.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const part of parts) received.push(JSON.parse(part));
  });
  const oversized = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'y'.repeat(300)}"}}`;
  input.write(`${oversized}\n`);
  input.write(Buffer.from([0x7b, 0xc3, 0x28, 0x7d, 0x0a]));
  for (let id = 10; id < 20; id++) input.write(line({ jsonrpc: '2.0', id, method: 'ping' }));
  input.end();
  await connection.closed;
  await tick();
  assert.is((received[0]!.error as { code: number }).code, -32600);
  assert.equal((received[0]!.error as { data: unknown }).data, { bytes: Buffer.byteLength(oversized), limit: 256 });
  assert.is((received[1]!.error as { code: number }).code, -32700);
  assert.match((received[1]!.error as { message: string }).message, 'UTF-8');
  assert.equal(
    received.slice(2).map((r) => r.id),
    [10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
  );
  assert.ok(output.writableEnded, 'stdout is ended after EOF');
  const pings = Array.from({ length: 10 }, (_, i) => ({ jsonrpc: '2.0', id: 10 + i, method: 'ping' }));
  assert.equal(schemaProblems(pings, received), []);
});

test('--record writes every message both ways as JSONL with time and session', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-record-'));
  const file = join(dir, 'session.jsonl');
  const server = startServer(['serve', '--record', file]);
  server.send(initializeLine(1, '2025-06-18'));
  server.send(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  server.send('oops\n');
  server.send(line({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'health_check' } }));
  await server.waitForLines(3);
  server.child.stdin.end();
  await server.exit;
  const entries = parseRecording(readFileSync(file, 'utf8'));
  const directions = entries.map((e) => ('dir' in e ? e.dir : 'meta'));
  assert.is(directions.filter((d) => d === 'in').length, 4);
  assert.is(directions.filter((d) => d === 'out').length, 3);
  const sessions = new Set(entries.map((e) => ('session' in e ? e.session : '')));
  assert.is(sessions.size, 1);
  assert.match([...sessions][0]!, /^stdio-/);
  assert.ok(entries.every((e) => 'time' in e && !Number.isNaN(Date.parse(e.time!))));
  const raw = entries.find((e) => 'raw' in e);
  assert.equal(raw && 'raw' in raw ? raw.raw : undefined, 'oops');
});

test.run();
