/**
 * search_code and locate_symbol over several projects at once, with real indexes over real
 * transports: several --workspace folders searched together, `projects` by path and by glob, the
 * merged ranking against each project's own, cursors across projects, a project that cannot
 * answer named while the others do, a stdio client whose two roots are searched together, and
 * one pool of matches for the projects that read until a pool fills.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, readdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { eventually } from '../helpers/wait.js';
import { indexTree } from '../helpers/indexed-tree.js';
import { call, closerFiles, projectHarness, projectTree, sdkClient } from '../helpers/projects.js';
import { BIN, ROOT, runCli, serverEnv } from '../helpers/process.js';
import { errorCode, type ToolResult } from '../helpers/tool-result.js';

const text = (result: ToolResult): string => result.content.map((part) => part.text ?? '').join('\n');

/** Two services that both charge cards, and a third that never does. */
const PAYMENTS = {
  'src/charge.ts': 'export function chargeCard(amount: number) {\n  return amount;\n}\n',
  'src/refund.ts': 'import { chargeCard } from "./charge";\nexport const refund = () => chargeCard(-1);\n',
  'test/charge.test.ts': 'chargeCard(1);\n',
};
const WEB = {
  'app/checkout.ts': 'import { chargeCard } from "payments";\nexport function checkout() {\n  return chargeCard(10);\n}\n',
  'app/deep/nested/widget.ts': 'export const label = "chargeCard button";\n',
};
const DOCS = { 'guide.md': '# Guide\nNothing about cards here.\n' };

interface Result {
  path: string;
  line: number;
  project?: string;
}

/** Three folders on disk, with an index home; `indexed`: the ones indexed before the work. */
async function withFolders(
  indexed: Array<'payments' | 'web' | 'docs'>,
  work: (roots: { payments: string; web: string; docs: string }, home: string) => Promise<void>,
): Promise<void> {
  const roots = { payments: projectTree(PAYMENTS, 'sextant-pay-'), web: projectTree(WEB, 'sextant-web-'), docs: projectTree(DOCS, 'sextant-docs-') };
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  try {
    for (const name of indexed) {
      const done = await runCli(['index', roots[name]], '', { SEXTANT_HOME: home });
      if (done.code !== 0) throw new Error(`index failed: ${done.stderr}`);
    }
    await work(roots, home);
  } finally {
    for (const root of Object.values(roots)) rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * `roots` indexed in a home of their own and served together (no watchers) to an SDK client over
 * HTTP; the server checks its own traffic. The roots and the home are removed after, however
 * `work` ends. `roots` is filled by `make`, so that what it made before a failure is removed too.
 */
async function servingProjects(
  make: (roots: string[]) => void,
  work: (client: Awaited<ReturnType<typeof sdkClient>>, h: Awaited<ReturnType<typeof projectHarness>>) => Promise<void>,
): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const roots: string[] = [];
  try {
    make(roots);
    for (const root of roots) await indexTree(root, home);
    const h = await projectHarness({ workspaces: roots }, home, { watch: false });
    const client = await sdkClient(h.http.urls.mcp);
    try {
      await work(client, h);
      assert.equal(h.problems(), []);
    } finally {
      await client.close();
      await h.close();
    }
  } finally {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

test('several --workspace folders: one search over all, merged in the order each project gives alone', async () => {
  await withFolders(['payments', 'web', 'docs'], async (roots, home) => {
    const h = await projectHarness({ workspaces: [roots.payments, roots.web, roots.docs] }, home);
    const client = await sdkClient(h.http.urls.mcp);
    try {
      const all = await call(client, 'search_code', { query: 'chargeCard', limit: 50 });
      assert.not.ok(all.isError, text(all));
      const results = all.structuredContent!.results as Result[];
      assert.is(all.structuredContent!.projects_searched, 3);
      assert.is(all.structuredContent!.workspace, undefined, 'an answer across projects names no one workspace');
      assert.ok(results.every((result) => result.project === roots.payments || result.project === roots.web));
      assert.equal({ path: results[0]!.path, project: results[0]!.project }, { path: 'src/charge.ts', project: roots.payments }, 'the definition leads');
      if (process.env.SHOW) console.log(text(all));
      for (const [root] of [[roots.payments], [roots.web]] as const) {
        const alone = await call(client, 'search_code', { query: 'chargeCard', limit: 50, workspace: root });
        const own = (alone.structuredContent!.results as Result[]).map((result) => `${result.path}:${result.line}`);
        const merged = results.filter((result) => result.project === root).map((result) => `${result.path}:${result.line}`);
        assert.equal(merged, own, `the merge keeps ${root}'s own order`);
      }
      const tagged = text(all)
        .split('\n')
        .filter((line) => line.startsWith('['));
      assert.is(tagged.length, results.length, 'each result is a line of text naming its project');
      assert.ok(tagged[0]!.startsWith(`[${roots.payments}] src/charge.ts:1:`), tagged[0]);
      assert.match(text(all), 'Searched 3 projects');
      assert.equal(h.problems(), []);
    } finally {
      await client.close();
      await h.close();
    }
  });
});

test('cursors page across projects: the pages together are the whole ranked answer', async () => {
  await withFolders(['payments', 'web', 'docs'], async (roots, home) => {
    const h = await projectHarness({ workspaces: [roots.docs, roots.payments, roots.web] }, home);
    const client = await sdkClient(h.http.urls.mcp);
    try {
      const args = { query: 'chargeCard', projects: [roots.payments, roots.web] };
      const whole = await call(client, 'search_code', { ...args, limit: 50 });
      const expected = (whole.structuredContent!.results as Result[]).map((result) => `${result.project}:${result.path}:${result.line}`);
      assert.ok(expected.length >= 5, expected.join('\n'));
      const paged: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await call(client, 'search_code', { ...args, limit: 2, ...(cursor && { cursor }) });
        assert.not.ok(page.isError, text(page));
        paged.push(...(page.structuredContent!.results as Result[]).map((result) => `${result.project}:${result.path}:${result.line}`));
        cursor = page.structuredContent!.nextCursor as string | undefined;
        if (cursor) assert.match(text(page), `cursor "${cursor}"`);
      } while (cursor);
      assert.equal(paged, expected);
      const foreign = await call(client, 'search_code', { query: 'chargeCard', limit: 2, projects: [roots.web], cursor: 'eyJvIjoyLCJoIjoieCJ9' });
      assert.is(errorCode(foreign), 'invalid_input');
      const both = await call(client, 'search_code', { query: 'x', workspace: roots.web, projects: [roots.web] });
      assert.is(errorCode(both), 'invalid_input');
      assert.match(text(both), 'not both');
      assert.equal(h.problems(), []);
    } finally {
      await client.close();
      await h.close();
    }
  });
});

test('a project that cannot answer is named, and the others answer', async () => {
  await withFolders(['payments'], async (roots, home) => {
    const h = await projectHarness({ workspaces: [roots.payments, roots.web] }, home);
    const client = await sdkClient(h.http.urls.mcp);
    try {
      const result = await call(client, 'search_code', { query: 'chargeCard' });
      assert.not.ok(result.isError, text(result));
      assert.is(result.structuredContent!.projects_searched, 1);
      assert.is(result.structuredContent!.result_completeness, 'partial');
      assert.equal(result.structuredContent!.projects_incomplete, [
        { project: roots.web, state: 'not_indexed', reason: 'not indexed: run index_repo with workspace set to it' },
      ]);
      assert.ok((result.structuredContent!.results as Result[]).every((one) => one.project === roots.payments));
      assert.match(text(result), `Not complete for 1 project: ${roots.web} (not_indexed`);
      const located = await call(client, 'locate_symbol', { name: 'chargeCard' });
      assert.not.ok(located.isError, text(located));
      assert.equal(located.structuredContent!.projects_incomplete, result.structuredContent!.projects_incomplete);
      assert.equal(h.problems(), []);
    } finally {
      await client.close();
      await h.close();
    }
  });
});

test('locate_symbol across projects: definitions from each, best first, each naming its project', async () => {
  await withFolders(['payments', 'web'], async (roots, home) => {
    const h = await projectHarness({ workspaces: [roots.payments, roots.web] }, home);
    const client = await sdkClient(h.http.urls.mcp);
    try {
      const result = await call(client, 'locate_symbol', { name: 'checkout' });
      assert.not.ok(result.isError, text(result));
      const symbols = result.structuredContent!.symbols as Array<{ name: string; path: string; project: string; match: string }>;
      assert.equal(symbols[0], { ...symbols[0], name: 'checkout', path: 'app/checkout.ts', project: roots.web, match: 'exact' });
      assert.match(text(result), `[${roots.web}] app/checkout.ts:2: function checkout`);
      const globbed = await call(client, 'locate_symbol', { name: 'chargeCard', projects: ['sextant-pay-*'] });
      assert.not.ok(globbed.isError, text(globbed));
      assert.equal(
        (globbed.structuredContent!.symbols as Array<{ project: string }>).map((symbol) => symbol.project),
        [roots.payments],
        'a glob matches a folder by its last part',
      );
      const none = await call(client, 'locate_symbol', { name: 'chargeCard', projects: ['nothing-*'] });
      assert.is(errorCode(none), 'project_not_found');
      const wild = await call(client, 'locate_symbol', { name: 'chargeCard', projects: ['*'.repeat(40) + '!'] });
      assert.is(errorCode(wild), 'invalid_input', 'a glob of forty wildcards is refused, not run');
      const missing = await call(client, 'locate_symbol', { name: 'zzzzqqq', projects: ['*'] });
      assert.is(errorCode(missing), 'symbol_not_found');
      assert.equal(h.problems(), []);
    } finally {
      await client.close();
      await h.close();
    }
  });
});

test('stdio: a client that sends two roots has both searched together', async () => {
  await withFolders(['payments', 'web'], async (roots, home) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', '--log-level', 'warning'],
      env: serverEnv({ SEXTANT_HOME: home }),
      cwd: ROOT,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'sextant-two-roots', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: [
        { uri: pathToFileURL(roots.payments).href, name: 'payments' },
        { uri: pathToFileURL(roots.web).href, name: 'web' },
      ],
    }));
    await client.connect(transport);
    try {
      const result = await call(client, 'search_code', { query: 'chargeCard' });
      assert.not.ok(result.isError, text(result));
      assert.is(result.structuredContent!.projects_searched, 2);
      const projects = new Set((result.structuredContent!.results as Result[]).map((one) => one.project));
      assert.equal([...projects].sort(), [roots.payments, roots.web].sort());
      // A tool about one project still works on the first root.
      const context = await call(client, 'get_file_outline', { path: 'src/charge.ts' });
      assert.not.ok(context.isError, text(context));
    } finally {
      await client.close();
    }
  });
});

test('projects searched together are kept current: a file saved after the first search is found by the next', async () => {
  await withFolders(['payments', 'web'], async (roots, home) => {
    const h = await projectHarness({ workspaces: [roots.payments, roots.web] }, home, { watch: true });
    const client = await sdkClient(h.http.urls.mcp);
    try {
      const first = await call(client, 'search_code', { query: 'refundLater' });
      assert.is(first.structuredContent!.total_matches, 0);
      writeFileSync(join(roots.web, 'app/refund.ts'), 'export function refundLater() {}\n');
      await eventually(async () => {
        const next = await call(client, 'search_code', { query: 'refundLater' });
        return (next.structuredContent!.results as Result[]).some((result) => result.project === roots.web && result.path === 'app/refund.ts');
      }, 'the watcher of a project searched only together with others sees the new file');
    } finally {
      await client.close();
      await h.close();
    }
  });
});

test('definitions spread over projects decide a page together, no project searched; the next page searches', async () => {
  // Two exported definitions of settleInvoice in each of three projects, and uses of it: no project
  // alone defines it enough for a page of four, the three together do.
  const source = (folder: string) => ({
    [`${folder}/settle.ts`]: 'export function settleInvoice(id: string) {\n  return id;\n}\n',
    [`${folder}/legacy/settle.ts`]: 'export function settleInvoice(id: number) {\n  return id;\n}\n',
    [`${folder}/use.ts`]: 'import { settleInvoice } from "./settle";\nsettleInvoice("a");\n',
  });
  const make = (roots: string[]): void => {
    for (const name of ['billing', 'ledger', 'shop']) roots.push(projectTree(source(name), `sextant-${name}-`));
  };
  await servingProjects(make, async (client, h) => {
    const first = await call(client, 'search_code', { query: 'settleInvoice', limit: 4 });
    assert.not.ok(first.isError, text(first));
    const page = (first.structuredContent!.results as Result[]).map((result) => `${result.project}:${result.path}:${result.line}`);
    assert.ok(
      (first.structuredContent!.results as Result[]).every((result) => result.path.endsWith('settle.ts') && result.line === 1),
      'the page is definitions',
    );
    assert.is(h.projects.searchPool.liveWorkers, 0, 'the definitions decided the page: no search thread started');

    const cursor = first.structuredContent!.nextCursor as string;
    assert.type(cursor, 'string');
    const second = await call(client, 'search_code', { query: 'settleInvoice', limit: 8, cursor });
    const rest = (second.structuredContent!.results as Result[]).map((result) => `${result.project}:${result.path}:${result.line}`);
    assert.ok(h.projects.searchPool.liveWorkers > 0, 'past the definitions, the projects were searched');

    const whole = await call(client, 'search_code', { query: 'settleInvoice', limit: 50 });
    const expected = (whole.structuredContent!.results as Result[]).map((result) => `${result.project}:${result.path}:${result.line}`);
    assert.is(expected.length, 12, text(whole));
    assert.equal(page, expected.slice(0, 4));
    assert.equal(rest, expected.slice(4, 12), 'the pages together are the whole answer');
    assert.ok(h.projects.searchPool.liveWorkers > 0, 'the second page searched');
  });
});

test('on a real tree split into projects, small pages read only as far as the others allow, and equal the whole answer', async () => {
  // ajv's sources, each top-level folder a project of its own and the loose files one more.
  const library = join(ROOT, 'node_modules/ajv/lib');
  const make = (roots: string[]): void => {
    const loose = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-ajv-root-')));
    roots.push(loose);
    for (const entry of readdirSync(library)) {
      if (statSync(join(library, entry)).isDirectory()) {
        const root = realpathSync(mkdtempSync(join(tmpdir(), `sextant-ajv-${entry}-`)));
        roots.push(root);
        cpSync(join(library, entry), join(root, entry), { recursive: true });
      } else cpSync(join(library, entry), join(loose, entry));
    }
  };
  await servingProjects(make, async (client) => {
    for (const query of ['discriminator', 'propertyName', 'allErrors', 'coerce']) {
      const whole = await call(client, 'search_code', { query, limit: 200 });
      assert.is(whole.structuredContent!.nextCursor, undefined, `${query}: the whole answer fits one page`);
      const expected = (whole.structuredContent!.results as Result[]).map((result) => `${result.project}:${result.path}:${result.line}`);
      assert.ok(new Set((whole.structuredContent!.results as Result[]).map((result) => result.project)).size >= 2, `${query}: in several projects`);
      for (const limit of [3, 7]) {
        const paged: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await call(client, 'search_code', { query, limit, ...(cursor && { cursor }) });
          assert.not.ok(page.isError, text(page));
          paged.push(...(page.structuredContent!.results as Result[]).map((result) => `${result.project}:${result.path}:${result.line}`));
          cursor = page.structuredContent!.nextCursor as string | undefined;
        } while (cursor && paged.length < expected.length);
        assert.equal(paged.slice(0, expected.length), expected, `${query}, pages of ${limit}`);
      }
    }
  });
});

test('many searches across projects at once, each read in one thread: every page is the start of its whole answer', async () => {
  const library = join(ROOT, 'node_modules/ajv/lib');
  const make = (roots: string[]): void => {
    for (const entry of readdirSync(library)) {
      if (!statSync(join(library, entry)).isDirectory()) continue;
      const root = realpathSync(mkdtempSync(join(tmpdir(), `sextant-ajv-${entry}-`)));
      roots.push(root);
      cpSync(join(library, entry), join(root, entry), { recursive: true });
    }
  };
  await servingProjects(make, async (client) => {
    // Distinct questions, all in flight together: the threads are busy, so each goes whole to one
    // thread (pool.ts), and none is answered from another's kept answer.
    const asked = ['schema', 'error', 'const', 'return', 'data', 'keyword'].flatMap((query) => [1, 2, 4, 9].map((limit) => ({ query, limit })));
    const pages = await Promise.all(asked.map((args) => call(client, 'search_code', args)));
    for (const [at, { query, limit }] of asked.entries()) {
      const page = pages[at]!;
      assert.not.ok(page.isError, text(page));
      const whole = await call(client, 'search_code', { query, limit: 200 });
      const expected = (whole.structuredContent!.results as Result[]).map((result) => `${result.project}:${result.path}:${result.line}`);
      const got = (page.structuredContent!.results as Result[]).map((result) => `${result.project}:${result.path}:${result.line}`);
      assert.is(got.length, Math.min(limit, expected.length), `${query}, a page of ${limit}`);
      assert.equal(got, expected.slice(0, got.length), `${query}, a page of ${limit}`);
    }
  });
});

test('names defined past the seeds in several projects share one pool: one answer idle, busy, or after a project was searched alone', async () => {
  let made: string[] = [];
  const make = (roots: string[]): void => {
    made = roots;
    for (let index = 0; index < 3; index++) roots.push(projectTree(closerFiles(60, 8), `sextant-closers-${index}-`));
    roots.push(projectTree(closerFiles(5, 8), 'sextant-closers-few-'));
  };
  await servingProjects(make, async (client) => {
    const ids = (result: ToolResult): string[] => (result.structuredContent!.results as Result[]).map((one) => `${one.project}:${one.path}:${one.line}`);
    const args = { query: 'close', limit: 10 };
    const first = await call(client, 'search_code', args);
    assert.not.ok(first.isError, text(first));
    // Apart, three pools of 600 matches; together one of 1,000, beside each project's seeds (at most 50) and the last one's own few.
    const total = first.structuredContent!.total_matches as number;
    assert.ok(total <= 1_000 + 3 * 50 + 5 * 10, `${total} matches ranked`);
    assert.is(first.structuredContent!.result_completeness, 'truncated');
    assert.match(text(first), `${total}+ matches in 4 projects`);
    assert.match(text(first), 'Some projects hold more matches than were ranked');

    // One project alone fills a pool of its own, and its answer is kept: the search across them does not take it.
    const alone = await call(client, 'search_code', { ...args, workspace: made[0] });
    assert.ok((alone.structuredContent!.total_matches as number) > 550, 'alone, a project ranks every one of its matches');
    const again = await call(client, 'search_code', args);
    assert.equal(ids(again), ids(first));
    assert.is(again.structuredContent!.total_matches, total);

    // Paged to the end, past the pool (a page that asks for more than it holds): the projects that
    // share it read it together all the way, so no result comes twice, and what those pages kept
    // changes no later answer.
    const seen: string[] = [];
    let last: ToolResult | undefined;
    let next: string | undefined;
    for (let pages = 0; pages === 0 || (next && pages < 200); pages++) {
      last = await call(client, 'search_code', { query: 'close', limit: 200, ...(next && { cursor: next }) });
      assert.not.ok(last.isError, text(last));
      seen.push(...ids(last));
      next = last.structuredContent!.nextCursor as string | undefined;
    }
    assert.is(next, undefined, 'the pages come to an end');
    assert.ok(seen.length > 1_000, `${seen.length} results paged`);
    assert.is(new Set(seen).size, seen.length, 'no result twice');
    assert.is(seen.length, last!.structuredContent!.total_matches);
    // (The last project's whole answer is kept now: it counts all its matches, not those it read to be certain.)
    assert.equal(ids(await call(client, 'search_code', args)), ids(first));

    // A page as deep as it goes, asked alone and with others in flight (the threads busy): the same answer.
    const wide = { query: 'close', limit: 200 };
    const idle = await call(client, 'search_code', wide);
    assert.not.ok(idle.isError, text(idle));
    const busy = await Promise.all([...Array(6).keys()].map((at) => call(client, 'search_code', at % 2 === 0 ? wide : { query: `T${at}`, limit: 5 })));
    for (const at of [0, 2, 4]) {
      assert.equal(ids(busy[at]!), ids(idle), `in flight with others (${at})`);
      assert.is(busy[at]!.structuredContent!.total_matches, idle.structuredContent!.total_matches);
    }
    const deeper = await call(client, 'search_code', { ...args, limit: 30 });
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(client, 'search_code', { ...args, ...(cursor && { cursor }) });
      paged.push(...ids(page));
      cursor = page.structuredContent!.nextCursor as string | undefined;
    } while (cursor && paged.length < 30);
    assert.equal(paged.slice(0, 30), ids(deeper));
    assert.equal(ids(deeper).slice(0, 10), ids(first));
  });
});

test.run();
