// The SDK v2 peer for bench/stdio-roundtrip: bench/sdk-v2-peer.mjs's McpServer over the SDK's own
// StdioServerTransport. Bench-only.
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { sdkV2Server } from './sdk-v2-peer.mjs';

await sdkV2Server({ transport: 'stdio', protocolVersion: '2025-11-25' }).connect(new StdioServerTransport());
