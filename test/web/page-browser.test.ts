/**
 * The web page in a real browser (Debian's chromium) against a real server on loopback: a search,
 * its results, a click to the file at the line, the outline, the keys; code and file names that
 * look like markup shown as text; and a sign-in with a token.
 */
import { rmSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { test as suite } from 'uvu';
import type { Page } from 'playwright-core';
import { inChromium, withChromium } from '../helpers/chromium.js';
import { indexTree } from '../helpers/indexed-tree.js';
import { projectHarness, projectTree } from '../helpers/projects.js';
import { statelessCall } from '../helpers/stateless.js';

const test = withChromium('web/page-browser');

const HOSTILE_NAME = '"><img src=x onerror=alert(1)>.js';
const FILES = {
  'src/charge.ts': 'export function chargeCard(amount: number) {\n  return amount;\n}\n\nexport class Wallet {\n  pay() {\n    return chargeCard(5);\n  }\n}\n',
  'src/evil.ts': 'const html = "<script>window.__pwned = 1</script><img src=x onerror=window.__pwned=2>";\nchargeCard(1);\n',
  [`lib/${HOSTILE_NAME}`]: 'chargeCard(2); // <b>bold?</b>\n',
};

/** The tree indexed and served over HTTP (`listener`: a token, say); `work` gets the page's base URL. */
async function serving(listener: { authToken?: string }, work: (base: string, root: string) => Promise<void>): Promise<void> {
  const root = projectTree(FILES, 'sextant-web-');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  try {
    await indexTree(root, home);
    const h = await projectHarness({ workspaces: [root] }, home, { watch: false }, listener);
    try {
      await work(new URL('/', h.http.urls.mcp).href, root);
    } finally {
      await h.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

/** A page that fails the test on any dialog (an alert an injected handler would raise) and records errors. */
async function watchedPage(browser: import('playwright-core').Browser): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  return { page, problems };
}

test('search, results by file, a click to the file at its line, the outline, and the keys', async () => {
  await serving({}, async (base) => {
    await inChromium(async (browser) => {
      const { page, problems } = await watchedPage(browser);
      await page.goto(base);
      await page.waitForSelector('#q');
      await page.click('header');
      await page.keyboard.press('/');
      assert.is(await page.evaluate(() => document.activeElement?.id), 'q', '/ focuses the search box');
      await page.keyboard.type('chargeCard');
      await page.keyboard.press('Enter');
      await page.waitForSelector('a.result');
      assert.is(new URL(page.url()).search, '?q=chargeCard', 'the URL holds the question');
      const files = await page.$$eval('.group h3 a', (links) => links.map((link) => link.textContent));
      assert.ok(files.includes('src/charge.ts') && files.includes('src/evil.ts'), files.join(', '));
      assert.is(files[0], 'src/charge.ts', 'the definition leads');
      // Code that looks like markup is text: no element came of it, and no handler ran.
      const evil = await page.$$eval('.group', (groups) => groups.find((group) => group.textContent?.includes('evil.ts'))?.textContent ?? '');
      assert.match(evil, '<script>window.__pwned = 1</script><img src=x onerror=window.__pwned=2>');
      assert.ok(files.includes(`lib/${HOSTILE_NAME}`), 'a file named like markup is shown by its name');
      assert.is(await page.$$eval('#results img, #results script, #results b', (found) => found.length), 0);
      assert.is(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
      await page.keyboard.press('ArrowDown');
      assert.is(await page.evaluate(() => document.activeElement?.classList.contains('result')), true, 'arrows move through the results');
      await page.click('a.result >> nth=0');
      await page.waitForSelector('#L1.target');
      assert.is(new URL(page.url()).pathname, '/file/-/src/charge.ts');
      assert.is(new URL(page.url()).hash, '#L1');
      assert.match((await page.textContent('#L1')) ?? '', 'export function chargeCard(amount: number) {');
      await page.waitForSelector('.outline a.symbol-link');
      const outline = await page.$$eval('.outline a.symbol-link', (links) => links.map((link) => link.textContent?.trim()));
      assert.ok(outline.some((entry) => entry?.endsWith('Wallet')) && outline.some((entry) => entry?.endsWith('pay')), outline.join(', '));
      let calls = 0;
      page.on('request', (request) => void (request.url().endsWith('/mcp') && calls++));
      await page.click('.outline a.symbol-link:has-text("Wallet")');
      await page.waitForSelector('#L5.target');
      assert.is(new URL(page.url()).hash, '#L5', 'a click on a symbol goes to its line');
      assert.is(await page.$$eval('.line.target', (marked) => marked.length), 1, 'one line marked');
      assert.is(calls, 0, 'a move within the file shown asks the server nothing');
      // A name in the code leads to its definitions.
      await page.goto(`${base}file/-/src/evil.ts#L2`);
      await page.waitForSelector('#L2');
      await page.click('#L2 code', { position: { x: 12, y: 5 } });
      await page.waitForSelector('.definitions a');
      assert.match((await page.textContent('.definitions')) ?? '', 'src/charge.ts:1');
      // The hostile file's own view: its name and its text, as text.
      await page.goto(`${base}file/-/lib/${encodeURIComponent(HOSTILE_NAME)}`);
      await page.waitForSelector('#L1');
      assert.is(await page.textContent('h2.file'), `lib/${HOSTILE_NAME}`);
      assert.is(await page.$$eval('main img, main b', (found) => found.length), 0);
      assert.equal(problems, []);
    });
  });
});

test('with a token: the page asks for it, keeps it in the tab, sends it as a bearer header, never in the URL', async () => {
  await serving({ authToken: 'browser-secret-token' }, async (base) => {
    await inChromium(async (browser) => {
      const { page, problems } = await watchedPage(browser);
      const sent: Array<{ url: string; authorization?: string }> = [];
      page.on('request', (request) => sent.push({ url: request.url(), authorization: request.headers().authorization }));
      await page.goto(`${base}?q=chargeCard`);
      await page.waitForSelector('form.sign-in');
      await page.fill('#token', 'wrong-token');
      await page.click('form.sign-in button');
      await page.waitForSelector('text=The server refused that token');
      await page.fill('#token', 'browser-secret-token');
      await page.click('form.sign-in button');
      await page.waitForSelector('a.result');
      assert.is(await page.evaluate(() => sessionStorage.getItem('sextant-token')), 'browser-secret-token');
      assert.is(await page.evaluate(() => document.cookie), '');
      assert.ok(
        sent.every((request) => !request.url.includes('secret')),
        'no credential in a URL',
      );
      const calls = sent.filter((request) => request.url.endsWith('/mcp'));
      assert.is(calls.at(-1)?.authorization, 'Bearer browser-secret-token');
      // Two sign-in refusals were expected (no token, then a wrong one): nothing else went wrong.
      assert.ok(
        problems.every((problem) => /401/.test(problem)),
        problems.join('\n'),
      );
    });
  });
});

test('several projects: results name theirs, and a file opens in its own project', async () => {
  const roots = [projectTree(FILES, 'sextant-web-a-'), projectTree({ 'pay/wallet é.ts': 'export const chargeCard = () => 1;\n' }, 'sextant-web-b-')];
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  try {
    for (const root of roots) await indexTree(root, home);
    const h = await projectHarness({ workspaces: roots }, home, { watch: false });
    try {
      await inChromium(async (browser) => {
        const { page, problems } = await watchedPage(browser);
        await page.goto(`${new URL('/', h.http.urls.mcp).href}?q=chargeCard`);
        await page.waitForSelector('a.result');
        assert.is(await page.isVisible('#projects'), true, 'a project filter when there are several projects');
        const projects = await page.$$eval('.group .project', (names) => names.map((name) => name.textContent?.trim()));
        assert.ok(projects.includes(roots[0]!) && projects.includes(roots[1]!), projects.join(', '));
        await page.click('.group:has-text("wallet é.ts") a.result');
        await page.waitForSelector('#L1.target');
        assert.match((await page.textContent('#L1')) ?? '', 'export const chargeCard = () => 1;');
        assert.match((await page.textContent('h2.file')) ?? '', roots[1]!);
        assert.equal(problems, []);
      });
    } finally {
      await h.close();
    }
  } finally {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

test('status: each project with its figures, an index job followed live as it moves, and the sessions', async () => {
  await serving({}, async (base, root) => {
    await inChromium(async (browser) => {
      const { page, problems } = await watchedPage(browser);
      await page.goto(`${base}status`);
      await page.waitForSelector('section[aria-label="Projects"] tbody tr');
      const row = await page.$$eval('section[aria-label="Projects"] tbody tr', (rows) => rows.map((tr) => [...tr.children].map((cell) => cell.textContent)));
      assert.is(row.length, 1);
      assert.is(row[0]![0], root);
      assert.is(row[0]![1], 'ready');
      assert.is(row[0]![4], '3', 'its files');
      assert.match(row[0]![6] ?? '', /kB|MB/, 'the size of its index');
      // A job started by an agent is followed here as it moves, to its end.
      const answer = await statelessCall(new URL('/mcp', base).href, 'tools/call', { name: 'index_repo', arguments: { workspace: root, wait: true } }, {});
      assert.is(answer.status, 200);
      await page.waitForSelector('#activity li:has-text("index job completed")');
      const told = await page.$$eval('#activity li', (items) => items.map((item) => item.textContent ?? '').reverse());
      assert.match(told[0]!, /index job at 0%: Starting/, told.join('\n'));
      assert.ok(
        told.some((entry) => /index job at (?!0%)\d+(\.\d+)?%: /.test(entry)),
        `a stage on the way: ${told.join('\n')}`,
      );
      // The local user operates this server: the sessions are shown (the page's own calls hold none).
      await page.waitForSelector('text=Calls of the stateless revision (2026-07-28) hold no session');
      assert.equal(problems, []);
    });
  });
});

suite.run();
