// The screenshots of the web page in docs/ (docs/web.md, README): ajv's sources copied to a
// scratch folder, indexed and served by dist/ on loopback, and photographed by Debian's chromium
// (playwright-core). `npm run build`, then `node scripts/web-screenshots.mjs`.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { freePort } from '../bench/free-port.mjs';

const scratch = mkdtempSync(join(tmpdir(), 'sextant-shots-'));
const project = join(scratch, 'ajv');
const home = join(scratch, 'home');
cpSync('node_modules/ajv/lib', project, { recursive: true });
const env = { ...process.env, SEXTANT_HOME: home };
const indexed = spawnSync(process.execPath, ['dist/sextant.mjs', 'index', project], { env, encoding: 'utf8' });
if (indexed.status !== 0) throw new Error(indexed.stderr);
const port = await freePort();
const server = spawn(process.execPath, ['dist/sextant.mjs', 'serve', '--transport', 'http', '--port', String(port), '--workspace', project, '--no-watch'], {
  env,
  stdio: ['ignore', 'ignore', 'pipe'],
});
await new Promise((resolve) => server.stderr.on('data', (chunk) => chunk.toString().includes('Health:') && resolve()));
const browser = await chromium.launch({
  executablePath: process.env.SEXTANT_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
  // Chromium's own scratch files go with the rest of this run's, removed at the end.
  env: { ...process.env, TMPDIR: scratch },
});
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.goto(`http://127.0.0.1:${port}/?q=addFormat`);
  await page.waitForSelector('a.result');
  await page.screenshot({ path: 'docs/web-search.png' });
  await page.goto(`http://127.0.0.1:${port}/status`);
  await page.waitForSelector('section[aria-label="Projects"] tbody tr');
  // An index job, so that the page shows one followed to its end.
  await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'index_repo',
      'mcp-param-workspace': project,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'index_repo',
        arguments: { workspace: project },
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
      },
    }),
  }).then(async (response) => {
    const answer = await response.text();
    if (!answer.includes('"result"')) throw new Error(`index_repo: ${answer}`);
  });
  await page.waitForSelector('#activity li:has-text("completed")');
  await page.screenshot({ path: 'docs/web-status.png', fullPage: true });
} finally {
  await browser.close();
  server.kill();
  rmSync(scratch, { recursive: true, force: true });
}
