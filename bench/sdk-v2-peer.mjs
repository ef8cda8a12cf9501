// The SDK v2 peer's server for the benches: the official SDK v2 (@modelcontextprotocol/server
// 2.4.0) McpServer with the same health_check answer as Sextant's (bench/health-answer.mjs). Bench-only.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { healthAnswer, healthShape } from './health-answer.mjs';

const startedAt = Date.now();

export function sdkV2Server({ transport, protocolVersion }) {
  const server = new McpServer({ name: 'sdk-v2-peer', version: '1.0.0' });
  server.registerTool(
    'health_check',
    {
      description: 'Reports status, version, uptime, transport and protocol version.',
      outputSchema: z.object(healthShape),
    },
    async () => healthAnswer({ version: '1.0.0', startedAt, transport, protocolVersion }),
  );
  return server;
}
