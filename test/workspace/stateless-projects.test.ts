/**
 * Project detection in the 2026-07-28 era: no session to ask roots/list on, so a tool call that
 * needs the client's project answers input_required with a roots/list input request, and the
 * retry's roots settle it by today's rules. Without the roots capability the chain goes on as
 * before (project_path, environment, working directory).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { request } from 'undici';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { JSON_AND_SSE } from '../helpers/http.js';
import { fixtureCopy, projectHarness } from '../helpers/projects.js';
import { headerValue } from '../helpers/stateless.js';

const MODERN = '2026-07-28';
let nextId = 1;

async function callTool(url: string, name: string, args: Record<string, unknown>, capabilities: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const params = {
    name,
    arguments: args,
    ...extra,
    _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': capabilities },
  };
  const response = await request(url, {
    method: 'POST',
    headers: {
      ...JSON_AND_SSE,
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': name,
      ...(typeof args.workspace === 'string' ? { 'mcp-param-workspace': headerValue(args.workspace) } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params }),
  });
  const text = await response.body.text();
  // A long call may stream (progress first): the answer is the last event.
  const body = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .at(-1)!
        .slice(6);
  return JSON.parse(body) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

test('a modern call that needs the project asks for the roots (input_required), and the retry with them works on that project', async () => {
  const root = fixtureCopy('polyglot');
  const other = fixtureCopy('polyglot');
  const h = await projectHarness({}, mkdtempSync(join(tmpdir(), 'sextant-home-')));
  const roots = (path: string) => ({ client_roots: { roots: [{ uri: pathToFileURL(path).href, name: 'project' }] } });
  try {
    const asked = await callTool(h.http.urls.mcp, 'index_repo', { wait: true }, { roots: {} });
    assert.is(asked.result!.resultType, 'input_required');
    assert.equal(asked.result!.inputRequests, { client_roots: { method: 'roots/list', params: {} } });
    const indexed = await callTool(h.http.urls.mcp, 'index_repo', { wait: true }, { roots: {} }, { inputResponses: roots(root) });
    assert.is(indexed.result!.resultType, 'complete', JSON.stringify(indexed).slice(0, 400));
    assert.not.ok(indexed.result!.isError, JSON.stringify(indexed.result).slice(0, 400));
    const found = await callTool(h.http.urls.mcp, 'search_code', { query: 'hashPassword' }, { roots: {} }, { inputResponses: roots(root) });
    const structured = found.result!.structuredContent as { workspace: string; results: unknown[] };
    assert.is(structured.workspace, root);
    assert.ok(structured.results.length > 0);
    // Another client's roots name another project: detection is per request, never per connection.
    const elsewhere = await callTool(h.http.urls.mcp, 'index_status', {}, { roots: {} }, { inputResponses: roots(other) });
    assert.is((elsewhere.result!.structuredContent as { workspace: string }).workspace, other);
    // A workspace argument is held to the client's roots, as in a session: they are asked for too.
    const direct = await callTool(h.http.urls.mcp, 'index_status', { workspace: root }, { roots: {} });
    assert.is(direct.result!.resultType, 'input_required');
    const inside = await callTool(h.http.urls.mcp, 'index_status', { workspace: root }, { roots: {} }, { inputResponses: roots(root) });
    assert.is((inside.result!.structuredContent as { workspace: string }).workspace, root);
    const outside = await callTool(h.http.urls.mcp, 'index_status', { workspace: other }, { roots: {} }, { inputResponses: roots(root) });
    assert.is((outside.result!._meta as Record<string, { code: string }>)['dev.sextant/error']!.code, 'workspace_not_allowed');
    // A client without the roots capability is not asked: its workspace argument settles it.
    const undeclared = await callTool(h.http.urls.mcp, 'index_status', { workspace: root }, {});
    assert.is(undeclared.result!.resultType, 'complete');
    // Roots that are not a ListRootsResult are refused.
    const malformed = await callTool(h.http.urls.mcp, 'index_status', {}, { roots: {} }, { inputResponses: { client_roots: { nope: true } } });
    assert.is(malformed.error!.code, -32602);
    assert.equal(h.problems(), []);
  } finally {
    await h.close();
  }
});

test('without the roots capability a modern call goes down the chain: the environment project, else project_not_found', async () => {
  const root = fixtureCopy('polyglot');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const withEnv = await projectHarness({ env: { SEXTANT_PROJECT: root } }, home);
  try {
    const status = await callTool(withEnv.http.urls.mcp, 'index_status', {}, {});
    assert.is(status.result!.resultType, 'complete');
    assert.is((status.result!.structuredContent as { workspace: string; source: string }).source, 'environment');
  } finally {
    await withEnv.close();
  }
  const bare = await projectHarness({}, home);
  try {
    const none = await callTool(bare.http.urls.mcp, 'index_status', {}, {});
    assert.is(none.result!.isError, true);
    assert.is((none.result!._meta as Record<string, { code: string }>)['dev.sextant/error']!.code, 'project_not_found');
  } finally {
    await bare.close();
  }
});

test.run();
