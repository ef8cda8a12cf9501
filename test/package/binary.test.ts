/**
 * The single executable, copied alone into an empty folder with no node on PATH: it indexes
 * (extraction and parser threads included), searches, outlines and serves MCP on every
 * transport, both protocol eras, and answers as the .mjs bundle does.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import { test } from 'uvu';
import { WebSocket } from 'ws';
import * as assert from 'uvu/assert';
import { VERSION } from '../../src/version.js';
import { binaryAlone, runAlone, type Alone } from '../helpers/binary.js';
import { ROOT, runCli } from '../helpers/process.js';
import { request } from 'undici';
import { freePort } from '../helpers/serve-http.js';
import { SERVER_HEAP_MARK, SERVER_SEMI_SPACE_MB } from '../../src/cli/server-heap.js';

// The SDK's WebSocket client uses the global WebSocket, which Node 20 lacks.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

/** Enough files for the parallel build (PARALLEL_BUILD_FILES) and for many parser batches. */
const GENERATED_FILES = 1_200;

let alone: Alone;

test.before(() => {
  try {
    alone = binaryAlone();
  } catch (error) {
    // uvu runs no test of a suite whose before hook throws, and says nothing of why.
    console.error('binary.test.ts: the binary could not be prepared:', error);
    throw error;
  }
  const generated = join(alone.project, 'gen');
  mkdirSync(generated);
  for (let i = 0; i < GENERATED_FILES; i++)
    writeFileSync(join(generated, `unit_${i}.ts`), `export function generatedUnit${i}(value: number): number {\n  return value + ${i};\n}\n`);
});

test('alone in an empty folder, the binary indexes, searches, finds symbols and outlines, as the bundle does', async () => {
  const version = await runAlone(alone, ['--version']);
  assert.is(version.stdout.trim(), VERSION);

  const index = await runAlone(alone, ['index', alone.project]);
  assert.is(index.code, 0, index.stderr);
  assert.match(index.stdout, `Indexed ${GENERATED_FILES + 12} files`);
  assert.match(index.stdout, /Symbols: \d+ in 1209 files \(1209 parsed/);
  assert.not.match(index.stderr, /Warning/);

  // The same index read by the bundle (on this machine's node) answers the same lines.
  const bundleEnv = { SEXTANT_HOME: alone.env.SEXTANT_HOME! };
  for (const args of [
    ['search', 'getUserById', alone.project],
    ['search', '--regex', 'generatedUnit11\\d\\d\\b', alone.project],
    ['symbols', 'saveUser', alone.project],
    ['symbols', 'generatedUnit1199', alone.project],
    ['outline', join(alone.project, 'src/store/user-store.ts')],
  ]) {
    const binary = await runAlone(alone, args);
    assert.is(binary.code, 0, `${args.join(' ')}: ${binary.stderr}`);
    assert.ok(binary.stdout.length > 0);
    const bundle = await runCli(args, '', bundleEnv);
    assert.is(binary.stdout, bundle.stdout, args.join(' '));
  }
  assert.match((await runAlone(alone, ['search', 'generatedUnit1199', alone.project])).stdout, 'gen/unit_1199.ts:1:');

  const missing = await runAlone(alone, ['search', 'x', join(alone.dir, 'nowhere')]);
  assert.is(missing.code, 2);
});

async function codeTools(client: Client, transport: Transport): Promise<void> {
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.some((tool) => tool.name === 'search_code'));
    const search = await client.callTool({ name: 'search_code', arguments: { query: 'getUserById' } });
    assert.not.ok(search.isError, JSON.stringify(search));
    assert.match(JSON.stringify(search.content), 'src/store/user-store.ts');
    const symbol = await client.callTool({ name: 'locate_symbol', arguments: { name: 'generatedUnit1199' } });
    assert.not.ok(symbol.isError, JSON.stringify(symbol));
    assert.match(JSON.stringify(symbol.content), 'gen/unit_1199.ts');
  } finally {
    await client.close();
  }
}

test('the binary serves MCP over stdio to the official SDK clients of both eras', async () => {
  const args = ['serve', '--workspace', alone.project, '--log-level', 'warning'];
  await codeTools(
    new Client({ name: 'binary-test', version: '1.0.0' }),
    new StdioClientTransport({ command: alone.binary, args, env: alone.env as Record<string, string>, cwd: alone.dir, stderr: 'pipe' }),
  );

  const modern = new V2Client({ name: 'binary-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await modern.connect(new V2StdioTransport({ command: alone.binary, args, env: alone.env as Record<string, string>, cwd: alone.dir, stderr: 'pipe' }));
  try {
    assert.is(modern.getNegotiatedProtocolVersion(), '2026-07-28');
    const search = await modern.callTool({ name: 'search_code', arguments: { query: 'getUserById' } });
    assert.match(JSON.stringify(search.content), 'src/store/user-store.ts');
  } finally {
    await modern.close();
  }
});

test('the binary serves Streamable HTTP, legacy HTTP+SSE and WebSocket on one port', async () => {
  const port = await freePort();
  const server = spawn(alone.binary, ['serve', '--transport', 'http', '--port', String(port), '--workspace', alone.project, '--log-level', 'info'], {
    cwd: alone.dir,
    env: alone.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
  try {
    let stderr = '';
    // Ready when it says where it listens (it logs every URL once the port is bound).
    await new Promise<void>((resolve, reject) => {
      server.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/Health: +http:\/\/127\.0\.0\.1:\d+\/health/.test(stderr)) resolve();
      });
      server.on('exit', (code) => reject(new Error(`the binary exited ${code}: ${stderr}`)));
    });
    // `serve` started itself again in place (the same pid) with Node 20's young generation (server-heap.ts).
    const environ = readFileSync(`/proc/${server.pid}/environ`, 'utf8').split('\0');
    assert.ok(environ.includes(`${SERVER_HEAP_MARK}=1`), 'the serving process is the restarted one');
    assert.ok(
      environ.includes(`NODE_OPTIONS=--max-semi-space-size=${SERVER_SEMI_SPACE_MB}`),
      environ.filter((entry) => entry.startsWith('NODE_OPTIONS')).join(),
    );
    const base = `http://127.0.0.1:${port}`;
    await codeTools(new Client({ name: 'binary-test', version: '1.0.0' }), new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    await codeTools(new Client({ name: 'binary-test', version: '1.0.0' }), new SSEClientTransport(new URL(`${base}/sse`)));
    await codeTools(new Client({ name: 'binary-test', version: '1.0.0' }), new WebSocketClientTransport(new URL(`ws://127.0.0.1:${port}/ws`)));
    // The web page travels inside the binary (its assets), with nothing beside it.
    const page = await request(`${base}/`);
    assert.is(page.statusCode, 200);
    assert.match(await page.body.text(), '<script type="module" src="/assets/app.js"></script>');
    const script = await request(`${base}/assets/app.js`);
    assert.is(script.statusCode, 200);
    assert.equal(Buffer.from(await script.body.arrayBuffer()), readFileSync(join(ROOT, 'dist/web/app.js')), 'the page built with the bundle');
  } finally {
    server.kill('SIGTERM');
    assert.is(await exited, 0);
  }
});

test.run();
