import { createServer } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { initializeBody, send } from '../helpers/http.js';
import { runCli, startServer, stopAll } from '../helpers/process.js';

test.after.each(stopAll);

/** A port that was free a moment ago. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

for (const transport of ['http', 'sse', 'ws']) {
  test(`serve --transport ${transport}: logs every URL, serves, and stops at once on SIGTERM`, async () => {
    const port = await freePort();
    const server = startServer(['serve', '--transport', transport, '--port', String(port)]);
    await server.waitForStderr(/Health: +http:\/\/127\.0\.0\.1:\d+\/health/);
    for (const url of [`http://127.0.0.1:${port}/mcp`, `http://127.0.0.1:${port}/sse`, `ws://127.0.0.1:${port}/ws`]) {
      assert.match(server.stderr(), url);
    }
    const health = await send(`http://127.0.0.1:${port}/health`);
    assert.is(health.json().status, 'ready');
    assert.is((await send(`http://127.0.0.1:${port}/mcp`, { body: initializeBody() })).status, 200);
    server.child.kill('SIGTERM');
    assert.equal(await server.exit, { code: 0, signal: null });
  });
}

test('SEXTANT_TRANSPORT and SEXTANT_MCP_PORT choose the transport and port; --port wins over the variable', async () => {
  const [envPort, flagPort] = [await freePort(), await freePort()];
  const fromEnv = startServer(['serve'], { SEXTANT_TRANSPORT: 'http', SEXTANT_MCP_PORT: String(envPort) });
  await fromEnv.waitForStderr(new RegExp(`127\\.0\\.0\\.1:${envPort}/mcp`));
  fromEnv.child.kill('SIGTERM');
  await fromEnv.exit;
  const flagWins = startServer(['serve', '--port', String(flagPort)], { SEXTANT_TRANSPORT: 'http', SEXTANT_MCP_PORT: String(envPort) });
  await flagWins.waitForStderr(new RegExp(`127\\.0\\.0\\.1:${flagPort}/mcp`));
  flagWins.child.kill('SIGTERM');
  await flagWins.exit;
});

test('a port already in use: a clear message naming it, exit 2', async () => {
  const port = await freePort();
  const first = startServer(['serve', '--transport', 'http', '--port', String(port)]);
  await first.waitForStderr(/Health:/);
  const second = await runCli(['serve', '--transport', 'http', '--port', String(port)]);
  assert.is(second.code, 2);
  assert.match(second.stderr, `Port ${port} on 127.0.0.1 is already in use`);
  first.child.kill('SIGTERM');
  await first.exit;
});

test('a non-loopback bind needs a token; with SEXTANT_AUTH_TOKEN it starts and demands it', async () => {
  const refused = await runCli(['serve', '--transport', 'http', '--bind', '0.0.0.0', '--port', '0']);
  assert.is(refused.code, 2);
  assert.match(refused.stderr, 'Refusing to listen on 0.0.0.0 without credentials');
  const port = await freePort();
  const server = startServer(['serve', '--transport', 'http', '--bind', '0.0.0.0', '--port', String(port)], { SEXTANT_AUTH_TOKEN: 'tok' });
  await server.waitForStderr(/Health:/);
  const denied = await send(`http://127.0.0.1:${port}/mcp`, { body: initializeBody() });
  assert.is(denied.status, 401);
  server.child.kill('SIGTERM');
  await server.exit;
});

test('--port with stdio is a warning, not an error; a bad port is a usage error', async () => {
  const stdio = await runCli(['serve', '--port', '4321'], '');
  assert.is(stdio.code, 0);
  assert.match(stdio.stderr, '--port is ignored with --transport stdio');
  const bad = await runCli(['serve', '--transport', 'http', '--port', '70000']);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, 'Invalid port');
  const badEnv = await runCli(['serve', '--transport', 'http'], '', { SEXTANT_MCP_PORT: 'eighty' });
  assert.is(badEnv.code, 2);
  assert.match(badEnv.stderr, 'Invalid port "eighty"');
});

test.run();
