/**
 * The web page checked by axe-core in a real browser: the search with its results, a file with
 * its outline, the status with its tables, and the sign-in form, each with no serious or
 * critical violation. axe is put into the page by the test (the page's own policy would refuse
 * its script: the browser is told to set the policy aside for this check alone).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { inChromium, withChromium } from '../helpers/chromium.js';
import { indexTree } from '../helpers/indexed-tree.js';
import { projectHarness, projectTree } from '../helpers/projects.js';

const test = withChromium('web/page-accessibility');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const FILES = {
  'src/charge.ts': 'export function chargeCard(amount: number) {\n  return amount;\n}\n\nexport class Wallet {\n  pay() {\n    return chargeCard(5);\n  }\n}\n',
  'src/use.ts': 'import { chargeCard } from "./charge";\nchargeCard(1);\n',
};

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** axe's serious and critical violations on the page at `url`, once `ready` is shown. */
async function violations(browser: Browser, url: string, ready: string, token?: string): Promise<Violation[]> {
  const context = await browser.newContext({ bypassCSP: true });
  try {
    const page = await context.newPage();
    if (token) await page.addInitScript((value) => sessionStorage.setItem('sextant-token', value), token);
    await page.goto(url);
    await page.waitForSelector(ready);
    await page.addScriptTag({ path: AXE });
    const found = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Array<Record<string, unknown>> }> } }).axe;
      const result = await axe.run(document, { resultTypes: ['violations'] });
      return result.violations.map((violation) => ({
        id: violation.id as string,
        impact: violation.impact as string | null,
        help: violation.help as string,
        nodes: (violation.nodes as Array<{ target: string[] }>).map((node) => node.target.join(' ')),
      }));
    });
    return found.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  } finally {
    await context.close();
  }
}

test('search, a file, the status and the sign-in: no serious or critical axe violation', async () => {
  const root = projectTree(FILES, 'sextant-axe-');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  try {
    await indexTree(root, home);
    const open = await projectHarness({ workspaces: [root] }, home, { watch: false });
    const guarded = await projectHarness({ workspaces: [root] }, home, { watch: false }, { authToken: 'axe-token' });
    try {
      const base = new URL('/', open.http.urls.mcp).href;
      await inChromium(async (browser) => {
        const pages: Array<[string, string, string | undefined]> = [
          [`${base}?q=chargeCard`, 'a.result', undefined],
          [`${base}file/-/src/charge.ts#L5`, '.outline a.symbol-link', undefined],
          [`${base}status`, 'section[aria-label="Projects"] tbody tr', undefined],
          [`${new URL('/', guarded.http.urls.mcp).href}?q=chargeCard`, 'form.sign-in', undefined],
          [`${new URL('/', guarded.http.urls.mcp).href}status`, 'section[aria-label="Projects"] tbody tr', 'axe-token'],
        ];
        for (const [url, ready, token] of pages) {
          const found = await violations(browser, url, ready, token);
          assert.equal(found, [], `${url}: ${JSON.stringify(found, null, 2)}`);
        }
      });
    } finally {
      await open.close();
      await guarded.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

suite.run();
