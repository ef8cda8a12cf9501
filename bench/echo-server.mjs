// The ceiling for bench/stdio-roundtrip: answers every request line with a canned result (Sextant's
// health_check answer, made once: bench/health-answer.mjs) and no MCP logic at all, so the table
// shows how much of a round trip is the pipe, the JSON and the client.
import { createInterface } from 'node:readline';
import { healthAnswer } from './health-answer.mjs';

const result = healthAnswer({ version: '1.0.0', startedAt: Date.now(), transport: 'stdio', protocolVersion: '2025-11-25' });
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  const answer = message.method === 'initialize' ? { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'echo', version: '0' } } : result;
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: answer })}\n`);
});
