// Re-records spec-fixtures/<revision>/sdk-client-stdio.jsonl: the official SDK client talking to
// the built server over stdio, one conversation per protocol revision. Run after `npm run build`
// (npm run fixtures:record does both). Hand-written edge-case fixtures are not touched.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpSync, realpathSync } from 'node:fs';
import { sdkCodeToolsConversation, sdkConversation } from '../build/test/helpers/sdk-session.js';

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

// The code tools on a fresh copy of the fixture repository (2025-11-25 only: the tools are the
// same under every revision, and the other recordings cover how each revision shapes them).
{
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-fixture-project-')));
  cpSync('test/fixtures/polyglot', root, { recursive: true });
  const home = mkdtempSync(join(tmpdir(), 'sextant-fixture-home-'));
  const raw = join(mkdtempSync(join(tmpdir(), 'sextant-fixture-')), 'traffic.jsonl');
  const seen = await sdkCodeToolsConversation(root, home, ['--record', raw]);
  const meta = {
    meta: {
      description: `Official SDK client over stdio on the polyglot fixture repository: index_repo, every read tool, error results (${seen.filter((s) => s.endsWith('error')).length} of ${seen.length} calls)`,
      profile: 'default',
      project: 'polyglot',
      source: `@modelcontextprotocol/sdk ${sdkVersion} Client + StdioClientTransport, recorded with sextant serve --workspace COPY --record`,
    },
  };
  const lines = readFileSync(raw, 'utf8').trim().split('\n').map((line) => ({ ...JSON.parse(line), session: 'sdk-code-tools' }));
  const out = 'spec-fixtures/2025-11-25/code-tools.jsonl';
  writeFileSync(out, [meta, ...lines].map((entry) => JSON.stringify(entry)).join('\n') + '\n');
  console.log(`${out}: ${lines.length} messages`);
}
