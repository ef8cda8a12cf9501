/**
 * A server serving projects from git by name (files mode, one machine): it fetches the published
 * commit, indexes it, and says which commit every answer came from; /ready waits until it serves
 * the target; a push followed by POST /hooks/refresh is served without a restart; a remote client
 * names the project by `workspace`, by `?project=`, or by a root of the same name.
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gitRemote } from '../helpers/git-remote.js';
import { runCli } from '../helpers/process.js';
import { serveProcess } from '../helpers/serve-http.js';
import { statelessCall } from '../helpers/stateless.js';
import { eventually } from '../helpers/wait.js';

interface Ready {
  ready: boolean;
  waiting_for?: unknown[];
}

async function readiness(base: string): Promise<{ status: number; body: Ready }> {
  const response = await request(`${base}/ready`);
  return { status: response.statusCode, body: (await response.body.json()) as Ready };
}

interface Answer {
  content: Array<{ type: string; text: string }>;
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

test('a git project is served by name at the published commit, and follows a push once the refresh hook is called', async () => {
  const remote = gitRemote();
  const first = remote.push({ 'server.go': 'package main\n\nfunc ServeHTTP() {}\n' });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const env = { SEXTANT_HOME: home, SEXTANT_DATABASE_URL: '' };
  assert.is((await runCli(['project', 'add', 'web', '--git', remote.url], '', env)).code, 0);
  // A poll far away: only the hook can make it look again within the test.
  const server = await serveProcess(home, { SEXTANT_DATABASE_URL: '' }, ['--no-watch', '--poll-interval', '3600']);
  const base = server.url.replace(/\/mcp$/, '');
  try {
    await eventually(async () => (await readiness(base)).status === 200, 'ready once the published commit is served');
    const found = (await statelessCall(server.url, 'tools/call', { name: 'search_code', arguments: { query: 'ServeHTTP', workspace: 'web' } }, {}))
      .result as unknown as Answer;
    assert.not.ok(found.isError, JSON.stringify(found));
    assert.is(found.structuredContent.project, 'web');
    assert.is(found.structuredContent.commit, first);
    assert.ok(
      found.content.some((block) => block.text === `Served from project web at commit ${first} (main).`),
      'the commit is in the text too',
    );
    assert.match(found.content[0]!.text, 'server.go:3:6');

    const byQuery = (await statelessCall(`${server.url}?project=WEB`, 'tools/call', { name: 'search_code', arguments: { query: 'ServeHTTP' } }, {}))
      .result as unknown as Answer;
    assert.is(byQuery.structuredContent.commit, first, '?project= names it too, regardless of case');
    // A client on a laptop shares its root: a path that does not exist here, named like the project.
    const byRoot = (
      await statelessCall(
        server.url,
        'tools/call',
        {
          name: 'search_code',
          arguments: { query: 'ServeHTTP' },
          inputResponses: { client_roots: { roots: [{ uri: 'file:///home/alice/src/Web', name: 'web' }] } },
        },
        { roots: {} },
      )
    ).result as unknown as Answer;
    assert.is(byRoot?.structuredContent?.commit, first, `a root named like the project is that project: ${JSON.stringify(byRoot)}`);
    const unknown = (await statelessCall(server.url, 'tools/call', { name: 'search_code', arguments: { query: 'x', workspace: 'nope' } }, {}))
      .result as unknown as Answer;
    assert.ok(unknown.isError);
    assert.match(unknown.content[0]!.text, 'No project named "nope" is registered on this server: list_projects lists them');

    const second = remote.push({ 'handler.go': 'package main\n\nfunc HandleWebhook() {}\n' });
    const hook = await request(`${base}/hooks/refresh?project=web`, { method: 'POST' });
    assert.is(hook.statusCode, 202);
    await hook.body.dump();
    await eventually(async () => {
      const listed = (await statelessCall(server.url, 'tools/call', { name: 'list_projects', arguments: {} }, {})).result as unknown as Answer;
      return (listed.structuredContent.projects as Array<{ commit?: string }>)[0]?.commit === second;
    }, 'the pushed commit is served');
    assert.is((await readiness(base)).status, 200);
    const followed = (await statelessCall(server.url, 'tools/call', { name: 'search_code', arguments: { query: 'HandleWebhook', workspace: 'web' } }, {}))
      .result as unknown as Answer;
    assert.is(followed.structuredContent.commit, second);
    assert.match(followed.content[0]!.text, 'handler.go:3:6');

    const health = (await (await request(`${base}/health`)).body.json()) as { projects: Array<Record<string, unknown>> };
    const { last_catch_up: catchUp, ...project } = health.projects[0]! as { last_catch_up: Record<string, unknown> };
    assert.equal([project], [{ name: 'web', state: 'ready', commit: second, target_commit: second }]);
    assert.is(catchUp.commit, second, 'how the last catch-up spent its time');
    for (const phase of ['fetch_ms', 'text_ms', 'symbols_ms']) assert.ok(Number.isInteger(catchUp[phase]) && (catchUp[phase] as number) >= 0, phase);
    const unknownHook = await request(`${base}/hooks/refresh?project=nope`, { method: 'POST' });
    assert.is(unknownHook.statusCode, 404);
    await unknownHook.body.dump();
  } finally {
    await server.stop();
  }
});

test('list_projects names every registered project, git and folder, with where it comes from and its state', async () => {
  const remote = gitRemote();
  remote.push({ 'lib.py': 'def parse():\n    pass\n' });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const env = { SEXTANT_HOME: home, SEXTANT_DATABASE_URL: '' };
  assert.is((await runCli(['project', 'add', 'lib', '--git', remote.url], '', env)).code, 0);
  assert.is((await runCli(['project', 'add', 'docs', '--folder', home], '', env)).code, 0);
  const server = await serveProcess(home, { SEXTANT_DATABASE_URL: '' }, ['--no-watch', '--poll-interval', '3600']);
  const base = server.url.replace(/\/mcp$/, '');
  try {
    await eventually(async () => (await readiness(base)).status === 200, 'ready once lib is served');
    const listed = (await statelessCall(server.url, 'tools/call', { name: 'list_projects', arguments: {} }, {})).result as unknown as Answer;
    assert.match(listed.content[0]!.text, '2 projects (name them in `workspace`):');
    assert.match(listed.content[0]!.text, `docs: folder ${home} (ready)`);
    assert.match(listed.content[0]!.text, `lib: ${remote.url} main at`);
  } finally {
    await server.stop();
  }
});

test('a project removed from the catalog stops being served, and the replica deletes its checkout and its index', async () => {
  const remote = gitRemote();
  remote.push({ 'gone.go': 'package main\n\nfunc Gone() {}\n' });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const env = { SEXTANT_HOME: home, SEXTANT_DATABASE_URL: '' };
  assert.is((await runCli(['project', 'add', 'old', '--git', remote.url], '', env)).code, 0);
  const server = await serveProcess(home, { SEXTANT_DATABASE_URL: '' }, ['--no-watch', '--poll-interval', '3600']);
  const base = server.url.replace(/\/mcp$/, '');
  const indexes = (): string[] => (existsSync(join(home, 'projects')) ? readdirSync(join(home, 'projects')) : []);
  try {
    await eventually(async () => (await readiness(base)).status === 200, 'the project is served');
    assert.ok(existsSync(join(home, 'checkouts', 'old', 'gone.go')), 'checked out');
    assert.equal(indexes().filter((name) => name.startsWith('old-')).length, 1, 'indexed');
    const removed = await runCli(['project', 'remove', 'old'], '', env);
    assert.is(removed.code, 0, removed.stderr);
    await eventually(() => !existsSync(join(home, 'checkouts', 'old')), 'the checkout is deleted');
    await eventually(() => indexes().every((name) => !name.startsWith('old-')), 'the index is deleted');
    assert.not.ok(existsSync(join(home, 'checkouts', 'old.served.json')));
    const asked = (await statelessCall(server.url, 'tools/call', { name: 'search_code', arguments: { query: 'Gone', workspace: 'old' } }, {}))
      .result as unknown as Answer;
    assert.ok(asked.isError);
    assert.match(asked.content[0]!.text, 'No project named "old" is registered');
  } finally {
    await server.stop();
  }
});

test.run();
