// The 2026-07-28 peer for bench/http-roundtrip --era 2026: the same health_check tool served by the
// official SDK v2 (@modelcontextprotocol/server 2.4.0) through createMcpHandler, its per-request
// stateless handler, on plain node:http (Node's own Request/Response around handler.fetch). Bench-only.
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { sdkV2Server } from './sdk-v2-peer.mjs';

const port = Number(process.argv[2] ?? 3102);

const handler = createMcpHandler(() => sdkV2Server({ transport: 'streamable-http', protocolVersion: '2026-07-28' }));

createServer(async (req, res) => {
  if (req.url === '/health') return res.writeHead(200).end('{}');
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const request = new Request(`http://127.0.0.1:${port}${req.url}`, {
    method: req.method,
    headers: Object.entries(req.headers).flatMap(([name, value]) =>
      Array.isArray(value) ? value.map((v) => [name, v]) : value === undefined ? [] : [[name, value]],
    ),
    body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
  });
  const response = await handler.fetch(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) Readable.fromWeb(response.body).pipe(res);
  else res.end();
}).listen(port, '127.0.0.1');
