// Re-records spec-fixtures/<revision>/sdk-client-stdio.jsonl: the official SDK client talking to
// the built server over stdio, one conversation per protocol revision. Run after `npm run build`
// (npm run fixtures:record does both). Hand-written edge-case fixtures are not touched.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpSync, realpathSync } from 'node:fs';
import { sdkCodeToolsConversation, sdkConversation } from '../build/test/helpers/sdk-session.js';

// Every scratch folder of the run under one, removed when the script ends however it ends.
const scratch = mkdtempSync(join(tmpdir(), 'sextant-fixtures-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

const sdkVersion = JSON.parse(readFileSync('node_modules/@modelcontextprotocol/sdk/package.json', 'utf8')).version;
const revisions = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

for (const revision of revisions) {
  const raw = join(mkdtempSync(join(scratch, 'traffic-')), 'traffic.jsonl');
  await sdkConversation(revision, ['--record', raw]);
  const meta = {
    meta: {
      description: `Official SDK client (${revision}) over stdio: initialize, tools/list, tools/call, ping, logging/setLevel, progress, an isError result, a cancelled call`,
      profile: 'conformance',
      source: `@modelcontextprotocol/sdk ${sdkVersion} Client + StdioClientTransport, recorded with sextant serve --record`,
    },
  };
  const lines = readFileSync(raw, 'utf8')
    .trim()
    .split('\n')
    .map((line) => ({ ...JSON.parse(line), session: 'sdk-stdio' }));
  mkdirSync(`spec-fixtures/${revision}`, { recursive: true });
  const out = `spec-fixtures/${revision}/sdk-client-stdio.jsonl`;
  writeFileSync(out, [meta, ...lines].map((entry) => JSON.stringify(entry)).join('\n') + '\n');
  console.log(`${out}: ${lines.length} messages`);
}

// The code tools on a fresh copy of the fixture repository (2025-11-25 only: the tools are the
// same under every revision, and the other recordings cover how each revision shapes them).
{
  const root = realpathSync(mkdtempSync(join(scratch, 'project-')));
  cpSync('test/fixtures/polyglot', root, { recursive: true });
  const home = mkdtempSync(join(scratch, 'home-'));
  const raw = join(mkdtempSync(join(scratch, 'traffic-')), 'traffic.jsonl');
  const seen = await sdkCodeToolsConversation(root, home, ['--record', raw]);
  const meta = {
    meta: {
      description: `Official SDK client over stdio on the polyglot fixture repository: index_repo, every read tool, error results (${seen.filter((s) => s.endsWith('error')).length} of ${seen.length} calls)`,
      profile: 'default',
      project: 'polyglot',
      source: `@modelcontextprotocol/sdk ${sdkVersion} Client + StdioClientTransport, recorded with sextant serve --workspace COPY --record`,
    },
  };
  const lines = readFileSync(raw, 'utf8')
    .trim()
    .split('\n')
    .map((line) => ({ ...JSON.parse(line), session: 'sdk-code-tools' }));
  const out = 'spec-fixtures/2025-11-25/code-tools.jsonl';
  writeFileSync(out, [meta, ...lines].map((entry) => JSON.stringify(entry)).join('\n') + '\n');
  console.log(`${out}: ${lines.length} messages`);
}

// 2026-07-28: the official SDK v2 client pinned to the modern revision (no initialize: server/discover,
// then every request with its own _meta), and hand-written edge cases of the modern era.
{
  const { v2Client, v2Conversation } = await import('../build/test/helpers/sdk-v2.js');
  const v2Version = JSON.parse(readFileSync('node_modules/@modelcontextprotocol/client/package.json', 'utf8')).version;
  const raw = join(mkdtempSync(join(scratch, 'traffic-')), 'traffic.jsonl');
  const client = await v2Client({ pin: '2026-07-28' }, 'stdio', ['--record', raw]);
  await v2Conversation(client);
  await client.close();
  const meta = {
    meta: {
      description:
        'Official SDK v2 client pinned to 2026-07-28 over stdio: server/discover, tools/list, tools/call with progress, a tool error, an unknown resource; no initialize',
      profile: 'conformance',
      source: `@modelcontextprotocol/client ${v2Version} Client({ versionNegotiation: { mode: { pin: '2026-07-28' } } }) + StdioClientTransport, recorded with sextant serve --record`,
    },
  };
  const lines = readFileSync(raw, 'utf8')
    .trim()
    .split('\n')
    .map((line) => ({ ...JSON.parse(line), session: 'sdk-v2-stdio' }));
  mkdirSync('spec-fixtures/2026-07-28', { recursive: true });
  writeFileSync('spec-fixtures/2026-07-28/sdk-client-stdio.jsonl', [meta, ...lines].map((entry) => JSON.stringify(entry)).join('\n') + '\n');
  console.log(`spec-fixtures/2026-07-28/sdk-client-stdio.jsonl: ${lines.length} messages`);
}
{
  const { spawn } = await import('node:child_process');
  const m = (extra = {}) => ({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, ...extra });
  const inputs = [
    { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: m() } },
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: m({ 'io.modelcontextprotocol/protocolVersion': '1900-01-01' }) } },
    { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } },
    { jsonrpc: '2.0', id: 4, method: 'server/discover', params: {} },
    { jsonrpc: '2.0', id: 5, method: 'ping', params: { _meta: m() } },
    { jsonrpc: '2.0', id: 6, method: 'logging/setLevel', params: { level: 'debug', _meta: m() } },
    { jsonrpc: '2.0', id: 7, method: 'resources/subscribe', params: { uri: 'test://static-text', _meta: m() } },
    { jsonrpc: '2.0', id: 8, method: 'resources/read', params: { uri: 'test://nope', _meta: m() } },
    { jsonrpc: '2.0', id: 9, method: 'resources/read', params: { uri: 'test://static-text', _meta: m() } },
    { jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'test_tool_with_logging', arguments: {}, _meta: m() } },
    {
      jsonrpc: '2.0',
      id: 11,
      method: 'tools/call',
      params: { name: 'test_tool_with_logging', arguments: {}, _meta: m({ 'io.modelcontextprotocol/logLevel': 'info' }) },
    },
    { jsonrpc: '2.0', id: 12, method: 'tools/call', params: { name: 'no_such_tool', arguments: {}, _meta: m() } },
    { jsonrpc: '2.0', id: 13, method: 'tools/call', params: { name: 'test_simple_text', arguments: { unexpected: 1 }, _meta: m() } },
    {
      jsonrpc: '2.0',
      id: 14,
      method: 'prompts/get',
      params: { name: 'test_simple_prompt', _meta: m({ 'io.modelcontextprotocol/clientInfo': { name: 'edge', version: '1' } }) },
    },
    { jsonrpc: '2.0', id: 15, method: 'tools/list', params: { _meta: m({ 'io.modelcontextprotocol/logLevel': 'loud' }) } },
  ];
  const raw = join(mkdtempSync(join(scratch, 'traffic-')), 'traffic.jsonl');
  const child = spawn(process.execPath, ['dist/sextant.mjs', 'serve', '--profile', 'conformance', '--log-level', 'warning', '--record', raw], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  // One at a time, each once the previous one is answered: the recording then has one order only.
  let buffered = '';
  const answered = new Set();
  let wake = () => undefined;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    for (let newline; (newline = buffered.indexOf('\n')) >= 0; buffered = buffered.slice(newline + 1)) {
      const message = JSON.parse(buffered.slice(0, newline));
      if ('id' in message && !('method' in message)) answered.add(message.id);
    }
    wake();
  });
  for (const input of inputs) {
    child.stdin.write(`${JSON.stringify(input)}\n`);
    while (!answered.has(input.id)) await new Promise((resolve) => (wake = resolve));
  }
  child.stdin.end();
  await new Promise((resolve) => child.on('exit', resolve));
  const meta = {
    meta: {
      description:
        '2026-07-28 edge cases with no initialize: discover, unsupported version (-32022), missing _meta fields (-32602), removed methods (-32601), unknown resource (-32602), log level per request, unknown tool, invalid arguments, bad log level',
      profile: 'conformance',
      source: 'hand-written inputs; outputs recorded from Sextant and reviewed against the 2026-07-28 spec text',
    },
  };
  const lines = readFileSync(raw, 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const { time: _time, ...entry } = JSON.parse(line);
      return { ...entry, session: 'edge-2026' };
    });
  writeFileSync('spec-fixtures/2026-07-28/edge-cases.jsonl', [meta, ...lines].map((entry) => JSON.stringify(entry)).join('\n') + '\n');
  console.log(`spec-fixtures/2026-07-28/edge-cases.jsonl: ${lines.length} messages`);
}

// 2026-07-28 over Streamable HTTP (no session: each request its own), an MRTR roots round trip on the
// code tools, and a subscriptions/listen stream.
{
  const { spawn } = await import('node:child_process');
  const { createServer } = await import('node:net');
  const { v2Client, v2Conversation, v2RootsConversation } = await import('../build/test/helpers/sdk-v2.js');
  const v2Version = JSON.parse(readFileSync('node_modules/@modelcontextprotocol/client/package.json', 'utf8')).version;
  const write = (file, meta, raw, session, dropTime = false) => {
    const lines = readFileSync(raw, 'utf8')
      .trim()
      .split('\n')
      .map((line) => {
        const { time, ...entry } = JSON.parse(line);
        return { ...entry, ...(dropTime ? {} : { time }), session };
      });
    writeFileSync(`spec-fixtures/2026-07-28/${file}`, [{ meta }, ...lines].map((entry) => JSON.stringify(entry)).join('\n') + '\n');
    console.log(`spec-fixtures/2026-07-28/${file}: ${lines.length} messages`);
  };

  const port = await new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const free = probe.address().port;
      probe.close(() => done(free));
    });
  });
  const httpRaw = join(mkdtempSync(join(scratch, 'traffic-')), 'traffic.jsonl');
  const server = spawn(
    process.execPath,
    ['dist/sextant.mjs', 'serve', '--transport', 'http', '--port', String(port), '--profile', 'conformance', '--log-level', 'warning', '--record', httpRaw],
    { stdio: 'ignore' },
  );
  for (let tries = 0; ; tries++) {
    try {
      await fetch(`http://127.0.0.1:${port}/health`);
      break;
    } catch {
      if (tries > 200) throw new Error('the server did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const client = await v2Client({ pin: '2026-07-28' }, new URL(`http://127.0.0.1:${port}/mcp`));
  await v2Conversation(client);
  await client.close();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.on('exit', resolve));
  write(
    'sdk-client-http.jsonl',
    {
      description:
        'Official SDK v2 client pinned to 2026-07-28 over Streamable HTTP: no session, every request on its own POST (server/discover, tools/list, tools/call with progress, a tool error, an unknown resource)',
      profile: 'conformance',
      source: `@modelcontextprotocol/client ${v2Version} + StreamableHTTPClientTransport, recorded with sextant serve --transport http --record`,
    },
    httpRaw,
    'sdk-v2-http',
  );

  const root = realpathSync(mkdtempSync(join(scratch, 'project-')));
  cpSync('test/fixtures/polyglot', root, { recursive: true });
  const rootsRaw = join(mkdtempSync(join(scratch, 'traffic-')), 'traffic.jsonl');
  await v2RootsConversation(root, ['--workspace', root, '--record', rootsRaw]);
  write(
    'mrtr-roots.jsonl',
    {
      description:
        'Official SDK v2 client pinned to 2026-07-28, declaring roots: index_status with no workspace is answered input_required (roots/list); the client answers and retries with inputResponses',
      profile: 'default',
      project: 'polyglot',
      source: `@modelcontextprotocol/client ${v2Version} + StdioClientTransport with a roots/list handler, recorded with sextant serve --workspace COPY --record`,
    },
    rootsRaw,
    'sdk-v2-roots',
  );

  const m = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const listenRaw = join(mkdtempSync(join(scratch, 'traffic-')), 'traffic.jsonl');
  const child = spawn(process.execPath, ['dist/sextant.mjs', 'serve', '--profile', 'conformance', '--log-level', 'warning', '--record', listenRaw], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const seen = [];
  let buffered = '';
  let wake = () => undefined;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    for (let newline; (newline = buffered.indexOf('\n')) >= 0; buffered = buffered.slice(newline + 1)) seen.push(JSON.parse(buffered.slice(0, newline)));
    wake();
  });
  const until = async (done) => {
    while (!done()) await new Promise((resolve) => (wake = resolve));
  };
  const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({
    jsonrpc: '2.0',
    id: 'listen-1',
    method: 'subscriptions/listen',
    params: { notifications: { toolsListChanged: true, resourceSubscriptions: ['test://watched-resource'] }, _meta: m },
  });
  await until(() => seen.some((message) => message.method === 'notifications/subscriptions/acknowledged'));
  send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: m } });
  await until(() => seen.some((message) => message.id === 2));
  send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-1', reason: 'done listening' } });
  send({ jsonrpc: '2.0', id: 3, method: 'subscriptions/listen', params: { notifications: 'everything', _meta: m } });
  await until(() => seen.some((message) => message.id === 3));
  child.stdin.end();
  await new Promise((resolve) => child.on('exit', resolve));
  write(
    'subscriptions-listen.jsonl',
    {
      description:
        '2026-07-28 subscriptions/listen over stdio: acknowledged first with the honored filter (resource updates only), other requests go on meanwhile, cancelled with no response; a malformed filter is -32602',
      profile: 'conformance',
      source: 'hand-written inputs; outputs recorded from Sextant and reviewed against the 2026-07-28 spec text',
    },
    listenRaw,
    'listen-2026',
    true,
  );
}
