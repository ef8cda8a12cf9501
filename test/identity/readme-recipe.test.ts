/**
 * The README's identity setup for a team server, run as written (only its addresses changed):
 * against a real PostgreSQL, a real authorization server (oidc-provider) and a real replica.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import { gitRemote } from '../helpers/git-remote.js';
import { startIssuer } from '../helpers/oidc.js';
import { sharedPostgres } from '../helpers/postgres.js';
import { BIN, runCli } from '../helpers/process.js';
import { freePort } from '../helpers/serve-http.js';
import { statelessCall } from '../helpers/stateless.js';
import { eventually } from '../helpers/wait.js';

const README = fileURLToPath(new URL('../../../README.md', import.meta.url));

/** The README's ```sh identity block: one command per entry, continuations joined, comments dropped. */
function recipe(): string[][] {
  const block = /```sh identity\n([\s\S]*?)```/.exec(readFileSync(README, 'utf8'))?.[1];
  assert.ok(block, 'the README has a ```sh identity block');
  return block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.split(/\s+/));
}

test("the README's identity recipe: a token and a group each see the project they are allowed, on a replica", async () => {
  const databaseUrl = await (await sharedPostgres()).database();
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const remote = gitRemote();
  remote.push({ 'web.go': 'package web\n\nfunc Render() {}\n' });
  const issuer = await startIssuer({ agent: ['web-team'], plain: [] });
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const env = { SEXTANT_HOME: home, SEXTANT_DATABASE_URL: databaseUrl };
  // The project the README's first block registers.
  assert.is((await runCli(['project', 'add', 'web', '--git', remote.url], '', env)).code, 0);
  let replica: ReturnType<typeof spawn> | undefined;
  let secret = '';
  try {
    const commands = recipe();
    assert.equal(
      commands.map((command) => command.slice(0, 3).join(' ')),
      ['sextant token create', 'sextant project allow', 'sextant project allow', 'sextant serve --transport'],
    );
    for (const command of commands) {
      assert.is(command[0], 'sextant');
      const args = command
        .slice(1)
        .map((arg) =>
          arg === 'https://login.internal/realms/eng' ? issuer.issuer : arg === 'https://sextant.internal' ? publicUrl : arg === '3000' ? String(port) : arg,
        );
      if (args[0] === 'serve') {
        replica = spawn(process.execPath, [BIN, ...args, '--no-watch', '--log-level', 'warning'], { env: { ...process.env, ...env }, stdio: 'ignore' });
        continue;
      }
      const ran = await runCli(args, '', env);
      assert.is(ran.code, 0, `${command.join(' ')}: ${ran.stderr}`);
      if (args[0] === 'token') secret = ran.stdout.trim();
    }
    await eventually(
      async () => {
        try {
          const response = await request(`${publicUrl}/ready`);
          await response.body.text();
          return response.statusCode === 200;
        } catch {
          return false;
        }
      },
      'the replica serves web',
      60_000,
      200,
    );
    const listed = async (authorization?: string) => {
      const answer = await statelessCall(
        `${publicUrl}/mcp`,
        'tools/call',
        { name: 'list_projects', arguments: {} },
        {},
        authorization ? { authorization } : {},
      );
      return answer.status === 200 ? (answer.result!.structuredContent as { projects: Array<{ name: string }> }).projects.map((p) => p.name) : answer;
    };
    assert.equal(await listed(`Bearer ${secret}`), ['web'], 'the token of the recipe');
    // The files behind the answers, on a git project a replica serves, in the stateless era.
    const tool = async (name: string, args: Record<string, unknown>) =>
      (await statelessCall(`${publicUrl}/mcp`, 'tools/call', { name, arguments: { workspace: 'web', ...args } }, {}, { authorization: `Bearer ${secret}` }))
        .result as { content: Array<{ text: string }>; structuredContent: Record<string, unknown>; isError?: boolean };
    const read = await tool('read_file', { path: 'web.go' });
    assert.not.ok(read.isError, JSON.stringify(read));
    assert.match(read.content[0]!.text, '3: func Render() {}');
    assert.match(read.content.map((part) => part.text).join('\n'), 'Served from project web at commit');
    const files = await tool('list_files', {});
    assert.equal(
      (files.structuredContent.entries as Array<{ path: string }>).map((entry) => entry.path),
      ['web.go'],
    );
    assert.equal(await listed(`Bearer ${await issuer.token('agent', `${publicUrl}/mcp`, 'sextant:search')}`), ['web'], 'a member of web-team');
    assert.equal(await listed(`Bearer ${await issuer.token('plain', `${publicUrl}/mcp`, 'sextant:search')}`), [], 'a user of no group sees nothing');
    const none = (await listed()) as { status: number; headers: Record<string, unknown> };
    assert.is(none.status, 401);
    assert.match(String(none.headers['www-authenticate']), `resource_metadata="${publicUrl}/.well-known/oauth-protected-resource/mcp"`);
  } finally {
    if (replica && replica.exitCode === null) await new Promise((resolve) => (replica!.once('exit', resolve), replica!.kill('SIGTERM')));
    await issuer.close();
    rmSync(home, { recursive: true, force: true });
  }
});

test.run();
