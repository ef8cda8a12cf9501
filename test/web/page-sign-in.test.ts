/**
 * The web page signing in through the team's authorization server (panva's oidc-provider on
 * loopback) in a real browser: `serve --oauth-issuer … --web-client-id …`, a person signs in at
 * the issuer, the page trades the code (PKCE, public client) for an access token, and shows only
 * what that person's groups may see. The code leaves the address bar, and no credential is ever
 * in a URL of this server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import { inChromium, withChromium } from '../helpers/chromium.js';
import { startIssuer, type TestIssuer } from '../helpers/oidc.js';
import { runCli } from '../helpers/process.js';
import { projectTree } from '../helpers/projects.js';
import { freePort, serveProcess } from '../helpers/serve-http.js';

const test = withChromium('web/page-sign-in');

const home = mkdtempSync(join(tmpdir(), 'sextant-sign-in-'));
const web = projectTree({ 'web.ts': 'export function renderPage() { return 1; }\n' });
const pay = projectTree({ 'pay.ts': 'export function renderInvoice() { return 2; }\n' });
const env = { SEXTANT_HOME: home };
let issuer: TestIssuer;
let server: Awaited<ReturnType<typeof serveProcess>>;
let base = '';

suite.before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  issuer = await startIssuer({}, { id: 'sextant-web', redirectUri: `${base}/signed-in`, groupsOf: { alice: ['web-team'] } });
  assert.is((await runCli(['project', 'add', 'web', '--folder', web, '--allow', 'group:web-team'], '', env)).code, 0);
  assert.is((await runCli(['project', 'add', 'pay', '--folder', pay, '--allow', 'user:bob'], '', env)).code, 0);
  for (const root of [web, pay]) assert.is((await runCli(['index', root], '', env)).code, 0);
  const args = ['--no-watch', '--oauth-issuer', issuer.issuer, '--public-url', base, '--web-client-id', 'sextant-web'];
  server = await serveProcess(home, {}, args, port);
});

suite.after(async () => {
  await server?.stop();
  await issuer?.close();
  for (const dir of [home, web, pay]) rmSync(dir, { recursive: true, force: true });
});

test('the page says how to sign in, and may reach the issuer to trade its code, nothing else', async () => {
  const config = await request(`${base}/page-config.json`);
  const body = (await config.body.json()) as { sign_in: Record<string, string> };
  assert.is(body.sign_in.client_id, 'sextant-web');
  assert.is(body.sign_in.resource, `${base}/mcp`);
  assert.is(body.sign_in.authorization_endpoint, `${issuer.issuer}/auth`);
  assert.is(body.sign_in.token_endpoint, `${issuer.issuer}/token`);
  const page = await request(`${base}/`);
  await page.body.dump();
  assert.match(String(page.headers['content-security-policy']), `connect-src 'self' ${issuer.issuer};`);
});

test('a person signs in at the issuer, comes back to the search, and sees only what their group may', async () => {
  await inChromium(async (browser) => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    const ours: string[] = [];
    page.on('request', (sent) => void (sent.url().startsWith(base) && ours.push(sent.url())));
    await page.goto(`${base}/?q=render`);
    await page.click('#issuer-sign-in');
    // The issuer's own pages: its login, then its consent.
    await page.waitForSelector('input[name="login"]');
    await page.fill('input[name="login"]', 'alice');
    await page.fill('input[name="password"]', 'any');
    await page.click('button[type="submit"]');
    await page.waitForSelector('button:has-text("Continue")');
    await page.click('button:has-text("Continue")');
    await page.waitForSelector('a.result');
    assert.is(new URL(page.url()).pathname + new URL(page.url()).search, '/?q=render', 'back where the person was, the code gone from the address');
    const token = await page.evaluate(() => sessionStorage.getItem('sextant-token'));
    assert.match(token ?? '', /^[\w-]+\.[\w-]+\.[\w-]+$/, 'an access token, kept in the tab');
    assert.is(await page.evaluate(() => sessionStorage.getItem('sextant-sign-in')), null, 'the verifier is spent');
    const files = await page.$$eval('.group h3 a', (links) => links.map((link) => link.textContent));
    assert.equal(files, ['web.ts'], 'alice sees web (her group), not pay');
    for (const url of ours) assert.not.ok(url.includes(token!), 'the token is never in a URL');
    // The code came back in one address, which the page left at once; no other address of ours carried it.
    assert.ok(ours.filter((url) => url.includes('code=')).every((url) => new URL(url).pathname === '/signed-in'));
    await page.goto(`${base}/status`);
    await page.waitForSelector('section[aria-label="Projects"] tbody tr');
    const names = await page.$$eval('section[aria-label="Projects"] tbody th', (cells) => cells.map((cell) => cell.textContent));
    assert.equal(names, ['web']);
    assert.equal(problems, []);
  });
});

test('an answer from the issuer that was not started in this tab is refused', async () => {
  await inChromium(async (browser) => {
    const page = await browser.newPage();
    await page.goto(`${base}/signed-in?code=stolen&state=not-mine`);
    await page.waitForSelector('p.error');
    assert.match((await page.textContent('p.error')) ?? '', 'was not started in this tab');
    assert.is(new URL(page.url()).search, '', 'the code is gone from the address');
    assert.is(await page.evaluate(() => sessionStorage.getItem('sextant-token')), null);
    // Nor does an address made elsewhere put its words on the page.
    await page.goto(`${base}/signed-in?error=access_denied&error_description=Call+0800+to+unlock&state=not-mine`);
    await page.waitForSelector('p.error');
    assert.not.match((await page.textContent('p.error')) ?? '', '0800');
  });
});

suite.run();
