import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VERSION } from '../../src/version.js';
import { ROOT, runCli } from '../helpers/process.js';
import { schemaProblems } from '../helpers/schema.js';

test('--version prints the package version, which src/version.ts matches', async () => {
  const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { version: string };
  assert.is(VERSION, pkg.version);
  const { code, stdout } = await runCli(['--version']);
  assert.is(code, 0);
  assert.is(stdout, `${pkg.version}\n`);
  // `-v` alone takes the same short way (no parser built); with other arguments yargs reads them.
  assert.equal(await runCli(['-v']), { code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  const withMore = await runCli(['--version', '--log-level', 'debug']);
  assert.equal([withMore.code, withMore.stdout], [0, `${pkg.version}\n`]);
});

test('--help lists the commands and the serve options', async () => {
  const top = await runCli(['--help']);
  assert.is(top.code, 0);
  for (const word of ['sextant serve', 'sextant replay <file>', '--log-level']) assert.match(top.stdout, word);
  const serve = await runCli(['serve', '--help']);
  assert.is(serve.code, 0);
  for (const word of ['--transport', '--log-level', '--record', '--profile']) assert.match(serve.stdout, word);
});

test('an unknown transport exits 2 with a message that lists the valid ones', async () => {
  const { code, stdout, stderr } = await runCli(['serve', '--transport', 'carrier-pigeon']);
  assert.is(code, 2);
  assert.is(stdout, '', 'nothing on stdout: it belongs to MCP');
  assert.match(stderr, 'carrier-pigeon');
  assert.match(stderr, 'Choices: "stdio"');
});

test('an unknown flag or command exits 2', async () => {
  assert.is((await runCli(['serve', '--no-such-flag'])).code, 2);
  assert.is((await runCli(['frobnicate'])).code, 2);
});

test('--log-level silent keeps stderr quiet; debug says more', async () => {
  const input = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`;
  const quiet = await runCli(['serve', '--log-level', 'silent'], input);
  assert.is(quiet.code, 0);
  assert.is(quiet.stderr, '');
  assert.equal(JSON.parse(quiet.stdout), { jsonrpc: '2.0', id: 1, result: {} });
  assert.equal(schemaProblems([JSON.parse(input)], [JSON.parse(quiet.stdout)]), []);
  const chatty = await runCli(['serve', '--log-level', 'debug'], `${input}{"jsonrpc":"2.0","method":"notifications/unknown"}\n`);
  assert.match(chatty.stderr, 'Ignored notification "notifications/unknown"');
});

test('replay of a missing file exits 2 with a clear message', async () => {
  const { code, stderr } = await runCli(['replay', 'no/such/file.jsonl']);
  assert.is(code, 2);
  assert.match(stderr, 'no/such/file.jsonl');
});

test.run();
