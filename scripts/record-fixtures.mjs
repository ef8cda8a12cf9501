// Re-records spec-fixtures/<revision>/sdk-client-stdio.jsonl: the official SDK client talking to
// the built server over stdio, one conversation per protocol revision. Run after `npm run build`
// (npm run fixtures:record does both). Hand-written edge-case fixtures are not touched.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sdkConversation } from '../build/test/helpers/sdk-session.js';

const sdkVersion = JSON.parse(readFileSync('node_modules/@modelcontextprotocol/sdk/package.json', 'utf8')).version;
const revisions = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

for (const revision of revisions) {
  const raw = join(mkdtempSync(join(tmpdir(), 'sextant-fixture-')), 'traffic.jsonl');
  await sdkConversation(revision, ['--record', raw]);
  const meta = {
    meta: {
      description: `Official SDK client (${revision}) over stdio: initialize, tools/list, tools/call, ping, logging/setLevel, progress, an isError result, a cancelled call`,
      profile: 'conformance',
      source: `@modelcontextprotocol/sdk ${sdkVersion} Client + StdioClientTransport, recorded with sextant serve --record`,
    },
  };
  const lines = readFileSync(raw, 'utf8').trim().split('\n').map((line) => ({ ...JSON.parse(line), session: 'sdk-stdio' }));
  mkdirSync(`spec-fixtures/${revision}`, { recursive: true });
  const out = `spec-fixtures/${revision}/sdk-client-stdio.jsonl`;
  writeFileSync(out, [meta, ...lines].map((entry) => JSON.stringify(entry)).join('\n') + '\n');
  console.log(`${out}: ${lines.length} messages`);
}
