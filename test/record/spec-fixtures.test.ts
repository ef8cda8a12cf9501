import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isMessageEntry, parseRecording, type MessageEntry, type RecordEntry } from '../../src/record/format.js';
import { replay } from '../../src/record/replay.js';
import { createSextantServer, loadProfile, type Profile } from '../../src/server.js';
import { ROOT, runCli } from '../helpers/process.js';
import { ALL_REVISIONS, TrafficChecker } from '../helpers/schema.js';
import { fixtureCopy } from '../helpers/projects.js';
import { ProjectService } from '../../src/workspace/projects.js';
import { resolveWorkspaceConfig } from '../../src/workspace/config.js';

const FIXTURES = join(ROOT, 'spec-fixtures');

function load(file: string): { entries: RecordEntry[]; profile: Profile; project?: string } {
  const entries = parseRecording(readFileSync(file, 'utf8'), file);
  const meta = entries.find((entry) => 'meta' in entry);
  const profile = (meta && 'meta' in meta ? meta.meta.profile : undefined) ?? 'default';
  const project = meta && 'meta' in meta ? meta.meta.project : undefined;
  return { entries, profile: profile as Profile, ...(project ? { project } : {}) };
}

/** The server a fixture needs: its profile, and with `project`, a fresh copy of that fixture repository as its workspace. */
async function serverFor(
  name: Profile,
  project: string | undefined,
): Promise<{ create: () => ReturnType<typeof createSextantServer>; close: () => Promise<void> }> {
  const profile = await loadProfile(name);
  if (!project) return { create: () => createSextantServer({ profile }), close: async () => undefined };
  const root = fixtureCopy(project);
  const projects = new ProjectService({ config: resolveWorkspaceConfig({ env: {}, workspaces: [root] }), home: mkdtempSync(join(tmpdir(), 'sextant-home-')) });
  return { create: () => createSextantServer({ profile, projects }), close: () => projects.close() };
}

for (const revision of ALL_REVISIONS) {
  const files = readdirSync(join(FIXTURES, revision)).filter((name) => name.endsWith('.jsonl'));
  test(`${revision} has recorded SDK traffic and hand-written edge cases`, () => {
    assert.ok(files.includes('sdk-client-stdio.jsonl'), 'missing the SDK recording');
    assert.ok(files.length >= 2, `only ${files.join(', ')}`);
  });
  for (const name of files) {
    test(`replay ${revision}/${name}: same ids, codes and shapes; every message schema-valid`, async () => {
      const { entries, profile, project } = load(join(FIXTURES, revision, name));
      const checker = new TrafficChecker();
      for (const entry of entries.filter(isMessageEntry)) if (entry.dir === 'in' && entry.message !== undefined) checker.incoming(entry.message);
      const server = await serverFor(profile, project);
      const report = await replay(entries, server.create, { onOutgoing: (message) => checker.outgoing(message), stepTimeoutMs: 10_000 }).finally(server.close);
      for (const session of report.sessions) assert.equal(session.differences, [], `${name} / ${session.session}`);
      assert.ok(report.ok);
      assert.equal(checker.problems, []);
      assert.ok(checker.checked > 0);
      if (revision === '2026-07-28') {
        assert.is(checker.revision, undefined, 'a 2026-07-28 fixture never begins a session');
        assert.is(checker.modernChecked, checker.checked, 'every message checked against the 2026-07-28 schema');
      } else assert.is(checker.revision, revision, 'the fixture negotiates the revision of its folder');
    });
  }
}

test('replay reports a changed error code, a missing message and an extra one', async () => {
  const { entries, profile } = load(join(FIXTURES, '2025-11-25', 'edge-cases.jsonl'));
  const doctored = entries.map((entry) => structuredClone(entry)) as RecordEntry[];
  const outs = doctored.filter(isMessageEntry).filter((e) => e.dir === 'out') as MessageEntry[];
  const notFound = outs.find((e) => (e.message as { error?: { code: number } }).error?.code === -32601)!;
  (notFound.message as { error: { code: number } }).error.code = -32603;
  // Drop the recorded answer to the string-id ping: the server's real answer becomes "unexpected".
  const pingAnswer = doctored.findIndex((e) => isMessageEntry(e) && e.dir === 'out' && (e.message as { id?: unknown }).id === 'string-id');
  doctored.splice(pingAnswer, 1);
  const loaded = await loadProfile(profile);
  const report = await replay(doctored, () => createSextantServer({ profile: loaded }));
  assert.not.ok(report.ok);
  const differences = report.sessions[0]!.differences.join('\n');
  assert.match(differences, '.error.code: expected -32603, got -32601');
  assert.ok(report.sessions[0]!.differences.length >= 2);
});

test('sextant replay: exit 0 when the server matches, 1 with the differences listed when it does not', async () => {
  const good = join(FIXTURES, '2025-03-26', 'batches.jsonl');
  const ok = await runCli(['replay', good]);
  assert.is(ok.code, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, 'matches');
  const bad = join(mkdtempSync(join(tmpdir(), 'sextant-replay-')), 'bad.jsonl');
  writeFileSync(bad, readFileSync(good, 'utf8').replace('"code":-32601', '"code":-32000'));
  const differs = await runCli(['replay', bad]);
  assert.is(differs.code, 1);
  assert.match(differs.stdout, 'expected -32000, got -32601');
  assert.match(differs.stdout, 'differs');
});

test.run();
