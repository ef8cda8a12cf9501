/**
 * `sextant project` on one machine (the catalog under SEXTANT_HOME) against real git remotes:
 * a project is checked before it is registered, so a bad URL, an unknown branch or a taken name
 * is refused in one line (exit 2) and nothing is half-registered.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gitRemote } from '../helpers/git-remote.js';
import { runCli } from '../helpers/process.js';

function home(): { env: NodeJS.ProcessEnv; cli: (...args: string[]) => ReturnType<typeof runCli> } {
  const env = { SEXTANT_HOME: mkdtempSync(join(tmpdir(), 'sextant-home-')), SEXTANT_DATABASE_URL: '' };
  return { env, cli: (...args) => runCli(['project', ...args], '', env) };
}

test('add a git project: its default branch is resolved and published; list shows it; remove takes it away', async () => {
  const remote = gitRemote();
  const commit = remote.push({ 'main.go': 'package main\n' });
  const { cli } = home();
  const added = await cli('add', 'web', '--git', remote.url);
  assert.is(added.code, 0, added.stderr);
  assert.match(added.stdout, `Added web: ${remote.url} at main (${commit.slice(0, 12)})`);
  assert.match(added.stdout, `Published ${commit.slice(0, 12)} for web (generation 1)`);
  const listed = await cli('list', '--json');
  assert.equal(JSON.parse(listed.stdout).projects, [
    {
      name: 'web',
      location: { git: remote.url, ref: 'main' },
      allowed: [],
      target: { commit, generation: 1, committed_at: JSON.parse(listed.stdout).projects[0].target.committed_at },
    },
  ]);
  assert.match((await cli('list')).stdout, `web\t${remote.url} main at ${commit.slice(0, 12)} (generation 1)`);
  const again = await cli('refresh', 'web');
  assert.is(again.code, 0);
  assert.match(again.stdout, `web is already at ${commit.slice(0, 12)}`);
  const moved = remote.push({ 'more.go': 'package main\n' });
  assert.match((await cli('refresh', 'WEB')).stdout, `Published ${moved.slice(0, 12)} for web (generation 2)`);
  assert.is((await cli('remove', 'web')).code, 0);
  const gone = await cli('remove', 'web');
  assert.is(gone.code, 1);
  assert.match(gone.stderr, 'no project named "web" is registered');
});

test('a remote whose HEAD names a branch it lacks: its one branch is served; with several, they are named', async () => {
  // `git init --bare` with master, then only main pushed: ls-remote finds no HEAD.
  const remote = gitRemote({ head: 'master' });
  const commit = remote.push({ 'main.go': 'package main\n' });
  const { cli } = home();
  const added = await cli('add', 'web', '--git', remote.url);
  assert.is(added.code, 0, added.stderr);
  assert.match(added.stdout, `Added web: ${remote.url} at main (${commit.slice(0, 12)})`);
  remote.push({ 'dev.go': 'package main\n' }, 'dev');
  const two = await cli('add', 'other', '--git', remote.url);
  assert.is(two.code, 2);
  assert.match(two.stderr, /has no default branch \(its HEAD names none of its 2 branches: dev, main\): give one with --ref/);
  assert.is(two.stderr.trim().split('\n').length, 1, 'one line');
  assert.is((await cli('add', 'other', '--git', remote.url, '--ref', 'dev')).code, 0);
  const empty = gitRemote({ head: 'master' });
  const none = await cli('add', 'empty', '--git', empty.url);
  assert.is(none.code, 2);
  assert.match(none.stderr, /has no branches \(an empty repository\?\)/);
  const listed = JSON.parse((await cli('list', '--json')).stdout) as { projects: Array<{ name: string }> };
  assert.equal(
    listed.projects.map((project) => project.name),
    ['other', 'web'],
  );
});

test('a URL git cannot read, an unknown branch, a taken name and a bad name are refused in one line, and nothing is registered', async () => {
  const remote = gitRemote();
  remote.push({ 'a.py': 'x = 1\n' });
  const { cli, env } = home();
  assert.is((await cli('add', 'web', '--git', remote.url, '--ref', 'main')).code, 0);
  const cases: [string[], RegExp][] = [
    [
      ['add', 'nowhere', '--git', `file://${env.SEXTANT_HOME}/missing.git`],
      /git cannot read file:\/\/.*missing\.git: .*does not appear to be a git repository/,
    ],
    [['add', 'branchless', '--git', remote.url, '--ref', 'no-such-branch'], /has no branch or tag named "no-such-branch"/],
    [['add', 'WEB', '--git', remote.url], /A project named "WEB" is already registered/],
    [['add', '../escape', '--git', remote.url], /Invalid project name "\.\.\/escape"/],
    [['add', 'both', '--git', remote.url, '--folder', '/tmp'], /needs one of --git URL or --folder PATH/],
    [['add', 'neither'], /needs one of --git URL or --folder PATH/],
    [['add', 'opt', '--git=--upload-pack=touch /tmp/x'], /"--upload-pack=touch \/tmp\/x" is not a git remote URL/],
    [['remove'], /needs the project's NAME/],
  ];
  for (const [args, message] of cases) {
    const run = await cli(...args);
    assert.is(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message);
    assert.is(run.stderr.trim().split('\n').length, 1, `one line: ${run.stderr}`);
  }
  const listed = JSON.parse((await cli('list', '--json')).stdout) as { projects: Array<{ name: string }> };
  assert.equal(
    listed.projects.map((project) => project.name),
    ['web'],
  );
});

test('a folder project is registered by name; refresh says it follows its files itself', async () => {
  const { cli, env } = home();
  assert.is((await cli('add', 'docs', '--folder', env.SEXTANT_HOME!)).code, 0);
  const refreshed = await cli('refresh', 'docs');
  assert.is(refreshed.code, 1);
  assert.match(refreshed.stderr, 'docs is a folder, not a git project');
  const missing = await cli('add', 'nothing', '--folder', join(env.SEXTANT_HOME!, 'no-such-folder'));
  assert.is(missing.code, 2);
  assert.match(missing.stderr, 'No such directory');
});

test.run();
