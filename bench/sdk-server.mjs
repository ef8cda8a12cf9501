// The peer for bench/stdio-roundtrip: the same health_check tool served by the official SDK's
// McpServer over its StdioServerTransport. Bench-only; the SDK never enters src/.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const startedAt = Date.now();
const server = new McpServer({ name: 'sdk-peer', version: '1.0.0' });
server.registerTool(
  'health_check',
  {
    description: 'Reports status, version, uptime, transport and protocol version.',
    inputSchema: {},
    outputSchema: {
      status: z.enum(['ok']),
      version: z.string(),
      uptime_seconds: z.number().min(0),
      transport: z.string(),
      protocol_version: z.string(),
    },
  },
  async () => {
    const structuredContent = {
      status: 'ok',
      version: '1.0.0',
      uptime_seconds: Math.round((Date.now() - startedAt) / 100) / 10,
      transport: 'stdio',
      protocol_version: '2025-11-25',
    };
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent, null, 2) }], structuredContent };
  },
);
await server.connect(new StdioServerTransport());
