/**
 * One question over every project of a team server: three git projects in a real PostgreSQL, two
 * replicas, one project whose remote is gone. A search naming no project searches all of them on
 * either replica, with the same answer; each result names its project and the commit it was
 * served from; the broken project is named and does not hold the others up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gitRemote } from '../helpers/git-remote.js';
import { sharedPostgres } from '../helpers/postgres.js';
import { runCli } from '../helpers/process.js';
import { serveProcess } from '../helpers/serve-http.js';
import { statelessCall } from '../helpers/stateless.js';
import { eventually } from '../helpers/wait.js';

interface Answer {
  content: Array<{ type: string; text: string }>;
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}
interface Result {
  project: string;
  commit: string;
  path: string;
  line: number;
}

const base = (url: string): string => url.replace(/\/mcp$/, '');
const served = async (url: string): Promise<Record<string, string | undefined>> => {
  const health = (await (await request(`${base(url)}/health`)).body.json()) as { projects: Array<{ name: string; commit?: string }> };
  return Object.fromEntries(health.projects.map((project) => [project.name, project.commit]));
};
const search = async (url: string, args: Record<string, unknown>): Promise<Answer> =>
  (await statelessCall(url, 'tools/call', { name: 'search_code', arguments: args }, {})).result as unknown as Answer;

test('two replicas answer one search over every project alike, naming each result’s project and commit, and the broken one', async () => {
  const databaseUrl = await (await sharedPostgres()).database();
  const pay = gitRemote();
  const web = gitRemote();
  const broken = gitRemote();
  const payCommit = pay.push({ 'charge.go': 'package pay\n\nfunc ChargeCard() {}\n', 'charge_test.go': 'package pay\n\nfunc TestCharge() { ChargeCard() }\n' });
  const webCommit = web.push({ 'checkout.go': 'package web\n\nfunc Checkout() { pay.ChargeCard() }\n' });
  broken.push({ 'x.go': 'package x\n\nfunc ChargeCard() {}\n' });
  const cliHome = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  for (const [name, remote] of [
    ['pay', pay],
    ['web', web],
    ['broken', broken],
  ] as const) {
    const added = await runCli(['project', 'add', name, '--git', remote.url, '--database-url', databaseUrl], '', { SEXTANT_HOME: cliHome });
    assert.is(added.code, 0, added.stderr);
  }
  // Its remote is gone before any replica fetches it.
  rmSync(new URL(broken.url).pathname, { recursive: true, force: true });
  const args = ['--no-watch', '--poll-interval', '3600', '--database-url', databaseUrl];
  const replicas = [
    await serveProcess(mkdtempSync(join(tmpdir(), 'sextant-home-')), {}, args),
    await serveProcess(mkdtempSync(join(tmpdir(), 'sextant-home-')), {}, args),
  ];
  try {
    for (const replica of replicas) {
      await eventually(async () => {
        const commits = await served(replica.url);
        return commits.pay === payCommit && commits.web === webCommit;
      }, 'each replica serves pay and web');
    }
    const answers = await Promise.all(replicas.map((replica) => search(replica.url, { query: 'ChargeCard' })));
    for (const answer of answers) {
      assert.not.ok(answer.isError, JSON.stringify(answer));
      assert.is(answer.structuredContent.projects_searched, 2);
      const incomplete = answer.structuredContent.projects_incomplete as Array<{ project: string; state: string }>;
      assert.equal(
        incomplete.map((entry) => entry.project),
        ['broken'],
      );
      assert.ok(['failed', 'indexing'].includes(incomplete[0]!.state), incomplete[0]!.state);
      // The remote's address is what list_projects shows; the replica's own folders are not shown.
      assert.not.match(JSON.stringify(answer), /sextant-home-/, 'no checkout path in the answer');
    }
    assert.equal(answers[0]!.structuredContent.results, answers[1]!.structuredContent.results, 'either replica gives the same answer');
    const results = answers[0]!.structuredContent.results as Result[];
    assert.equal({ ...results[0], line: 3 }, { ...results[0], project: 'pay', commit: payCommit, path: 'charge.go', line: 3 }, 'the definition leads');
    assert.ok(results.some((result) => result.project === 'web' && result.commit === webCommit));
    assert.is(results.at(-1)!.path, 'charge_test.go', 'tests last, across projects too');
    const text = answers[0]!.content[0]!.text;
    assert.match(text, `[pay@${payCommit.slice(0, 12)}] charge.go:3:6:`);
    assert.match(text, `pay at commit ${payCommit}`);
    assert.match(text, 'Not complete for 1 project: broken');

    for (const name of ['pay', 'web']) {
      const alone = await search(replicas[1]!.url, { query: 'ChargeCard', workspace: name });
      const own = (alone.structuredContent.results as Result[]).map((result) => `${result.path}:${result.line}`);
      assert.equal(
        results.filter((result) => result.project === name).map((result) => `${result.path}:${result.line}`),
        own,
        `${name} keeps its own order in the merge`,
      );
    }
    const globbed = await search(replicas[0]!.url, { query: 'ChargeCard', projects: ['p*'] });
    assert.equal([...new Set((globbed.structuredContent.results as Result[]).map((result) => result.project))], ['pay']);
    assert.is(globbed.structuredContent.projects_incomplete, undefined);
  } finally {
    await Promise.all(replicas.map((replica) => replica.stop()));
  }
});

test.run();
