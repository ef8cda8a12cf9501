/**
 * DNS rebinding: a page on a name the attacker controls, rebound to 127.0.0.1, sends that name as
 * Host (and its origin as Origin). Only exact loopback names pass (http-gate.ts), at every door
 * and on every transport; look-alikes of them and other spellings of 127.0.0.1 do not.
 */
import { request } from 'undici';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WebSocket } from 'ws';
import { hostOf, isLoopbackName } from '../../src/transports/http-gate.js';
import { UnsafeBindError, type RunningHttpServer } from '../../src/transports/http-listener.js';
import { runCli } from '../helpers/process.js';
import { initializeBody, JSON_AND_SSE, startTestHttp } from '../helpers/http.js';

/** Names that must not pass for this machine. */
const LOOK_ALIKES = ['127.0.0.1.attacker.example', '127.evil.example', 'localhost.evil', '[::1].evil', '2130706433', '0177.0.0.1', '0x7f.0.0.1', '127.1'];
const LOOPBACK = ['127.0.0.1', 'localhost', 'LOCALHOST', '[::1]', '127.1.2.3'];

const STATELESS = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/list',
  params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
};

/** Every door's status for one set of headers: a stream that opens is closed unread. */
async function doors(http: RunningHttpServer, headers: Record<string, string>): Promise<Record<string, number>> {
  const status = async (url: string, method: 'GET' | 'POST', extra: Record<string, string>, body?: unknown): Promise<number> => {
    const response = await request(url, { method, headers: { ...extra, ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    response.body.on('error', () => undefined);
    response.body.destroy();
    return response.statusCode;
  };
  const upgrade = await new Promise<number>((resolve) => {
    const socket = new WebSocket(http.urls.ws, 'mcp', { headers });
    socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.on('open', () => {
      socket.close();
      resolve(101);
    });
    socket.on('error', () => undefined);
  });
  return {
    'POST /mcp initialize': await status(http.urls.mcp, 'POST', JSON_AND_SSE, initializeBody()),
    'POST /mcp 2026-07-28': await status(
      http.urls.mcp,
      'POST',
      { ...JSON_AND_SSE, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      STATELESS,
    ),
    'GET /sse': await status(http.urls.sse, 'GET', { accept: 'text/event-stream' }),
    'POST /messages': await status(http.urls.mcp.replace('/mcp', '/messages?sessionId=x'), 'POST', JSON_AND_SSE, initializeBody()),
    'GET /health': await status(http.urls.health, 'GET', {}),
    'GET /ws (upgrade)': upgrade,
  };
}

test('loopback names are exact: look-alikes, other radixes and short forms are not this machine', () => {
  for (const name of LOOPBACK) assert.ok(isLoopbackName(hostOf(`${name}:3000`)!), name);
  for (const name of LOOK_ALIKES) assert.not.ok(hostOf(name) !== undefined && isLoopbackName(hostOf(name)!), name);
  assert.is(hostOf('[::1].evil:80'), undefined);
  assert.is(hostOf('user@127.0.0.1'), undefined);
});

test('a rebound Host is refused (403) at every door and on every transport; a loopback Host is served', async () => {
  const http = await startTestHttp();
  try {
    for (const name of LOOK_ALIKES) {
      for (const [door, code] of Object.entries(await doors(http, { host: `${name}:${http.port}` }))) assert.is(code, 403, `${door} with Host ${name}`);
    }
    for (const name of LOOPBACK) {
      for (const [door, code] of Object.entries(await doors(http, { host: `${name}:${http.port}` })))
        assert.ok(code !== 403 && code < 500, `${door} with Host ${name}: ${code}`);
    }
  } finally {
    await http.close();
  }
});

test('a rebound Origin is refused (403) at every door; a loopback Origin is served', async () => {
  const http = await startTestHttp();
  try {
    for (const name of [...LOOK_ALIKES, 'evil.example']) {
      for (const origin of [`http://${name}`, `http://${name}:${http.port}`, `https://${name}`]) {
        for (const [door, code] of Object.entries(await doors(http, { origin }))) assert.is(code, 403, `${door} with Origin ${origin}`);
      }
    }
    for (const origin of ['null', 'file://', `http://127.0.0.1:${http.port}/path`, 'javascript:alert(1)']) {
      for (const [door, code] of Object.entries(await doors(http, { origin }))) assert.is(code, 403, `${door} with Origin ${origin}`);
    }
    for (const name of LOOPBACK) {
      for (const [door, code] of Object.entries(await doors(http, { origin: `http://${name}:${http.port}` })))
        assert.ok(code !== 403 && code < 500, `${door} with Origin ${name}: ${code}`);
    }
  } finally {
    await http.close();
  }
});

test('--allowed-host names this server behind a proxy: its Host and its Origin pass, look-alikes of it do not', async () => {
  const http = await startTestHttp({ allowedHosts: ['sextant.example.com'], authToken: 'tok' });
  try {
    const auth = { authorization: 'Bearer tok' };
    for (const headers of <Array<Record<string, string>>>[
      { ...auth, host: 'sextant.example.com' },
      { ...auth, host: 'SEXTANT.example.com:443' },
      { ...auth, host: 'sextant.example.com', origin: 'https://sextant.example.com' },
    ]) {
      for (const [door, code] of Object.entries(await doors(http, headers)))
        assert.ok(code !== 403 && code !== 401 && code < 500, `${door} with ${JSON.stringify(headers)}: ${code}`);
    }
    for (const headers of <Array<Record<string, string>>>[
      { ...auth, host: 'sextant.example.com.evil' },
      { ...auth, host: 'evil.sextant.example.com' },
      { ...auth, origin: 'https://sextant.example.com.evil' },
    ]) {
      for (const [door, code] of Object.entries(await doors(http, headers))) assert.is(code, 403, `${door} with ${JSON.stringify(headers)}`);
    }
  } finally {
    await http.close();
  }
});

/** The server's URLs reached through 127.0.0.1, whatever address it listens on. */
function viaLoopback(http: RunningHttpServer): RunningHttpServer {
  const local = (url: string): string => url.replace(/\/\/[^/]+/, `//127.0.0.1:${http.port}`);
  return { ...http, urls: { mcp: local(http.urls.mcp), sse: local(http.urls.sse), ws: local(http.urls.ws), health: local(http.urls.health) } };
}

test('on a non-loopback bind the token keeps strangers out; --allowed-host turns the Host check on there too', async () => {
  // Listening on every address, reached only through loopback.
  const open = await startTestHttp({ host: '0.0.0.0', authToken: 'tok' });
  const named = await startTestHttp({ host: '0.0.0.0', authToken: 'tok', allowedHosts: ['sextant.example.com'] });
  const auth = { authorization: 'Bearer tok' };
  try {
    const any = await doors(viaLoopback(open), { ...auth, host: 'attacker.example' });
    assert.ok(
      Object.values(any).every((code) => code !== 403 && code !== 401),
      JSON.stringify(any),
    );
    const stranger = await doors(viaLoopback(open), { host: 'attacker.example' });
    for (const [door, code] of Object.entries(stranger)) if (door !== 'GET /health') assert.is(code, 401, door);
    const served = await doors(viaLoopback(named), { ...auth, host: 'sextant.example.com' });
    assert.ok(
      Object.values(served).every((code) => code !== 403 && code !== 401),
      JSON.stringify(served),
    );
    for (const [door, code] of Object.entries(await doors(viaLoopback(named), { ...auth, host: 'attacker.example' }))) assert.is(code, 403, door);
  } finally {
    await open.close();
    await named.close();
  }
});

test('--allowed-host needs a token: clients arriving by a proxy are not the local user; a token with white space is refused', async () => {
  for (const options of [{ allowedHosts: ['sextant.example.com'] }, { authToken: 'two words' }]) {
    try {
      await startTestHttp(options);
      assert.unreachable(`started with ${JSON.stringify(options)}`);
    } catch (error) {
      assert.instance(error, UnsafeBindError);
    }
  }
  const refused = await runCli(['serve', '--transport', 'http', '--port', '0', '--allowed-host', 'sextant.example.com']);
  assert.is(refused.code, 2);
  assert.match(refused.stderr, 'Refusing --allowed-host without credentials');
});

test.run();
