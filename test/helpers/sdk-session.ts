/**
 * The official SDK client (@modelcontextprotocol/sdk, a devDependency) driving the built server
 * over stdio. Shared by the interop test and by scripts/record-fixtures.mjs, which records the
 * same conversations as spec fixtures.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BIN, ROOT, serverEnv } from './process.js';

export interface SdkConversation {
  serverVersion: unknown;
  capabilities: unknown;
  toolNames: string[];
  health: Record<string, unknown>;
  ping: unknown;
  progress: number[];
  toolError: { isError: unknown; text: string };
  cancelled: string;
}

/**
 * Connects with `revision` (the SDK always asks for its latest; we rewrite that one field, as an
 * older client would send it), then lists tools, calls them, pings, sets the log level, follows
 * progress, and cancels a running call.
 */
export async function sdkConversation(revision: string, serverArgs: string[] = []): Promise<SdkConversation> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'serve', '--profile', 'conformance', '--log-level', 'warning', ...serverArgs],
    env: serverEnv(),
    cwd: ROOT,
    stderr: 'pipe',
  });
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) => {
    if ('method' in message && message.method === 'initialize' && message.params) {
      message = { ...message, params: { ...message.params, protocolVersion: revision } };
    }
    return send(message);
  };
  const client = new Client({ name: 'sextant-interop', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const health = await client.callTool({ name: 'health_check', arguments: {} });
    const text = (health.content as Array<{ text: string }>).at(-1)!.text; // the fields as JSON, last, before structuredContent existed
    const ping = await client.ping();
    await client.setLoggingLevel('debug');
    const progress: number[] = [];
    await client.callTool({ name: 'test_tool_with_progress' }, undefined, { onprogress: (p) => void progress.push(p.progress) });
    const failed = await client.callTool({ name: 'test_error_handling' });
    const controller = new AbortController();
    let cancelled = 'not cancelled';
    try {
      await client.callTool({ name: 'test_tool_with_progress' }, undefined, {
        signal: controller.signal,
        onprogress: () => controller.abort(new Error('stop')),
      });
    } catch (error) {
      cancelled = error instanceof Error ? error.message : String(error);
    }
    // A last round trip after the cancellation proves the session is still healthy.
    await client.ping();
    return {
      serverVersion: client.getServerVersion(),
      capabilities: client.getServerCapabilities(),
      toolNames: tools.map((t) => t.name),
      health: (health.structuredContent as Record<string, unknown> | undefined) ?? JSON.parse(text),
      ping,
      progress,
      toolError: { isError: failed.isError, text: (failed.content as Array<{ text: string }>)[0]!.text },
      cancelled,
    };
  } finally {
    await client.close();
  }
}

/**
 * The official SDK client over stdio driving the code tools on a fresh copy of the fixture
 * repository (registered with --workspace), at 2025-11-25: index, every read tool, error cases.
 * No progress token: the number of progress notifications depends on timing, and a recording
 * must replay message for message.
 * @public scripts/record-fixtures.mjs records it (through build/, which knip does not follow).
 */
export async function sdkCodeToolsConversation(root: string, home: string, serverArgs: string[] = []): Promise<string[]> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'serve', '--workspace', root, '--no-watch', '--log-level', 'warning', ...serverArgs],
    env: serverEnv({ PATH: process.env.PATH ?? '', SEXTANT_HOME: home }),
    cwd: ROOT,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'sextant-code-tools', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  const seen: string[] = [];
  try {
    await client.listTools();
    const calls: Array<[string, Record<string, unknown>]> = [
      ['index_repo', {}],
      ['index_status', {}],
      ['search_code', { query: 'getUserById' }],
      ['search_code', { query: 'def \\w+\\(', regex: true, language: 'python', limit: 2 }],
      ['locate_symbol', { name: 'gubi' }],
      ['get_file_outline', { path: 'src/store/user-store.ts' }],
      ['get_symbol_hierarchy', { symbol_name: 'saveUser' }],
      ['get_symbol_hierarchy', { symbol_name: 'auditLog' }],
      ['find_related_symbols', { symbol_name: 'getUserById' }],
      ['get_code_context', { query: 'how does saveUser hash the password', max_tokens: 400 }],
      ['get_file_outline', { path: '../outside.ts' }],
      ['locate_symbol', { name: 'qqqqzzzz' }],
      ['search_code', { query: 'a(b', regex: true }],
    ];
    for (const [name, args] of calls) {
      const result = await client.callTool({ name, arguments: args });
      seen.push(`${name}: ${result.isError ? 'error' : 'ok'}`);
    }
  } finally {
    await client.close();
  }
  return seen;
}
