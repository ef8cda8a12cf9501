/**
 * Many projects on one server with bounded threads, files and projects held open: a search over
 * every project runs on the server's one pool of search threads, which holds no more index files
 * open than its budget; no more projects stay open than --max-open-projects; and once nobody
 * searches for the idle time, the threads stop and every project is let go.
 */
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { indexTree } from '../helpers/indexed-tree.js';
import { call, projectHarness, projectTree, sdkClient } from '../helpers/projects.js';
import { runCli } from '../helpers/process.js';
import { eventually } from '../helpers/wait.js';

const PROJECTS = 12;

/** The text-index segment files this process holds open under `home` (the search threads are threads of it). */
function openSegments(home: string): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(home) && target.endsWith('.sxt')) count++;
    } catch {
      // closed meanwhile
    }
  }
  return count;
}

const threads = (): number => readdirSync('/proc/self/task').length;

async function withProjects(work: (roots: string[], home: string) => Promise<void>): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const roots = Array.from({ length: PROJECTS }, (_, index) =>
    projectTree({ [`src/service_${index}.py`]: `def handler_${index}():\n    return "shared_marker ${index}"\n` }, `sextant-many-${index}-`),
  );
  try {
    for (const root of roots) await indexTree(root, home);
    await work(roots, home);
  } finally {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

test('a search over every project runs on one pool, within its open-file budget and the open-project limit', async () => {
  await withProjects(async (roots, home) => {
    const before = threads();
    const h = await projectHarness({ workspaces: roots }, home, { searchPool: { workers: 2, openFiles: 6 }, maxOpenProjects: 4, watch: false });
    const client = await sdkClient(h.http.urls.mcp);
    try {
      const all = await call(client, 'search_code', { query: 'shared_marker', limit: 50 });
      assert.not.ok(all.isError, JSON.stringify(all));
      assert.is(all.structuredContent!.projects_searched, PROJECTS);
      assert.is((all.structuredContent!.results as unknown[]).length, PROJECTS, 'one match in each project');
      assert.ok(h.projects.searchPool.liveWorkers <= 2, `${h.projects.searchPool.liveWorkers} search threads`);
      assert.ok(threads() - before <= 2 + 2, `${threads() - before} more threads for ${PROJECTS} projects`);
      assert.ok(openSegments(home) <= 6, `${openSegments(home)} segment files open, budget 6`);
      assert.ok(h.projects.openProjects <= 4, `${h.projects.openProjects} projects held open, limit 4`);
      // Let go is not forgotten: a project released is searched again on its next use.
      const again = await call(client, 'search_code', { query: 'handler_0', workspace: roots[0] });
      assert.is((again.structuredContent!.results as unknown[]).length, 1);
      assert.equal(h.problems(), []);
    } finally {
      await client.close();
      await h.close();
    }
  });
});

test('after the idle time the search threads stop and every project is let go; the next search starts again', async () => {
  await withProjects(async (roots, home) => {
    const h = await projectHarness({ workspaces: roots.slice(0, 3) }, home, { idleMs: 300, watch: false });
    const client = await sdkClient(h.http.urls.mcp);
    try {
      const first = await call(client, 'search_code', { query: 'shared_marker' });
      assert.is(first.structuredContent!.projects_searched, 3);
      await eventually(() => h.projects.searchPool.liveWorkers === 0, 'the search threads stop once idle');
      await eventually(() => h.projects.openProjects === 0, 'every project is let go once idle');
      assert.is(openSegments(home), 0, 'no segment file stays open');
      const next = await call(client, 'search_code', { query: 'shared_marker' });
      assert.is(next.structuredContent!.projects_searched, 3);
    } finally {
      await client.close();
      await h.close();
    }
  });
});

test('serve refuses a limit or an idle time that is not a whole number of at least one', async () => {
  for (const [flag, value] of [
    ['--max-open-projects', '0'],
    ['--idle-release', 'soon'],
  ]) {
    const run = await runCli(['serve', flag!, value!]);
    assert.is(run.code, 2, run.stderr);
    assert.match(run.stderr, `${flag} must be a whole number of at least 1`);
  }
});

test.run();
