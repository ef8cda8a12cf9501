/**
 * MCP clients nobody here wrote, pinned, installed from the npm registry into a scratch folder
 * (kept between runs, as the conformance suites are): Vercel's AI SDK client, mcp-remote,
 * LangChain's adapters and the MCP Inspector's CLI. They are not devDependencies: the AI SDK
 * declares Node 22, and none of them is part of the build. Each is driven by a small script of
 * the test's, written beside them so that their packages resolve.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './process.js';

const CLIENTS = ['@ai-sdk/mcp@2.0.99', 'mcp-remote@0.15.1', '@langchain/mcp-adapters@1.1.4', '@modelcontextprotocol/inspector@2.12.0'];
const SCRATCH = join(ROOT, 'node_modules/.cache/sextant-clients');
const MARK = join(SCRATCH, `installed-${CLIENTS.join('+').replace(/[^\w.+-]/g, '_')}`);

const run = promisify(execFile);

/** The scratch folder with the clients installed (installed on first use). */
function realClients(): string {
  if (existsSync(MARK)) return SCRATCH;
  mkdirSync(SCRATCH, { recursive: true });
  writeFileSync(join(SCRATCH, 'package.json'), '{ "private": true }\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...CLIENTS], { cwd: SCRATCH, stdio: ['ignore', 'ignore', 'inherit'] });
  writeFileSync(MARK, '');
  return SCRATCH;
}

const SCRIPTS: Record<string, string> = {
  // `discovery`: 'legacy' makes the client initialize a 2025-11-25 session (and open its GET stream).
  'ai-sdk.mjs': `
import { createMCPClient } from '@ai-sdk/mcp';
const errors = [];
const client = await createMCPClient({
  transport: { type: 'http', url: process.argv[2] },
  protocolVersionDiscovery: process.argv[3] !== 'legacy',
  onUncaughtError: (error) => errors.push(String(error?.message ?? error)),
});
const tools = await client.tools();
const result = await tools.test_simple_text.execute({}, { toolCallId: '1', messages: [] });
await client.tools();
await client.close();
console.log(JSON.stringify({ tools: Object.keys(tools).length, text: result.content?.[0]?.text, errors }));
`,
  'langchain.mjs': `
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
const client = new MultiServerMCPClient({ mcpServers: { sextant: { transport: 'http', url: process.argv[2] } } });
const tools = await client.getTools();
const tool = tools.find((candidate) => candidate.name.endsWith('test_simple_text'));
const result = await tool.invoke({});
await client.close();
console.log(JSON.stringify({ tools: tools.length, text: typeof result === 'string' ? result : JSON.stringify(result) }));
`,
};

/** Runs one of the scripts above with its arguments; its JSON line. */
export async function runClientScript(name: keyof typeof SCRIPTS & string, args: string[]): Promise<Record<string, unknown>> {
  const dir = realClients();
  const script = join(dir, name);
  writeFileSync(script, SCRIPTS[name]!);
  const { stdout } = await run(process.execPath, [script, ...args], { cwd: dir, timeout: 60_000, maxBuffer: 1 << 24 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

/** The Inspector's CLI (`--cli`) against a URL; its stdout, with a home of its own (it keeps a catalog there). */
export async function inspectorCli(args: string[]): Promise<string> {
  const dir = realClients();
  const home = mkdtempSync(join(tmpdir(), 'sextant-inspector-'));
  try {
    const { stdout } = await run(process.execPath, [join(dir, 'node_modules/.bin/mcp-inspector'), '--cli', ...args], {
      cwd: dir,
      env: { ...process.env, HOME: home, MCP_CATALOG_PATH: join(home, 'mcp.json') },
      timeout: 60_000,
    });
    return stdout;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** mcp-remote's proxy: the command and arguments that run it over stdio toward `url`. */
export function mcpRemoteCommand(url: string, configDir: string): { command: string; args: string[]; env: Record<string, string> } {
  const dir = realClients();
  return {
    command: process.execPath,
    args: [join(dir, 'node_modules/mcp-remote/dist/proxy.js'), url, '--transport', 'http-only'],
    env: { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: configDir },
  };
}
