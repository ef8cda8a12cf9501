/**
 * search_code under many callers: a repeated question of one index generation is answered from
 * the answer cache (and calls asking it together share one search); a full search queue is a
 * busy error with a retry hint, 503 with Retry-After on the stateless path, never a wait
 * without bound.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MCP_ERROR_CODES } from '../../src/mcp/errors.js';
import { call, fixtureCopy, projectHarness, sdkClient } from '../helpers/projects.js';
import { statelessCall } from '../helpers/stateless.js';
import type { ToolResult } from '../helpers/tool-result.js';

type Json = Record<string, unknown>;
const places = (result: ToolResult) => (result.structuredContent!.results as Json[]).map((item) => `${item.path}:${item.line}`);

async function indexedFixture(service: Parameters<typeof projectHarness>[2] = {}) {
  const root = fixtureCopy('polyglot');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const h = await projectHarness({ workspaces: [root] }, home, service);
  const client = await sdkClient(h.http.urls.mcp);
  const indexed = await call(client, 'index_repo');
  assert.not.ok(indexed.isError, indexed.content[0]?.text);
  return {
    root,
    h,
    client,
    close: async () => {
      await client.close();
      await h.close();
      rmSync(root, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
}

test('a repeated search is answered from the cache until the index changes; pages of one answer share it', async () => {
  const f = await indexedFixture();
  try {
    const first = await call(f.client, 'search_code', { query: 'getUserById' });
    assert.not.ok(first.isError, first.content[0]?.text);
    assert.is(first.structuredContent!.cached, undefined);
    const again = await call(f.client, 'search_code', { query: 'getUserById' });
    assert.is(again.structuredContent!.cached, true);
    assert.equal(places(again), places(first));
    assert.equal(again.content[0]!.text, first.content[0]!.text, 'the same text: only the structure says it was kept');
    // Another page, or another page size, of the same question: the same ranked answer.
    const page = await call(f.client, 'search_code', { query: 'getUserById', limit: 1 });
    assert.is(page.structuredContent!.cached, true);
    assert.equal(places(page), places(first).slice(0, 1));
    // Other options are another question.
    const cased = await call(f.client, 'search_code', { query: 'getUserById', case_sensitive: true });
    assert.is(cased.structuredContent!.cached, undefined);

    // A new generation of the index: the kept answer is not used, and the new match is found.
    appendFileSync(join(f.root, 'notes.txt'), 'see getUserById in the service\n');
    const synced = await call(f.client, 'sync_repo');
    assert.not.ok(synced.isError, synced.content[0]?.text);
    const fresh = await call(f.client, 'search_code', { query: 'getUserById' });
    assert.is(fresh.structuredContent!.cached, undefined);
    assert.ok(
      places(fresh).some((place) => place.startsWith('notes.txt:')),
      places(fresh).join(' '),
    );
    assert.equal(f.h.problems(), []);
  } finally {
    await f.close();
  }
});

test('callers asking the same new question together share one search', async () => {
  const f = await indexedFixture();
  try {
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(f.client, 'search_code', { query: 'import' })));
    for (const answer of answers) assert.not.ok(answer.isError, answer.content[0]?.text);
    // One computed it; the others waited for it (or found it kept): every one has its results.
    assert.is(answers.filter((answer) => answer.structuredContent!.cached !== true).length, 1);
    for (const answer of answers) assert.equal(places(answer), places(answers[0]!));
  } finally {
    await f.close();
  }
});

test('under load every search is ranked in the worker that ran it, and each answer is the one it gets alone', async () => {
  // No answer cache: every call below searches and ranks.
  const before = process.env.SEXTANT_ANSWER_CACHE;
  process.env.SEXTANT_ANSWER_CACHE = '0';
  let f: Awaited<ReturnType<typeof indexedFixture>>;
  try {
    f = await indexedFixture();
  } finally {
    if (before === undefined) delete process.env.SEXTANT_ANSWER_CACHE;
    else process.env.SEXTANT_ANSWER_CACHE = before;
  }
  const questions: Json[] = [
    { query: 'getUserById' },
    { query: 'handleGetUser' },
    { query: 'describe' },
    { query: 'ReportBuilder' },
    { query: 'user', limit: 50 },
    { query: 'import', limit: 30 },
    { query: 'User', case_sensitive: true, context_lines: 1 },
    { query: 'get\\w+', regex: true, limit: 40 },
    { query: 'function', path: 'src/**' },
  ];
  // What a reader sees: the text and the structure, less the times.
  const seen = (answer: ToolResult) => {
    assert.not.ok(answer.isError, answer.content[0]?.text);
    const { duration_ms: _duration, ranking_ms: _ranking, ...rest } = answer.structuredContent!;
    return { text: answer.content[0]?.text, structured: rest };
  };
  try {
    const search = f.h.projects.project(f.root).search;
    // Which searches came back ranked by their worker (the service's own answer, observed).
    const inWorker = new Set<string>();
    let inMain = 0;
    const asked = search.search.bind(search);
    search.search = async (query, options) => {
      const result = await asked(query, options);
      if (result.ranking) inWorker.add(JSON.stringify(query));
      else inMain++;
      return result;
    };
    // One at a time: a regex is split between the workers (where there are two), ranked here after the merge.
    const alone: unknown[] = [];
    for (const question of questions) alone.push(seen(await call(f.client, 'search_code', question)));
    // (A literal's page goes whole to a worker even alone: it may stop early, early-page.ts.)
    const regexes = questions.filter((question) => question.regex === true).length;
    if (availableParallelism() > 1) assert.is(inMain, regexes, 'alone, every regex search is split and ranked on the main thread');
    inWorker.clear();
    // All at once, twice over: a search that starts while another runs goes whole to a worker and
    // is ranked there. Rounds go on until every question has been ranked in a worker once.
    for (let round = 0; round < 20 && inWorker.size < questions.length; round++) {
      const together = await Promise.all([...questions, ...questions].map((question) => call(f.client, 'search_code', question)));
      assert.equal(together.map(seen), [...alone, ...alone], `round ${round}`);
    }
    assert.is(inWorker.size, questions.length, 'every question was ranked in a worker');
    assert.equal(f.h.problems(), []);
  } finally {
    await f.close();
  }
});

test('a full search queue: -32015 with retryAfterMs in a session, 503 with Retry-After stateless, served again once it drains', async () => {
  // One search at a time, none waiting: while the test holds the one slot, every other search is refused.
  const f = await indexedFixture({ searchQueue: { maxActive: 1, maxQueued: 0 } });
  try {
    const search = f.h.projects.project(f.root).search;
    const held = search.search({ pattern: 'function', limit: 10 });
    try {
      await call(f.client, 'search_code', { query: 'getUserById' });
      assert.unreachable('a search with the queue full is refused');
    } catch (error) {
      assert.instance(error, McpError);
      assert.is((error as McpError).code, MCP_ERROR_CODES.ServerBusy);
      assert.match((error as McpError).message, 'search queue is full');
      assert.equal((error as McpError).data, { retryAfterMs: 1000 });
    }
    const stateless = await statelessCall(f.h.http.urls.mcp, 'tools/call', { name: 'search_code', arguments: { query: 'getUserById' } }, {});
    assert.is(stateless.status, 503);
    assert.is(stateless.headers['retry-after'], '1');
    assert.is(stateless.error?.code, MCP_ERROR_CODES.ServerBusy);
    assert.ok((await held).matches.length > 0, 'the held search was served');
    // The slot is free again: the same call is served.
    const served = await call(f.client, 'search_code', { query: 'getUserById' });
    assert.not.ok(served.isError, served.content[0]?.text);
    assert.ok(places(served).length > 0);
    assert.equal(f.h.problems(), []);
  } finally {
    await f.close();
  }
});

test.run();
