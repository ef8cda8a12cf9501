/**
 * docs/team.md's commands run as written: the SQL that makes Sextant's role and database, then a
 * replica using them; and the `curl` probes of every request form against a server with a token.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sharedPostgres } from '../helpers/postgres.js';
import { ROOT, runCli } from '../helpers/process.js';
import { projectTree } from '../helpers/projects.js';
import { serveProcess } from '../helpers/serve-http.js';

const TEAM = readFileSync(join(ROOT, 'docs/team.md'), 'utf8');
const TOKEN = 'probe-token';

/** The first fenced block of `language` after `heading` in docs/team.md. */
function block(heading: string, language: string): string {
  const after = TEAM.slice(TEAM.indexOf(heading));
  const found = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(after)?.[1];
  assert.ok(found, `docs/team.md has a \`\`\`${language} block under ${heading}`);
  return found;
}

test("the SQL that makes Sextant's role and database is enough for a replica: it creates its own tables", async () => {
  const server = await sharedPostgres();
  // A name of this test's own on the shared server; otherwise the statements run as written.
  const name = `sextant_${Math.random().toString(36).slice(2, 8)}`;
  const statements = block('## Replicas', 'sql').replace(/\bsextant\b/g, name);
  const admin = postgres(server.url(), { max: 1, onnotice: () => {} });
  try {
    for (const statement of statements
      .split(';')
      .map((text) => text.trim())
      .filter(Boolean))
      await admin.unsafe(statement);
  } finally {
    await admin.end();
  }
  const url = `postgres://${name}:PASSWORD@127.0.0.1:${server.port}/${name}`;
  const project = projectTree({ 'main.go': 'package main\n' });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  try {
    const added = await runCli(['project', 'add', 'web', '--folder', project, '--database-url', url], '', { SEXTANT_HOME: home });
    assert.is(added.code, 0, added.stderr);
    const listed = await runCli(['project', 'list', '--json', '--database-url', url], '', { SEXTANT_HOME: home });
    assert.is((JSON.parse(listed.stdout) as { projects: Array<{ name: string }> }).projects[0]?.name, 'web');
  } finally {
    rmSync(project, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

test('the curl probes answer as written: /health and /ready with the token, a 2026-07-28 call, and a 2025-11-25 session', async () => {
  const project = projectTree({ 'main.go': 'package main\n\nfunc Probe() {}\n' });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const env = { SEXTANT_HOME: home, SEXTANT_DATABASE_URL: '' };
  assert.is((await runCli(['project', 'add', 'web', '--folder', project], '', env)).code, 0);
  const server = await serveProcess(home, env, ['--no-watch', '--auth-token', TOKEN]);
  try {
    const script = block('## Probing a replica by hand', 'sh');
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('bash', ['-c', script], {
        env: { ...process.env, SEXTANT: server.url.replace(/\/mcp$/, ''), TOKEN },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    assert.is(run.code, 0, run.stderr);
    assert.match(run.stdout, /"status":"ready","projects":\[\{/, '/health with its details');
    assert.match(run.stdout, '{"ready":true');
    const answers = [...run.stdout.matchAll(/"structuredContent":\{"projects":\[\{"name":"web"/g)];
    assert.is(answers.length, 2, `list_projects answered in both eras: ${run.stdout}`);
    assert.match(run.stdout, '"resultType":"complete"', 'the 2026-07-28 answer');
  } finally {
    await server.stop();
    rmSync(project, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

test.run();
