/**
 * Reliability: indexed files replaced behind the server's back (a FIFO, a link to `/dev/zero`, a
 * link out of the workspace). Every tool answers, `ping` is answered throughout, and nothing from
 * outside the workspace is served.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli, stopAll } from '../../helpers/process.js';
import { projectTree } from '../../helpers/projects.js';
import { stdioRpc } from '../../helpers/stdio-rpc.js';

test.after.each(() => stopAll());

const goFile = (name: string): string =>
  `package p\n\n// ${name} does its part.\nfunc ${name}() int {\n\treturn 1\n}\n\nfunc use${name}() int {\n\treturn ${name}()\n}\n`;

test('files replaced by a FIFO, a link to /dev/zero and a link out: every tool answers, nothing outside is read', async () => {
  const root = projectTree({ 'alpha.go': goFile('Alpha'), 'beta.go': goFile('Beta'), 'gamma.go': goFile('Gamma'), 'keep.go': goFile('Kept') });
  const outside = projectTree({ 'gamma.go': goFile('Gamma').replace('does its part', 'outside_secret') });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const indexed = await runCli(['index', root], '', { SEXTANT_HOME: home });
  assert.is(indexed.code, 0, indexed.stderr);
  rmSync(join(root, 'alpha.go'));
  execFileSync('mkfifo', [join(root, 'alpha.go')]);
  rmSync(join(root, 'beta.go'));
  symlinkSync('/dev/zero', join(root, 'beta.go'));
  rmSync(join(root, 'gamma.go'));
  symlinkSync(join(outside, 'gamma.go'), join(root, 'gamma.go'));
  const rpc = await stdioRpc({ SEXTANT_HOME: home, SEXTANT_PROJECT: root }, ['--no-watch']);
  const calls: Array<[string, Record<string, unknown>]> = [
    ['get_code_context', { query: 'Alpha' }],
    ['get_code_context', { query: 'Beta does its part' }],
    ['search_code', { query: 'Alpha' }],
    ['search_code', { query: 'Beta', context: 2 }],
    ['search_code', { query: 'Gamma', context: 2 }],
    ['search_code', { query: 'func [A-Z]\\w+', regex: true }],
    ['locate_symbol', { name: 'Beta' }],
    ['find_related_symbols', { name: 'Alpha' }],
    ['find_related_symbols', { name: 'Gamma' }],
    ['get_file_outline', { path: 'beta.go' }],
  ];
  for (const [name, args] of calls) {
    const answer = rpc.tool(name, args, 20_000);
    // Asked while the call runs: a read blocked on the main thread would leave it unanswered.
    assert.equal((await rpc.request('ping', {}, 20_000)).result, {}, `ping during ${name}`);
    const result = await answer;
    const text = result.content.map((item) => item.text).join('\n');
    assert.not.match(text, /outside_secret/, `${name} ${JSON.stringify(args)} served the file outside`);
    assert.not.match(JSON.stringify(result.structuredContent ?? {}), /outside_secret/);
    assert.ok(text.length < 60_000, `${name}: a bounded answer`);
  }
  const search = await rpc.tool('search_code', { query: 'func Kept' });
  assert.equal(
    (search.structuredContent!.results as Array<{ path: string }>).map((item) => item.path),
    ['keep.go'],
    'the rest is still served',
  );
  // The CLI's own search reads the same way.
  const cli = await runCli(['search', 'Beta', root], '', { SEXTANT_HOME: home });
  assert.is(cli.code, 1, `no match, as grep says it: ${cli.stderr}`);
  assert.is(cli.stdout, '');
  const cliGamma = await runCli(['search', 'Gamma', root, '--context', '2'], '', { SEXTANT_HOME: home });
  assert.not.match(cliGamma.stdout, /outside_secret/);
  await rpc.close();
});

test('FIFOs where the walk reads its rules (.gitignore, .sextantignore) do not block indexing or a sync', async () => {
  const { execFile } = await import('node:child_process');
  const { BIN } = await import('../../helpers/process.js');
  const root = projectTree({ 'a.go': goFile('Alpha'), 'sub/b.go': goFile('Beta') });
  execFileSync('mkfifo', [join(root, '.sextantignore')]);
  execFileSync('mkfifo', [join(root, 'sub/.gitignore')]);
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  // Bounded: a walk blocked on a FIFO would never end; it fails the test instead.
  const run = (args: string[]) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, [BIN, ...args], { env: { ...process.env, SEXTANT_HOME: home }, timeout: 60_000 }, (error, _stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
      );
    });
  const indexed = await run(['index', root]);
  assert.is(indexed.code, 0, indexed.stderr);
  const found = await run(['search', 'func Beta', root]);
  assert.is(found.code, 0, found.stderr);
  assert.is((await run(['sync', root])).code, 0);
});

test.run();
