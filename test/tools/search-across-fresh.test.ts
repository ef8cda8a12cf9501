/**
 * A search across projects keeps each index's stamps while its folder is unchanged (behind the
 * change fence, docs/index.md): over a real server, an index rebuilt by another process, and a
 * manifest overwritten in place, answer the very next search; and a bad argument is refused even
 * when no project is ready.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IndexStore } from '../../src/index/store/store.js';
import { call, projectHarness, projectTree, sdkClient } from '../helpers/projects.js';
import { runCli } from '../helpers/process.js';
import { errorCode } from '../helpers/tool-result.js';

interface Result {
  path: string;
  project?: string;
}

const PAYMENTS = { 'src/charge.ts': 'export function chargeCard(amount: number) {\n  return amount;\n}\n' };
const WEB = { 'app/checkout.ts': 'import { chargeCard } from "payments";\nexport const checkout = () => chargeCard(10);\n' };

/** Two folders, indexed in a home of their own, served together to an SDK client over HTTP. */
async function servedTogether(
  indexed: boolean,
  work: (
    roots: { payments: string; web: string },
    home: string,
    client: Awaited<ReturnType<typeof sdkClient>>,
    h: Awaited<ReturnType<typeof projectHarness>>,
  ) => Promise<void>,
): Promise<void> {
  const roots = { payments: projectTree(PAYMENTS, 'sextant-pay-'), web: projectTree(WEB, 'sextant-web-') };
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  try {
    for (const root of indexed ? Object.values(roots) : []) {
      const done = await runCli(['index', root], '', { SEXTANT_HOME: home });
      if (done.code !== 0) throw new Error(`index failed: ${done.stderr}`);
    }
    const h = await projectHarness({ workspaces: [roots.payments, roots.web] }, home);
    const client = await sdkClient(h.http.urls.mcp);
    try {
      await work(roots, home, client, h);
      assert.equal(h.problems(), []);
    } finally {
      await client.close();
      await h.close();
    }
  } finally {
    for (const root of Object.values(roots)) rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

test('an index rebuilt by another process between two searches across projects answers the next one, every time', async () => {
  await servedTogether(true, async (roots, home, client, h) => {
    // Where the fence works (Linux), searches after the first keep each index's stamps while its
    // folder is unchanged; every change below must still be seen by the very next search.
    assert.is(h.projects.fence.working, process.platform === 'linux');
    for (let round = 0; round < 3; round++) {
      const name = `refundRound${round}`;
      // Asked twice, so that stamps are kept (where the fence works) before the index changes.
      for (let twice = 0; twice < 2; twice++) assert.is((await call(client, 'search_code', { query: name })).structuredContent!.total_matches, 0);
      writeFileSync(join(roots.web, `app/${name}.ts`), `export function ${name}() {}\n`);
      const done = await runCli(['index', roots.web], '', { SEXTANT_HOME: home });
      assert.is(done.code, 0, done.stderr);
      const next = await call(client, 'search_code', { query: name });
      assert.equal(
        (next.structuredContent!.results as Result[]).map((result) => `${result.project}:${result.path}`),
        [`${roots.web}:app/${name}.ts`],
        `round ${round}`,
      );
    }
    // A manifest overwritten in place (not renamed) is seen too, and so is its repair.
    const manifest = new IndexStore(roots.web, home).manifestPath;
    const good = readFileSync(manifest, 'utf8');
    writeFileSync(manifest, '{"formatVersion": 999}');
    const broken = await call(client, 'search_code', { query: 'chargeCard' });
    assert.equal(
      (broken.structuredContent!.projects_incomplete as Array<{ project: string }>).map((one) => one.project),
      [roots.web],
    );
    writeFileSync(manifest, good);
    const repaired = await call(client, 'search_code', { query: 'chargeCard' });
    assert.is(repaired.structuredContent!.projects_incomplete, undefined);
    assert.is(repaired.structuredContent!.projects_searched, 2);
  });
});

test('a bad argument is refused across projects even when no project is ready to search', async () => {
  await servedTogether(false, async (_roots, _home, client) => {
    const refused = await call(client, 'search_code', { query: 'chargeCard', language: 'klingon' });
    assert.is(errorCode(refused), 'invalid_input');
    const withPath = await call(client, 'search_code', { query: 'chargeCard', language: 'klingon', path: 'src/**' });
    assert.is(errorCode(withPath), 'invalid_input', 'a path glob, read per project, does not skip the check');
    const unready = await call(client, 'search_code', { query: 'chargeCard' });
    assert.not.ok(unready.isError);
    assert.is(unready.structuredContent!.projects_searched, 0);
  });
});

test.run();
