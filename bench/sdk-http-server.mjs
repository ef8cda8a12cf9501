// The peer for bench/http-roundtrip: the official SDK's McpServer over
// StreamableHTTPServerTransport (stateful, one transport per session, as the SDK's own example
// does), on plain node:http, with a health_check that answers as Sextant's does
// (bench/health-answer.mjs). Bench-only.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { healthAnswer, healthShape } from './health-answer.mjs';

const port = Number(process.argv[2] ?? 3101);
const startedAt = Date.now();
const transports = new Map();

function newServer() {
  const server = new McpServer({ name: 'sdk-peer', version: '1.0.0' });
  server.registerTool(
    'health_check',
    {
      description: 'Reports status, version, uptime, transport and protocol version.',
      inputSchema: {},
      outputSchema: healthShape,
    },
    async () => healthAnswer({ version: '1.0.0', startedAt, transport: 'streamable-http', protocolVersion: '2025-11-25' }),
  );
  return server;
}

createServer(async (req, res) => {
  let body;
  if (req.method === 'POST') {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  }
  const sessionId = req.headers['mcp-session-id'];
  let transport = sessionId ? transports.get(sessionId) : undefined;
  if (!transport && body && isInitializeRequest(body)) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => transports.set(id, transport),
    });
    transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
    await newServer().connect(transport);
  }
  if (!transport) {
    res.writeHead(400).end();
    return;
  }
  await transport.handleRequest(req, res, body);
}).listen(port, '127.0.0.1', () => console.error(`sdk peer on ${port}`));
