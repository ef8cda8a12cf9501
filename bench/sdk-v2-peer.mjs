// The SDK v2 peer's server for the benches: the official SDK v2 (@modelcontextprotocol/server
// 2.4.0) McpServer with the same health_check tool as Sextant's peers. Bench-only.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const startedAt = Date.now();

/** `pretty`: the text block as indented JSON, as the v1 peer (bench/sdk-server.mjs) writes it. */
export function sdkV2Server({ transport, protocolVersion, pretty = false }) {
  const server = new McpServer({ name: 'sdk-v2-peer', version: '1.0.0' });
  server.registerTool(
    'health_check',
    {
      description: 'Reports status, version, uptime, transport and protocol version.',
      outputSchema: z.object({ status: z.enum(['ok']), version: z.string(), uptime_seconds: z.number().min(0), transport: z.string(), protocol_version: z.string() }),
    },
    async () => {
      const structuredContent = { status: 'ok', version: '1.0.0', uptime_seconds: Math.round((Date.now() - startedAt) / 100) / 10, transport, protocol_version: protocolVersion };
      return { content: [{ type: 'text', text: JSON.stringify(structuredContent, null, pretty ? 2 : undefined) }], structuredContent };
    },
  );
  return server;
}
