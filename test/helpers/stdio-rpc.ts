/**
 * A raw MCP conversation with the real server process over stdio: no SDK in between, so a test
 * can send what it likes (two requests at once, a ping behind a slow call) and see exactly what
 * comes back, or that nothing does.
 */
import { startServer, type ServerProcess } from './process.js';
import type { ToolResult } from './tool-result.js';

interface RpcAnswer {
  id?: number | string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export interface StdioRpc {
  server: ServerProcess;
  /** Sends a request and resolves with its answer (rejects after `timeoutMs`: the server did not answer). */
  request(method: string, params?: Record<string, unknown>, timeoutMs?: number): Promise<RpcAnswer>;
  /** Shorthand for a tools/call: the result (which may be an isError result). */
  tool(name: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<ToolResult>;
  close(): Promise<void>;
}

/** Starts `sextant serve` with `env` (node given `nodeFlags`), initializes a 2025-11-25 session and returns the conversation. */
export async function stdioRpc(env: NodeJS.ProcessEnv, args: string[] = [], nodeFlags: string[] = []): Promise<StdioRpc> {
  const server = startServer(['serve', ...args], env, nodeFlags);
  let nextId = 1;
  let seen = 0;
  const answers = new Map<number | string, RpcAnswer>();
  const collect = (): void => {
    for (; seen < server.lines.length; seen++) {
      const line = server.lines[seen] as RpcAnswer;
      if (line && line.id !== undefined && ('result' in line || 'error' in line)) answers.set(line.id, line);
    }
  };
  const request = async (method: string, params: Record<string, unknown> = {}, timeoutMs = 20_000): Promise<RpcAnswer> => {
    const id = nextId++;
    server.send(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      collect();
      const answer = answers.get(id);
      if (answer) return answer;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`No answer to ${method} (id ${id}) within ${timeoutMs} ms; stderr: ${server.stderr().slice(-2_000)}`);
      // Wakes on the next stdout line, or at the deadline.
      await server.waitForLines(server.lines.length + 1, left).catch(() => undefined);
    }
  };
  const init = await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'reliability', version: '1' } });
  if (init.error) throw new Error(`initialize failed: ${JSON.stringify(init.error)}`);
  server.send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return {
    server,
    request,
    async tool(name, toolArgs = {}, timeoutMs) {
      const answer = await request('tools/call', { name, arguments: toolArgs }, timeoutMs);
      if (answer.error) throw new Error(`tools/call ${name} failed: ${JSON.stringify(answer.error)}`);
      return answer.result as unknown as ToolResult;
    },
    async close() {
      server.child.stdin.end();
      await server.exit;
    },
  };
}
