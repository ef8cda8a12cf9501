/**
 * The official SDK v2 client (@modelcontextprotocol/client 2.4.0, a devDependency), which speaks
 * 2026-07-28 as well as the handshake revisions: a real peer of the other era. Shared by the
 * tests and by scripts/record-fixtures.mjs.
 */
import { Client, StreamableHTTPClientTransport, type VersionNegotiationMode } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN, ROOT, serverEnv } from './process.js';

export type V2Mode = VersionNegotiationMode;

export interface V2Conversation {
  version: string | undefined;
  serverName: unknown;
  toolNames: string[];
  text: string;
  progress: number[];
  toolError: boolean;
  /** The error class the client raised for a resource that does not exist (it maps both eras' codes to one). */
  missingResource: string;
}

/** A v2 client in `mode`, connected over `transport` ('stdio' spawns the built server; a URL is Streamable HTTP). */
export async function v2Client(mode: V2Mode, target: 'stdio' | URL, serverArgs: string[] = []): Promise<Client> {
  const client = new Client({ name: 'sextant-v2-interop', version: '1.0.0' }, { versionNegotiation: { mode } });
  const transport =
    target === 'stdio'
      ? new StdioClientTransport({
          command: process.execPath,
          args: [BIN, 'serve', '--profile', 'conformance', '--log-level', 'warning', ...serverArgs],
          env: serverEnv(),
          cwd: ROOT,
          stderr: 'pipe',
        })
      : new StreamableHTTPClientTransport(target);
  await client.connect(transport);
  return client;
}

/** Lists tools, calls one, follows progress, meets a tool error and a missing resource. */
export async function v2Conversation(client: Client): Promise<V2Conversation> {
  const { tools } = await client.listTools();
  const simple = await client.callTool({ name: 'test_simple_text', arguments: {} });
  const progress: number[] = [];
  await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: (update) => void progress.push(update.progress) });
  const failed = await client.callTool({ name: 'test_error_handling', arguments: {} });
  let missingResource = 'no error';
  try {
    await client.readResource({ uri: 'test://does-not-exist' });
  } catch (error) {
    missingResource = (error as Error).constructor.name;
  }
  return {
    version: client.getNegotiatedProtocolVersion(),
    serverName: client.getServerVersion()?.name,
    toolNames: tools.map((tool) => tool.name),
    text: (simple.content as Array<{ text?: string }>)[0]?.text ?? '',
    progress,
    toolError: failed.isError === true,
    missingResource,
  };
}

/**
 * The v2 client pinned to 2026-07-28 over stdio, declaring roots, on the code tools of `root`:
 * a tool call with no workspace argument is answered input_required (roots/list), the client
 * answers it and retries, the server works on the project its roots name.
 * @public scripts/record-fixtures.mjs records it (through build/, which knip does not follow).
 */
export async function v2RootsConversation(root: string, serverArgs: string[]): Promise<{ workspace: string; source: string }> {
  const client = new Client(
    { name: 'sextant-v2-roots', version: '1.0.0' },
    { capabilities: { roots: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const { pathToFileURL } = await import('node:url');
  client.setRequestHandler('roots/list', () => ({ roots: [{ uri: pathToFileURL(root).href, name: 'project' }] }));
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', '--log-level', 'warning', '--no-watch', ...serverArgs],
      env: serverEnv(),
      cwd: ROOT,
      stderr: 'pipe',
    }),
  );
  try {
    const status = await client.callTool({ name: 'index_status', arguments: {} });
    return status.structuredContent as { workspace: string; source: string };
  } finally {
    await client.close();
  }
}
