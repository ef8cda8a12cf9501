// The ceiling for bench/http-roundtrip: bare node:http answering every POST with a canned
// JSON-RPC result (Sextant's health_check answer, made once: bench/health-answer.mjs), no MCP
// logic, no sessions.
import { createServer } from 'node:http';
import { healthAnswer } from './health-answer.mjs';

const port = Number(process.argv[2] ?? 3102);
const result = healthAnswer({ version: '1.0.0', startedAt: Date.now(), transport: 'streamable-http', protocolVersion: '2025-11-25' });
createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    const answer = message.method === 'initialize' ? { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'echo', version: '0' } } : result;
    const body = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: answer });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'mcp-session-id': 'echo' });
    res.end(body);
  });
}).listen(port, '127.0.0.1', () => console.error(`echo on ${port}`));
