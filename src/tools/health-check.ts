/** `health_check`: is the server up, which build, for how long, over which transport and revision. */
import type { ToolDefinition } from '../mcp/tools.js';
import type { MessageContext } from '../mcp/session.js';

export function createHealthCheckTool(options: { version: string; startedAt: number; now?: () => number }): ToolDefinition {
  const now = options.now ?? Date.now;
  return {
    name: 'health_check',
    title: 'Health check',
    description: 'Reports whether the Sextant server is up: its status, version, uptime in seconds, transport and negotiated MCP protocol version.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: {
      type: 'object',
      properties: {
        status: { type: 'string', enum: ['ok'] },
        version: { type: 'string' },
        uptime_seconds: { type: 'number', minimum: 0 },
        transport: { type: 'string' },
        protocol_version: { type: 'string' },
      },
      required: ['status', 'version', 'uptime_seconds', 'transport', 'protocol_version'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run(_args, context) {
      const extra = context.extra as MessageContext | undefined;
      return {
        structuredContent: {
          status: 'ok',
          version: options.version,
          uptime_seconds: Math.max(0, Math.round((now() - options.startedAt) / 100) / 10),
          transport: extra?.transport ?? 'unknown',
          protocol_version: context.protocolVersion,
        },
      };
    },
  };
}
