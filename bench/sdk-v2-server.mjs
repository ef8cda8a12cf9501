// The SDK v2 peer for bench/stdio-roundtrip: the same health_check tool served by the official
// SDK v2 (@modelcontextprotocol/server 2.4.0) McpServer over its StdioServerTransport. Bench-only.
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const startedAt = Date.now();
const server = new McpServer({ name: 'sdk-v2-peer', version: '1.0.0' });
server.registerTool(
  'health_check',
  {
    description: 'Reports status, version, uptime, transport and protocol version.',
    outputSchema: z.object({ status: z.enum(['ok']), version: z.string(), uptime_seconds: z.number().min(0), transport: z.string(), protocol_version: z.string() }),
  },
  async () => {
    const structuredContent = { status: 'ok', version: '1.0.0', uptime_seconds: Math.round((Date.now() - startedAt) / 100) / 10, transport: 'stdio', protocol_version: '2025-11-25' };
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent, null, 2) }], structuredContent };
  },
);
await server.connect(new StdioServerTransport());
