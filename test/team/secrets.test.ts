/**
 * Nothing secret leaves a team server: a password written into a git URL is in no answer, log
 * line, error, `/health` or `list_projects`; `/health` and `/ready` tell a caller without the token
 * only that the server is up; and a remote caller's answers name a checkout by its project's name,
 * never the server's paths.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { request } from 'undici';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { RunningHttpServer } from '../../src/transports/http-listener.js';
import { TRANSPORTS, withCaller } from '../helpers/callers.js';
import { gitHttpServer } from '../helpers/git-http.js';
import { gitRemote } from '../helpers/git-remote.js';
import { runCli } from '../helpers/process.js';
import { serveProcess } from '../helpers/serve-http.js';
import { statelessCall } from '../helpers/stateless.js';
import { eventually } from '../helpers/wait.js';

const PASSWORD = 'HUNTER2_PASSWORD_SECRET';
const TOKEN = 'team-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown>; text: string }> {
  const response = await request(url, { headers });
  const text = await response.body.text();
  return { status: response.statusCode, body: JSON.parse(text) as Record<string, unknown>, text };
}

test('a password in a git URL is in no answer, log line, error, /health or list_projects; /health without the token says only that it is up', async () => {
  const remote = gitRemote();
  const first = remote.push({ 'server.go': 'package main\n\nfunc ServeHTTP() {}\n' });
  const git = await gitHttpServer(dirname(remote.url.slice('file://'.length)));
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const env = { SEXTANT_HOME: home, SEXTANT_DATABASE_URL: '' };
  const secretUrl = `${git.base.replace('//', `//deploy:${PASSWORD}@`)}/origin.git`;
  const shownUrl = `${git.base}/origin.git`;
  let server: Awaited<ReturnType<typeof serveProcess>> | undefined;
  try {
    const added = await runCli(['project', 'add', 'web', '--git', secretUrl], '', env);
    assert.is(added.code, 0, added.stderr);
    assert.match(added.stdout, shownUrl);
    const refused = await runCli(['project', 'add', 'gone', '--git', secretUrl.replace('origin.git', 'missing.git')], '', env);
    assert.is(refused.code, 2);
    assert.match(refused.stderr, shownUrl.replace('origin.git', 'missing.git'), 'the error names the remote');
    const listed = await runCli(['project', 'list'], '', env);
    const listedJson = await runCli(['project', 'list', '--json'], '', env);
    for (const output of [added, refused, listed, listedJson]) assert.not.ok((output.stdout + output.stderr).includes(PASSWORD), output.stdout + output.stderr);

    server = await serveProcess(home, { SEXTANT_DATABASE_URL: '' }, ['--no-watch', '--poll-interval', '3600', '--auth-token', TOKEN, '--log-level', 'debug']);
    const base = server.url.replace(/\/mcp$/, '');
    await eventually(async () => (await request(`${base}/ready`, { headers: AUTH })).statusCode === 200, 'ready once the commit is served');

    const stranger = await get(`${base}/health`);
    assert.equal(stranger.body, { status: 'up' }, 'no detail without the token');
    assert.equal((await get(`${base}/ready`)).body, { ready: true });
    const member = await get(`${base}/health`, { authorization: `bearer ${TOKEN}` });
    assert.ok(Array.isArray(member.body.projects), 'the details with the token (any spelling of the scheme)');
    assert.not.ok(member.text.includes(PASSWORD));
    assert.not.ok(member.text.includes(home), `a token holder is still remote: no server path (${member.text.slice(0, 300)})`);

    const projects = (await statelessCall(server.url, 'tools/call', { name: 'list_projects', arguments: {} }, {}, AUTH)).result!;
    assert.not.ok(JSON.stringify(projects).includes(PASSWORD), JSON.stringify(projects));
    assert.equal((projects.structuredContent as { projects: unknown[] }).projects[0], {
      name: 'web',
      git: shownUrl,
      ref: 'main',
      state: 'ready',
      commit: first,
      target_commit: first,
    });

    // A remote caller's answers name the checkout by the project's name: no home, no checkout path.
    for (const [name, args] of [
      ['index_status', { workspace: 'web' }],
      ['search_code', { workspace: 'web', query: 'ServeHTTP' }],
      ['get_file_outline', { workspace: 'web', path: 'nope.go' }],
      ['health_check', {}],
    ] as const) {
      const answer = JSON.stringify((await statelessCall(server.url, 'tools/call', { name, arguments: args }, {}, AUTH)).result);
      assert.not.ok(answer.includes(home), `${name} names no server path: ${answer.slice(0, 400)}`);
      if (homedir().length > 1) assert.not.ok(answer.includes(homedir()), `${name} names no home`);
    }
    // The same on every transport, in sessions as well as in 2026-07-28 calls.
    const listener = { urls: { mcp: server.url, sse: `${base}/sse`, ws: `${base.replace('http', 'ws')}/ws`, health: `${base}/health` } } as RunningHttpServer;
    for (const kind of TRANSPORTS) {
      await withCaller(listener, kind, { token: TOKEN }, async (caller) => {
        for (const [name, args] of [
          ['list_projects', {}],
          ['index_status', { workspace: 'web' }],
          ['get_file_outline', { workspace: 'web', path: 'nope.go' }],
        ] as const) {
          const answer = JSON.stringify(await caller.call(name, args));
          assert.not.ok(answer.includes(PASSWORD) || answer.includes(home), `${kind} ${name}: ${answer.slice(0, 300)}`);
        }
      });
    }
    // A task's answer, read later, is masked like the call's.
    const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    const task = (await statelessCall(server.url, 'tools/call', { name: 'sync_repo', arguments: { workspace: 'web', force: true } }, TASKS, AUTH)).result!;
    assert.is(task.resultType, 'task', JSON.stringify(task));
    let done: Record<string, unknown> | undefined;
    await eventually(async () => {
      done = (await statelessCall(server!.url, 'tasks/get', { taskId: task.taskId }, TASKS, AUTH)).result;
      return done?.status === 'completed';
    }, 'the sync task completes');
    assert.match(JSON.stringify(done), 'Synced web:', 'the checkout is named by its project');
    assert.not.ok(JSON.stringify(done).includes(home), JSON.stringify(done).slice(0, 400));
    // The remote goes away: the controller's look at the branch fails, and the log says so.
    await git.close();
    assert.is((await request(`${base}/hooks/refresh?project=web`, { method: 'POST', headers: AUTH })).statusCode, 202);
    await eventually(() => server!.stderr().includes(shownUrl), `the log names the remote (${server.stderr().slice(-400)})`);
    assert.not.ok(server.stderr().includes(PASSWORD), 'the log never has the password');
  } finally {
    await server?.stop();
    await git.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(dirname(remote.url.slice('file://'.length)), { recursive: true, force: true });
  }
});

test.run();
