/** Servers for tests: Sextant as shipped, or a bare server with the tools a test needs. */
import { McpServer } from '../../src/mcp/server.js';
import { ToolRegistry, type ToolDefinition } from '../../src/mcp/tools.js';

export function serverWith(...tools: ToolDefinition[]): McpServer {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  return new McpServer({ identity: { name: 'test-server', version: '9.9.9', title: 'Test' }, registries: { tools: registry } });
}
