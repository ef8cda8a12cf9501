/**
 * The one stateless dispatcher of a server: every 2026-07-28 request without a session is served
 * by it, from what the request carries, with nothing kept between requests. Two clients may use
 * the same request id at once; a request's notifications go to its own sink before its answer;
 * a request stopped before its answer gets none, and its handler sees the abort.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ErrorCodes, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from '../../../src/jsonrpc/index.js';
import { MCP_ERROR_CODES } from '../../../src/mcp/errors.js';
import { McpServer } from '../../../src/mcp/server.js';
import { ToolRegistry } from '../../../src/mcp/tools.js';

const VERSION = '2026-07-28';
const meta = (extra: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  ...extra,
});
const extra = { transport: 'test' };

/** A tool that reports progress, then waits until its gate opens (or its request is stopped). */
function gatedServer() {
  const gates = new Map<string, () => void>();
  const aborted: string[] = [];
  const tools = new ToolRegistry().register({
    name: 'wait_for',
    description: 'Answers with its key once the test opens its gate',
    inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
    async run(args, context) {
      const key = args.key as string;
      context.progress(1, 2, `waiting for ${key}`);
      await new Promise<void>((resolve) => {
        gates.set(key, resolve);
        context.signal.addEventListener('abort', () => {
          aborted.push(key);
          resolve();
        });
      });
      return { content: [{ type: 'text', text: `opened ${key}` }] };
    },
  });
  const server = new McpServer({ identity: { name: 'dispatcher-test', version: '1.0.0' }, registries: { tools } });
  return { server, gates, aborted };
}

const call = (id: number, key: string, progressToken?: string): JsonRpcRequest => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'wait_for', arguments: { key }, _meta: meta(progressToken ? { progressToken } : {}) },
});

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

test('two clients using the same id at once each get their own answer, after their own progress', async () => {
  const { server, gates } = gatedServer();
  const sinks: JsonRpcNotification[][] = [[], []];
  const first = server.stateless.dispatch(call(1, 'a', 'ta'), extra, (note) => sinks[0]!.push(note));
  const second = server.stateless.dispatch(call(1, 'b', 'tb'), extra, (note) => sinks[1]!.push(note));
  await until(() => gates.has('a') && gates.has('b'));
  gates.get('b')!();
  const answerB = (await second.answer) as JsonRpcResponse & { result: { content: unknown; resultType: string } };
  gates.get('a')!();
  const answerA = (await first.answer) as JsonRpcResponse & { result: { content: unknown; resultType: string } };
  assert.equal(answerA.id, 1);
  assert.equal(answerB.id, 1);
  assert.equal(answerA.result.content, [{ type: 'text', text: 'opened a' }]);
  assert.equal(answerB.result.content, [{ type: 'text', text: 'opened b' }]);
  assert.is(answerA.result.resultType, 'complete');
  assert.equal(
    sinks.map((notes) => notes.map((note) => [note.method, note.params?.progressToken])),
    [[['notifications/progress', 'ta']], [['notifications/progress', 'tb']]],
  );
});

test('a request stopped before its answer gets none, and its tool sees the abort; the next request is served', async () => {
  const { server, gates, aborted } = gatedServer();
  const stopped = server.stateless.dispatch(call(7, 'gone'), extra, () => undefined);
  await until(() => gates.has('gone'));
  stopped.stop(new Error('the client hung up'));
  assert.is(await stopped.answer, undefined);
  assert.equal(aborted, ['gone']);
  const next = server.stateless.dispatch(call(7, 'next'), extra, () => undefined);
  await until(() => gates.has('next'));
  gates.get('next')!();
  assert.equal(((await next.answer) as unknown as { result: { content: unknown } }).result.content, [{ type: 'text', text: 'opened next' }]);
});

test('what has no stateless form, or a request missing its own fields, gets the error the era defines', async () => {
  const { server } = gatedServer();
  const answer = async (request: JsonRpcRequest) => (await server.stateless.dispatch(request, extra, () => undefined).answer) as JsonRpcResponse;
  const codeOf = (response: JsonRpcResponse) => ('error' in response ? response.error.code : undefined);
  // ping and logging/setLevel were removed by 2026-07-28; initialize never had a stateless form.
  for (const method of ['ping', 'logging/setLevel', 'initialize', 'no/such']) {
    assert.is(codeOf(await answer({ jsonrpc: '2.0', id: 1, method, params: { _meta: meta() } })), ErrorCodes.MethodNotFound, method);
  }
  const noCapabilities = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': VERSION } } } as const;
  assert.is(codeOf(await answer(noCapabilities)), ErrorCodes.InvalidParams);
  const oldVersion = {
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/list',
    params: { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': '2025-11-25' }) },
  } as const;
  assert.is(codeOf(await answer(oldVersion)), MCP_ERROR_CODES.UnsupportedProtocolVersion);
  const listed = (await answer({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: meta() } })) as unknown as {
    result: { tools: Array<{ name: string }>; _meta: Record<string, { name: string }> };
  };
  assert.equal(
    listed.result.tools.map((tool) => tool.name),
    ['wait_for'],
  );
  assert.is(listed.result._meta['io.modelcontextprotocol/serverInfo']!.name, 'dispatcher-test');
});

test.run();
