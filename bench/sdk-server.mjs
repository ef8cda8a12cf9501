// The peer for bench/stdio-roundtrip: the official SDK's McpServer over its StdioServerTransport,
// with a health_check that answers as Sextant's does (bench/health-answer.mjs). Bench-only; the SDK
// never enters src/.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { healthAnswer, healthShape } from './health-answer.mjs';

const startedAt = Date.now();
const server = new McpServer({ name: 'sdk-peer', version: '1.0.0' });
server.registerTool(
  'health_check',
  {
    description: 'Reports status, version, uptime, transport and protocol version.',
    inputSchema: {},
    outputSchema: healthShape,
  },
  async () => healthAnswer({ version: '1.0.0', startedAt, transport: 'stdio', protocolVersion: '2025-11-25' }),
);
await server.connect(new StdioServerTransport());
