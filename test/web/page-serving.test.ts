/**
 * The web page as HTTP serves it (src/transports/http-page.ts, src/web): one document for every
 * route, holding no script of its own and no data, under a Content-Security-Policy without inline
 * script and with `frame-ancestors 'none'`; its built files; no credential needed for them, while
 * the MCP calls the page makes still need one, and a credential in a URL is refused.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import { projectHarness, projectTree } from '../helpers/projects.js';
import { rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

async function get(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const response = await request(url, { method: (init.method ?? 'GET') as 'GET', headers: init.headers, body: init.body });
  return { status: response.statusCode, headers: response.headers, body: await response.body.text() };
}

async function serving(listener: { authToken?: string }, work: (base: string) => Promise<void>): Promise<void> {
  const root = projectTree({ 'a.ts': 'export const a = 1;\n' }, 'sextant-web-');
  const h = await projectHarness({ workspaces: [root] }, undefined, { watch: false }, listener);
  try {
    await work(new URL('/', h.http.urls.mcp).href);
  } finally {
    await h.close();
    rmSync(root, { recursive: true, force: true });
  }
}

test('every route of the page is one document: no inline script, no handler attribute, a strict policy', async () => {
  await serving({}, async (base) => {
    for (const route of ['', 'status', 'signed-in', 'file/-/a.ts', 'file/%2Ftmp%2Fx/deep/b.ts']) {
      const page = await get(base + route);
      assert.is(page.status, 200, route);
      assert.match(String(page.headers['content-type']), 'text/html', route);
      const policy = String(page.headers['content-security-policy']);
      assert.match(policy, "script-src 'self'", route);
      assert.match(policy, "frame-ancestors 'none'", route);
      assert.match(policy, "default-src 'none'");
      assert.match(policy, "connect-src 'self';", 'without an issuer, the page talks to this server alone');
      assert.not.match(policy, 'unsafe-inline');
      assert.not.match(policy, 'unsafe-eval');
      assert.is(page.headers['x-content-type-options'], 'nosniff');
      assert.is(page.headers['x-frame-options'], 'DENY');
      const scripts = page.body.match(/<script\b[^>]*>/g) ?? [];
      assert.ok(scripts.length === 1 && scripts.every((tag) => / src="\/assets\/app\.js"/.test(tag)), scripts.join(' '));
      assert.not.match(page.body, /<script\b[^>]*>[^<]/, 'no script in the document itself');
      assert.not.match(page.body, /\son[a-z]+=/i, 'no handler attribute');
    }
    // Without --web-client-id the page signs in with a token only.
    const config = await get(`${base}page-config.json`);
    assert.is(config.status, 200);
    assert.equal(JSON.parse(config.body), {});
    const script = await get(`${base}assets/app.js`);
    assert.is(script.status, 200);
    assert.match(String(script.headers['content-type']), 'text/javascript');
    assert.ok(script.body.length > 1_000, 'the built page is served');
    // Issue 45's bound on the page's JavaScript.
    assert.ok(gzipSync(script.body).length < 100 * 1024, `app.js is ${gzipSync(script.body).length} bytes gzipped`);
    assert.not.match(script.body, /\binnerHTML\b|\bouterHTML\b|insertAdjacentHTML|document\.write/, 'the page never parses text as markup');
    const style = await get(`${base}assets/app.css`);
    assert.is(style.status, 200);
    assert.match(String(style.headers['content-type']), 'text/css');
    assert.is((await get(`${base}assets/nothing.js`)).status, 404);
    assert.is((await get(`${base}assets/../shell.ts`)).status, 404);
    assert.is((await get(base, { method: 'POST', body: '{}' })).status, 405);
    assert.is((await get(base, { method: 'HEAD' })).status, 200);
  });
});

test('with a token: the page loads without one, its MCP calls need it, and a token in a URL is refused', async () => {
  await serving({ authToken: 'page-secret-token' }, async (base) => {
    const page = await get(base);
    assert.is(page.status, 200);
    assert.not.match(page.body, 'page-secret-token');
    const call = { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' };
    assert.is((await get(`${base}mcp`, call)).status, 401);
    const inUrl = await get(`${base}?token=page-secret-token`);
    assert.is(inUrl.status, 400);
    assert.match(inUrl.body, 'never in the URL');
    assert.not.match(inUrl.body, 'page-secret-token');
  });
});

test.run();
