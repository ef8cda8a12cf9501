// The web page in a real browser (Debian's chromium, headless): the first paint of `/` on
// loopback, and the time to draw a page of 50 search results once the answer is in hand.
//
//   node bench/web-page.mjs [--rounds 20] [--warmup 3] [--corpus ROOT:QUERY]...
//
// Each corpus is indexed into a home of its own and served by `sextant serve --transport http`
// (this build's dist/). The floor beside it: a plain node:http server answering the same
// document and stylesheet with no script, the fastest first paint this browser and machine give
// for that page. Rounds alternate the two, each in a fresh browser context (nothing cached).
// The draw time is the page's own measure (`sextant:results-drawn`: from the answer parsed to
// the results laid out), read after a search of QUERY that gives 50 results.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { freePort } from './free-port.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : fallback;
};
const rounds = Number(option('--rounds', '20'));
const warmup = Number(option('--warmup', '3'));
const corpora = argv.flatMap((arg, at) => (argv[at - 1] === '--corpus' ? [arg] : []));
if (corpora.length === 0) corpora.push('/usr/share/go-1.19/src/net:err', '/usr/lib/python3.11/email:self');
const CHROMIUM = process.env.SEXTANT_CHROMIUM ?? '/usr/bin/chromium';
const BUNDLE = resolve('dist/sextant.mjs');

const quantile = (samples, q) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
};
const ms = (value) => `${value.toFixed(1)} ms`;

/** The page's document and stylesheet, as Sextant serves them, from a server that does nothing else and runs no script. */
async function floorServer(base) {
  const shell = (await (await fetch(base)).text()).replace(/<script\b[^>]*><\/script>\n?/, '');
  const css = await (await fetch(new URL('/assets/app.css', base))).text();
  const server = createServer((req, res) => {
    const css_ = req.url === '/assets/app.css';
    res.writeHead(200, { 'content-type': css_ ? 'text/css' : 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    res.end(css_ ? css : shell);
  });
  const port = await freePort();
  await new Promise((done) => server.listen(port, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((done) => server.close(done)) };
}

async function serve(root, home) {
  const indexed = spawnSync(process.execPath, [BUNDLE, 'index', root], { env: { ...process.env, SEXTANT_HOME: home }, encoding: 'utf8' });
  if (indexed.status !== 0) throw new Error(`index ${root}: ${indexed.stderr}`);
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [BUNDLE, 'serve', '--transport', 'http', '--port', String(port), '--workspace', root, '--no-watch', '--log-level', 'warning'],
    {
      env: { ...process.env, SEXTANT_HOME: home },
      stdio: 'ignore',
    },
  );
  const url = `http://127.0.0.1:${port}/`;
  let exited;
  child.once('exit', (code) => (exited = code));
  for (;;) {
    if (exited !== undefined) throw new Error(`sextant serve exited (${exited}) before it answered`);
    try {
      await (await fetch(new URL('/health', url))).text();
      break;
    } catch {
      await new Promise((done) => setTimeout(done, 50));
    }
  }
  return { url, stop: () => new Promise((done) => (child.once('exit', done), child.kill('SIGTERM'))) };
}

/** First contentful paint of `url` in a fresh context, in ms from the start of the navigation. */
async function firstPaint(browser, url) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    return await page.evaluate(
      () =>
        new Promise((done) =>
          new PerformanceObserver((list, observer) => {
            const paint = list.getEntries().find((entry) => entry.name === 'first-contentful-paint');
            if (paint) {
              observer.disconnect();
              done(paint.startTime);
            }
          }).observe({ type: 'paint', buffered: true }),
        ),
    );
  } finally {
    await context.close();
  }
}

/** The page's own measure of drawing the answer to `query`, and how many results it drew. */
async function drawResults(browser, base, query) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${base}?q=${encodeURIComponent(query)}`);
    await page.waitForSelector('a.result');
    return await page.evaluate(() => ({
      drawn: performance.getEntriesByName('sextant:results-drawn')[0].duration,
      results: globalThis.document.querySelectorAll('a.result').length,
    }));
  } finally {
    await context.close();
  }
}

// Chromium's own scratch files go to a folder of this run, removed at the end.
const browserTemp = mkdtempSync(join(tmpdir(), 'sextant-web-bench-browser-'));
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'], env: { ...process.env, TMPDIR: browserTemp } });
const rows = [];
try {
  for (const corpus of corpora) {
    const [root, query] = corpus.split(':');
    const home = mkdtempSync(join(tmpdir(), 'sextant-web-bench-'));
    const server = await serve(root, home);
    const floor = await floorServer(server.url);
    try {
      const samples = { floor: [], page: [], drawn: [] };
      let results = 0;
      for (let round = -warmup; round < rounds; round++) {
        // Alternate which goes first, so a busy moment of the machine falls on both.
        const order = round % 2 === 0 ? ['floor', 'page'] : ['page', 'floor'];
        const paints = {};
        for (const which of order) paints[which] = await firstPaint(browser, which === 'floor' ? floor.url : server.url);
        const draw = await drawResults(browser, server.url, query);
        if (round < 0) continue;
        samples.floor.push(paints.floor);
        samples.page.push(paints.page);
        samples.drawn.push(draw.drawn);
        results = draw.results;
      }
      rows.push({ root, query, results, ...samples });
    } finally {
      await floor.close();
      await server.stop();
      rmSync(home, { recursive: true, force: true });
    }
  }
} finally {
  await browser.close();
  rmSync(browserTemp, { recursive: true, force: true });
}

const version = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' }).stdout.trim();
console.log(`${version}; Node ${process.version}; ${rounds} rounds after ${warmup} of warm-up`);
console.log('');
// With 20 rounds a p95 would be the slowest round: the table gives the median and the slowest.
console.log('| corpus | first paint of `/`, floor p50 / max | first paint of `/`, Sextant p50 / max | results drawn | draw p50 / max |');
console.log('| --- | --- | --- | --- | --- |');
for (const row of rows) {
  console.log(
    `| ${row.root} (${JSON.stringify(row.query)}) | ${ms(quantile(row.floor, 0.5))} / ${ms(Math.max(...row.floor))} | ` +
      `${ms(quantile(row.page, 0.5))} / ${ms(Math.max(...row.page))} | ${row.results} | ` +
      `${ms(quantile(row.drawn, 0.5))} / ${ms(Math.max(...row.drawn))} |`,
  );
}
